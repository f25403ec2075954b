"""BlockModelClustering: the partition, of several clusterers', under which the (released)
network is most likely as a degree-corrected block model."""

import pickle
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import expit

from tdadp import EdgeFlip, PrivateClustering, sample_grdpg, sbm
from tdadp.cluster import BlockModelClustering, block_model_loglik, clustering_scores
from tdadp.graphs import graph_guarantee


def _dcsbm(sizes, B, theta, seed):
    """A degree-corrected block model: P_ij = theta_i theta_j B_{z_i z_j}."""
    rng = np.random.default_rng(seed)
    z = np.repeat(np.arange(len(sizes)), sizes)
    P = np.clip(np.outer(theta, theta) * np.asarray(B)[np.ix_(z, z)], 0, 1)
    upper = np.triu(rng.random(P.shape) < P, 1)
    return (upper | upper.T).astype(np.int8), z


def _kn_by_hand(A, z, pi):
    """Karrer-Newman's profile log-likelihood from the dense adjusted matrix."""
    n = A.shape[0]
    adj = (A - pi * (np.ones((n, n)) - np.eye(n))) / (1 - 2 * pi)
    K = z.max() + 1
    M = np.array([[adj[np.ix_(z == r, z == s)].sum() for s in range(K)] for r in range(K)])
    M = np.clip(M, 0, None)
    kappa = M.sum(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(M > 0, M * np.log(M / np.outer(kappa, kappa)), 0.0)
    return terms.sum()


@pytest.fixture(scope="module")
def sbm_graph():
    X = sbm([40, 30, 30], [[0.6, 0.1, 0.1], [0.1, 0.5, 0.15], [0.1, 0.15, 0.55]],
            random_state=0)
    return sample_grdpg(X, random_state=1), np.repeat([0, 1, 2], [40, 30, 30])


@pytest.mark.parametrize("eps", [2.0, np.inf])
def test_the_score_is_karrer_newman_on_the_adjusted_counts(sbm_graph, eps):
    A, z = sbm_graph
    release = EdgeFlip(eps, random_state=3).fit_transform(A)
    pi = float(expit(-eps)) if np.isfinite(eps) else 0.0
    dense = np.asarray(release, dtype=float)
    for labels in (z, np.random.default_rng(0).integers(0, 3, z.size)):
        expected = _kn_by_hand(dense, labels, pi)
        assert block_model_loglik(release, labels) == pytest.approx(expected, rel=1e-10)
        assert block_model_loglik(sp.csr_matrix(release), labels, epsilon=eps
                                  if np.isfinite(eps) else None) == pytest.approx(
            expected if np.isfinite(eps) else _kn_by_hand(dense, labels, 0.0), rel=1e-10)


def test_the_score_ignores_label_names_and_prefers_the_truth(sbm_graph):
    A, z = sbm_graph
    perm = np.array([2, 0, 1])[z]
    assert block_model_loglik(A, perm) == pytest.approx(block_model_loglik(A, z))
    shuffled = np.random.default_rng(1).permutation(z)
    assert block_model_loglik(A, z) > block_model_loglik(A, shuffled) + 100


def test_nodes_left_out_do_not_count(sbm_graph):
    A, z = sbm_graph
    kept = z.copy()
    kept[:5] = -1
    sub = np.asarray(A)[5:, 5:]
    assert block_model_loglik(A, kept) == pytest.approx(block_model_loglik(sub, z[5:]))


@pytest.mark.parametrize("labels,match", [
    (np.zeros(99, dtype=int), "100 nodes"),
    (np.zeros(100), "integers"),
    (np.full(100, -2), "integers"),
])
def test_bad_labels_are_refused(sbm_graph, labels, match):
    with pytest.raises(ValueError, match=match):
        block_model_loglik(sbm_graph[0], labels)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_degree_corrected_network_gets_a_direction_partition(seed):
    # Degree parameters spread over a factor of 20 within each block: k-means splits the
    # embedding by degree; the selection keeps a partition by direction (spherical k-means,
    # the degree-normalised Laplacian) or by modularity.
    rng = np.random.default_rng(seed)
    theta = np.exp(rng.uniform(np.log(0.05), 0.0, 400))
    A, z = _dcsbm([200, 200], [[1.0, 0.2], [0.2, 1.0]], theta, seed=seed + 10)
    model = BlockModelClustering(n_clusters=2, random_state=0).fit(
        EdgeFlip(6.0, random_state=seed).fit_transform(A))
    ari = {k: clustering_scores(z, v)["ari"] for k, v in model.candidate_labels_.items()}
    chosen = clustering_scores(z, model.labels_)["ari"]
    assert chosen >= max(ari.values()) - 0.05 and chosen > 0.8, (model.selected_, ari)
    assert ari["kmeans"] < 0.3, ari  # the choice mattered


def test_the_kept_partition_is_the_most_likely_candidate(sbm_graph):
    A, z = sbm_graph
    release = EdgeFlip(3.0, random_state=2).fit_transform(A)
    model = BlockModelClustering(n_clusters=3, random_state=0).fit(release)
    assert set(model.scores_) == set(model.candidates) == set(model.candidate_labels_)
    assert model.selected_ == max(model.scores_, key=model.scores_.get)
    np.testing.assert_array_equal(model.labels_, model.candidate_labels_[model.selected_])
    for name, labels in model.candidate_labels_.items():
        assert model.scores_[name] == pytest.approx(block_model_loglik(release, labels))  # no -1
    assert model.flip_probability_ == pytest.approx(expit(-3.0))
    assert model.n_clusters_ == 3 and model.significant_ is None
    assert clustering_scores(z, model.labels_)["ari"] > 0.9


@pytest.mark.parametrize("name", ["tomato", "kmeans", "gmm", "spectral", "spherical"])
def test_candidates_are_the_recipes_clusterers(sbm_graph, name):
    # Same release, same seed, same embedding (d = K): each embedding candidate's labels are
    # those of the recipe with it alone.
    A, _ = sbm_graph
    alone = PrivateClustering(epsilon=3.0, n_clusters=3, n_components=3, clusterer=name,
                              random_state=7).fit(A)
    default = PrivateClustering(epsilon=3.0, n_clusters=3, random_state=7,
                                clusterer_params={"candidates": (name,)}).fit(A)
    np.testing.assert_array_equal(default.clusterer_.candidate_labels_[name], alone.labels_)
    np.testing.assert_allclose(np.asarray(default.embedding_), np.asarray(alone.embedding_))


def test_a_release_without_its_guarantee_takes_epsilon(sbm_graph):
    A, _ = sbm_graph
    release = EdgeFlip(2.0, random_state=1).fit_transform(A)
    bare = np.array(release)
    assert graph_guarantee(bare) is None
    a = BlockModelClustering(n_clusters=3, random_state=0).fit(release)
    b = BlockModelClustering(n_clusters=3, epsilon=2.0, random_state=0).fit(bare)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert a.scores_ == pytest.approx(b.scores_)


def test_the_automatic_count_and_no_structure():
    A, _ = _dcsbm([60, 60], [[0.5, 0.05], [0.05, 0.5]], np.ones(120), seed=0)
    model = BlockModelClustering(random_state=0).fit(A)
    assert model.n_clusters_ == 2 and model.significant_ is True
    rng = np.random.default_rng(0)
    upper = np.triu(rng.random((120, 120)) < 0.1, 1)
    er = (upper | upper.T).astype(np.int8)
    model = BlockModelClustering(random_state=0).fit(er)
    assert model.n_clusters_ == 1 and model.significant_ is False
    assert model.selected_ is None and (model.labels_ == 0).all()


def test_isolated_nodes_are_noise(sbm_graph):
    A = np.asarray(sbm_graph[0]).copy()
    A[:3] = 0
    A[:, :3] = 0
    with pytest.warns(UserWarning, match="3 node"):
        model = BlockModelClustering(n_clusters=3, random_state=0).fit(A)
    assert (model.labels_[:3] == -1).all() and (model.labels_[3:] >= 0).all()
    assert model.isolated_[:3].all() and not model.isolated_[3:].any()


@pytest.mark.parametrize("params,match", [
    (dict(candidates=("kmeans", "nope")), "candidates"),
    (dict(candidates=()), "candidates"),
    (dict(candidates=("kmeans", "kmeans")), "candidates"),
    (dict(n_clusters=101), "n_clusters=101"),
])
def test_bad_settings_are_refused(sbm_graph, params, match):
    with pytest.raises(ValueError, match=match):
        BlockModelClustering(**params).fit(sbm_graph[0])


def test_the_warnings_of_candidates_not_kept_are_not_shown(sbm_graph):
    A, _ = sbm_graph
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = BlockModelClustering(n_clusters=3, random_state=0).fit(A)
    for w in caught:
        assert str(w.message).startswith(f"{model.selected_} (the partition kept)"), w.message


def test_it_pickles_without_the_graph(sbm_graph):
    A, _ = sbm_graph
    model = BlockModelClustering(n_clusters=3, candidates=("kmeans",), random_state=0).fit(A)
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.labels_, model.labels_)
    assert not any(isinstance(v, (np.ndarray, sp.spmatrix)) and v.shape == (100, 100)
                   for v in vars(model).values())


def test_a_candidates_noise_stays_noise(sbm_graph, monkeypatch):
    # A candidate may leave points out (-1): they stay out, not renumbered into a cluster.
    from tdadp.cluster import _blockmodel

    class Some:
        def __init__(self, **params):
            pass

        def fit(self, X):
            self.labels_ = np.where(np.arange(len(X)) < 5, -1, np.arange(len(X)) % 2 + 3)
            return self

    monkeypatch.setattr(_blockmodel, "make_clusterer", lambda *a, **k: Some())
    model = BlockModelClustering(n_clusters=2, candidates=("kmeans",)).fit(sbm_graph[0])
    assert (model.labels_[:5] == -1).all()
    assert set(model.labels_[5:]) == {0, 1}
