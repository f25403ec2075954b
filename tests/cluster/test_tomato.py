"""ToMATo: scikit-learn conformance, agreement with gudhi, cuts, validation."""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.metrics import adjusted_rand_score

from tdadp.cluster import ToMATo, tomato
from tdadp.cluster._density import (
    edges_to_csr,
    knn_distances,
    knn_graph_edges,
    log_dtm_density,
)
from tdadp.cluster._hierarchy import build_merge_tree
from tdadp.cluster._selection import GAP_RATIO, adjusted_rand, has_spectral_gap, leading_directions
from tdadp.cluster._significance import weighted_log_dtm
from tdadp.cluster._tomato import default_k


def _blobs(n_per=150, centers=((0, 0), (4, 0), (0, 4)), scale=0.4, seed=0):
    rng = np.random.default_rng(seed)
    X = np.concatenate([rng.normal(c, scale, (n_per, len(c))) for c in centers])
    y = np.repeat(np.arange(len(centers)), n_per)
    return X, y


# check_estimator's whole suite, one check at a time, on the defaults: its data sets have 10
# to 20 points, so the default k=15 is clamped to n_samples - 1 there (with a warning, tested
# below); every check must pass, none is expected to fail.
@pytest.mark.parametrize("estimator", [ToMATo(), ToMATo(k=5, density="logKDE", n_clusters=3)],
                         ids=repr)
def test_sklearn_compatible(estimator, assert_sklearn_compatible):
    assert_sklearn_compatible(estimator)


# --- the merge tree against gudhi's C++ implementation -----------------------------------

@pytest.mark.parametrize("n,d,seed", [(600, 2, 0), (2000, 3, 1), (1500, 4, 2)])
def test_diagram_matches_gudhi(n, d, seed):
    gudhi_tomato = pytest.importorskip("gudhi.clustering.tomato")
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[: n // 3] += 3.0
    est = ToMATo(k=8, metric="euclidean").fit(X)  # gudhi's geometry
    Tomato = gudhi_tomato.Tomato
    # gudhi counts the point itself among its k neighbours and does not symmetrise by default.
    ref = Tomato(k=9, k_DTM=est.density_k_ + 1, symmetrize_graph=True).fit(X)
    ours_finite = np.sort(est.prominences_[est.n_connected_components_:])
    theirs = np.sort(ref.diagram_[:, 0] - ref.diagram_[:, 1])
    assert ours_finite.size == theirs.size
    # gudhi's logDTM differs from ours by the constant log(k / (k + 1)).
    np.testing.assert_allclose(ours_finite, theirs, atol=1e-9)
    assert est.n_connected_components_ == ref.max_weight_per_cc_.size
    ref.n_clusters_ = 2
    ours = est.recut(n_clusters=2)
    assert adjusted_rand_score(ours, ref.labels_) == 1.0


def test_merge_tree_on_a_path():
    # Density on a path graph with peaks 5 (node 1), 9 (node 4), 4 (node 6). The peak 5 meets
    # the peak 9 at node 2 (density 2): prominence 3. The peak 4 meets them at node 5
    # (density 0.5): prominence 3.5, so it comes second although its peak is lower.
    f = np.array([1.0, 5.0, 2.0, 3.0, 9.0, 0.5, 4.0, 0.0])
    u = np.arange(7)
    tree = build_merge_tree(f, u, u + 1)
    assert tree.n_components == 1
    np.testing.assert_array_equal(tree.modes, [4, 6, 1])
    np.testing.assert_array_equal(tree.births, [9.0, 4.0, 5.0])
    np.testing.assert_array_equal(tree.deaths, [-np.inf, 0.5, 2.0])
    np.testing.assert_array_equal(tree.prominences, [3.5, 3.0])
    # node 2 climbs to its highest neighbour (node 1), node 5 to node 4
    np.testing.assert_array_equal(tree.labels(3), [2, 2, 2, 0, 0, 0, 1, 1])
    np.testing.assert_array_equal(tree.labels(2), [0, 0, 0, 0, 0, 0, 1, 1])
    np.testing.assert_array_equal(tree.labels(1), np.zeros(8))


def test_disconnected_graph_has_one_immortal_mode_per_component():
    f = np.array([1.0, 2.0, 0.0, 3.0, 1.0])
    tree = build_merge_tree(f, np.array([0, 3]), np.array([1, 4]))
    assert tree.n_components == 3
    np.testing.assert_array_equal(tree.births, [3.0, 2.0, 0.0])
    assert np.isneginf(tree.deaths).all()


# --- clustering behaviour --------------------------------------------------------------

def test_automatic_cut_on_blobs():
    X, y = _blobs()
    est = ToMATo().fit(X)
    assert est.n_clusters_ == 3
    assert adjusted_rand_score(y, est.labels_) > 0.99
    assert est.labels_.dtype.kind == "i"
    np.testing.assert_array_equal(np.unique(est.labels_), np.arange(3))
    assert est.diagram_.shape == (est.modes_.size, 2)
    assert est.density_.shape == (X.shape[0],)
    # rows sorted by prominence, immortal first
    prom = est.prominences_
    assert np.all(np.diff(prom[np.isfinite(prom)]) <= 0)
    assert np.isinf(prom[: est.n_connected_components_]).all()


def test_connected_mixture_two_modes():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(3000, 3))
    X[:1500, 0] += 5.0
    est = ToMATo().fit(X)
    assert est.n_connected_components_ == 1
    assert est.n_clusters_ == 2
    assert adjusted_rand_score(np.repeat([0, 1], 1500), est.labels_) > 0.95


