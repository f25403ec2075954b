"""Distances at the edges of float64: huge and tiny coordinates, bad arguments, NaN.

Every distance is positively homogeneous and is computed on the diagrams scaled by an exact
power of two, so coordinates near 1e200 (or 1e-300) give the exact answer: compared here with
a direct computation in exact rational arithmetic, and with the same diagrams at scale 1.
"""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from tdadp.topology import (
    PersistenceDiagram,
    bottleneck_distance,
    dilation_invariant_bottleneck,
    shift_invariant_bottleneck,
    wasserstein_distance,
)

DISTANCES = [bottleneck_distance, wasserstein_distance, shift_invariant_bottleneck,
             dilation_invariant_bottleneck]
ULPS = 4 * np.finfo(float).eps  # gudhi rounds more than once: exact to the last bits


def exact_bottleneck(P, Q):
    """Bottleneck distance by brute force over all matchings, in exact rational arithmetic."""
    P = [(Fraction(b), Fraction(d)) for b, d in P]
    Q = [(Fraction(b), Fraction(d)) for b, d in Q]
    # Each side gets a diagonal copy of the other side's points; diagonal-diagonal is free.
    left = [("p", p) for p in P] + [("diag", q) for q in Q]
    right = [("q", q) for q in Q] + [("diag", p) for p in P]

    def cost(a, b):
        (ka, x), (kb, y) = a, b
        if ka == "p" and kb == "q":
            return max(abs(x[0] - y[0]), abs(x[1] - y[1]))
        if ka == "p":
            return (x[1] - x[0]) / 2 if y is x else None
        if kb == "q":
            return (y[1] - y[0]) / 2 if x is y else None
        return Fraction(0)

    best = None
    for perm in itertools.permutations(range(len(right))):
        costs = [cost(left[i], right[j]) for i, j in enumerate(perm)]
        if any(c is None for c in costs):
            continue
        value = max(costs, default=Fraction(0))
        best = value if best is None else min(best, value)
    return best


def random_pair(rng, exponent):
    def one(n):
        b = rng.random(n)
        return np.c_[b, b + rng.random(n)] * 10.0 ** exponent

    return one(int(rng.integers(1, 4))), one(int(rng.integers(0, 3)))


@pytest.mark.parametrize("exponent", [-300, -150, 0, 150, 200, 300, 307])
def test_bottleneck_is_exact_at_any_scale(exponent):
    rng = np.random.default_rng(exponent + 1000)
    for _ in range(5):
        P, Q = random_pair(rng, exponent)
        # gudhi's arithmetic (e.g. the distance to the diagonal through the projection onto
        # it) rounds more than once: "exact" is to the last bits of the mantissa, as at scale 1
        assert bottleneck_distance(P, Q) == pytest.approx(float(exact_bottleneck(P, Q)),
                                                          rel=ULPS)


def test_the_largest_doubles_neither_overflow_nor_hang():
    big = np.finfo(float).max
    P, Q = np.array([[0.0, big]]), np.array([[-big, big]])
    # the half-persistence of Q overflows naively
    assert bottleneck_distance(P, Q) == pytest.approx(big, rel=ULPS)
    assert bottleneck_distance([[-big, big]], np.zeros((0, 2))) == big
    assert wasserstein_distance(P, Q) == pytest.approx(big, rel=1e-12)
    d, s = shift_invariant_bottleneck(P, Q)
    assert np.isfinite(d) and d == bottleneck_distance(P + s, Q)


@pytest.mark.parametrize("k", [-1000, -700, 600, 1000])
def test_exact_homogeneity_under_powers_of_two(k):
    rng = np.random.default_rng(abs(k))
    b = rng.random(6)
    P = np.c_[b, b + rng.random(6)]
    b = rng.random(5)
    Q = np.c_[b, b + rng.random(5)]
    c = 2.0 ** k
    assert bottleneck_distance(c * P, c * Q) == c * bottleneck_distance(P, Q)
    for order in (1, 2):
        assert wasserstein_distance(c * P, c * Q, order=order) == c * wasserstein_distance(
            P, Q, order=order)
    d, s = shift_invariant_bottleneck(P, Q)
    dc, sc = shift_invariant_bottleneck(c * P, c * Q)
    assert (dc, sc) == (c * d, c * s)


