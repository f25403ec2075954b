"""Node clustering of private networks: ToMATo against k-means and spectral clustering."""

import io

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.pipeline import make_pipeline

from tdadp import (
    AdjacencySpectralEmbedding,
    EdgeFlip,
    make_private_clustering,
    sample_grdpg,
    sbm,
    two_circles,
)
from tdadp.cluster import ToMATo, clustering_scores
from tdadp.io import read_edgelist, to_networkx


def _two_circles_graph(n_nodes, seed):
    X = two_circles(n_nodes, random_state=seed)
    return X.labels, sample_grdpg(X, random_state=seed + 1, sparse=True)


def _compare_on_two_circles(n_nodes, seed, n_clusters):
    y, A = _two_circles_graph(n_nodes, seed)
    tom = make_private_clustering("tomato", epsilon=2.0, n_clusters=n_clusters,
                                  random_state=seed + 2)
    km = make_private_clustering("kmeans", epsilon=2.0, n_clusters=2, random_state=seed + 2)
    return (clustering_scores(y, tom.fit_predict(A)), clustering_scores(y, km.fit_predict(A)),
            tom)


@pytest.mark.parametrize("seed", [0, 1])
def test_two_circles_tomato_beats_kmeans_default_size(seed):
    # At 1,200 + 400 nodes the valley between the embedded rings is shallow: ToMATo separates
    # them given the number of clusters (the automatic cut needs about 2,100 + 700 nodes).
    tom, km, _ = _compare_on_two_circles((1200, 400), seed, n_clusters=2)
    assert tom["ari"] >= 0.9
    assert km["ari"] < 0.1


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_two_circles_full_size_automatic(seed):
    tom, km, pipe = _compare_on_two_circles((3000, 1000), seed, n_clusters=None)
    assert pipe[-1].n_clusters_ == 2
    assert tom["ari"] >= 0.9 and tom["misclassification"] < 0.02
    assert km["ari"] < 0.1


def test_two_circles_spectral_clustering_baseline_small():
    # scikit-learn's spectral clustering (10-nearest-neighbour affinity) does not find the
    # shallow valley at this size, where ToMATo does (test above).
    y, A = _two_circles_graph((1200, 400), 0)
    pipe = make_private_clustering("spectral", epsilon=2.0, n_clusters=2, random_state=2)
    labels = pipe.fit_predict(A)
    assert labels.shape == y.shape
    assert clustering_scores(y, labels)["ari"] < 0.5


@pytest.mark.slow
def test_two_circles_spectral_clustering_baseline_full_size():
    # At full size the rings are well apart and the graph-based baseline separates them too.
    y, A = _two_circles_graph((3000, 1000), 0)
    pipe = make_private_clustering("spectral", epsilon=2.0, n_clusters=2, random_state=2)
    assert clustering_scores(y, pipe.fit_predict(A))["ari"] >= 0.9


B3 = [[0.5, 0.2, 0.2], [0.2, 0.5, 0.2], [0.2, 0.2, 0.5]]


@pytest.mark.parametrize("seed", [0, 1])
def test_three_block_sbm_automatic_count(seed):
    X = sbm([300, 300, 300], B3, random_state=seed)
    A = sample_grdpg(X, random_state=seed + 10)
    pipe = make_private_clustering("tomato", epsilon=2.0, n_components=3, random_state=seed)
    labels = pipe.fit_predict(A)
    assert pipe[-1].n_clusters_ == 3
    assert clustering_scores(X.labels, labels)["ari"] > 0.95


@pytest.fixture(scope="module")
def small_sbm():
    X = sbm([120, 120], [[0.6, 0.1], [0.1, 0.6]], random_state=0)
    return X.labels, sample_grdpg(X, random_state=1)


def _issue_pipeline():
    return make_pipeline(EdgeFlip(1.0, random_state=0),
                         AdjacencySpectralEmbedding(n_components=3, adjust=True), ToMATo())


