"""The Gaussian mixture baseline, chosen by BIC."""

import numpy as np
import pytest
from sklearn.base import clone

from tdadp import make_private_clustering, sample_grdpg, sbm
from tdadp.cluster import BICGaussianMixture, clustering_scores


def _blobs(seed=0):
    rng = np.random.default_rng(seed)
    X = np.concatenate([rng.normal(0, 0.3, (120, 2)), rng.normal(3, 0.3, (80, 2)),
                        rng.normal((0, 4), 0.3, (100, 2))])
    return X, np.repeat([0, 1, 2], [120, 80, 100])


def test_bic_chooses_the_number_of_components():
    X, y = _blobs()
    est = BICGaussianMixture(random_state=0).fit(X)
    assert est.n_clusters_ == 3
    assert clustering_scores(y, est.labels_)["ari"] == 1.0
    assert set(est.bic_) == {(c, k) for c in ("full", "tied", "diag", "spherical")
                             for k in range(1, 11)}
    assert est.bic_[(est.covariance_type_, 3)] == min(est.bic_.values())
    np.testing.assert_array_equal(est.predict(X), est.labels_)


def test_regularisation_is_relative_to_the_scale_of_the_data():
    X, _ = _blobs(2)
    a = BICGaussianMixture(random_state=0).fit(X)
    b = BICGaussianMixture(random_state=0).fit(1000.0 * X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert (a.n_clusters_, a.covariance_type_) == (b.n_clusters_, b.covariance_type_)


def test_a_given_number_of_components_and_reproducibility():
    X, _ = _blobs(1)
    est = BICGaussianMixture(n_clusters=2, covariance_types=("full", "diag"),
                             random_state=4).fit(X)
    assert est.n_clusters_ == 2 and set(est.bic_) == {("full", 2), ("diag", 2)}
    np.testing.assert_array_equal(clone(est).fit(X).labels_, est.labels_)


@pytest.mark.parametrize("params,match", [
    (dict(covariance_types=("full", "round")), "covariance_types must be"),
    (dict(covariance_types=()), "covariance_types must be"),
    (dict(n_clusters=0), "'n_clusters' parameter"),
    (dict(n_clusters=500), "n_clusters=500 components need at least as many points"),
    (dict(reg_covar=-1.0), "'reg_covar' parameter"),
])
def test_bad_parameters_are_refused(params, match):
    X, _ = _blobs()
    with pytest.raises(ValueError, match=match):
        BICGaussianMixture(**params).fit(X)


def test_the_recipe_offers_the_mixture_and_the_automatic_dimension():
    X = sbm([150, 150], [[0.5, 0.1], [0.1, 0.5]], random_state=0)
    A = sample_grdpg(X, random_state=1)
    pipe = make_private_clustering("gmm", epsilon=3.0, random_state=2)
    labels = pipe.fit_predict(A)
    assert pipe.named_steps["embedding"].n_components is None
    assert pipe.named_steps["cluster"].n_clusters_ == 2
    assert clustering_scores(X.labels, labels)["ari"] > 0.9
    fixed = make_private_clustering("gmm", epsilon=3.0, n_clusters=2, random_state=2)
    np.testing.assert_array_equal(fixed.fit_predict(A), labels)


# The automatic count fits every candidate in each of the ~40 checks (about 25 s): the fixed
# count covers the class's compatibility in the default suite, the automatic one runs with
# the slow tests.
@pytest.mark.parametrize("estimator", [
    pytest.param(BICGaussianMixture(random_state=0), marks=pytest.mark.slow),
    BICGaussianMixture(n_clusters=2, random_state=0)], ids=repr)
def test_sklearn_compatible(estimator, assert_sklearn_compatible):
    assert_sklearn_compatible(estimator)
