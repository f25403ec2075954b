"""ToMATo's lean paths: a fit given its settings selects nothing and queries the neighbours
once; the selection reads one query per geometry; the merge tree's shortcuts change nothing."""

import warnings

import numpy as np
import pytest

import tdadp.cluster._density as density_module
import tdadp.cluster._hierarchy as hierarchy
import tdadp.cluster._knn as knn_module
import tdadp.cluster._tomato as tomato_module
from tdadp.cluster import ToMATo
from tdadp.cluster._density import (
    Neighbours,
    knn_distances,
    knn_graph_arcs,
    knn_graph_edges,
    log_dtm_density,
)
from tdadp.cluster._hierarchy import build_merge_tree
from tdadp.cluster._knn import PoolNeighbours, pool_pays, pool_width
from tdadp.cluster._selection import (
    AGREE_AFTER,
    adjusted_rand,
    candidates_agree,
    clusters_alike,
    default_k,
    stability_subsamples,
)


def _blobs(n_per=150, seed=0):
    rng = np.random.default_rng(seed)
    centers = ((0, 0, 0), (4, 0, 0), (0, 4, 0))
    return np.concatenate([rng.normal(c, 0.5, (n_per, 3)) for c in centers])


def _count_queries(monkeypatch):
    """Every k-d tree query: (points, k), or ("rows", points, k, rows queried) for a query of
    some points only."""
    calls = []
    original = density_module.knn_distances

    def counted(X, k, **kwargs):
        rows = kwargs.get("rows")
        calls.append((X.shape[0], k) if rows is None else ("rows", X.shape[0], k, len(rows)))
        return original(X, k, **kwargs)

    monkeypatch.setattr(density_module, "knn_distances", counted)
    monkeypatch.setattr(knn_module, "knn_distances", counted)
    return calls


def test_given_settings_select_nothing_and_query_once(monkeypatch):
    X = _blobs()

    def no_selection(*args, **kwargs):
        raise AssertionError("the stability selection ran")

    monkeypatch.setattr(tomato_module, "stability_subsamples", no_selection)
    calls = _count_queries(monkeypatch)
    est = ToMATo(n_clusters=3, metric="euclidean", k=8, density_k=16, subspace="full").fit(X)
    assert est.selection_ is None and est.n_clusters_ == 3
    assert calls == [(X.shape[0], 16)]  # one query, for max(k, density_k) neighbours


def test_on_a_small_cloud_the_selection_queries_the_pool_once_per_geometry(monkeypatch):
    X = _blobs()
    calls = _count_queries(monkeypatch)
    est = ToMATo(n_clusters=3, random_state=0).fit(X)
    assert len(est.selection_) == 12
    n, m = X.shape[0], round(0.8 * X.shape[0])
    need = 4 * default_k(m)  # the largest candidate's neighbours on a subsample
    assert pool_pays(need, m, n, AGREE_AFTER)
    whole = [c for c in calls if c[0] != "rows"]
    # the fit's own query: one neighbour past the graph's k shows a tie at its end
    assert whole == [(n, pool_width(need, m / n, n))] * 2 + [(n, max(est.k_ + 1,
                                                                      est.density_k_))]
    # the points whose pool list held too few members of their subsample, queried on it
    short = [c for c in calls if c[0] == "rows"]
    assert all(c[1:3] == (m, need) for c in short)
    assert sum(c[3] for c in short) < 0.01 * m * 2 * est.selection_[0]["subsamples"]


def test_on_a_large_cloud_the_selection_queries_each_subsample_once_per_geometry(monkeypatch):
    # Subsamples of half the 4,000-point pool: its query would need more lookups than the
    # subsamples a comparison that stops early reads, as it does on three blobs away from the
    # origin (every setting agrees).
    rng = np.random.default_rng(0)
    X = np.concatenate([rng.normal(4 * np.eye(3)[i], 0.5, (1700, 3)) for i in range(3)])
    calls = _count_queries(monkeypatch)
    est = ToMATo(n_clusters=3, random_state=0).fit(X)
    need = 4 * default_k(2000)
    assert not pool_pays(need, 2000, 4000, AGREE_AFTER)
    assert est.selection_[0]["subsamples"] == AGREE_AFTER
    assert calls[:-1] == [(2000, need)] * (2 * AGREE_AFTER)
    assert calls[-1] == (X.shape[0], max(est.k_ + 1, est.density_k_))


