import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.pipeline import make_pipeline

import tdadp
from tdadp import LATENT_KINDS, LatentSampler
from tdadp.latent import get_signature
from tdadp.utils import InvalidParameterError

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
    with pytest.raises(ValueError, match="'kind' parameter of LatentSampler .*got 'donut'"):
        LatentSampler("donut").fit(1)
    with pytest.raises(ValueError, match="replicate"):
        LatentSampler().fit_transform([-1])


@pytest.mark.parametrize(
    "params, word",
    [({"kind": "donut"}, "kind"), ({"n_nodes": 0}, "n_nodes"), ({"n_nodes": 2.5}, "n_nodes"),
     ({"n_nodes": [3, -1]}, "n_nodes"), ({"n_nodes": "500"}, "n_nodes"),
     ({"params": [("radius", 0.2)]}, "params"), ({"random_state": -1}, "random_state"),
     ({"random_state": "a"}, "random_state")],
)
def test_sampler_parameters_are_declared_and_checked_in_fit(params, word):
    s = LatentSampler(**params)  # __init__ stores, fit checks
    with pytest.raises(InvalidParameterError, match=f"'{word}' parameter of LatentSampler"):
        s.fit(1)
    with pytest.raises(InvalidParameterError, match=word):
        s.transform(1)  # a sampler needs no fit, so transform checks too


def test_sampler_pandas_output_carries_signature_and_labels_to_grdpg():
    pd = pytest.importorskip("pandas")
    B = [[0.2, 0.6], [0.6, 0.2]]  # inertia (1, 1): read as (2, 0) it gives other products
    s = LatentSampler("sbm", n_nodes=[10, 10], params={"block_probabilities": B},
                      random_state=0).set_output(transform="pandas")
    frames = s.fit_transform(2)
    plain = LatentSampler("sbm", n_nodes=[10, 10], params={"block_probabilities": B},
                          random_state=0).fit_transform(2)
    assert list(s.get_feature_names_out()) == ["latentsampler0", "latentsampler1"]
    for frame, X in zip(frames, plain):
        assert isinstance(frame, pd.DataFrame)
        assert list(frame.columns) == list(s.get_feature_names_out())
        np.testing.assert_array_equal(frame.to_numpy(), X)
        assert frame.attrs == {"signature": (1, 1), "labels": X.labels.tolist()}
        assert get_signature(frame) == (1, 1)
        P = tdadp.probability_matrix(frame)
        np.testing.assert_allclose(P, tdadp.probability_matrix(X))
        assert not np.allclose(P, tdadp.probability_matrix(np.asarray(X)))  # read as (2, 0)
    graphs = make_pipeline(clone(s), tdadp.GRDPG(random_state=1)).fit_transform(2)
    expected = tdadp.GRDPG(random_state=1).fit_transform(plain)
    for A, B in zip(graphs, expected):
        np.testing.assert_array_equal(A, B)
    # The whole pipeline can be set to pandas: GRDPG accepts the setting, graphs stay arrays.
    pipe = make_pipeline(LatentSampler(n_nodes=10, random_state=0), tdadp.GRDPG(random_state=0))
    out = pipe.set_output(transform="pandas").fit_transform(1)
    assert isinstance(out[0], np.ndarray) and out[0].shape == (10, 10)
    with pytest.raises(ValueError, match="transform"):
        tdadp.GRDPG().set_output(transform="polars")


def test_latent_positions_column_slicing_restricts_the_signature():
    X = tdadp.circle(20, random_state=0)
    assert X[:, :2].signature == (2, 0) and X[:, 1].shape == (20,)
    Y = tdadp.sbm([4, 4], [[0.2, 0.6], [0.6, 0.2]], random_state=0)  # signature (1, 1)
    assert Y[:, :1].signature == (1, 0)
    assert Y[:, 1:].signature == (0, 1)
    assert Y[:, [0, 0, 1]].signature == (2, 1)
    assert Y[:, [True, False]].signature == (1, 0)
    assert Y[..., 1:].signature == (0, 1)
    assert type(Y[:, [1, 0]]) is np.ndarray  # negative before positive: no (p, q) says it
    # A signature that does not fit is not carried into the sampler.
    np.testing.assert_allclose(tdadp.probability_matrix(Y[:, :1]),
                               tdadp.probability_matrix(np.asarray(Y)[:, :1]))


def test_latent_positions_row_indexing_keeps_signature_and_slices_labels():
    X = tdadp.two_circles((6, 4), random_state=0)
    labels = X.labels
    for key in (slice(None, 5), slice(None, None, -2), [9, 0, 9], labels == 1,
                np.array([3, 7])):
        Z = X[key]
        assert isinstance(Z, tdadp.LatentPositions) and Z.signature == X.signature
        np.testing.assert_array_equal(Z.labels, labels[key])
    Z = X[np.ix_([1, 8], [0, 2])]
    assert Z.signature == (2, 0) and Z.labels.tolist() == [0, 1]
    assert X[2:4, :2].labels.tolist() == labels[2:4].tolist()