def test_wasserstein_powers_do_not_overflow_near_1e200():
    P = np.array([[0.0, 2e200], [0.0, 4e200]])
    empty = np.zeros((0, 2))
    # every point goes to the diagonal: sqrt(1e400 + 4e400) = sqrt(5) 1e200
    assert wasserstein_distance(P, empty, order=2) == pytest.approx(np.sqrt(5) * 1e200,
                                                                     rel=1e-12)
    assert wasserstein_distance(P, P, order=2) == 0.0
    D = PersistenceDiagram({0: [[0.0, np.inf], [0.0, 3e200]], 1: [[1e200, 2e200]]})
    # each of the three points moves by 1e199: (3 (1e199)^3)^(1/3), within hera's delta
    assert wasserstein_distance(D, D.shift(1e199), order=3) == pytest.approx(
        3 ** (1 / 3) * 1e199, rel=0.02)


def test_tiny_coordinates_are_not_snapped_to_zero():
    # below the absolute zero threshold (1e-290) applied to gudhi's value at scale 1
    assert bottleneck_distance([[0.0, 2e-300]], [[0.0, 1e-300]]) == pytest.approx(1e-300,
                                                                                  rel=ULPS)
    assert bottleneck_distance([[0.0, 2e-300]], [[0.0, 2e-300]]) == 0.0


@pytest.mark.parametrize("e", [-1, -1e-300, np.nan, np.inf, "a", 1j, True])
def test_bad_additive_error_is_refused(e):
    P = np.array([[0.0, 2.0]])
    with pytest.raises(ValueError, match="'?e'? must be None or a real number in \\[0, inf\\)"):
        bottleneck_distance(P, P, e=e)
    with pytest.raises(ValueError, match="e must be"):
        shift_invariant_bottleneck(P, P, e=e)


@pytest.mark.parametrize("kwargs, name", [
    ({"order": 0.5}, "order"), ({"order": np.inf}, "order"), ({"order": np.nan}, "order"),
    ({"order": True}, "order"), ({"internal_p": 0.5}, "internal_p"),
    ({"delta": 0}, "delta"), ({"delta": np.nan}, "delta"),
    ({"homology_dimension": -1}, "homology_dimension"),
])
def test_bad_wasserstein_arguments_are_refused(kwargs, name):
    with pytest.raises(ValueError, match=f"{name} must be"):
        wasserstein_distance(np.array([[0.0, 1.0]]), np.array([[0.0, 2.0]]), **kwargs)


@pytest.mark.parametrize("kwargs, name", [
    ({"tol": -1.0}, "tol"), ({"tol": np.nan}, "tol"), ({"method": "fast"}, "method"),
    ({"max_evaluations": 0}, "max_evaluations"), ({"prune": 1}, "prune"),
    ({"homology_dimension": 1.0}, "homology_dimension"),
])
def test_bad_shift_invariant_arguments_are_refused(kwargs, name):
    with pytest.raises(ValueError, match=f"{name} must be"):
        shift_invariant_bottleneck(np.array([[0.0, 1.0]]), np.array([[0.0, 2.0]]), **kwargs)


@pytest.mark.parametrize("distance", DISTANCES)
@pytest.mark.parametrize("point, match", [
    ([np.nan, 1.0], "NaN"), ([0.0, np.nan], "NaN"), ([np.inf, np.inf], "born at \\+inf"),
    ([2.0, 1.0], "dies before it is born"), (["a", 1.0], "not numeric"),
    ([1 + 1j, 2.0], "Complex data not supported"),
])
def test_non_finite_and_malformed_coordinates_are_refused(distance, point, match):
    P = np.array([[0.0, 1.0], point], dtype=object)
    with pytest.raises((ValueError, TypeError), match=match):
        distance(P, np.array([[0.0, 1.0]]))


@pytest.mark.parametrize("distance", DISTANCES)
def test_none_is_no_diagram_and_a_dict_is_one(distance):
    with pytest.raises(TypeError, match="got None"):
        distance(None, np.array([[0.0, 1.0]]))
    # a plain mapping dimension -> points is a diagram (not a bare array of dimension 0)
    d = distance({1: [[0.0, 2.0]]}, {1: [[0.0, 3.0]]}, homology_dimension=1)
    if distance is shift_invariant_bottleneck:  # the shift 0.5 halves the cost
        assert d[0] == pytest.approx(0.5, rel=ULPS) and d[1] == 0.5
    elif distance is dilation_invariant_bottleneck:  # the scale 2/3 matches them
        assert d[0] == 0.0 and d[1] == pytest.approx(2 / 3, rel=ULPS)
    else:
        assert d == pytest.approx(1.0, rel=ULPS)