@pytest.mark.parametrize("duplicates", [False, True])
def test_a_subsample_reads_its_neighbours_from_the_pool_query(duplicates):
    rng = np.random.default_rng(3)
    Y = rng.normal(size=(700, 3))
    if duplicates:
        Y = np.round(Y, 1)
        Y[:40] = Y[0]  # more copies of one point than a subsample keeps neighbours
    pool, subsamples = stability_subsamples(Y.shape[0], 2, rng)
    m, k = subsamples[0].size, 30
    shared = PoolNeighbours(Y[pool], k, m)
    assert k < shared.width < Y.shape[0] - 1
    for members in subsamples:
        dist, idx = shared.within(members).nearest(k)
        want_dist, want_idx = knn_distances(Y[pool][members], k)
        np.testing.assert_array_equal(dist, want_dist)  # value for value
        Z = Y[pool][members]
        np.testing.assert_allclose(  # the neighbours listed are at those distances
            np.linalg.norm(Z[idx] - Z[:, None], axis=2), dist, rtol=1e-12, atol=1e-15)
        assert not np.any(idx == np.arange(m)[:, None])
        if not duplicates:  # without ties, the same neighbours
            np.testing.assert_array_equal(idx, want_idx)


def test_small_clouds_draw_the_subsamples_of_the_whole_cloud():
    # Up to 4,000 points the pool is the cloud and the subsamples are drawn as they were
    # before there was a pool: selections on clouds of that size are unchanged.
    for n, K in [(34, 2), (1222, 2), (2500, 3), (4000, 2)]:
        pool, subsamples = stability_subsamples(n, K, np.random.default_rng(1))
        rng = np.random.default_rng(1)
        m = min(max(K + 1, round(0.8 * n)), 2000, n)
        np.testing.assert_array_equal(pool, np.arange(n))
        for s in subsamples:
            np.testing.assert_array_equal(s, np.sort(rng.choice(n, m, replace=False)))


def test_large_clouds_are_judged_on_subsamples_that_overlap():
    pool, subsamples = stability_subsamples(10**6, 4, np.random.default_rng(0))
    assert pool.size == 4000 and np.all(np.diff(pool) > 0) and pool[-1] < 10**6
    assert all(s.size == 2000 and s.max() < 4000 for s in subsamples)
    shared = np.intersect1d(subsamples[0], subsamples[1]).size
    assert 900 < shared < 1100  # a quarter of the pool, where the cloud would give about 4


def test_neighbours_are_queried_once_and_again_only_for_more():
    X = np.random.default_rng(4).normal(size=(500, 3))
    asked = []
    nb = Neighbours(X, budget=asked.append)
    dist, idx = nb.nearest(20)
    small = nb.nearest(5)
    assert asked == [20] and nb.width == 20
    for got, ref in zip(small, knn_distances(X, 5)):
        np.testing.assert_array_equal(got, ref)
    wide = nb.nearest(30)
    assert asked == [20, 30]
    np.testing.assert_array_equal(wide[0][:, :20], dist)
    known = Neighbours(X, lists=(dist, idx), budget=asked.append)
    np.testing.assert_array_equal(known.nearest(10)[1], idx[:, :10])
    assert asked == [20, 30]  # lists given: no query, nothing to budget


def test_knn_distances_match_brute_force_with_duplicates():
    rng = np.random.default_rng(5)
    X = np.round(rng.normal(size=(300, 2)), 1)
    X[:30] = X[0]  # a heap of duplicates, more than k
    k = 10
    dist, idx = knn_distances(X, k)
    D = np.linalg.norm(X[:, None] - X[None], axis=2)
    np.fill_diagonal(D, np.inf)
    np.testing.assert_allclose(dist, np.sort(D, axis=1)[:, :k], atol=1e-12)
    assert not np.any(idx == np.arange(300)[:, None])
    np.testing.assert_allclose(np.take_along_axis(D, idx, axis=1), dist, atol=1e-12)


