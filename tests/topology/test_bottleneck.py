import gudhi
import numpy as np
import persim
import pytest
from gudhi import hera
from hypothesis import given, settings
from hypothesis import strategies as st

from tdadp.topology import PersistenceDiagram, bottleneck_distance, wasserstein_distance


def random_diagram(rng, n, scale=3.0):
    b = rng.random(n) * scale
    return np.c_[b, b + rng.exponential(0.5, n)]


def matching_cost(X, Y, matching):
    costs = []
    for i, j in matching:
        if i >= 0 and j >= 0:
            with np.errstate(invalid="ignore"):
                d = np.abs(X[i] - Y[j])
            d[np.isnan(d)] = 0.0  # inf - inf
            costs.append(d.max())
        else:
            p = X[i] if i >= 0 else Y[j]
            costs.append((p[1] - p[0]) / 2)
    return max(costs, default=0.0)


def test_agrees_with_gudhi_and_persim():
    rng = np.random.default_rng(0)
    for _ in range(40):
        X = random_diagram(rng, rng.integers(1, 30))
        Y = random_diagram(rng, rng.integers(1, 30))
        d = bottleneck_distance(X, Y)
        assert d == pytest.approx(hera.bottleneck_distance(X, Y, 0.0), abs=1e-12)
        assert d == pytest.approx(persim.bottleneck(X, Y), abs=1e-9)
        assert d == pytest.approx(gudhi.bottleneck_distance(X, Y, 0), abs=1e-12)


def test_gudhi_wrong_value_is_corrected():
    # gudhi 3.13's own bottleneck returns 0.476 (0.460 with e=0) on this pair; the exact
    # value (hera, persim, brute force over all matchings) is 0.2982.
    X = np.array([[1.12231611, 1.48968106], [0.53763567, 1.23427325],
                  [0.61502478, 1.16806812], [0.63131335, 0.75767338]])
    Y = np.array([[0.36891712, 1.48933284], [0.1551877, 0.75164793],
                  [2.55057404, 2.67798595], [0.02668742, 0.04510748]])
    ref = hera.bottleneck_distance(X, Y, 0.0)
    assert ref == pytest.approx(persim.bottleneck(X, Y), abs=1e-12)
    assert bottleneck_distance(X, Y) == pytest.approx(ref, abs=1e-15)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 2**31))
def test_matching_realises_the_distance(n1, n2, seed):
    rng = np.random.default_rng(seed)
    X, Y = random_diagram(rng, n1), random_diagram(rng, n2)
    if n1 and n2 and rng.random() < 0.5:
        X = np.r_[X, [[0.5, np.inf], [-np.inf, 1.0]]]
        Y = np.r_[Y, [[0.7, np.inf], [-np.inf, 1.3]]]
    d, m = bottleneck_distance(X, Y, matching=True)
    # every point used exactly once
    assert sorted(m[m[:, 0] >= 0, 0]) == list(range(len(X)))
    assert sorted(m[m[:, 1] >= 0, 1]) == list(range(len(Y)))
    assert matching_cost(X, Y, m) == pytest.approx(d, abs=1e-12)


def test_regressions():
    rng = np.random.default_rng(3)
    X = random_diagram(rng, 50)
    assert bottleneck_distance(X, X) == 0.0
    assert bottleneck_distance(X, X[::-1].copy()) == 0.0
    assert bottleneck_distance([[1.0, 4.0]], np.zeros((0, 2))) == 1.5
    assert bottleneck_distance(np.zeros((0, 2)), [[1.0, 4.0]]) == 1.5
    assert bottleneck_distance(np.zeros((0, 2)), np.zeros((0, 2))) == 0.0
    # points on the diagonal never count (and do not hang)
    diag = np.c_[np.arange(1000.0), np.arange(1000.0)]
    assert bottleneck_distance(np.r_[X, diag], X) == 0.0
    assert bottleneck_distance(diag, np.zeros((0, 2))) == 0.0
    # infinite points only match infinite points
    A = np.r_[X, [[0.0, np.inf]]]
    B = np.r_[X, [[2.5, np.inf]]]
    assert bottleneck_distance(A, B) == 2.5
    assert bottleneck_distance(A, X) == np.inf
    assert bottleneck_distance(np.r_[A, [[1, np.inf]]], B) == np.inf
    assert bottleneck_distance([[0.0, np.inf]], [[1e9, np.inf]]) == 1e9
    with pytest.raises(ValueError, match="NaN"):
        bottleneck_distance([[0.0, np.nan]], X)


def test_neg_inf_births():
    X = np.array([[-np.inf, 1.0], [-np.inf, 3.0], [0.0, 2.0]])
    Y = np.array([[-np.inf, 3.5], [-np.inf, 0.8], [0.0, 2.0]])
    assert bottleneck_distance(X, Y) == 0.5  # sorted matching: 1->0.8, 3->3.5
    assert bottleneck_distance(X, Y[[0, 2]]) == np.inf  # -inf points cannot go to the diagonal
    Z = np.array([[-np.inf, np.inf]])
    assert bottleneck_distance(np.r_[X, Z], np.r_[Y, Z]) == 0.5
    assert bottleneck_distance(np.r_[X, Z], Y) == np.inf
    d, m = bottleneck_distance(np.r_[X, Z], np.r_[Y, Z], matching=True)
    assert matching_cost(np.r_[X, Z], np.r_[Y, Z], m) == 0.5