def test_pipeline_on_dense_sparse_networkx_and_edgelist(small_sbm):
    import scipy.sparse as sp

    y, A = small_sbm
    A = np.asarray(A)
    dense = _issue_pipeline().fit_predict(A)
    assert dense.shape == (240,)
    assert clustering_scores(y, dense)["ari"] > 0.9
    sparse = _issue_pipeline().fit_predict(sp.csr_matrix(A))
    assert sparse.shape == (240,)
    assert clustering_scores(y, sparse)["ari"] > 0.9
    G = to_networkx(A)
    from_graph = _issue_pipeline().fit_predict(G)
    assert from_graph.shape == (240,)
    assert clustering_scores(y, from_graph)["ari"] > 0.9
    rows, cols = np.nonzero(np.triu(A))
    text = io.StringIO("".join(f"n{r} n{c}\n" for r, c in zip(rows, cols)))
    B, nodes = read_edgelist(text, return_nodes=True, node_order="first_seen")
    labels = _issue_pipeline().fit_predict(B)
    assert labels.shape == (len(nodes),)
    order = np.array([int(n[1:]) for n in nodes])
    assert clustering_scores(y[order], labels)["ari"] > 0.9


def test_baselines_share_the_private_graph(small_sbm):
    y, A = small_sbm
    pipes = {c: make_private_clustering(c, epsilon=2.0, n_components=2, n_clusters=2,
                                        random_state=5)
             for c in ("tomato", "kmeans", "spectral")}
    embeddings = [p[:-1].fit_transform(A) for p in pipes.values()]
    for Y in embeddings[1:]:
        np.testing.assert_array_equal(Y, embeddings[0])
    for c, p in pipes.items():
        assert clustering_scores(y, p.fit_predict(A))["ari"] > 0.9, c
    assert isinstance(pipes["kmeans"][-1], KMeans)


def test_set_params_on_the_mechanism_is_all_it_takes(small_sbm):
    _, A = small_sbm
    moved = make_private_clustering("kmeans", epsilon=1.0, n_components=2, n_clusters=2,
                                    random_state=3)
    moved.fit_predict(A)
    moved.set_params(mechanism__epsilon=2.0)
    built = make_private_clustering("kmeans", epsilon=2.0, n_components=2, n_clusters=2,
                                    random_state=3)
    np.testing.assert_array_equal(moved.fit_predict(A), built.fit_predict(A))
    np.testing.assert_array_equal(moved[:-1].transform(A), built[:-1].transform(A))
    assert moved.named_steps["embedding"].flip_probability_ == EdgeFlip(2.0).fit().flip_probability_
    assert moved.named_steps["embedding"].epsilon is None   # no second copy of the budget


def test_mismatching_explicit_epsilon_raises(small_sbm):
    _, A = small_sbm
    pipe = make_pipeline(EdgeFlip(2.0, random_state=0),
                         AdjacencySpectralEmbedding(n_components=2, epsilon=1.0))
    with pytest.raises(ValueError, match="epsilon"):
        pipe.fit_transform(A)


def test_make_private_clustering_bad_arguments():
    with pytest.raises(ValueError, match="'clusterer'.*got 'dbscan'"):
        make_private_clustering("dbscan", epsilon=1.0)
    with pytest.raises(ValueError, match="needs n_clusters"):
        make_private_clustering("kmeans", epsilon=1.0)


@pytest.mark.parametrize("bad", [
    dict(epsilon=-1), dict(epsilon=0.0), dict(epsilon=float("nan")), dict(epsilon="1"),
    dict(epsilon=1j), dict(epsilon=None), dict(n_components=0), dict(n_components=2.5),
    dict(n_clusters=0), dict(random_state="os"), dict(random_state=-1)])
def test_make_private_clustering_validates_when_it_builds(bad):
    name = next(iter(bad))
    arguments = dict(epsilon=1.0, **{k: v for k, v in bad.items() if k != "epsilon"})
    if name == "epsilon":
        arguments["epsilon"] = bad["epsilon"]
    with pytest.raises(ValueError, match=f"'{name}' parameter of make_private_clustering"):
        make_private_clustering("tomato", **arguments)
