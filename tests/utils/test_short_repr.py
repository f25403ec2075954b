"""Quoted input in error messages is capped (fuzz finding: messages echoed 100k characters)."""

import numpy as np

from tdadp.utils._params import short_repr

HUGE = "x" * 100_000


def test_short_repr_caps_strings_and_says_how_long():
    assert short_repr("Sex") == "'Sex'"
    assert short_repr(HUGE) == repr("x" * 80) + "... (100,000 characters)"
    assert short_repr(b"y" * 200, limit=3) == "b'yyy'... (200 bytes)"


def test_short_repr_caps_containers_arrays_and_huge_ints():
    assert short_repr([1, 2]) == "[1, 2]"
    assert short_repr(list(range(10**6))) == "[0, 1, 2, 3, 4, 5, ...] (1,000,000 items)"
    assert short_repr(dict.fromkeys(range(50), 0)).endswith("(50 items)")
    text = short_repr(np.zeros((2000, 2000)))
    assert "\n" not in text and len(text) <= 83
    assert short_repr(10**5000) == f"an int of {(10**5000).bit_length():,} bits"
    assert len(short_repr([[HUGE] * 3] * 1000)) < 120