def test_single_blob_one_cluster():
    X = np.random.default_rng(4).normal(size=(2000, 3))
    assert ToMATo().fit(X).n_clusters_ == 1


def test_labels_numbered_by_prominence():
    # The denser blob has the highest peak, hence label 0.
    rng = np.random.default_rng(5)
    X = np.concatenate([rng.normal(0, 0.2, (300, 2)), rng.normal(5, 1.0, (300, 2))])
    labels = ToMATo().fit_predict(X)
    assert np.all(labels[:300] == 0) and np.all(labels[300:] == 1)


def test_recut_reuses_tree_and_matches_fit():
    X, _ = _blobs(seed=1)
    est = ToMATo().fit(X)
    density, diagram = est.density_.copy(), est.diagram_.copy()
    for c in (1, 2, 3, 5):
        if c < est.n_connected_components_:
            continue
        labels = est.recut(n_clusters=c)
        assert est.n_clusters_ == c and np.unique(labels).size == c
        # a fit given n_clusters chooses its own scale and metric; with the fitted ones fixed,
        # it is the re-cut
        refit = ToMATo(n_clusters=c, k=est.k_, density_k=est.density_k_,
                       metric=est.metric_).fit(X).labels_
        np.testing.assert_array_equal(labels, refit)
        # the threshold reported reproduces the cut
        np.testing.assert_array_equal(est.recut(merge_threshold=est.merge_threshold_), labels)
    np.testing.assert_array_equal(est.density_, density)
    np.testing.assert_array_equal(est.diagram_, diagram)
    auto = est.recut()
    np.testing.assert_array_equal(auto, ToMATo().fit(X).labels_)


def test_recut_is_hierarchical():
    X, _ = _blobs(n_per=100, seed=2)
    est = ToMATo(k=6, density_k=6).fit(X)
    n_modes = est.diagram_.shape[0]
    c0 = est.n_connected_components_
    finer = est.recut(n_clusters=n_modes)
    for c in range(n_modes - 1, c0 - 1, -1):
        coarser = est.recut(n_clusters=c)
        # every finer cluster lies inside one coarser cluster
        pairs = np.unique(np.column_stack([finer, coarser]), axis=0)
        assert np.unique(pairs[:, 0]).size == pairs.shape[0]
        finer = coarser


