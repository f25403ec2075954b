"""Clusterers on 2 and 3 nodes: an answer, or a ValueError naming the size; never a
third-party library's internal error (a kNN asking for 10 neighbours of 2 points)."""

import re
import warnings

import numpy as np
import pytest

from tdadp import EdgeFlip
from tdadp.cluster import EMBEDDING_CLUSTERERS, BlockModelClustering, make_clusterer


def _cloud(n):
    # Points in general position (a square 2 x 2 cloud too, which scikit-learn's spectral
    # clustering took for an affinity matrix).
    return np.array([[0.0, 1.0], [2.0, 0.5], [1.0, 3.0]])[:n]


def _agree(model):
    kept = model.labels_[model.labels_ >= 0]
    if hasattr(model, "n_clusters_"):
        assert model.n_clusters_ == np.unique(kept).size


@pytest.mark.parametrize("name", EMBEDDING_CLUSTERERS)
@pytest.mark.parametrize("n", [2, 3])
def test_every_clusterer_takes_as_many_clusters_as_points(name, n):
    for K in range(1, n + 1):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # e.g. ToMATo: fewer modes than K
            model = make_clusterer(name, K, 0).fit(_cloud(n))
        assert model.labels_.shape == (n,)
        _agree(model)


@pytest.mark.parametrize("name", EMBEDDING_CLUSTERERS)
@pytest.mark.parametrize("n", [2, 3])
def test_more_clusters_than_points_is_a_value_error_naming_the_size(name, n):
    with pytest.raises(ValueError, match=rf"\b{n}\b"):
        make_clusterer(name, n + 1, 0).fit(_cloud(n))


def test_spectral_clustering_each_point_its_own_cluster():
    model = make_clusterer("spectral", 3, 0).fit(_cloud(3))
    assert sorted(model.labels_) == [0, 1, 2]
    assert model.n_neighbors_ == 3 and model.affinity_matrix_.shape == (3, 3)
    assert model.get_params()["n_neighbors"] == 10  # the parameter is left as given


@pytest.mark.parametrize("eps", [np.inf, 2.0])
@pytest.mark.parametrize("n_clusters", [None, 1, 2])
def test_block_model_clustering_of_two_nodes(eps, n_clusters):
    A = np.array([[0, 1], [1, 0]], dtype=np.int8)
    release = EdgeFlip(epsilon=eps, random_state=0).fit_transform(A)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model = BlockModelClustering(n_clusters=n_clusters, random_state=0).fit(release)
    assert model.labels_.shape == (2,)
    _agree(model)


@pytest.mark.parametrize("n_clusters", [None, 1, 2, 3])
def test_block_model_clustering_of_a_three_node_path(n_clusters):
    A = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=np.int8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model = BlockModelClustering(n_clusters=n_clusters, random_state=0).fit(A)
    _agree(model)
    if n_clusters is not None:
        # The two ends have the same neighbour: one point of the embedding, one cluster.
        assert model.n_clusters_ == min(n_clusters, 2)
        assert model.labels_[0] == model.labels_[2]


def test_more_clusters_than_nodes_is_refused_by_name():
    A = np.array([[0, 1], [1, 0]], dtype=np.int8)
    with pytest.raises(ValueError, match=re.escape("n_clusters=3 is more than the 2")):
        BlockModelClustering(n_clusters=3).fit(A)
