"""Topology stages end in scikit-learn: precomputed-metric models on diagram distances.

A sample is a whole point cloud (then a whole diagram): scikit-learn's Pipeline and
cross_val_score index a list (or a 3-D array) of clouds by cloud, PersistentHomology maps
them to a list of diagrams, and PairwiseDistance turns those into the (n_samples, n_fitted)
distance matrix a precomputed-metric estimator takes.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn import config_context
from sklearn.cluster import AgglomerativeClustering
from sklearn.manifold import MDS
from sklearn.metrics import adjusted_rand_score
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline

from tdadp.topology import PairwiseDistance, PersistentHomology, pairwise_distance


def _classifier():
    return make_pipeline(PersistentHomology(complex="alpha", homology_dimensions=1),
                         PairwiseDistance(homology_dimensions=1),
                         KNeighborsClassifier(n_neighbors=1, metric="precomputed"))


@pytest.mark.parametrize("container", [list, np.stack], ids=["list", "3-D array"])
def test_cross_validated_nearest_neighbour_on_diagrams_beats_chance(container, make_clouds):
    clouds, y = make_clouds()
    scores = cross_val_score(_classifier(), container(clouds), y, cv=5)
    assert scores.shape == (5,)
    assert scores.mean() >= 0.9  # chance is 0.5 on these balanced classes


def test_transform_is_test_by_train_distances(make_clouds):
    clouds, y = make_clouds(n_clouds=8)
    pipe = _classifier().fit(clouds[:6], y[:6])
    D = pipe[:-1].transform(clouds[6:])
    assert D.shape == (2, 6)
    expected = pairwise_distance(PersistentHomology(complex="alpha", homology_dimensions=1)
                                 .fit_transform(clouds[6:]),
                                 PersistentHomology(complex="alpha", homology_dimensions=1)
                                 .fit_transform(clouds[:6]), homology_dimensions=1)[1]
    np.testing.assert_array_equal(D, expected)
    np.testing.assert_array_equal(pipe.predict(clouds[6:]), y[6:])


def test_fit_transform_feeds_mds_and_agglomerative_clustering(make_clouds):
    clouds, y = make_clouds(n_clouds=12)
    diagrams = PersistentHomology(complex="alpha", homology_dimensions=1).fit_transform(clouds)
    D = PairwiseDistance(homology_dimensions=1).fit_transform(diagrams)
    assert D.shape == (12, 12)
    np.testing.assert_array_equal(D, D.T)
    np.testing.assert_array_equal(np.diag(D), 0.0)
    labels = AgglomerativeClustering(n_clusters=2, metric="precomputed",
                                     linkage="average").fit_predict(D)
    assert adjusted_rand_score(y, labels) == 1.0
    Z = MDS(n_components=2, metric="precomputed", init="classical_mds",
            n_init=1).fit_transform(D)
    assert Z.shape == (12, 2) and np.isfinite(Z).all()


def test_order_none_stacks_several_dimensions_on_the_last_axis(make_clouds):
    clouds, _ = make_clouds(n_clouds=4)
    diagrams = PersistentHomology(complex="alpha").fit_transform(clouds)
    est = PairwiseDistance(homology_dimensions=(1, 0), order=None)
    out = est.fit(diagrams).transform(diagrams[:3])
    assert est.homology_dimensions_ == (0, 1)
    assert out.shape == (3, 4, 2)
    by_dim = pairwise_distance(diagrams[:3], diagrams)
    for a, k in enumerate(est.homology_dimensions_):
        np.testing.assert_array_equal(out[..., a], by_dim[k])
    # one diagram is one sample
    assert est.transform(diagrams[0]).shape == (1, 4, 2)


def test_pandas_output_for_one_dimension_names_the_fitted_diagrams(make_clouds):
    clouds, y = make_clouds(n_clouds=6)
    diagrams = PersistentHomology(complex="alpha", homology_dimensions=1).fit_transform(clouds)
    est = PairwiseDistance(homology_dimensions=1).set_output(transform="pandas")
    out = est.fit(diagrams).transform(diagrams[:2])
    assert isinstance(out, pd.DataFrame) and out.shape == (2, 6)
    assert list(out.columns) == [f"pairwisedistance{i}" for i in range(6)]
    assert list(est.get_feature_names_out()) == list(out.columns)
    np.testing.assert_array_equal(out.to_numpy(), PairwiseDistance(homology_dimensions=1)
                                  .fit(diagrams).transform(diagrams[:2]))
    # Pipeline.set_output reaches it through PersistentHomology, whose diagrams become
    # DataFrames that PairwiseDistance reads back as diagrams
    pipe = make_pipeline(PersistentHomology(complex="alpha", homology_dimensions=1),
                         PairwiseDistance(homology_dimensions=1)).set_output(transform="pandas")
    assert isinstance(pipe.fit_transform(clouds), pd.DataFrame)
    assert list(pipe[-1].get_feature_names_out()) == list(out.columns)
    # and so does the global configuration
    with config_context(transform_output="pandas"):
        assert isinstance(PairwiseDistance(homology_dimensions=1).fit_transform(diagrams),
                          pd.DataFrame)


def test_pandas_output_of_the_3d_array_is_refused_clearly(make_clouds):
    clouds, _ = make_clouds(n_clouds=4)
    diagrams = PersistentHomology(complex="alpha").fit_transform(clouds)
    est = PairwiseDistance(order=None).set_output(transform="pandas")
    with pytest.raises(ValueError, match="3-D array"):
        est.fit_transform(diagrams)
    est.set_output(transform="default")
    est.fit(diagrams)
    with pytest.raises(ValueError, match="homology_dimensions=k"):
        est.get_feature_names_out()
    fresh = PairwiseDistance(order=None).fit(diagrams)
    with config_context(transform_output="pandas"), pytest.raises(ValueError, match="3-D"):
        fresh.transform(diagrams)
    # As in scikit-learn, an explicit setting ("default" too) wins over the global one.
    with config_context(transform_output="pandas"):
        assert est.transform(diagrams).shape == (4, 4, 2)
    assert fresh.transform(diagrams).shape == (4, 4, 2)  # the default output is unchanged
