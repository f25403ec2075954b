"""PrivacyGuarantee.to_dict / from_dict: exact round trips, bounded parsing of bad data."""

import json
import math

import pytest

from tdadp import EdgeFlip
from tdadp.dp import PrivacyGuarantee, compose
from tdadp.dp._guarantee import MAX_COMPONENTS, MAX_DEPTH


def test_round_trip_through_json():
    for g in (EdgeFlip(1.0).fit().guarantee_,
              compose([EdgeFlip(1.0), EdgeFlip(math.inf)]),
              PrivacyGuarantee("m", 0.5, delta=1e-6, sensitivity=2.0, noise_scale=4.0)):
        assert PrivacyGuarantee.from_dict(json.loads(json.dumps(g.to_dict()))) == g


def _chain(depth):
    d = {"mechanism": "m", "epsilon": 1.0}
    for _ in range(depth - 1):
        d = {"mechanism": "m", "epsilon": 1.0, "components": [d]}
    return d


def test_nesting_is_bounded_without_recursing():
    assert PrivacyGuarantee.from_dict(_chain(MAX_DEPTH)).epsilon == 1.0
    for depth in (MAX_DEPTH + 1, 100_000):
        with pytest.raises(ValueError, match=f"nested more than {MAX_DEPTH} levels"):
            PrivacyGuarantee.from_dict(_chain(depth))


def test_size_is_bounded():
    leaf = {"mechanism": "m", "epsilon": 0.0}
    wide = {"mechanism": "m", "epsilon": 0.0, "components": [leaf] * MAX_COMPONENTS}
    with pytest.raises(ValueError, match="more than 100,000 guarantees"):
        PrivacyGuarantee.from_dict(wide)


@pytest.mark.parametrize("data, message", [
    ([1], "expects a dict"),
    ({"mechanism": "m", "epsilon": 1.0, "x": 1}, "1 unknown field"),
    ({"mechanism": "m", "epsilon": 1.0, "components": 3}, "components must be a list"),
    ({"mechanism": "m", "epsilon": 1.0, "components": [None]}, "expects a dict"),
    ({"mechanism": "m"}, "epsilon"),
    ({"mechanism": "m", "epsilon": -1.0}, "epsilon"),
    ({"mechanism": 3, "epsilon": 1.0}, "mechanism"),
])
def test_bad_dicts_are_refused_with_a_value_error(data, message):
    with pytest.raises(ValueError, match=message):
        PrivacyGuarantee.from_dict(data)


def test_components_must_be_guarantees():
    with pytest.raises(TypeError, match="1 of 2 are not"):
        PrivacyGuarantee("m", 1.0, components=(PrivacyGuarantee("a", 1.0), "b"))
