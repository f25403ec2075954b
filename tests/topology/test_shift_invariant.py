import numpy as np
import pytest
from gudhi import hera
from hypothesis import given, settings
from hypothesis import strategies as st

from tdadp.topology import (
    PersistenceDiagram,
    bottleneck_distance,
    log_diagram,
    persistence_diagram,
    shift_invariant_bottleneck,
)


def random_diagram(rng, n, scale=3.0):
    b = rng.random(n) * scale
    return np.c_[b, b + rng.exponential(0.5, n)]


def brute_force_candidates(X, Y):
    """Every breakpoint of f, enumerated naively (independent of the library's pruning)."""
    aX, aY = (X[:, 1] - X[:, 0]) / 2, (Y[:, 1] - Y[:, 0]) / 2
    mX, mY = X.sum(1) / 2, Y.sum(1) / 2
    m = (mY[None, :] - mX[:, None]).ravel()
    h = np.abs(aY[None, :] - aX[:, None]).ravel()
    consts = np.r_[aX, aY]
    r, phi = m - h, m + h
    S = np.concatenate([m, ((r[:, None] + phi[None, :]) / 2).ravel(),
                        (r[:, None] + consts).ravel(), (phi[:, None] - consts).ravel(), [0.0]])
    return np.unique(S)


def f(X, Y, s):
    # hera's exact algorithm, independent of the gudhi code path the library uses
    return hera.bottleneck_distance(X + s, Y, 0.0)


# Each example costs ~0.3 s (a few thousand hera calls): 40 by default, 120 with the slow tests.
@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**31), st.booleans())
def test_exact_matches_brute_force(n1, n2, seed, related):
    _check_exact_against_brute_force(n1, n2, seed, related)


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**31), st.booleans())
def test_exact_matches_brute_force_on_more_examples(n1, n2, seed, related):
    _check_exact_against_brute_force(n1, n2, seed, related)


def _check_exact_against_brute_force(n1, n2, seed, related):
    rng = np.random.default_rng(seed)
    X = random_diagram(rng, n1)
    Y = random_diagram(rng, n2)
    if related:  # a noisy shifted copy, where the optimum is a sharp V
        Y = X[: n2] + rng.uniform(-2, 2) + rng.normal(0, 0.05, X[:n2].shape)
        Y[:, 1] = np.maximum(Y[:, 1], Y[:, 0] + 1e-3)
    res = shift_invariant_bottleneck(X, Y, method="exact")
    S = brute_force_candidates(X, Y)
    exact = min(f(X, Y, s) for s in S)
    assert res.distance == pytest.approx(exact, abs=1e-9)
    # the reported shift realises the distance
    assert bottleneck_distance(X + res.shift, Y) == res.distance
    # a dense scan never beats it, and gets within half its step
    grid = np.linspace(S.min() - 1, S.max() + 1, 801)
    scan = min(f(X, Y, s) for s in grid)
    step = grid[1] - grid[0]
    assert res.distance <= scan + 1e-9
    assert res.distance >= scan - step / 2 - 1e-9
    # the certified interval contains the exact value
    for tol in (1e-1, 1e-3):
        cert = shift_invariant_bottleneck(X, Y, method="certified", tol=tol)
        assert cert.lower - 1e-12 <= exact <= cert.upper + 1e-12
        assert cert.upper - cert.lower <= tol + 1e-12
        assert cert.distance == cert.upper
        assert bottleneck_distance(X + cert.shift, Y) == cert.distance


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 15), st.integers(0, 15), st.integers(0, 2**31))
def test_f_is_one_lipschitz(n1, n2, seed):
    rng = np.random.default_rng(seed)
    X, Y = random_diagram(rng, n1), random_diagram(rng, n2)
    s = np.sort(rng.uniform(-5, 5, 40))
    vals = np.array([bottleneck_distance(X + t, Y) for t in s])
    assert np.all(np.abs(np.diff(vals)) <= np.diff(s) + 1e-12)


def test_certified_on_larger_diagrams_brackets_exact():
    rng = np.random.default_rng(7)
    X = random_diagram(rng, 300, scale=10)
    Y = X + 0.4 + rng.normal(0, 0.05, X.shape)
    Y[:, 1] = np.maximum(Y[:, 1], Y[:, 0])
    Y = Y[rng.random(300) > 0.1]
    ex = shift_invariant_bottleneck(X, Y, method="exact")
    for tol in (0.05, 1e-4):
        c = shift_invariant_bottleneck(X, Y, method="certified", tol=tol)
        assert c.lower - 1e-12 <= ex.distance <= c.upper + 1e-12  # rounding of the shift
        assert c.upper - c.lower <= tol
    # the exact answer is no worse than a fine scan around its shift
    grid = ex.shift + np.linspace(-0.2, 0.2, 401)
    assert ex.distance <= min(bottleneck_distance(X + s, Y) for s in grid) + 1e-12


def test_neg_inf_births_closed_form():
    rng = np.random.default_rng(2)
    x, y = np.sort(rng.random(8)), np.sort(rng.random(8))
    X = np.c_[np.full(8, -np.inf), rng.permutation(x)]
    Y = np.c_[np.full(8, -np.inf), y]
    d, s = shift_invariant_bottleneck(X, Y)
    delta = y - x
    assert d == pytest.approx((delta.max() - delta.min()) / 2, abs=1e-15)
    assert s == pytest.approx((delta.max() + delta.min()) / 2, abs=1e-15)
    # mixed with finite points and an essential class: check against a fine scan
    A = np.r_[X, random_diagram(rng, 5), [[0.2, np.inf], [-np.inf, np.inf]]]
    B = np.r_[Y, random_diagram(rng, 4), [[0.9, np.inf], [-np.inf, np.inf]]]
    res = shift_invariant_bottleneck(A, B)
    assert bottleneck_distance(A + res.shift, B) == res.distance
    grid = np.linspace(-4, 4, 8001)
    scan = min(bottleneck_distance(A + t, B) for t in grid)
    assert scan - 1e-3 / 2 - 1e-12 <= res.distance <= scan + 1e-12


