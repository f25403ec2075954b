"""SphericalKMeans and SCOREClustering: clusters of directions, for degree-heterogeneous
networks."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.cluster import KMeans
from sklearn.metrics import adjusted_rand_score

from tdadp import AdjacencySpectralEmbedding, degree_corrected_sbm, sample_grdpg
from tdadp.cluster import SCOREClustering, SphericalKMeans

CLUSTERERS = [SphericalKMeans, SCOREClustering]


@pytest.fixture(scope="module")
def dcsbm():
    # Two blocks at a narrow angle, degree parameters spread over a factor of 10: k-means
    # cuts the rays by degree (ARI 0.48 with these seeds), the direction clusterers do not.
    X = degree_corrected_sbm([300, 300], [[0.5, 0.3], [0.3, 0.5]], degree_range=(0.1, 1.0),
                             random_state=0)
    A = sample_grdpg(X, random_state=1)
    return AdjacencySpectralEmbedding(n_components=2).fit_transform(A), X.labels


@pytest.mark.parametrize("cls", CLUSTERERS)
def test_recovers_degree_corrected_blocks_where_kmeans_does_not(dcsbm, cls):
    E, y = dcsbm
    ours = adjusted_rand_score(y, cls(n_clusters=2, random_state=0).fit_predict(E))
    plain = adjusted_rand_score(y, KMeans(2, n_init=10, random_state=0).fit_predict(E))
    assert ours > 0.75 and ours > plain + 0.25


def test_spherical_kmeans_is_kmeans_of_the_directions(dcsbm):
    E, _ = dcsbm
    E = np.asarray(E)
    model = SphericalKMeans(n_clusters=2, random_state=3).fit(E)
    seed = model.kmeans_.random_state
    D = E / np.linalg.norm(E, axis=1, keepdims=True)
    np.testing.assert_array_equal(
        model.labels_, KMeans(2, n_init=10, random_state=seed).fit_predict(D))
    # The length of a row does not matter: scaling rows changes nothing.
    scaled = E * np.linspace(0.1, 10, E.shape[0])[:, None]
    np.testing.assert_array_equal(SphericalKMeans(n_clusters=2, random_state=3)
                                  .fit_predict(scaled), model.labels_)


def test_score_cancels_the_degree_parameters():
    rng = np.random.default_rng(0)
    # Block directions times node-level degree factors: the ratios are exactly two points.
    U = np.repeat([[1.0, 0.6], [1.0, -0.6]], 50, axis=0)
    theta = rng.uniform(0.1, 1.0, 100)
    labels = SCOREClustering(n_clusters=2, random_state=0).fit_predict(U * theta[:, None])
    assert adjusted_rand_score(np.repeat([0, 1], 50), labels) == 1.0
    # A sign flip of a column (eigenvectors have no sign) gives the same partition.
    flipped = U * theta[:, None] * np.array([-1.0, 1.0])
    again = SCOREClustering(n_clusters=2, random_state=0).fit_predict(flipped)
    assert adjusted_rand_score(labels, again) == 1.0


@pytest.mark.parametrize("cls", CLUSTERERS)
def test_isolated_nodes_are_noise(cls, dcsbm):
    from tdadp.latent import LatentPositions

    E, _ = dcsbm
    isolated = np.zeros(E.shape[0], dtype=bool)
    isolated[:4] = True
    marked = LatentPositions(np.asarray(E), isolated=isolated)
    with pytest.warns(UserWarning, match="^4 of the 600 nodes are isolated"):
        labels = cls(n_clusters=2, random_state=0).fit_predict(marked)
    np.testing.assert_array_equal(labels[:4], -1)
    rest = cls(n_clusters=2, random_state=0).fit_predict(np.asarray(E)[4:])
    np.testing.assert_array_equal(labels[4:], rest)


def test_bad_input():
    X = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])
    with pytest.warns(UserWarning, match="1 row"):
        assert SphericalKMeans(n_clusters=2).fit_predict(X)[1] == -1
    with pytest.raises(ValueError, match="more than the 2 rows with a direction"), \
            pytest.warns(UserWarning):
        SphericalKMeans(n_clusters=3).fit(X)
    with pytest.raises(ValueError, match="at least 2 columns"):
        SCOREClustering(n_clusters=2).fit(np.ones((5, 1)))
    with pytest.raises(ValueError, match="more than the 3 nodes"):
        SphericalKMeans(n_clusters=4).fit(X + 1)
    with pytest.raises(ValueError, match="n_clusters"):
        SphericalKMeans(n_clusters=0).fit(X + 1)


@pytest.mark.parametrize("cls", CLUSTERERS)
def test_clone_and_refit_are_deterministic(cls, dcsbm):
    E, _ = dcsbm
    est = cls(n_clusters=2, random_state=5)
    np.testing.assert_array_equal(clone(est).fit_predict(E), clone(est).fit_predict(E))


@pytest.mark.parametrize("estimator", [SphericalKMeans(n_clusters=3, random_state=0),
                                       SCOREClustering(n_clusters=3, random_state=0)],
                         ids=lambda e: type(e).__name__)
def test_sklearn_compatible(estimator, assert_sklearn_compatible):
    assert_sklearn_compatible(estimator)


def test_rows_at_rounding_level_have_no_direction():
    # Nodes outside the components the leading eigenvectors describe get rows at the
    # eigensolver's rounding level, whose direction changes with the BLAS thread count: they
    # are noise, and the labels of the others do not depend on that rounding.
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal([3, 0], 0.3, (40, 2)), rng.normal([0, 3], 0.3, (40, 2))])
    tiny = np.vstack([X, 1e-17 * rng.normal(size=(6, 2))])
    other = np.vstack([X, 1e-17 * rng.normal(size=(6, 2))])
    with pytest.warns(UserWarning, match="6 row"):
        a = SphericalKMeans(n_clusters=2, random_state=0).fit_predict(tiny)
    with pytest.warns(UserWarning, match="6 row"):
        b = SphericalKMeans(n_clusters=2, random_state=0).fit_predict(other)
    assert (a[-6:] == -1).all()
    np.testing.assert_array_equal(a, b)