def test_multi_dimensional_diagrams():
    D1 = PersistenceDiagram({0: [[0, 1], [0, np.inf]], 1: [[1, 3]]})
    D2 = PersistenceDiagram({0: [[0, 1.2], [0, np.inf]], 1: [[1, 2]], 2: [[0, 0.4]]})
    assert bottleneck_distance(D1, D2, homology_dimension=0) == pytest.approx(0.2)
    assert bottleneck_distance(D1, D2, homology_dimension=1) == 1.0
    assert bottleneck_distance(D1, D2, homology_dimension=2) == pytest.approx(0.2)
    assert bottleneck_distance(D1, D2) == 1.0
    d, m = bottleneck_distance(D1, D2, matching=True)
    assert set(m) == {0, 1, 2}
    with pytest.raises(ValueError):
        bottleneck_distance(D1, D2, homology_dimension=5)


def test_wasserstein():
    rng = np.random.default_rng(5)
    for _ in range(10):
        X, Y = random_diagram(rng, 20), random_diagram(rng, 15)
        ref = hera.wasserstein_distance(X, Y, order=1, internal_p=np.inf, delta=1e-6)
        assert wasserstein_distance(X, Y, delta=1e-6) == pytest.approx(ref, rel=1e-6)
        assert wasserstein_distance(X, Y, order=2, internal_p=2) == pytest.approx(
            hera.wasserstein_distance(X, Y, order=2, internal_p=2), rel=2e-2)
        assert wasserstein_distance(X, Y) >= bottleneck_distance(X, Y) - 1e-12
    X = random_diagram(rng, 30)
    assert wasserstein_distance(X, X[::-1].copy()) == 0.0
    A = np.r_[X, [[-np.inf, 1.0], [-np.inf, 2.0], [0.5, np.inf]]]
    B = np.r_[X, [[-np.inf, 1.5], [-np.inf, 2.5], [1.0, np.inf]]]
    assert wasserstein_distance(A, B) == pytest.approx(1.5)
    assert wasserstein_distance(A, B, order=2) == pytest.approx(np.sqrt(0.75))
    assert wasserstein_distance(A, X) == np.inf
    D1 = PersistenceDiagram({0: [[0, 1]], 1: [[0, 2]]})
    D2 = PersistenceDiagram({0: [], 1: []})
    assert wasserstein_distance(D1, D2, order=2) == pytest.approx(np.sqrt(0.25 + 1.0))
    with pytest.raises(ValueError):
        wasserstein_distance(X, X, order=np.inf)
    with pytest.raises(ValueError):
        wasserstein_distance(X, X, order=0.5)


def layered_diagrams(levels):
    """Two diagrams whose bottleneck decision just below their distance (1) is the layered
    graph of scipy issue 26147.

    Points run parallel to the diagonal, one unit apart, so that L_inf cost is the difference
    of births. Level d has two copies of (d, d + 3) in Q and of (d + 0.5, d + 3.5) in P: each
    P point is within 0.5 of its level's and the next level's Q points and 1.5 from the rest.
    A chain of single points far off ends in a spare Q point, and s = (1.5, 3.5), whose
    half-persistence is exactly 1, reaches the first level only. Every point but s has a
    partner within 0.5; s goes to the diagonal at cost 1, so the distance is 1, and any
    smaller level leaves s unmatched at the end of a dead-end layered graph.
    """
    P = [(d + 0.5, d + 3.5) for d in range(1, levels + 1) for _ in range(2)]
    Q = [(d, d + 3.0) for d in range(1, levels + 1) for _ in range(2)]
    P += [(1000.5 + k, 1003.5 + k) for k in range(1, levels + 1)]
    Q += [(1000.0 + k, 1003.0 + k) for k in range(1, levels + 2)]
    P += [(1.5, 3.5), (1000.5, 1003.5)]
    return np.array(P), np.array(Q)


def test_layered_diagrams_small_agree_with_hera():
    P, Q = layered_diagrams(6)
    assert hera.bottleneck_distance(P, Q, 0.0) == 1.0
    d, m = bottleneck_distance(P, Q, matching=True)
    assert d == 1.0
    assert matching_cost(P, Q, m) == 1.0


def test_layered_diagrams_deep_finish():
    """40 levels (122 and 121 points). The certificate's decision at 1 - 1e-12 is the layered
    graph, on which scipy's matching (the code before) explores level d 2^d times: 0.2 to
    0.3 s at 22 levels, doubling with each level, so 2^18 times that (most of a day) here.
    This test would hang on that code (it did not finish in 300 s)."""
    P, Q = layered_diagrams(40)
    d, m = bottleneck_distance(P, Q, matching=True)
    assert d == 1.0
    assert matching_cost(P, Q, m) == 1.0