def test_merge_threshold_semantics():
    X, _ = _blobs(seed=3)
    est = ToMATo().fit(X)
    prom = est.prominences_
    finite = prom[np.isfinite(prom)]
    tau = float(np.median(finite))
    est.recut(merge_threshold=tau)
    assert est.n_clusters_ == est.n_connected_components_ + np.count_nonzero(finite >= tau)
    assert est.merge_threshold_ == tau
    est.recut(merge_threshold=0.0)
    assert est.n_clusters_ == est.diagram_.shape[0]
    est.recut(merge_threshold=np.inf)
    assert est.n_clusters_ == est.n_connected_components_
    fitted = ToMATo(merge_threshold=tau).fit(X)
    np.testing.assert_array_equal(fitted.labels_, est.recut(merge_threshold=tau))


def test_n_clusters_clamped_with_warning():
    X, _ = _blobs(centers=((0, 0), (50, 0)))  # two components of the kNN graph
    est = ToMATo().fit(X)
    assert est.n_connected_components_ == 2
    with pytest.warns(UserWarning, match="connected components"):
        labels = est.recut(n_clusters=1)
    assert np.unique(labels).size == 2
    with pytest.warns(UserWarning, match="modes"):
        est.recut(n_clusters=10**6)
    assert est.n_clusters_ == est.diagram_.shape[0]


@pytest.mark.parametrize(
    "params",
    [dict(density="DTM"), dict(density="logKDE", bandwidth=0.3), dict(density="KDE"),
     dict(graph="radius", radius=1.0), dict(k=5, density_k=25), dict(dim=1.0)],
)
def test_other_densities_and_graphs(params):
    X, y = _blobs(seed=4)
    est = ToMATo(n_clusters=3, **params).fit(X)
    assert adjusted_rand_score(y, est.labels_) > 0.95
    if params.get("density") in ("DTM", "KDE"):
        assert est.density_.max() == pytest.approx(1.0)


def test_duplicated_points_are_finite():
    X, _ = _blobs(n_per=60)
    X = np.concatenate([X, np.repeat(X[:1], 40, axis=0)])
    est = ToMATo().fit(X)
    assert np.isfinite(est.density_).all()
    assert np.isfinite(est.diagram_[:, 0]).all()


def test_invariances():
    X, _ = _blobs(seed=6)
    base = ToMATo().fit(X)
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.normal(size=(2, 2)))
    moved = ToMATo().fit(3.0 * X @ Q + 7.0)
    # logDTM is invariant to rigid motions and shifts by -dim*log(3) under scaling.
    np.testing.assert_allclose(moved.density_, base.density_ - 2 * np.log(3.0), atol=1e-8)
    np.testing.assert_array_equal(moved.labels_, base.labels_)
    perm = rng.permutation(X.shape[0])
    permuted = ToMATo().fit(X[perm])
    assert adjusted_rand_score(base.labels_[perm], permuted.labels_) == 1.0


def test_clone_and_params_untouched_by_recut():
    X, _ = _blobs()
    est = ToMATo(k=12).fit(X)
    est.recut(n_clusters=5)
    assert est.get_params()["n_clusters"] is None
    assert clone(est).get_params() == ToMATo(k=12).get_params()


def test_tomato_function_single_and_batch():
    X, y = _blobs()
    labels, diagram = tomato(X, return_diagram=True)
    np.testing.assert_array_equal(labels, ToMATo().fit(X).labels_)
    assert diagram.shape[1] == 2
    out = tomato([X, X[:200]], n_clusters=3, random_state=7)
    assert isinstance(out, list) and [o.shape for o in out] == [(450,), (200,)]
    # each cloud of a batch has its own stream, whatever the others
    np.testing.assert_array_equal(out[1], tomato([X[:10], X[:200]], n_clusters=3,
                                                 random_state=7)[1])
    np.testing.assert_array_equal(out[0], ToMATo(n_clusters=3, random_state=7).fit(X).labels_)
    np.testing.assert_array_equal(tomato(X[:200], n_clusters=3, random_state=7),
                                  ToMATo(n_clusters=3, random_state=7).fit(X[:200]).labels_)
    stacked = tomato(np.stack([X, X[::-1]]))
    assert len(stacked) == 2


