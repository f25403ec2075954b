import itertools
from math import comb

import numpy as np
import pytest
import scipy.sparse as sp

from tdadp.release import (
    ProjectedCount,
    graph_statistic,
    project_max_degree,
    projected_count,
    restricted_sensitivity,
)


def _pairs(n):
    return list(itertools.combinations(range(n), 2))


def _all_bits(n):
    N = len(_pairs(n))
    return ((np.arange(1 << N)[:, None] >> np.arange(N)) & 1).astype(np.int8)


def _project_all(bits, n, k):
    """Vectorized reference projection of every graph at once (canonical edge order)."""
    count = np.zeros((bits.shape[0], n), dtype=np.int16)
    keep = np.zeros_like(bits)
    for d, (i, j) in enumerate(_pairs(n)):
        ok = (bits[:, d] == 1) & (count[:, i] < k) & (count[:, j] < k)
        keep[:, d] = ok
        count[ok, i] += 1
        count[ok, j] += 1
    return keep, count


def _statistics(keep, degrees, n, s):
    pairs = _pairs(n)
    triangles = sum(keep[:, pairs.index((a, b))] & keep[:, pairs.index((a, c))]
                    & keep[:, pairs.index((b, c))]
                    for a, b, c in itertools.combinations(range(n), 3)).astype(int)
    stars = sum(comb_column(degrees[:, x], s) for x in range(n))
    return {"edges": keep.sum(1).astype(int), "kstars": stars, "triangles": triangles}


def comb_column(d, s):
    return np.array([comb(int(v), s) for v in range(d.max() + 1)])[d]


def _adjacency(bits, n):
    A = np.zeros((n, n), dtype=np.uint8)
    for (i, j), b in zip(_pairs(n), bits):
        A[i, j] = A[j, i] = b
    return A


def test_reference_matches_public_projection():
    rng = np.random.default_rng(0)
    n = 6
    bits = _all_bits(n)
    for k in (1, 2, 3):
        keep, _ = _project_all(bits, n, k)
        for g in rng.choice(bits.shape[0], 200, replace=False):
            A = _adjacency(bits[g], n)
            expected = _adjacency(keep[g], n)
            np.testing.assert_array_equal(project_max_degree(A, k), expected)
            got = project_max_degree(sp.csr_matrix(A), k)
            assert sp.issparse(got)
            np.testing.assert_array_equal(got.toarray(), expected)


@pytest.mark.parametrize("n", [4, 5, 6])
def test_projected_sensitivities_by_brute_force(n):
    bits = _all_bits(n)
    N = bits.shape[1]
    for k in range(1, n):
        keep, deg = _project_all(bits, n, k)
        full_deg = np.zeros((bits.shape[0], n), dtype=int)
        for d, (i, j) in enumerate(_pairs(n)):
            full_deg[:, i] += bits[:, d]
            full_deg[:, j] += bits[:, d]
        in_class = full_deg.max(1) <= k
        for s in (1, 2, 3):
            stats = _statistics(keep, deg, n, s)
            for name, f in stats.items():
                if name != "kstars" and s > 1:
                    continue
                worst_all = worst_class = 0
                for d in range(N):
                    g1 = np.flatnonzero(bits[:, d] == 1)
                    g0 = g1 ^ (1 << d)
                    diff = np.abs(f[g1] - f[g0])
                    worst_all = max(worst_all, diff.max())
                    both = in_class[g1] & in_class[g0]
                    if both.any():
                        worst_class = max(worst_class, diff[both].max())
                sens = restricted_sensitivity(name, k, s)
                # Restricted sensitivity bounds changes within the class ...
                assert worst_class <= sens
                if name in ("edges", "kstars"):
                    # ... and, for these, the projected statistic over all graphs.
                    assert worst_all <= sens, (name, n, k, s, worst_all)
        # Degree sequence of the projection: L1 change at most 2 over all graphs.
        worst_deg = 0
        for d in range(N):
            g1 = np.flatnonzero(bits[:, d] == 1)
            worst_deg = max(worst_deg, np.abs(deg[g1] - deg[g1 ^ (1 << d)]).sum(1).max())
        assert worst_deg <= 2


def test_naive_projection_breaks_triangle_restricted_sensitivity():
    # Why the triangle release's guarantee is restricted to max-degree <= D graphs.
    n, k = 6, 2
    bits = _all_bits(n)
    keep, deg = _project_all(bits, n, k)
    tri = _statistics(keep, deg, n, 2)["triangles"]
    worst = max(np.abs(tri[g1] - tri[g1 ^ (1 << d)]).max()
                for d in range(bits.shape[1])
                for g1 in [np.flatnonzero(bits[:, d] == 1)])
    assert worst == 2 > restricted_sensitivity("triangles", k)


def test_projection_properties():
    rng = np.random.default_rng(1)
    A = (rng.random((40, 40)) < 0.3).astype(np.uint8)
    A = np.triu(A, 1)
    A = A + A.T
    for k in (1, 3, 8):
        B = project_max_degree(A, k)
        assert B.sum(1).max() <= k
        assert ((B == 1) <= (A == 1)).all() and (B == B.T).all()
        # Maximality: no dropped edge could be added back.
        deg = B.sum(1)
        dropped = np.argwhere(np.triu(A - B, 1))
        assert all(deg[i] == k or deg[j] == k for i, j in dropped)
    big = int(A.sum(1).max())
    np.testing.assert_array_equal(project_max_degree(A, big), A)


def test_graph_statistics_and_releases():
    K5 = np.ones((5, 5), dtype=np.uint8) - np.eye(5, dtype=np.uint8)
    assert graph_statistic(K5, "edges") == 10
    assert graph_statistic(K5, "kstars", 3) == 5 * comb(4, 3)
    assert graph_statistic(sp.csr_matrix(K5), "triangles") == 10
    assert projected_count(K5, "edges", max_degree=4, epsilon=np.inf) == 10
    assert projected_count(K5, "triangles", max_degree=2, epsilon=np.inf) == 1
    m = ProjectedCount("kstars", max_degree=6, star_size=3, epsilon=2.0).fit()
    assert m.sensitivity_ == 2 * comb(5, 2) and m.noise_scale_ == m.sensitivity_ / 2
    assert m.guarantee_.restriction is None


def test_bad_input():
    A = np.zeros((4, 4), dtype=np.uint8)
    with pytest.raises(ValueError, match="max_degree"):
        project_max_degree(A, 0)
    with pytest.raises(ValueError, match="statistic"):
        ProjectedCount("cliques").fit_transform(A)
    with pytest.raises(ValueError, match="star_size"):
        restricted_sensitivity("kstars", 3, 0)
    with pytest.raises(ValueError, match="binary|entries other than 0 and 1"):
        project_max_degree(2 * (np.ones((3, 3)) - np.eye(3)), 2)