def _same_tree(a, b):
    for name in ("leaf_of_point", "modes", "births", "deaths", "merge_edges"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    assert a.n_components == b.n_components


@pytest.mark.parametrize("seed", range(6))
def test_the_arcs_of_the_knn_graph_give_the_tree_of_its_edges(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(int(rng.integers(50, 600)), 2))
    if seed % 2:
        X = np.round(X, 1)
    dist, idx = knn_distances(X, 8)
    f = log_dtm_density(dist, 2.0)
    edges = build_merge_tree(f, *knn_graph_edges(idx[:, :5]))
    _same_tree(edges, build_merge_tree(f, *knn_graph_arcs(idx[:, :5])))


def _reference_prominences(f, n):
    """Sorted finite prominences of ToMATo on a path graph, by the textbook union-find."""
    parent, peak, prominences = {}, {}, []

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in sorted(range(n), key=lambda j: (-f[j], j)):
        parent[i], peak[i] = i, f[i]
        roots = {find(j) for j in (i - 1, i + 1) if j in parent}
        if not roots:
            continue
        old = max(roots, key=lambda r: (peak[r], -r))
        for r in roots - {old}:
            prominences.append(peak[r] - f[i])
            parent[r] = old
        if find(i) == i and i != old:
            parent[i] = old
    return np.sort(prominences)


@pytest.mark.parametrize("n", [300, 5000])
def test_a_path_with_many_modes_matches_the_textbook_merge(n):
    # 5,000 points give over a thousand modes, few edges between them: the sort branch of
    # the earliest edge per pair of basins; 300 points, the dense table.
    rng = np.random.default_rng(n)
    f = rng.normal(size=n)
    u = np.arange(n - 1)
    tree = build_merge_tree(f, np.r_[u, u + 1, u], np.r_[u + 1, u, u + 1])  # both ways, twice
    assert tree.n_modes > (1000 if n == 5000 else 50)
    np.testing.assert_allclose(np.sort(tree.prominences), _reference_prominences(f, n))
    _same_tree(tree, build_merge_tree(f, u, u + 1))


@pytest.mark.parametrize("seed", range(4))
def test_the_compiled_climb_equals_numpy_pointer_jumping(seed):
    # Ties in the density (rounded) and duplicated points (rounded coordinates) included.
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(int(rng.integers(20, 3000)), 3))
    if seed % 2:
        X = np.round(X, 1)
    dist, idx = knn_distances(X, 12)
    f = log_dtm_density(dist, 3.0)
    for density in (f, np.round(f, 1)):
        order = np.argsort(-density, kind="stable")
        for u, v in (knn_graph_arcs(idx[:, :6]), knn_graph_edges(idx[:, :6])):
            for got, want in zip(hierarchy._climb(order, u, v),
                                 hierarchy._climb_reference(order, u, v)):
                np.testing.assert_array_equal(got, want)
    # the minimum per key of a table, keys in order, as np.minimum.at finds them
    key = rng.integers(0, 50, size=400)
    t = rng.integers(0, 30, size=400)
    first = np.full(60, np.iinfo(np.int64).max)
    np.minimum.at(first, key, t)
    got_key, got_t = hierarchy._table_minima(key, t, 60)
    np.testing.assert_array_equal(got_key, np.flatnonzero(first < np.iinfo(np.int64).max))
    np.testing.assert_array_equal(got_t, first[got_key])



