"""The dilation-invariant bottleneck distance against a brute-force oracle."""

import itertools

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching

from tdadp.topology import (
    DilationInvariantResult,
    PairwiseDistance,
    PersistenceDiagram,
    bottleneck_distance,
    dilation_invariant_bottleneck,
)


def brute_bottleneck(P, Q):
    """W_inf of two lists of finite points: the smallest cost threshold at which the
    augmented bipartite graph (each side with diagonal copies of the other) has a perfect
    matching. Independent of hera and of tdadp's bottleneck code."""
    n, m = len(P), len(Q)
    N = n + m
    if N == 0:
        return 0.0
    C = np.full((N, N), np.inf)
    for i, (x, y) in enumerate(P):
        for j, (b, d) in enumerate(Q):
            C[i, j] = max(abs(x - b), abs(y - d))
        C[i, m + i] = (y - x) / 2
    for j, (b, d) in enumerate(Q):
        C[n + j, j] = (d - b) / 2
    C[n:, m:] = 0.0
    for t in np.unique(C[np.isfinite(C)]):
        G = csr_matrix((t >= C).astype(np.int8))
        if (maximum_bipartite_matching(G, perm_type="column") >= 0).all():
            return float(t)
    raise AssertionError("unreachable: all-diagonal matching exists")


def oracle(P, Q):
    """min over c >= 0 of W_inf(P, c Q) by brute force: f is piecewise linear, its pieces
    are the lines of the costs, so its minimum is at c = 0 or where two of them cross."""
    lines = [((y - x) / 2, 0.0) for x, y in P] + [(0.0, (d - b) / 2) for b, d in Q]
    for (x, y), (b, d) in itertools.product(P, Q):
        lines += [(x, -b), (-x, b), (y, -d), (-y, d)]
    scales = {0.0}
    for (a1, b1), (a2, b2) in itertools.combinations(lines, 2):
        if b1 != b2 and (a2 - a1) / (b1 - b2) >= 0:
            scales.add((a2 - a1) / (b1 - b2))
    return min(brute_bottleneck(P, [(c * b, c * d) for b, d in Q]) for c in scales)


def _diagram(rng, n, rounded):
    b = rng.uniform(-1.0, 2.0, n)
    length = rng.uniform(0.05, 2.0, n)
    if rounded:  # ties and coincident lines
        b, length = np.round(b, 1), np.round(length, 1) + 0.1
    return np.column_stack([b, b + length])


