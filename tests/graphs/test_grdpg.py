import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats

import tdadp
from tdadp import GRDPG, probability_matrix, sample_grdpg
from tdadp.utils import InvalidParameterError


@pytest.mark.parametrize("sparse", [False, True])
def test_structure(sparse):
    X = tdadp.circle(300, random_state=0)
    A = sample_grdpg(X, random_state=1, sparse=sparse)
    if sparse:
        assert sp.isspmatrix_csr(A) or sp.issparse(A)
        A = A.toarray()
    assert A.dtype == np.uint8
    assert np.array_equal(A, A.T)
    assert not A.diagonal().any()
    assert set(np.unique(A)) <= {0, 1}


@pytest.mark.parametrize("sparse", [False, True])
def test_edge_probabilities_are_exact(sparse):
    # Every dyad of a 2-block SBM is Bernoulli(B_kl): count edges per block pair over many
    # graphs and compare with the binomial distribution.
    B = np.array([[0.1, 0.6], [0.6, 0.3]])
    X = tdadp.sbm([40, 40], B, random_state=0)
    total = np.zeros((2, 2))
    reps = 30
    for r in range(reps):
        A = sample_grdpg(X, random_state=r, sparse=sparse, sparsity=0.5)
        A = A.toarray() if sparse else A
        for k in range(2):
            for m in range(2):
                total[k, m] += A[np.ix_(X.labels == k, X.labels == m)].sum()
    dyads = np.array([[40 * 39, 1600], [1600, 40 * 39]]) * reps
    for k in range(2):
        for m in range(2):
            p = 0.5 * B[k, m]
            z = (total[k, m] - dyads[k, m] * p) / np.sqrt(dyads[k, m] * p * (1 - p) * 2)
            assert abs(z) < 4.5, (k, m, z)


def test_dense_and_sparse_agree_in_distribution():
    X = tdadp.circle(400, random_state=0)
    P = probability_matrix(X)
    expected = P[np.triu_indices(400, 1)].sum()
    dense = [sample_grdpg(X, random_state=s).sum() / 2 for s in range(5)]
    sparse = [sample_grdpg(X, random_state=s, sparse=True).sum() / 2 for s in range(5)]
    sd = np.sqrt(expected)
    assert abs(np.mean(dense) - expected) < 3 * sd
    assert abs(np.mean(sparse) - expected) < 3 * sd
    assert stats.ttest_ind(dense, sparse).pvalue > 1e-3


def test_signature_from_latent_positions():
    B = [[0.2, 0.5], [0.5, 0.2]]
    X = tdadp.sbm([20, 20], B, random_state=0)
    P = probability_matrix(X)
    Bm = np.asarray(B)[X.labels][:, X.labels]
    np.fill_diagonal(Bm, 0)
    np.testing.assert_allclose(P, Bm, atol=1e-12)
    # A signature that does not match d is an error, not a silent misreading.
    with pytest.raises(ValueError, match="signature"):
        sample_grdpg(np.asarray(X), signature=(2, 1))


def test_out_of_range_products_are_rejected():
    X = np.array([[1.2, 0.0], [1.0, 0.0], [0.9, 0.1]])
    with pytest.raises(ValueError, match=r"outside \[0, 1\]"):
        sample_grdpg(X, random_state=0)
    with pytest.raises(ValueError, match=r"outside \[0, 1\]"):
        sample_grdpg(np.tile([0.1, 0.5], (200, 1)), signature=(1, 1), random_state=0,
                     sparse=True)


@pytest.mark.parametrize(
    "X, kw, msg",
    [
        (np.full((5, 2), np.nan), {}, "NaN"),
        (np.ones(5), {}, "2-D"),
        (np.full((5, 2), 0.3), {"sparsity": 0}, "sparsity"),
        (np.full((5, 2), 0.3), {"sparsity": 1.5}, "sparsity"),
        (np.full((5, 2), 0.3), {"signature": (1, 0)}, "p \\+ q = d"),
    ],
)
def test_bad_input(X, kw, msg):
    with pytest.raises(ValueError, match=msg):
        sample_grdpg(X, **kw)