# --- bad input ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "params,match",
    [
        (dict(k=0), "'k' parameter of ToMATo must be None or an int in \\[1, inf\\); got 0"),
        (dict(k=2.5), "'k' parameter of ToMATo must be None or an int"),
        (dict(metric="cosine"), "'metric' parameter of ToMATo"),
        (dict(n_clusters=0), "'n_clusters' parameter of ToMATo must be None or an int"),
        (dict(n_clusters=2, merge_threshold=0.1), "not both"),
        (dict(merge_threshold=-1.0), "'merge_threshold' parameter.*\\[0, inf\\]"),
        (dict(merge_threshold=np.nan), "'merge_threshold' parameter"),
        (dict(density="gauss"), "'density' parameter.*one of 'logDTM'"),
        (dict(graph="rips"), "'graph' parameter.*one of 'knn', 'radius'"),
        (dict(graph="radius"), "needs a radius"),
        (dict(graph="radius", radius=-1.0), "'radius' parameter.*\\(0, inf\\)"),
        (dict(density="KDE", bandwidth=0.0), "'bandwidth' parameter"),
        (dict(density="KDE", bandwidth="normal"), "'bandwidth' parameter.*'silverman'"),
        (dict(density_k=0), "'density_k' parameter"),
        (dict(dim=-2), "'dim' parameter"),
        (dict(n_jobs=0), "'n_jobs' parameter.*-1 or an int in \\[1, 2\\*\\*31 - 1\\]"),
        (dict(n_jobs=-2), "'n_jobs' parameter"),
        (dict(n_jobs=2**63), "'n_jobs' parameter"),  # scipy's C long would overflow
    ],
)
def test_bad_parameters(params, match):
    X, _ = _blobs(n_per=30)
    est = ToMATo(**params)  # __init__ never validates
    with pytest.raises(ValueError, match=match):
        est.fit(X)


def test_too_few_points_for_k_clamps_it_with_a_warning():
    X = np.random.default_rng(0).normal(size=(12, 3))
    with pytest.warns(UserWarning, match=r"k=15 neighbours need at least 16 points.*"
                                         r"n_samples=12: using k=11"):
        est = ToMATo(k=15).fit(X)
    assert est.k_ == 11 and est.density_k_ == 11 and est.get_params()["k"] == 15
    # the clamped fit is the fit with the effective value
    np.testing.assert_array_equal(est.labels_, ToMATo(k=11).fit(X).labels_)
    np.testing.assert_array_equal(est.diagram_, ToMATo(k=11).fit(X).diagram_)
    with pytest.warns(UserWarning, match=r"density_k=20 .*using density_k=11"):
        est = ToMATo(k=5, density_k=20).fit(X)
    assert (est.k_, est.density_k_) == (5, 11)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = ToMATo(k=5).fit(X)  # the default density_k = min(2 k, n - 1), silently
        assert (est.k_, est.density_k_) == (5, 10)
        est = ToMATo().fit(X)  # the default k = round(1.5 ln 12) = 4, silently
        assert (est.k_, est.density_k_) == (4, 8)
        # neighbour counts a fit does not use are not warned about
        ToMATo(graph="radius", radius=1.0, density="logKDE", density_k=50).fit(X)
    assert ToMATo(k=1).fit(X[:2]).labels_.shape == (2,)


@pytest.mark.parametrize(
    "X,match",
    [
        (np.array([[0.0, 1.0], [np.nan, 2.0]] * 20), "NaN"),
        (np.array([[0.0, 1.0], [np.inf, 2.0]] * 20), "infinity"),
        (np.zeros((20, 3, 2)), "dim 3"),
        (np.zeros(20), "2D array"),
        (np.zeros((1, 3)), "1 sample"),
        (np.full((20, 2), "1.5"), "strings"),  # check_array alone would parse them
        (np.array([["1.5", 0.0]] * 20, dtype=object), "strings"),
        (np.ones((20, 2)) + 1j, "Complex data not supported"),
    ],
)
def test_bad_input(X, match):
    with pytest.raises(ValueError, match=match):
        ToMATo().fit(X)