@pytest.mark.parametrize(
    "key", [0, (0, 0), (slice(None), 0), ([0, 1], [0, 1]), slice(0, 0), (None,),
            (slice(None), None), (slice(None), slice(0, 0))],
)
def test_latent_positions_indexing_that_is_no_table_is_a_plain_array(key):
    X = tdadp.two_circles((6, 4), random_state=0)
    out = X[key]
    assert not isinstance(out, tdadp.LatentPositions)


def test_latent_positions_refuse_bad_data():
    X = np.asarray(tdadp.circle(5, random_state=0))
    for data, word in [(X.astype(complex), "Complex"), (X.astype(str), "strings"),
                       (np.where(X > 0.5, np.nan, X), "NaN"), (X[:, 0], "2-D")]:
        with pytest.raises(ValueError, match=word):
            tdadp.LatentPositions(data)
    with pytest.raises(ValueError, match="labels must have shape"):
        tdadp.LatentPositions(X, labels=[0, 1])
    with pytest.raises(ValueError, match="p \\+ q = d"):
        tdadp.LatentPositions(X, signature=(1, 1))


@pytest.mark.parametrize(
    "call, word",
    [
        (lambda: tdadp.circle(10, center=(0, 0, 0.6 + 0.1j)), "Complex"),
        (lambda: tdadp.circle(10, center=("0", "0", "0.6")), "strings"),
        (lambda: tdadp.sbm(10, [["0.2", "0.5"], ["0.5", "0.2"]]), "strings"),
        (lambda: tdadp.sbm(10, np.array([[0.2, 0.5], [0.5, 0.2]]) + 0j), "Complex"),
        (lambda: tdadp.sbm(10, [[0.5]], proportions=[1 + 0j]), "Complex"),
        (lambda: tdadp.mixed_membership_sbm(10, [[0.5, 0.1], [0.1, 0.5]], alpha="1"),
         "strings"),
        (lambda: tdadp.mixed_membership_sbm(10, [[0.5, 0.1], [0.1, 0.5]], alpha=[1, 1, 1]),
         "alpha"),
        (lambda: tdadp.degree_corrected_sbm(10, [[0.5]], degree_range=("0.5", "1")),
         "strings"),
        (lambda: tdadp.degree_corrected_sbm(10, [[0.5]], degree_range=(0.5,)), "degree_range"),
        (lambda: tdadp.erdos_renyi(10, 0.5 + 0j), "p must be"),
    ],
)
def test_sampler_arguments_refuse_complex_and_strings(call, word):
    with pytest.raises(ValueError, match=word):
        call()


def test_latent_positions_survive_pickle():
    X = tdadp.sbm([5, 5], [[0.2, 0.5], [0.5, 0.2]], random_state=0)
    Y = pickle.loads(pickle.dumps(X))
    assert Y.signature == (1, 1)
    np.testing.assert_array_equal(Y.labels, X.labels)
    Z = pickle.loads(pickle.dumps(X[3:, 1:]))
    assert Z.signature == (0, 1) and Z.labels.tolist() == X.labels[3:].tolist()


def test_latent_positions_carry_an_isolated_mask_like_labels():
    mask = np.arange(6) % 3 == 0
    X = tdadp.LatentPositions(np.arange(12.0).reshape(6, 2), labels=np.arange(6), isolated=mask)
    assert X[1:].isolated.tolist() == mask[1:].tolist()
    assert X[mask].isolated.all() and X[[5, 0]].isolated.tolist() == [False, True]
    assert X[:, :1].isolated.tolist() == mask.tolist()  # a column selection keeps every row
    assert (2 * X).isolated.tolist() == mask.tolist()
    Y = pickle.loads(pickle.dumps(X[2:]))
    assert Y.isolated.tolist() == mask[2:].tolist() and Y.labels.tolist() == [2, 3, 4, 5]
    assert not hasattr(np.asarray(X), "isolated") and not hasattr(X[0], "isolated")
    assert tdadp.LatentPositions(X).isolated is None  # a new array starts unmarked
    with pytest.raises(ValueError, match="isolated must have shape"):
        tdadp.LatentPositions(X, isolated=[True])
    with pytest.raises(ValueError, match="boolean mask"):
        tdadp.LatentPositions(X, isolated=[0, 1, 0, 0, 0, 0])


def test_latent_positions_pickled_before_the_isolated_mask_still_load():
    X = tdadp.LatentPositions(np.ones((3, 2)), labels=[0, 1, 1])
    constructor, args, (state, signature, labels, _) = X.__reduce__()
    old = constructor(*args)
    old.__setstate__((state, signature, labels))  # the three fields of older pickles
    assert old.isolated is None and old.labels.tolist() == [0, 1, 1]
    np.testing.assert_array_equal(old, X)