def test_batch_and_reproducibility():
    Xs = tdadp.LatentSampler("circle", n_nodes=60, random_state=0).fit_transform(3)
    gen = GRDPG(random_state=5)
    a = gen.fit_transform(Xs)
    b = GRDPG(random_state=5, n_jobs=2).fit_transform(Xs)
    c = GRDPG(random_state=6).fit_transform(Xs)
    assert len(a) == 3
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))
    np.testing.assert_array_equal(a[0], sample_grdpg(Xs[0], random_state=5))


_X = np.asarray(tdadp.circle(6, random_state=0))


@pytest.mark.parametrize(
    "X, error, msg",
    [
        (_X.astype(complex), ValueError, "Complex data not supported"),
        (_X + 1e-3j, ValueError, "Complex data not supported"),
        (_X.astype(str), ValueError, "must be numeric, got strings"),
        (np.array([["0.1", 0.2]] * 3, dtype=object), ValueError, r"got strings \(3 of 6"),
        (np.array([[{"a": 1}, 0.2]] * 3, dtype=object), TypeError, "real number"),
        (sp.csr_matrix(_X), TypeError, "sparse"),
        (_X[:1], ValueError, "n_samples = 1"),
        (_X[:, :0], ValueError, r"0 feature\(s\)"),
        ([[0.1, 0.2], [0.3]], ValueError, "could not be read as an array|2-D"),
        (None, (TypeError, ValueError), "got None|latent position matrix"),
    ],
)
@pytest.mark.parametrize("entry", ["sample_grdpg", "probability_matrix", "GRDPG"])
def test_bad_latent_positions_are_refused(entry, X, error, msg):
    call = {"sample_grdpg": lambda: sample_grdpg(X, random_state=0),
            "probability_matrix": lambda: probability_matrix(X),
            "GRDPG": lambda: GRDPG(random_state=0).fit_transform(X)}[entry]
    with pytest.raises(error, match=msg):
        call()


def test_probability_matrix_refuses_what_the_sampler_refuses():
    with pytest.raises(ValueError, match=r"outside \[0, 1\]"):
        probability_matrix(np.full((3, 2), 1.0))
    with pytest.raises(ValueError, match=r"outside \[0, 1\]"):
        probability_matrix(np.array([[0.5, 0.0], [-0.5, 0.0]]))


@pytest.mark.parametrize(
    "params, word",
    [({"sparsity": 0}, "sparsity"), ({"sparsity": 1.5}, "sparsity"),
     ({"sparsity": "1"}, "sparsity"), ({"sparsity": 0.5 + 0j}, "sparsity"),
     ({"signature": (3, "0")}, "signature"), ({"signature": 3}, "signature"),
     ({"sparse": "yes"}, "sparse"), ({"random_state": 1.5}, "random_state"),
     ({"n_jobs": 0}, "n_jobs"), ({"n_jobs": 1.5}, "n_jobs")],
)
def test_grdpg_parameters_are_declared_and_checked(params, word):
    est = GRDPG(**params)
    X = tdadp.circle(10, random_state=0)
    with pytest.raises(InvalidParameterError, match=f"'{word}' parameter of GRDPG"):
        est.fit(X)
    with pytest.raises(InvalidParameterError, match=word):
        est.transform(X)


def test_function_arguments_are_checked():
    X = tdadp.circle(10, random_state=0)
    with pytest.raises(ValueError, match="sparsity"):
        sample_grdpg(X, sparsity=np.nan)
    with pytest.raises(ValueError, match="sparse"):
        sample_grdpg(X, sparse="no")
    with pytest.raises(ValueError, match="sparsity"):
        probability_matrix(X, sparsity=-1)


def test_signature_shape_mismatch_and_batches_of_other_dimensions():
    X = tdadp.circle(10, random_state=0)
    with pytest.raises(ValueError, match=r"p \+ q = d = 3"):
        GRDPG(signature=(1, 1)).fit(X)
    # Without a fixed signature each matrix brings its own dimension.
    Y = tdadp.sbm([5, 5], [[0.2, 0.6], [0.6, 0.2]], random_state=0)
    est = GRDPG(random_state=0).fit([X, Y])
    assert not hasattr(est, "n_features_in_")
    assert est.fit(Y).n_features_in_ == 2
    graphs = est.transform([X, Y])
    assert [A.shape for A in graphs] == [(10, 10), (10, 10)]
