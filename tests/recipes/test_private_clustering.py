"""PrivateClustering: the recipe as one estimator that keeps the release it clustered."""

import pickle
import warnings

import networkx as nx
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.metrics import adjusted_rand_score

from tdadp import (
    BudgetAccountant,
    BudgetError,
    PrivateClustering,
    load_release,
    make_private_clustering,
    save_release,
)
from tdadp.datasets import load_polbooks
from tdadp.graphs import graph_guarantee, graph_nodes


@pytest.fixture(scope="module")
def polbooks():
    G = load_polbooks()
    return nx.relabel_nodes(G, {v: f"book {v}" for v in G})


@pytest.mark.parametrize("clusterer", ["tomato", "kmeans", "gmm", "spectral", "spherical",
                                       "score"])
def test_same_labels_as_the_pipeline_form(polbooks, clusterer):
    model = PrivateClustering(epsilon=4.0, n_clusters=3, clusterer=clusterer, random_state=7)
    pipe = make_private_clustering(clusterer, epsilon=4.0, n_clusters=3, random_state=7)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # polbooks has no isolated node at eps 4: no warning
        labels = model.fit_predict(polbooks)
    np.testing.assert_array_equal(labels, pipe.fit_predict(polbooks))
    assert model.n_clusters_ == 3 and model.labels_.shape == (105,)


def test_the_release_is_kept_with_its_guarantee_and_names(polbooks, tmp_path):
    model = PrivateClustering(epsilon=2.0, n_clusters=3, clusterer="kmeans",
                              random_state=1).fit(polbooks)
    assert graph_guarantee(model.release_).epsilon == 2.0
    assert model.guarantee_.epsilon == 2.0
    assert graph_nodes(model.release_) == list(polbooks)
    # The published release gives back the same embedding (the sidecar states the rate).
    save_release(tmp_path / "release.csv", model.release_)
    loaded = load_release(tmp_path / "release.csv")
    assert graph_nodes(loaded) == list(polbooks)
    assert (loaded != model.release_).nnz == 0
    assert graph_guarantee(loaded).epsilon == 2.0


def test_nothing_of_the_private_graph_is_kept(polbooks):
    A = nx.to_scipy_sparse_array(polbooks, format="csr")
    model = PrivateClustering(epsilon=1.0, n_clusters=3, clusterer="kmeans",
                              random_state=3).fit(A)
    # The release differs from the input (about pi(1) = 27% of the dyads flipped) ...
    assert (model.release_ != A).nnz > 1000
    # ... and no fitted attribute holds the input.
    for value in vars(model).values():
        assert value is not A
    state = pickle.dumps(model)
    assert pickle.dumps(A) not in state


def test_pandas_output_indexes_the_embedding_by_node_names(polbooks):
    pytest.importorskip("pandas")
    model = PrivateClustering(epsilon=4.0, n_clusters=3, clusterer="kmeans", n_components=3,
                              random_state=0).set_output(transform="pandas").fit(polbooks)
    assert list(model.embedding_.index) == list(polbooks)
    assert model.embedding_.shape == (105, 3)
    plain = PrivateClustering(epsilon=4.0, n_clusters=3, clusterer="kmeans", n_components=3,
                              random_state=0).fit(polbooks)
    np.testing.assert_array_equal(model.embedding_.to_numpy(), np.asarray(plain.embedding_))
    # set_output survives clone (as for scikit-learn's transformers)
    assert list(clone(model).fit(polbooks).embedding_.index) == list(polbooks)


def test_each_fit_is_one_release_charged_before_it_is_drawn(polbooks):
    acc = BudgetAccountant(epsilon=5.0)
    model = PrivateClustering(epsilon=2.0, n_clusters=3, clusterer="kmeans", random_state=0,
                              accountant=acc)
    model.fit(polbooks)
    model.fit(polbooks)
    assert acc.spent == (4.0, 0.0)
    first = model.release_
    with pytest.raises(BudgetError):
        model.fit(polbooks)
    assert acc.spent == (4.0, 0.0)
    assert model.release_ is first  # nothing new was released
    fresh = PrivateClustering(epsilon=2.0, n_clusters=3, random_state=0, accountant=acc)
    with pytest.raises(BudgetError):
        fresh.fit(polbooks)
    assert not hasattr(fresh, "release_")


def test_isolated_nodes_are_reported_and_labelled_noise(polbooks):
    G = polbooks.copy()
    G.add_nodes_from(["hermit 1", "hermit 2", "hermit 3"])
    model = PrivateClustering(epsilon=np.inf, n_clusters=3, clusterer="kmeans",
                              n_components=3, random_state=0)
    with pytest.warns(UserWarning, match=r"^3 node\(s\) have no edge"):
        model.fit(G)
    assert model.isolated_.sum() == 3 and model.isolated_[-3:].all()
    np.testing.assert_array_equal(model.labels_[-3:], -1)
    assert (model.labels_[:-3] >= 0).all()
    # The other nodes are clustered as they would be without the isolated ones.
    alone = PrivateClustering(epsilon=np.inf, n_clusters=3, clusterer="kmeans",
                              n_components=3, random_state=0).fit(polbooks)
    assert adjusted_rand_score(alone.labels_, model.labels_[:-3]) == 1.0


def test_bad_requests_are_refused_before_anything_is_released(polbooks):
    acc = BudgetAccountant(epsilon=1.0)
    with pytest.raises(ValueError, match="needs n_clusters"):
        PrivateClustering(clusterer="kmeans", accountant=acc).fit(polbooks)
    with pytest.raises(ValueError, match="one graph, not a batch of 2"):
        PrivateClustering(n_clusters=2, accountant=acc).fit([polbooks, polbooks])
    with pytest.raises(ValueError, match="clusterer"):
        PrivateClustering(clusterer="dbscan", accountant=acc).fit(polbooks)
    with pytest.raises(ValueError, match="epsilon"):
        PrivateClustering(epsilon=0.0, accountant=acc).fit(polbooks)
    assert acc.spent == (0.0, 0.0)
    tiny = nx.empty_graph(5)
    tiny.add_edge(0, 1)
    with pytest.raises(ValueError, match="more than the 2 node"):
        PrivateClustering(epsilon=np.inf, n_clusters=3, clusterer="kmeans").fit(tiny)


def test_global_pandas_output_keeps_the_release_a_graph(polbooks):
    pytest.importorskip("pandas")
    from sklearn import config_context

    with config_context(transform_output="pandas"):
        model = PrivateClustering(epsilon=4.0, n_clusters=3, clusterer="kmeans",
                                  random_state=0).fit(polbooks)
    assert graph_nodes(model.release_) == list(polbooks)
    assert list(model.embedding_.index) == list(polbooks)
