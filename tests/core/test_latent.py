import numpy as np
import pytest

import tdadp
from tdadp import LATENT_KINDS, LatentSampler

BLOCKS = [[0.5, 0.2], [0.2, 0.4]]
KW = {
    "erdos_renyi": {"p": 0.3},
    "sbm": {"block_probabilities": BLOCKS},
    "mixed_membership_sbm": {"block_probabilities": BLOCKS},
    "degree_corrected_sbm": {"block_probabilities": [[0.2, 0.5], [0.5, 0.2]]},
}


def _gram(X):
    p, q = X.signature
    return (X * np.r_[np.ones(p), -np.ones(q)]) @ X.T


@pytest.mark.parametrize("kind", sorted(LATENT_KINDS))
def test_products_are_probabilities_and_signature_matches(kind):
    n = (60, 40) if kind == "two_circles" else 100
    X = LATENT_KINDS[kind](n, random_state=3, **KW.get(kind, {}))
    assert X.shape[0] == 100
    assert sum(X.signature) == X.shape[1]
    G = _gram(X)
    assert G.min() >= 0 and G.max() <= 1


def test_sbm_products_equal_block_matrix():
    B = np.array([[0.2, 0.5], [0.5, 0.2]])
    X = tdadp.sbm([30, 20], B, random_state=0)
    assert X.signature == (1, 1)
    np.testing.assert_allclose(_gram(X), B[X.labels][:, X.labels], atol=1e-12)
    assert np.bincount(X.labels).tolist() == [30, 20]


def test_two_circles_labels_and_radii():
    X = tdadp.two_circles((50, 30), radii=(0.5, 0.2), random_state=0)
    r = np.linalg.norm(np.asarray(X)[:, :2], axis=1)
    np.testing.assert_allclose(r[X.labels == 0], 0.5)
    np.testing.assert_allclose(r[X.labels == 1], 0.2)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: tdadp.circle(10, radius=0.9), ["circle", "radius=0.9", "outside [0, 1]"]),
        (lambda: tdadp.torus(10, major_radius=0.9), ["torus", "major_radius=0.9"]),
        (lambda: tdadp.lemniscate(10, scale=2.0), ["lemniscate", "scale=2.0"]),
        (lambda: tdadp.sbm(10, [[0.2, 1.5], [1.5, 0.2]]), ["block_probabilities[0, 1]"]),
        (lambda: tdadp.sbm(10, [[0.2, 0.5], [0.4, 0.2]]), ["symmetric"]),
        (lambda: tdadp.sbm(10, [[0.2, np.nan], [np.nan, 0.2]]), ["NaN"]),
        (lambda: tdadp.circle(0), ["n_nodes"]),
        (lambda: tdadp.circle(10, center=(np.nan, 0, 0.6)), ["center"]),
        (lambda: tdadp.degree_corrected_sbm(10, [[0.5]], degree_range=(0, 1)), ["degree_range"]),
    ],
)
def test_invalid_parameters_are_named(call, words):
    with pytest.raises(ValueError) as err:
        call()
    for word in words:
        assert word in str(err.value)


def test_sampler_replicates_are_order_independent():
    sampler = LatentSampler("circle", n_nodes=50, random_state=7)
    batch = sampler.fit_transform(5)
    alone = sampler.fit_transform([3])
    reversed_ = sampler.fit_transform([4, 3, 2, 1, 0])
    np.testing.assert_array_equal(batch[3], alone[0])
    for i in range(5):
        np.testing.assert_array_equal(batch[i], reversed_[4 - i])
    assert not np.array_equal(batch[0], batch[1])
    # The function twin with the same seed is replicate 0.
    np.testing.assert_array_equal(batch[0], tdadp.circle(50, random_state=7))


def test_sampler_signature_and_params():
    s = LatentSampler("sbm", n_nodes=[10, 10], params={"block_probabilities": [[0.2, 0.5],
                                                                               [0.5, 0.2]]})
    s.fit(2)
    assert s.signature_ == (1, 1) and s.n_features_out_ == 2
    with pytest.raises(ValueError, match="not parameters of circle"):
        LatentSampler("circle", params={"radiu": 0.2}).fit(1)
    with pytest.raises(ValueError, match="kind='donut' is not known"):
        LatentSampler("donut").fit(1)
    with pytest.raises(ValueError, match="replicate"):
        LatentSampler().fit_transform([-1])


def test_latent_positions_survive_pickle():
    import pickle

    X = tdadp.sbm([5, 5], [[0.2, 0.5], [0.5, 0.2]], random_state=0)
    Y = pickle.loads(pickle.dumps(X))
    assert Y.signature == (1, 1)
    np.testing.assert_array_equal(Y.labels, X.labels)
