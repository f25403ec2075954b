"""Graphs whose spectrum repeats an eigenvalue (complete graphs, disjoint cliques): the
clustering must not read rounding noise as structure, and its fitted attributes must agree."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from tdadp import EdgeFlip
from tdadp.cluster import BlockModelClustering, ToMATo
from tdadp.cluster._blockmodel import _merge_repeated


def _cliques(count, size):
    block = np.ones((size, size), dtype=np.int8) - np.eye(size, dtype=np.int8)
    return sp.block_diag([block] * count, format="csr").toarray().astype(np.int8)


def _graph(A, eps):
    """The graph itself, or its release at ``eps`` (700: essentially unchanged)."""
    return A if eps is None else EdgeFlip(epsilon=eps, random_state=0).fit_transform(A)


def _agree(model):
    kept = model.labels_[model.labels_ >= 0]
    assert model.n_clusters_ == np.unique(kept).size


@pytest.mark.parametrize("eps", [None, 700.0])
def test_a_complete_graph_is_one_cluster(eps):
    A = _cliques(1, 20)
    model = BlockModelClustering(random_state=0).fit(_graph(A, eps))
    # Eigenvalues 19 and -1 (19 times): one dimension, not a piece of the -1 eigenspace.
    assert model.n_components_ == 1
    assert model.n_clusters_ == 1 and np.all(model.labels_ == 0)


@pytest.mark.parametrize("eps", [None, 700.0])
def test_two_clusters_asked_of_a_complete_graph_are_one_with_a_warning(eps):
    A = _cliques(1, 20)
    with pytest.warns(UserWarning, match="1 distinct point"):
        model = BlockModelClustering(n_clusters=2, random_state=0).fit(_graph(A, eps))
    assert model.n_clusters_ == 1 and np.all(model.labels_ == 0)


@pytest.mark.parametrize("eps", [None, 700.0, np.inf])
def test_ten_disjoint_triangles_are_too_small_for_the_spectral_count(eps):
    # Eigenvalues 2 (ten times) and -1: the edge of an Erdos-Renyi graph of the same density
    # (30 nodes, 30 edges) is 2 sqrt(30 q (1 - q)) = 2.78, so no triangle's eigenvalue stands
    # above it: one cluster, not significant, the same whichever rounding the release brought.
    A = _cliques(10, 3)
    model = BlockModelClustering(random_state=0).fit(_graph(A, eps))
    assert model.n_clusters_ == 1 and model.significant_ is False
    assert np.all(model.labels_ == 0)


@pytest.mark.parametrize("eps", [None, 700.0])
def test_ten_clusters_asked_of_ten_triangles_are_the_triangles(eps):
    A = _cliques(10, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model = BlockModelClustering(n_clusters=10, random_state=0).fit(_graph(A, eps))
    _agree(model)
    truth = np.repeat(np.arange(10), 3)
    assert np.unique(np.column_stack([truth, model.labels_]), axis=0).shape[0] == 10


def test_the_count_is_that_of_the_labels_kept():
    # ToMATo cannot merge its graph's components: asked for 2 clusters of ten triangles it
    # made more, and was kept for its higher (more blocks) likelihood, n_clusters_ still 2.
    A = _cliques(10, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model = BlockModelClustering(n_clusters=2, n_components=4, random_state=0).fit(A)
    _agree(model)
    assert model.n_clusters_ == 2


def test_three_cliques_are_three_clusters_not_rounding_pieces():
    # The 30 nodes of a clique embed at one point up to 1e-16; ToMATo's neighbourhood graph
    # broke each into pieces at that scale (5 clusters of 12 and 18 nodes).
    A = _cliques(3, 30)
    model = BlockModelClustering(random_state=0).fit(A)
    assert model.n_components_ == 3
    assert sorted(np.bincount(model.labels_)) == [30, 30, 30]


def test_tomato_joins_the_points_tied_with_the_kth_neighbour():
    # Ten groups of three points at the rows of an orthogonal matrix (a regular simplex):
    # every other group is sqrt(2) away up to rounding, which alone chose the 5 neighbours
    # and cut the graph in two.
    Q = np.linalg.qr(np.random.default_rng(3).normal(size=(10, 10)))[0]
    X = np.repeat(Q, 3, axis=0)
    est = ToMATo(metric="euclidean", random_state=0).fit(X)
    assert est.k_ == 5
    assert est.n_connected_components_ == 1
    assert est.n_clusters_ == 1


def test_rows_equal_up_to_the_solvers_error_are_one_point():
    # float32 products leave the rows of a complete graph's nodes up to 6 times the relative
    # residual apart (K_1200: 7.8e-8, rows 4.6e-7 apart), over a boundary of any grid.
    rng = np.random.default_rng(0)
    base = np.array([0.5, -0.25, 0.125])
    rows = base + rng.uniform(-2.3e-7, 2.3e-7, size=(300, 3))
    far = base + np.array([[1e-3, 0, 0], [0, -1e-3, 0]])  # other nodes: kept to the bit
    points = np.vstack([rows, far])
    merged, n_distinct = _merge_repeated(points, 7.8e-8)
    assert n_distinct == 3
    assert np.all(merged[:300] == points[0])
    assert np.array_equal(merged[300:], far)
    # without a residual, the rounding level of a dense solve only
    assert _merge_repeated(points, 0.0)[1] == 302


@pytest.mark.slow
@pytest.mark.parametrize("sparse", [False, True])
def test_a_large_complete_graph_is_one_cluster(sparse):
    # n > 1000: the block Krylov solver; with float32 products (dense 0/1) the rows of equal
    # nodes are 4.6e-7 apart; with float64 ones (sparse) its basis lost orthogonality and the
    # top eigenvalue grew with every product (33,000 after the scan's 32).
    A = _cliques(1, 1200)
    model = BlockModelClustering(random_state=0).fit(sp.csr_matrix(A) if sparse else A)
    assert model.n_components_ == 1
    # the squared rows add up to the eigenvalue (float32 products: to about 1e-5)
    assert np.sum(np.asarray(model.embedding_) ** 2) == pytest.approx(1199, rel=1e-5)
    assert model.n_clusters_ == 1 and np.all(model.labels_ == 0)