@pytest.mark.parametrize("seed", range(40))
def test_the_compiled_elder_rule_equals_the_spanning_forest_and_loop(seed):
    # Many ties in time (a few distinct times for many edges), where the order among the
    # edges of one time decides which edge records a merge and so the labels of a cut.
    rng = np.random.default_rng(seed)
    L = int(rng.integers(2, 400))
    key = np.unique(rng.integers(0, L * L, int(rng.integers(1, 3 * L))))
    a, b = key // L, key % L
    a, b = a[a < b], b[a < b]
    t = rng.integers(0, max(2, a.size // 3), a.size)
    young, merge = hierarchy._elder_rule(a, b, np.argsort(t, kind="stable"), L)
    want_young, want_a, want_b, want_t = hierarchy._elder_reference(a, b, t, L)
    assert young.size == want_young.size > 0
    np.testing.assert_array_equal(young, want_young)
    for got, want in ((a, want_a), (b, want_b), (t, want_t)):
        np.testing.assert_array_equal(got[merge], want)

def test_the_compiled_cut_names_components_as_scipy_does():
    X = _blobs(n_per=200, seed=1)
    dist, idx = knn_distances(X, 6)
    tree = build_merge_tree(log_dtm_density(dist, 3.0), *knn_graph_arcs(idx[:, :3]))
    assert tree.n_modes > 20
    for c in range(tree.n_components, tree.n_modes + 1):
        merged = tree.merge_edges[c:]
        root = hierarchy._labels_reference(merged, tree.n_modes)
        np.testing.assert_array_equal(hierarchy._component_roots(merged, tree.n_modes), root)
        labels = tree.labels(c)
        # labels 0 .. c - 1, numbered by the position of each component's best-placed mode
        np.testing.assert_array_equal(np.unique(labels), np.arange(c))
        np.testing.assert_array_equal(labels, np.unique(root, return_inverse=True)[1].ravel()[
            tree.leaf_of_point])


def test_the_selection_stops_early_when_every_setting_agrees():
    # Three blobs away from the origin: apart in either geometry, at every scale.
    rng = np.random.default_rng(0)
    X = np.concatenate([rng.normal(4 * np.eye(3)[i], 0.5, (300, 3)) for i in range(3)])
    est = ToMATo(n_clusters=3, random_state=0).fit(X)
    assert {r["subsamples"] for r in est.selection_} == {AGREE_AFTER}
    # a cut that the settings disagree on is compared on every subsample
    rng = np.random.default_rng(2)
    Y = rng.normal(size=(600, 2))
    Y[:300, 0] += 2.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        est = ToMATo(n_clusters=3, random_state=0).fit(Y)
    assert {r["subsamples"] for r in est.selection_} == {10}


def test_of_settings_that_cluster_alike_the_one_with_fewest_neighbours_is_kept():
    # Three blobs away from the origin: every setting clusters every subsample alike, so the
    # smallest neighbourhoods (half the default k, the density on as many) are kept.
    rng = np.random.default_rng(0)
    X = np.concatenate([rng.normal(4 * np.eye(3)[i], 0.5, (300, 3)) for i in range(3)])
    est = ToMATo(n_clusters=3, random_state=0).fit(X)
    assert all(r["alike"] for r in est.selection_)
    smallest = min(est.selection_, key=lambda r: (max(r["k"], r["density_k"]), r["k"]))
    assert (est.k_, est.density_k_) == (smallest["k"], smallest["density_k"])
    assert est.k_ == round(0.5 * default_k(X.shape[0])) and est.density_k_ == est.k_
    assert est.metric_ == "euclidean"  # the first of the cheapest: the preference on ties
    # Two settings whose clusterings differ on one subsample are not alike.
    a = [np.array([0, 0, 1, 1, -1]), np.array([0, 0, 1, 1, 1])]
    b = [np.array([1, 1, 0, 0, -1]), np.array([0, 1, 0, 1, 1])]
    assert clusters_alike(a[:1], b[:1]) and not clusters_alike(a, b)


def test_candidates_agree_needs_every_pair_and_every_cluster_resolved():
    a = np.array([0, 0, 1, 1, -1, 2, 2])
    b = np.array([1, 1, 0, 0, -1, 2, 2])  # the same partition, renamed
    c = np.array([0, 1, 0, 1, -1, 2, 2])
    assert candidates_agree([[a], [b]], [True, True])
    assert not candidates_agree([[a], [b]], [True, False])
    assert not candidates_agree([[a], [b], [c]], [True, True, True])


def test_adjusted_rand_refuses_negative_labels_and_unequal_lengths():
    with pytest.raises(ValueError, match="non-negative"):
        adjusted_rand(np.array([0, 1, -1]), np.array([0, 1, 1]))
    with pytest.raises(ValueError, match="same points"):
        adjusted_rand(np.array([0, 1, 1]), np.array([0, 1]))
    assert adjusted_rand(np.array([3]), np.array([0])) == 1.0
