"""Error messages quote at most about 80 characters of the input (fuzz finding: they echoed
100,000)."""

import pytest

from tdadp.utils._params import Interval, check_param
from tdadp.utils._validation import (
    check_epsilon,
    check_epsilon_array,
    check_positive_int,
    check_probability,
)

HUGE = "x" * 100_000


@pytest.mark.parametrize("call, args", [
    (check_param, (HUGE, [Interval("real", 0, 1)], "p")),
    (check_param, (list(range(100_000)), [None], "nodes")),
    (check_epsilon, (HUGE,)),
    (check_epsilon_array, ([-1.0] * 100_000,)),
    (check_probability, (HUGE, "p")),
    (check_positive_int, (HUGE, "n")),
    (check_positive_int, (-(10**5000), "n")),
])
def test_messages_quote_at_most_about_80_characters(call, args):
    with pytest.raises(ValueError) as info:
        call(*args)
    text = str(info.value)
    assert len(text) < 250, text[:300]
    assert "got" in text
