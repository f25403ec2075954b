"""name_index: node names as one pandas label each, never a MultiIndex."""

import pandas as pd
import pytest

from tdadp.utils._output import name_index


@pytest.mark.parametrize("names", [
    [(0, 1), ("a",), (2, 3, 4)],
    [(0, 1), ("a", "b")],
    [(0, 1)],
    ["a", "b"],
    [3, 1, 2],
    [("a", 1), "b", 2],
])
def test_names_come_back_as_they_were(names):
    index = name_index(names)
    assert not isinstance(index, pd.MultiIndex)
    assert list(index) == names