def test_recut_bad_arguments_and_unfitted():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        ToMATo().recut(n_clusters=2)
    est = ToMATo().fit(_blobs()[0])
    with pytest.raises(ValueError, match="not both"):
        est.recut(n_clusters=2, merge_threshold=1.0)
    with pytest.raises(ValueError, match="n_clusters"):
        est.recut(n_clusters=-3)


def test_knn_distances_drop_self_with_duplicates():
    X = np.array([[0.0], [0.0], [0.0], [1.0], [3.0]])
    dist, idx = knn_distances(X, 2)
    assert not np.any(idx == np.arange(5)[:, None])
    np.testing.assert_allclose(dist[:3], 0.0)
    u, v = knn_graph_edges(idx)
    A = edges_to_csr(5, u, v)
    assert (A != A.T).nnz == 0 and A.diagonal().sum() == 0


def test_no_warnings_on_plain_fit():
    X, _ = _blobs()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ToMATo().fit(X)


def test_a_cloud_beyond_memory_is_refused_up_front(monkeypatch):
    import tdadp.utils._memory as memory

    X = np.random.default_rng(0).random((5000, 3))
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test budget": 1e6})
    with pytest.raises(ValueError, match="ToMATo on 5000 points in R\\^3"):
        ToMATo(k=10, significance=None).fit(X)
    # the automatic count's bootstrap needs more neighbours: it is checked first
    with pytest.raises(ValueError, match="bootstrap band on 5000 points with 60 neighbours"):
        ToMATo(k=10).fit(X)


def test_default_k_grows_like_log_n():
    assert [default_k(n) for n in (2, 3, 12, 34, 1600, 4000, 10**6)] == [1, 2, 4, 5, 11, 12, 21]