def test_degenerate_inputs():
    E = np.zeros((0, 2))
    assert tuple(shift_invariant_bottleneck(E, E)) == (0.0, 0.0)
    assert shift_invariant_bottleneck(E, [[1.0, 3.0]])[0] == 1.0
    assert shift_invariant_bottleneck([[1.0, 3.0], [2.0, 2.0]], E)[0] == 1.0
    X = np.array([[1.0, 3.0], [2.0, 2.5]])
    assert tuple(shift_invariant_bottleneck(X + 0.25, X)) == (0.0, -0.25)
    assert shift_invariant_bottleneck(X, X)[0] == 0.0
    # different numbers of infinite points
    d, _ = shift_invariant_bottleneck(np.r_[X, [[0, np.inf]]], X)
    assert d == np.inf
    with pytest.raises(ValueError):
        shift_invariant_bottleneck(X, X, method="fast")
    with pytest.raises(ValueError):
        shift_invariant_bottleneck(X, X, tol=-1)
    with pytest.raises(ValueError, match="NaN"):
        shift_invariant_bottleneck([[0, np.nan]], X)


def test_one_common_shift_over_dimensions():
    rng = np.random.default_rng(4)
    D = PersistenceDiagram({0: random_diagram(rng, 6), 1: random_diagram(rng, 5)})
    res = shift_invariant_bottleneck(D.shift(1.25), D)
    assert res.distance == pytest.approx(0.0, abs=1e-12)
    assert res.shift == pytest.approx(-1.25)
    E = PersistenceDiagram({0: random_diagram(rng, 6), 1: random_diagram(rng, 5)})
    joint = shift_invariant_bottleneck(D, E)
    assert bottleneck_distance(D.shift(joint.shift), E) == joint.distance
    per_dim = [shift_invariant_bottleneck(D, E, homology_dimension=k)[0] for k in (0, 1)]
    assert joint.distance >= max(per_dim) - 1e-12


@pytest.mark.parametrize("complex", ["alpha", "rips"])
@pytest.mark.parametrize("dim", [0, 1])
def test_scale_invariance_of_log_diagrams(complex, dim):
    rng = np.random.default_rng(11)
    Y = rng.normal(size=(150, 2)) * [1.0, 0.6]
    # float32 rounding inside ripser: relative error ~ 1e-7
    atol = 1e-12 if complex == "alpha" else 1e-6
    for c in (0.37, 4.2):
        DY = log_diagram(persistence_diagram(Y, complex=complex))
        DcY = log_diagram(persistence_diagram(c * Y, complex=complex))
        d, s = shift_invariant_bottleneck(DcY, DY, homology_dimension=dim)
        assert d == pytest.approx(0.0, abs=atol)
        assert s == pytest.approx(-np.log(c), abs=atol)
        d2, s2 = shift_invariant_bottleneck(DY, DcY, homology_dimension=dim)
        assert d2 == pytest.approx(0.0, abs=atol)
        assert s2 == pytest.approx(np.log(c), abs=atol)
        # while the plain bottleneck sees the change of units
        assert bottleneck_distance(DcY, DY, homology_dimension=dim) > 0.3


def test_certified_is_quick_on_tiny_diagrams():
    # On a flat minimum the union-graph certificate bounds an interval by exactly
    # upper - tol, and upper - (upper - tol) can round above tol: the search then split the
    # flat stretch every 2 tol until its 10,000-evaluation budget (seconds on 5 points).
    rng = np.random.default_rng(0)
    for _ in range(20):
        b = rng.random((2, 5))
        d = b + rng.random((2, 5))
        X, Y = np.c_[b[0], d[0]], np.c_[b[1], d[1]]
        res = shift_invariant_bottleneck(X, Y, method="certified")
        tol = 1e-6 * max(np.max(Z[:, 1] - Z[:, 0]) / 2 for Z in (X, Y))
        assert res.n_evaluations < 100
        assert res.upper - res.lower <= tol
        exact = shift_invariant_bottleneck(X, Y, method="exact").distance
        assert res.lower - 1e-12 <= exact <= res.upper + 1e-12


@pytest.mark.parametrize("seed", range(4))
def test_certified_on_pruned_diagrams_brackets_exact(seed):
    # A few persistent points among many short-lived ones: most shifts are evaluated on
    # heavily pruned diagrams, whose slack the bounds must carry.
    rng = np.random.default_rng(seed)
    b = rng.random(200) * 4
    X = np.r_[random_diagram(rng, 6, scale=4), np.c_[b, b + rng.exponential(0.02, 200)]]
    Y = X + rng.uniform(-1, 1) + rng.normal(0, 0.01, X.shape)
    Y[:, 1] = np.maximum(Y[:, 1], Y[:, 0] + 1e-4)
    Y = Y[rng.random(len(Y)) > 0.1]
    ex = shift_invariant_bottleneck(X, Y, method="exact")
    for tol in (1e-1, 1e-3, 1e-6):
        c = shift_invariant_bottleneck(X, Y, method="certified", tol=tol)
        assert c.lower - 1e-12 <= ex.distance <= c.upper + 1e-12
        assert c.upper - c.lower <= tol
        assert bottleneck_distance(X + c.shift, Y) == c.distance
