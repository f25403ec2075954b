"""Nodes isolated in the embedded graph: reported, left out of the fit and labelled -1."""

import warnings

import numpy as np
import pytest

from tdadp import AdjacencySpectralEmbedding, LatentPositions, from_networkx
from tdadp.cluster import BICGaussianMixture, ToMATo
from tdadp.datasets import load_polbooks

ISOLATED = ["isolated 1", "isolated 2", "isolated 3"]


@pytest.fixture(scope="module")
def embedding():
    """Political books (105 nodes) plus 3 isolated nodes, embedded in 3 dimensions."""
    G = load_polbooks()
    G.add_nodes_from(ISOLATED)
    X = AdjacencySpectralEmbedding(n_components=3).fit_transform(from_networkx(G))
    assert int(X.isolated.sum()) == 3
    return X


@pytest.fixture(scope="module")
def frame():
    G = load_polbooks()
    G.add_nodes_from(ISOLATED)
    est = AdjacencySpectralEmbedding(n_components=3).set_output(transform="pandas")
    return est.fit_transform(G)


CLUSTERERS = [
    lambda: ToMATo(n_clusters=3, random_state=0),
    # The count and covariance search is tested elsewhere; here only the rows matter.
    lambda: BICGaussianMixture(n_clusters=3, covariance_types=("full",), random_state=0),
]


@pytest.mark.parametrize("make", CLUSTERERS, ids=["tomato", "gmm"])
def test_isolated_rows_are_labelled_noise_and_the_rest_fitted_alone(embedding, make):
    X = embedding
    with pytest.warns(UserWarning, match=r"\b3\b.*isolated.*-1") as record:
        est = make().fit(X)
    assert len([w for w in record if "isolated" in str(w.message)]) == 1
    assert (est.labels_[X.isolated] == -1).all()
    assert (est.labels_[~X.isolated] >= 0).all()
    np.testing.assert_array_equal(est.isolated_, X.isolated)
    # The other rows get exactly the labels of a fit on them alone.
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a plain array marks nothing: no warning
        alone = make().fit(np.asarray(X)[~X.isolated])
    np.testing.assert_array_equal(est.labels_[~X.isolated], alone.labels_)
    assert est.n_clusters_ == alone.n_clusters_
    with pytest.warns(UserWarning, match="3 of the 108 nodes"):
        np.testing.assert_array_equal(make().fit_predict(X), est.labels_)


def test_tomato_keeps_its_fitted_attributes_consistent(embedding):
    X = embedding
    with pytest.warns(UserWarning, match="isolated"):
        est = ToMATo(n_clusters=3, random_state=0).fit(X)
    alone = ToMATo(n_clusters=3, random_state=0).fit(np.asarray(X)[~X.isolated])
    kept = np.flatnonzero(~X.isolated)
    assert est.density_.shape == (108,) and np.isnan(est.density_[X.isolated]).all()
    np.testing.assert_array_equal(est.density_[kept], alone.density_)
    np.testing.assert_array_equal(est.modes_, kept[alone.modes_])  # rows of X
    assert not X.isolated[est.modes_].any()
    np.testing.assert_array_equal(est.diagram_, alone.diagram_)
    # A re-cut labels the isolated rows -1 too.
    labels = est.recut(n_clusters=2)
    assert (labels[X.isolated] == -1).all() and set(labels[~X.isolated]) == {0, 1}
    assert est.n_features_in_ == 3


@pytest.mark.parametrize("make", CLUSTERERS, ids=["tomato", "gmm"])
def test_a_dataframe_carries_the_isolated_nodes_in_its_attrs(frame, make):
    with pytest.warns(UserWarning, match=r"\b3\b.*isolated"):
        est = make().fit(frame)
    isolated = frame.index.isin(ISOLATED)
    assert (est.labels_[isolated] == -1).all() and (est.labels_[~isolated] >= 0).all()


def test_the_automatic_tomato_count_skips_isolated_rows(embedding):
    X = embedding
    with pytest.warns(UserWarning, match="isolated"):
        est = ToMATo(n_bootstrap=20, random_state=0).fit(X)
    alone = ToMATo(n_bootstrap=20, random_state=0).fit(np.asarray(X)[~X.isolated])
    np.testing.assert_array_equal(est.labels_[~X.isolated], alone.labels_)
    assert est.confidence_band_ == alone.confidence_band_


def test_gmm_predict_labels_isolated_rows_noise(embedding):
    X = embedding
    with pytest.warns(UserWarning, match="isolated"):
        est = BICGaussianMixture(n_clusters=2, random_state=0).fit(X)
    with pytest.warns(UserWarning, match="3 of the 108"):
        labels = est.predict(X)
    np.testing.assert_array_equal(labels, est.labels_)
    # Every row isolated: nothing for the mixture to score, all noise.
    with pytest.warns(UserWarning, match="3 of the 3"):
        assert est.predict(X[X.isolated]).tolist() == [-1, -1, -1]


@pytest.mark.parametrize("make", CLUSTERERS, ids=["tomato", "gmm"])
def test_fewer_than_two_nodes_left_is_refused(embedding, make):
    X = embedding
    rows = np.flatnonzero(X.isolated).tolist() + [0]  # 3 isolated nodes and 1 other
    with pytest.raises(ValueError, match="3 of the 4 nodes are isolated.*leaves 1"):
        make().fit(X[rows])


@pytest.mark.parametrize("make", CLUSTERERS, ids=["tomato", "gmm"])
def test_a_point_cloud_with_points_at_the_origin_is_unchanged(make):
    rng = np.random.default_rng(0)
    X = np.concatenate([rng.normal(0, 0.3, (100, 2)), rng.normal(3, 0.3, (100, 2))])
    X[:3] = 0.0  # legitimate points at the origin
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plain = make().fit(X)
        # A mask with no isolated node changes nothing either, bit for bit.
        marked = make().fit(LatentPositions(X, isolated=np.zeros(200, dtype=bool)))
    assert (plain.labels_ >= 0).all()
    np.testing.assert_array_equal(marked.labels_, plain.labels_)
    assert not plain.isolated_.any()