@pytest.mark.parametrize("n_clusters", [2, 3, 7])
def test_n_clusters_is_met_on_a_density_with_one_mode(n_clusters):
    # One Gaussian blob: at the default scale its density has fewer modes than asked for
    # (the old fit returned fewer clusters, with a warning); the fit refines the scale.
    X = np.random.default_rng(3).normal(size=(400, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = ToMATo(n_clusters=n_clusters, k=60, density_k=120, metric="euclidean").fit(X)
    assert est.selection_ is None  # every choice given: nothing to select
    assert est.n_clusters_ == n_clusters
    assert np.unique(est.labels_).size == n_clusters
    assert est.scale_refined_ and est.k_ < 60
    assert est.diagram_.shape[0] >= n_clusters
    assert ToMATo(k=60, density_k=120).fit(X).n_clusters_ == 1
    assert not ToMATo(k=60, density_k=120).fit(X).scale_refined_


def test_n_clusters_is_met_when_the_graph_has_more_components():
    rng = np.random.default_rng(4)
    X = np.concatenate([rng.normal(c, 0.01, (20, 2)) for c in (0.0, 5.0, 10.0)])
    assert ToMATo(k=3).fit(X).n_connected_components_ >= 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = ToMATo(n_clusters=2, k=3).fit(X)
    assert est.n_clusters_ == 2 and np.unique(est.labels_).size == 2
    assert est.k_ > 3 and est.scale_refined_


def test_more_clusters_than_points_is_refused():
    with pytest.raises(ValueError, match="n_clusters=6 clusters need at least as many points"):
        ToMATo(n_clusters=6).fit(np.random.default_rng(0).normal(size=(5, 2)))


def test_angular_metric_clusters_directions():
    # Two rays from the origin, each with points at every distance (degrees vary within a
    # community): no density mode per ray in the plane, one per direction on the circle.
    rng = np.random.default_rng(5)
    r = rng.uniform(0.05, 1.0, 300)
    angles = np.r_[np.full(150, 0.3), np.full(150, 1.2)] + rng.normal(0, 0.03, 300)
    X = np.column_stack([r * np.cos(angles), r * np.sin(angles)])
    y = np.r_[np.zeros(150), np.ones(150)]
    est = ToMATo(n_clusters=2, metric="angular").fit(X)
    assert adjusted_rand_score(y, est.labels_) == 1.0
    unit = X / np.linalg.norm(X, axis=1, keepdims=True)
    np.testing.assert_array_equal(est.labels_, ToMATo(n_clusters=2).fit(unit).labels_)


def test_stability_selection_is_reported_and_reproducible():
    X, _ = _blobs(seed=2)
    est = ToMATo(n_clusters=2, random_state=3).fit(X)
    assert est.metric_ in ("euclidean", "angular")
    assert len(est.selection_) == 12  # 2 metrics x 3 neighbourhoods x 2 density scales
    chosen = [r for r in est.selection_ if (r["metric"], r["k"], r["density_k"])
              == (est.metric_, est.k_, est.density_k_)]
    assert chosen and all(-1 <= r["stability"] <= 1 for r in est.selection_)
    # the most stable setting, or one that clusters every subsample as it does, with the
    # fewest neighbours of those
    best = max(r["stability"] for r in est.selection_ if r["resolved"])
    assert all(r["alike"] for r in est.selection_ if r["resolved"] and r["stability"] == best)
    alike = [r for r in est.selection_ if r["alike"]]
    assert chosen[0]["alike"]
    assert max(est.k_, est.density_k_) == min(max(r["k"], r["density_k"]) for r in alike)
    again = ToMATo(n_clusters=2, random_state=3).fit(X)
    np.testing.assert_array_equal(again.labels_, est.labels_)
    assert ToMATo(n_clusters=2, metric="euclidean", k=9, density_k=18).fit(X).selection_ is None
    assert ToMATo().fit(X).selection_ is None and ToMATo().fit(X).metric_ == "euclidean"


def test_a_stable_outlier_does_not_win_the_selection():
    # One far point: cutting it off is perfectly stable (ARI 1 across subsamples) and useless.
    rng = np.random.default_rng(6)
    X = np.concatenate([rng.normal(0, 0.3, (150, 2)), rng.normal(3, 0.3, (150, 2)),
                        [[40.0, 40.0]]])
    est = ToMATo(n_clusters=2, random_state=0).fit(X)
    assert np.bincount(est.labels_).min() > 100


def test_the_selection_s_adjusted_rand_index_is_scikit_learn_s():
    rng = np.random.default_rng(8)
    for n, ka, kb in [(2, 1, 1), (5, 1, 5), (30, 2, 3), (300, 4, 4), (300, 1, 1), (50, 50, 2)]:
        a = rng.integers(0, ka, n)
        b = rng.integers(0, kb, n)
        for x, y in ((a, b), (a, a), (b, a)):
            assert adjusted_rand(x, y) == pytest.approx(adjusted_rand_score(x, y), abs=1e-12)


def test_the_automatic_count_keeps_the_significant_modes():
    X, y = _blobs(seed=3)
    est = ToMATo(random_state=0).fit(X)
    assert est.significant_ and est.n_clusters_ == est.n_significant_modes_ == 3
    assert adjusted_rand_score(y, est.labels_) > 0.95
    # the kept modes are those whose prominence exceeds twice the bootstrap radius
    prom = est.prominences_
    assert np.all(prom[:3] > 2 * est.confidence_band_)
    assert np.all(prom[3:] <= 2 * est.confidence_band_)
    np.testing.assert_array_equal(est.recut(), est.labels_)  # the re-cut keeps the rule


@pytest.mark.parametrize("cloud", ["uniform", "gaussian"])
def test_no_structure_is_reported_as_not_significant(cloud):
    # The largest-gap rule reported a spurious second cluster on such clouds.
    rng = np.random.default_rng(9)
    X = rng.uniform(size=(1500, 3)) if cloud == "uniform" else rng.normal(size=(1500, 2))
    est = ToMATo(random_state=1).fit(X)
    assert est.n_clusters_ == 1 and not est.significant_
    assert np.all(est.labels_ == 0)


def test_the_gap_rule_is_still_available_and_given_cuts_skip_the_bootstrap():
    X, _ = _blobs(seed=3)
    gap = ToMATo(significance=None).fit(X)
    assert not hasattr(gap, "confidence_band_")
    assert not hasattr(ToMATo(n_clusters=2, random_state=0).fit(X), "confidence_band_")
    assert not hasattr(ToMATo(density="logKDE").fit(X), "confidence_band_")
    a = ToMATo(random_state=5).fit(X).confidence_band_
    assert a == ToMATo(random_state=5).fit(X).confidence_band_



def test_the_weighted_density_is_the_density_of_the_resampled_neighbours():
    rng = np.random.default_rng(13)
    dist = np.sort(rng.uniform(0.1, 2.0, (40, 12)), axis=1)
    k, dim = 5, 2.5
    # unit weights: the plain distance-to-measure density on the first k neighbours
    np.testing.assert_allclose(weighted_log_dtm(dist, np.ones_like(dist), k, dim),
                               log_dtm_density(dist[:, :k], dim), rtol=1e-12)
    # integer weights: each neighbour repeated as often as it was drawn
    w = rng.integers(0, 3, dist.shape).astype(float)
    w[:, -1] = k  # enough weight on every row
    expanded = [np.repeat(row, wr.astype(int))[:k] for row, wr in zip(dist, w)]
    np.testing.assert_allclose(weighted_log_dtm(dist, w, k, dim),
                               [log_dtm_density(e[None], dim)[0] for e in expanded], rtol=1e-12)


def test_the_band_does_not_depend_on_threads_or_blocks(monkeypatch):
    import tdadp.cluster._significance as significance

    X, _ = _blobs(n_per=200, seed=4)
    band = ToMATo(random_state=7, n_bootstrap=30).fit(X).confidence_band_
    for n_jobs in (2, -1):
        est = ToMATo(random_state=7, n_bootstrap=30, n_jobs=n_jobs).fit(X)
        assert est.confidence_band_ == band
    monkeypatch.setattr(significance, "_BLOCK_ENTRIES", 50)  # blocks of a few rows
    assert ToMATo(random_state=7, n_bootstrap=30).fit(X).confidence_band_ == band


def test_a_band_that_cannot_fit_is_refused_up_front(monkeypatch):
    import tdadp.utils._memory as memory

    X, _ = _blobs(seed=3)
    monkeypatch.setattr(memory, "memory_limits", lambda **kw: {"a test budget": 1_000_000})
    with pytest.raises(ValueError, match="bootstrap band on 450 points"):
        ToMATo(random_state=0).fit(X)
    assert ToMATo(n_clusters=3, metric="euclidean", k=8, density_k=8).fit(X).n_clusters_ == 3

# --- the leading subspace ------------------------------------------------------------------

def _blobs_with_spread(seed=0):
    # Two communities along two directions, and three directions along which every point
    # spreads: the second-moment spectrum has a gap after its second eigenvalue.
    rng = np.random.default_rng(seed)
    centers = np.array([[3.0, 0.0], [0.0, 3.0]])
    y = np.repeat([0, 1], 60)
    X = np.column_stack([centers[y] + rng.normal(0, 0.4, (120, 2)),
                         rng.normal(0, 0.8, (120, 3))])
    return X, y


def test_leading_directions_are_the_leading_right_singular_vectors():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(200, 5)) * [5.0, 3.0, 2.0, 1.0, 0.5] + [1.0, 0, 0, 0, 0]
    V, values = leading_directions(X, 3)
    _, s, Vt = np.linalg.svd(X, full_matrices=False)
    np.testing.assert_allclose(values, s ** 2, rtol=1e-10)
    np.testing.assert_allclose(V.T @ V, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(np.abs(V.T @ Vt[:3].T), np.eye(3), atol=1e-8)
    assert np.all(V[np.argmax(np.abs(V), axis=0), np.arange(3)] > 0)  # sign-fixed


@pytest.mark.parametrize("values,K,gap", [
    ([10.0, 7.0, 5.6], 2, True),       # exactly GAP_RATIO: a gap
    ([10.0, 7.0, 5.61], 2, False),
    ([10.0, 9.9, 9.8], 1, False),      # a flat spectrum: no direction set apart
    ([10.0, 1.0], 1, True),
    ([10.0, 7.0], 2, False),           # nothing after the K-th: nothing to leave out
    ([0.0, 0.0, 0.0], 1, False),
])
def test_spectral_gap(values, K, gap):
    assert GAP_RATIO == 0.8
    assert has_spectral_gap(values, K) is gap


def test_the_leading_subspace_projects_on_k_directions():
    X, y = _blobs_with_spread()
    est = ToMATo(n_clusters=2, subspace="leading", random_state=0).fit(X)
    assert est.subspace_ == "leading" and est.components_.shape == (5, 2)
    np.testing.assert_allclose(est.components_.T @ est.components_, np.eye(2), atol=1e-12)
    # The leading plane is the plane of the two centres.
    assert np.linalg.norm(est.components_[2:]) < 0.2
    assert adjusted_rand_score(y, est.labels_) == 1.0
    assert {r["subspace"] for r in est.selection_} == {"leading"}
    # The same clustering as ToMATo on the projected points, with the density's dimension 2.
    same = ToMATo(n_clusters=2, subspace="full", random_state=0).fit(X @ est.components_)
    np.testing.assert_array_equal(est.labels_, same.labels_)
    np.testing.assert_array_equal(
        est.labels_, tomato(X, n_clusters=2, subspace="leading", random_state=0))


def test_auto_subspace_compares_both_when_the_spectrum_has_a_gap():
    X, _ = _blobs_with_spread()
    est = ToMATo(n_clusters=2, random_state=0).fit(X)
    assert len(est.selection_) == 24  # 2 subspaces x 2 metrics x 3 x 2 scales
    assert [r["subspace"] for r in est.selection_[:12]] == ["full"] * 12
    assert [r["subspace"] for r in est.selection_[12:]] == ["leading"] * 12
    chosen = [r for r in est.selection_ if r["resolved"]]
    best = max(chosen, key=lambda r: r["stability"])
    assert est.subspace_ == best["subspace"]
    assert (est.components_ is None) == (est.subspace_ == "full")
    fixed = ToMATo(n_clusters=2, metric="euclidean", k=8, density_k=8, random_state=0).fit(X)
    assert [r["subspace"] for r in fixed.selection_] == ["full", "leading"]


def test_no_gap_no_leading_subspace():
    # Two concentric spheres: every direction carries the same second moment, so no pair of
    # directions is set apart and a projection would cut the spheres arbitrarily.
    rng = np.random.default_rng(12)
    u = rng.normal(size=(300, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    X = u * np.repeat([1.0, 3.0], 150)[:, None]
    assert not has_spectral_gap(leading_directions(X, 2)[1], 2)
    est = ToMATo(n_clusters=2, random_state=0).fit(X)
    assert est.subspace_ == "full" and est.components_ is None
    assert {r["subspace"] for r in est.selection_} == {"full"}
    # Asked for explicitly, it is applied: the user's call.
    assert ToMATo(n_clusters=2, subspace="leading", random_state=0).fit(X).subspace_ == "leading"


def test_leading_subspace_needs_n_clusters_and_is_whole_without_more_features():
    X, _ = _blobs_with_spread()
    with pytest.raises(ValueError, match="subspace='leading'.*n_clusters"):
        ToMATo(subspace="leading").fit(X)
    est = ToMATo(n_clusters=5, subspace="leading", k=5, random_state=0).fit(X)
    assert est.subspace_ == "full" and est.components_ is None
    assert ToMATo().fit(X).subspace_ == "full"  # automatic count: the whole space
