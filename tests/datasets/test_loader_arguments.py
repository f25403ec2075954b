"""Loader arguments are checked (fuzz finding: largest_component='yes' was read as True)."""

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

from tdadp.datasets import load_polblogs  # noqa: E402


@pytest.mark.parametrize("value", ["yes", "False", 1, 0, None, 0.0, [True]])
def test_largest_component_must_be_a_bool(value):
    with pytest.raises(ValueError, match="'largest_component' parameter of load_polblogs must "
                                         "be a bool"):
        load_polblogs(largest_component=value)


@pytest.mark.slow  # two loads of the largest network
def test_numpy_bools_are_bools():
    assert load_polblogs(largest_component=np.bool_(True)).number_of_nodes() == 1222
    assert load_polblogs(largest_component=np.False_).number_of_nodes() == 1490
