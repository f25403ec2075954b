"""PrivacyGuarantee.check_consistent: every guarantee a graph release carries is re-derived
from its mechanism and epsilon; an edited field, or a mechanism whose numbers cannot be
re-derived, is refused with a message saying what disagrees."""

import json
import math

import numpy as np
import pytest

from tdadp import EdgeFlip, LaplaceFlip
from tdadp.dp import PrivacyGuarantee, compose
from tdadp.release import LaplaceEdgeCount

# Small and large budgets, the rate rounded up to the grid (from eps = 36.7), the ideal rate
# underflowing (EdgeFlip from eps = 745, LaplaceFlip from 1490), no privacy.
EPSILONS = [0.0, *np.logspace(-3, 3, 25).tolist(), 36.7, 744.0, 745.0, 800.0, 1489.0,
            1490.0, 1500.0, 1e300, math.inf]


def _edited(g, **changes):
    return PrivacyGuarantee.from_dict({**g.to_dict(), **changes})


@pytest.mark.parametrize("mechanism", [EdgeFlip, LaplaceFlip])
def test_every_randomized_response_guarantee_is_consistent(mechanism):
    for eps in EPSILONS:
        g = mechanism(eps).fit().guarantee_
        assert g.check_consistent() is g
        # as read back from a file
        back = PrivacyGuarantee.from_dict(json.loads(json.dumps(g.to_dict())))
        assert back.check_consistent() == g


def test_compositions_as_compose_builds_them_are_consistent():
    a, b = EdgeFlip(0.1).fit().guarantee_, EdgeFlip(0.2).fit().guarantee_
    c, d = LaplaceFlip(0.3).fit().guarantee_, EdgeFlip(math.inf).fit().guarantee_
    nested = compose([a, compose([b, c])])  # 0.1 + (0.2 + 0.3): not the flat sum's rounding
    assert nested.epsilon != a.epsilon + b.epsilon + c.epsilon
    for g in (compose([a]), compose([a, c]), nested, compose([compose([a, b]), c, d]),
              compose([a] * 1000)):
        assert g.check_consistent() is g


@pytest.mark.parametrize("changes, message", [
    ({"epsilon": 4.0}, "flip_probability is 0.119.*EdgeFlip at epsilon=4.0 flips at 0.0179"),
    ({"flip_probability": 0.2}, "flip_probability is 0.2, EdgeFlip at epsilon=2.0 flips at"),
    ({"effective_epsilon": 1.5}, "effective_epsilon is 1.5, .* states effective_epsilon 1.99"),
    ({"mechanism": "LaplaceFlip"}, "LaplaceFlip at epsilon=2.0 flips at 0.18"),
    ({"unit": "node"}, "unit is 'node', EdgeFlip at epsilon=2.0 states unit 'edge'"),
    ({"local": False}, "local is False, .* states local True"),
    ({"dyad_independent": False}, "dyad_independent is False"),
    ({"sensitivity": 1.0}, "sensitivity is 1.0, .* states sensitivity None"),
    ({"noise_scale": 1.0}, "noise_scale is 1.0"),
    ({"delta": 1e-9}, "delta is 1e-09"),
    ({"restriction": "trees"}, "restriction is 'trees'"),
    ({"definition": "Pufferfish privacy"}, "definition is 'Pufferfish privacy'"),
    ({"components": [EdgeFlip(1.0).fit().guarantee_.to_dict()]}, "it has 1 components"),
    ({"mechanism": "edgeflip"}, "mechanism 'edgeflip' is not one whose guarantee can be"),
])
def test_an_edited_randomized_response_guarantee_is_refused(changes, message):
    g = _edited(EdgeFlip(2.0).fit().guarantee_, **changes)
    with pytest.raises(ValueError, match="is not consistent: .*" + message):
        g.check_consistent()


def test_an_edited_composition_is_refused():
    a, b = EdgeFlip(1.0).fit().guarantee_, LaplaceFlip(2.0).fit().guarantee_
    g = compose([a, b])
    for changes, message in [
        ({"epsilon": 2.9}, "epsilon is 2.9, its components' total is 3.0"),
        ({"effective_epsilon": 0.5}, "effective_epsilon is 0.5, its components' total"),
        ({"effective_epsilon": None}, "effective_epsilon is None"),
        ({"delta": 0.1}, "delta is 0.1, its components' total is 0.0"),
        ({"local": False}, "local is False, its components' is True"),
        ({"flip_probability": 0.1}, "flip_probability is 0.1, a composition states none"),
        ({"mechanism": "composition of 3 releases"}, "names a composition of 3 releases but"),
        ({"components": [a.to_dict(), _edited(b, epsilon=3.0).to_dict()]},
         "component 1: flip_probability is .*LaplaceFlip at epsilon=3.0 flips at"),
        ({"unit": "node"}, "components do not all share its unit"),
        ({"components": [], "mechanism": "composition of 0 releases"}, "has no components"),
    ]:
        with pytest.raises(ValueError, match="is not consistent: .*" + message):
            _edited(g, **changes).check_consistent()


def test_a_guarantee_that_cannot_be_re_derived_is_refused():
    count = LaplaceEdgeCount(1.0).fit().guarantee_
    for g in (count, compose([EdgeFlip(1.0), count]),
              PrivacyGuarantee("EdgeFlip2", 1.0, flip_probability=0.25)):
        with pytest.raises(ValueError, match="is not one whose guarantee can be re-derived "
                                             "\\(EdgeFlip, LaplaceFlip or a composition"):
            g.check_consistent()


def test_a_long_message_shows_the_first_problems_and_counts_them():
    bad = _edited(EdgeFlip(1.0).fit().guarantee_, flip_probability=0.1).to_dict()
    g = PrivacyGuarantee.from_dict({"mechanism": "composition of 20 releases", "epsilon": 20.0,
                                    "effective_epsilon": 20.0, "local": True,
                                    "components": [bad] * 20})
    with pytest.raises(ValueError, match="\\(20 problems\\)") as info:
        g.check_consistent()
    assert str(info.value).count("flip_probability is 0.1") == 5
    with pytest.raises(ValueError, match="'Q{40}'\\.\\.\\. \\(1,000 characters\\) is not"):
        PrivacyGuarantee("Q" * 1000, 1.0).check_consistent()
