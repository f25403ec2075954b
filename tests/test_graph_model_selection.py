"""Graph pipelines under scikit-learn's model selection, on real networks, with no wrapper.

A sample is one whole graph: ``cross_val_score``, ``GridSearchCV`` and ``cross_val_predict``
index a list of graphs by graph. (With the ``pairwise`` tag the graph stages used to declare,
they sliced the list as a kernel matrix and refused it.) The graphs are BFS balls of 60 nodes
from two real networks shipped in ``tdadp.datasets``, polblogs and polbooks; the pipeline
releases each under edgeFlip, embeds it with the privacy adjustment, takes its H0 diagram and
classifies by 1-nearest neighbour on bottleneck distances.
"""

import networkx as nx
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, KFold, cross_val_predict, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline

import tdadp
from tdadp.datasets import load_polblogs, load_polbooks
from tdadp.topology import PairwiseDistance, PersistentHomology


def _balls(G, k, size, seed):
    rng = np.random.default_rng(seed)
    nodes = list(G)
    out = []
    while len(out) < k:
        ball = list(nx.bfs_tree(G, nodes[rng.integers(len(nodes))], depth_limit=3))[:size]
        if len(ball) == size:
            out.append(nx.convert_node_labels_to_integers(G.subgraph(ball).copy()))
    return out


@pytest.fixture(scope="module")
def graphs():
    X = (_balls(load_polblogs(largest_component=True), 8, 60, 0)
         + _balls(load_polbooks(), 8, 60, 1))
    return X, np.array([0] * 8 + [1] * 8)


def _pipeline():
    return make_pipeline(tdadp.EdgeFlip(4.0, random_state=0),
                         tdadp.AdjacencySpectralEmbedding(n_components=2, adjust=True),
                         PersistentHomology(complex="alpha", homology_dimensions=0),
                         PairwiseDistance(homology_dimensions=0),
                         KNeighborsClassifier(n_neighbors=1, metric="precomputed"))


def test_cross_validation_splits_a_list_of_graphs_by_graph(graphs):
    X, y = graphs
    cv = KFold(4, shuffle=True, random_state=0)
    scores = cross_val_score(_pipeline(), X, y, cv=cv, error_score="raise")
    # The same folds by hand: fit on the training graphs, score on the held-out graphs.
    manual = [clone(_pipeline()).fit([X[i] for i in train], y[train])
              .score([X[i] for i in test], y[test]) for train, test in cv.split(X)]
    np.testing.assert_array_equal(scores, manual)


def test_grid_search_over_the_release_and_the_embedding(graphs):
    X, y = graphs
    grid = {"edgeflip__epsilon": [2.0, 4.0],
            "adjacencyspectralembedding__n_components": [2, 3]}
    search = GridSearchCV(_pipeline(), grid, cv=2, error_score="raise").fit(X, y)
    assert len(search.cv_results_["params"]) == 4
    assert search.best_params_ in search.cv_results_["params"]
    assert search.predict(X[:3]).shape == (3,)


def test_cross_val_predict_labels_every_graph(graphs):
    X, y = graphs
    predicted = cross_val_predict(_pipeline(), X, y, cv=4)
    assert predicted.shape == y.shape and set(predicted) <= {0, 1}