@pytest.mark.parametrize("seed", range(8))
def test_exact_against_the_brute_force_oracle(seed):
    rng = np.random.default_rng(seed)
    for _ in range(10):
        P = _diagram(rng, int(rng.integers(0, 5)), rounded=seed % 3 == 0)
        Q = _diagram(rng, int(rng.integers(0, 5)), rounded=seed % 3 == 0)
        res = dilation_invariant_bottleneck(P, Q)
        assert isinstance(res, DilationInvariantResult) and res.method == "exact"
        expected = oracle([tuple(p) for p in P], [tuple(q) for q in Q])
        assert res.distance == pytest.approx(expected, rel=1e-9, abs=1e-12)
        assert res.lower == res.upper == res.distance
        assert res.scale >= 0
        # the returned scale gives the returned distance
        assert brute_bottleneck([tuple(p) for p in P],
                                [tuple(res.scale * q) for q in Q]) == pytest.approx(
            res.distance, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_certified_bounds_contain_the_distance(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(10):
        P = _diagram(rng, int(rng.integers(1, 5)), rounded=False)
        Q = _diagram(rng, int(rng.integers(1, 5)), rounded=False)
        tol = 1e-4
        res = dilation_invariant_bottleneck(P, Q, method="certified", tol=tol)
        expected = oracle([tuple(p) for p in P], [tuple(q) for q in Q])
        assert res.lower - 1e-12 <= expected <= res.upper + 1e-12
        assert res.upper - res.lower <= tol + 1e-12
        assert res.distance == res.upper == pytest.approx(
            bottleneck_distance(P, res.scale * Q), rel=1e-12)


@pytest.mark.parametrize("c", [0.05, 0.37, 1.0, 2.5, 40.0])
def test_a_known_dilation_is_recovered_exactly(c):
    rng = np.random.default_rng(7)
    D = _diagram(rng, 30, rounded=False)
    for method in ("exact", "certified"):
        d, scale = dilation_invariant_bottleneck(D, D / c, method=method)
        assert d <= 1e-12 * np.abs(D).max()
        assert scale == pytest.approx(c, rel=1e-9)


def test_one_scale_for_every_dimension_and_infinite_points():
    D = PersistenceDiagram({0: [[0.0, np.inf], [1.0, np.inf], [0.0, 1.0], [0.0, 0.3]],
                            1: [[0.5, 2.0], [0.7, 0.8]]})
    half = PersistenceDiagram({k: np.asarray(v) / 2 for k, v in D.items()})
    assert tuple(dilation_invariant_bottleneck(D, half)) == (0.0, 2.0)
    assert tuple(dilation_invariant_bottleneck(half, D)) == (0.0, 0.5)
    # H0's scale and H1's disagree: one common scale, the largest cost over dimensions
    E = PersistenceDiagram({0: [[0.0, np.inf], [0.0, 2.0]], 1: [[1.5, 6.0]]})
    F = PersistenceDiagram({0: [[0.0, np.inf], [0.0, 1.0]], 1: [[0.5, 2.0]]})
    d, scale = dilation_invariant_bottleneck(F, E)
    per_dim = [dilation_invariant_bottleneck(F, E, homology_dimension=k)[0] for k in (0, 1)]
    assert per_dim == [0.0, 0.0] and d > 0
    scaled = PersistenceDiagram({k: scale * np.asarray(v) for k, v in E.items()})
    assert d == pytest.approx(bottleneck_distance(F, scaled), rel=1e-12)
    # different numbers of essential classes: no scale helps
    G = PersistenceDiagram({0: [[0.0, 1.0]], 1: [[0.5, 2.0]]})
    assert dilation_invariant_bottleneck(F, G).distance == np.inf


def test_degenerate_diagrams():
    P = np.array([[0.0, 1.0], [0.2, 0.5]])
    empty = np.zeros((0, 2))
    # nothing to scale: every point of P goes to the diagonal
    assert tuple(dilation_invariant_bottleneck(P, empty)) == (0.5, 1.0)
    # everything of Q is best collapsed onto the diagonal: the infimum is at scale 0
    d, scale = dilation_invariant_bottleneck(empty, P)
    assert d == 0.0 and scale == 0.0
    assert tuple(dilation_invariant_bottleneck(empty, empty)) == (0.0, 1.0)


def test_homogeneous_in_both_diagrams_together():
    rng = np.random.default_rng(3)
    P, Q = _diagram(rng, 6, False), _diagram(rng, 5, False)
    d, scale = dilation_invariant_bottleneck(P, Q)
    for c in (1e-200, 1e-3, 2.0**40, 1e200):
        dc, sc = dilation_invariant_bottleneck(c * P, c * Q)
        assert dc == pytest.approx(c * d, rel=1e-9) and sc == pytest.approx(scale, rel=1e-9)


def test_pairwise_metric_is_symmetric_and_zero_on_dilations():
    rng = np.random.default_rng(4)
    D = PersistenceDiagram({1: _diagram(rng, 8, False)})
    diagrams = [D, PersistenceDiagram({1: 3.0 * D[1]}),
                PersistenceDiagram({1: _diagram(rng, 8, False)})]
    est = PairwiseDistance(metric="dilation_invariant_bottleneck", homology_dimensions=1)
    M = est.fit_transform(diagrams)
    np.testing.assert_allclose(M, M.T)
    assert M[0, 1] <= 1e-12 and M[0, 2] > 0
    T = est.transform(diagrams)
    np.testing.assert_allclose(T, M, rtol=1e-12, atol=1e-15)
    expected = max(dilation_invariant_bottleneck(diagrams[0], diagrams[2])[0],
                   dilation_invariant_bottleneck(diagrams[2], diagrams[0])[0])
    assert M[0, 2] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("kwargs, name", [
    ({"tol": -1.0}, "tol"), ({"tol": np.nan}, "tol"), ({"method": "fast"}, "method"),
    ({"max_evaluations": 0}, "max_evaluations"), ({"homology_dimension": 1.0},
                                                  "homology_dimension"),
])
def test_bad_arguments_are_refused(kwargs, name):
    with pytest.raises(ValueError, match=f"{name} must be"):
        dilation_invariant_bottleneck(np.array([[0.0, 1.0]]), np.array([[0.0, 2.0]]), **kwargs)
