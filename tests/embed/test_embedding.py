import numpy as np
import pytest
import scipy.sparse as sp

import tdadp
from tdadp import AdjacencySpectralEmbedding
from tdadp import adjacency_spectral_embedding as ase
from tdadp.embed._dimension import zhu_ghodsi_elbows
from tdadp.embed._eigen import ShiftedAdjacency, top_eigenpairs


@pytest.fixture(scope="module")
def flipped():
    X = tdadp.circle(1200, random_state=0)
    A = tdadp.sample_grdpg(X, random_state=1)
    return X, A, tdadp.edge_flip(A, 1.0, random_state=2)


@pytest.mark.parametrize("solver", ["arpack", "krylov"])
def test_solvers_agree_with_dense(flipped, solver):
    _, _, B = flipped
    pi = tdadp.flip_probability(1.0)
    op = ShiftedAdjacency(B, pi, 1 / (1 - 2 * pi))
    w0, V0 = top_eigenpairs(op, 5, "dense")
    w1, V1 = top_eigenpairs(op, 5, solver)
    np.testing.assert_allclose(w1, w0, rtol=1e-5)
    # signal eigenvectors (well separated) agree up to rounding, signs fixed
    np.testing.assert_allclose(np.abs(V1[:, :3].T @ V0[:, :3]).diagonal(), 1, atol=1e-6)
    np.testing.assert_allclose(V1[:, :3], V0[:, :3], atol=1e-4)


def test_shifted_operator_never_forms_ones_matrix_but_matches_it(flipped):
    _, _, B = flipped
    pi = 0.3
    op = ShiftedAdjacency(sp.csr_matrix(B), pi, 2.5)
    Q = np.random.default_rng(0).standard_normal((B.shape[0], 3))
    n = B.shape[0]
    M = 2.5 * (B - pi * (np.ones((n, n)) - np.eye(n)))
    np.testing.assert_allclose(op.matmat(Q), M @ Q, rtol=1e-10, atol=1e-8)


def test_zhu_ghodsi():
    assert zhu_ghodsi_elbows([100, 98, 97, 10, 9, 9.5, 8, 1, 1.1, 0.9], 1) == [3]
    assert zhu_ghodsi_elbows([720.1, 167.5, 156.9] + [42] * 12, 2) == [1, 3]


def test_dimension_selection(flipped):
    X, A, B = flipped
    # The lifted circle spans R^3; the private Gram matrix keeps rank 3 (its constant
    # coordinate puts the all-ones vector in the column space).
    assert ase(A).shape[1] == 3
    assert ase(B, epsilon=1.0).shape[1] == 3
    est = AdjacencySpectralEmbedding().fit(B)
    assert est.n_components_ == 3 and est.signature_ == (3, 0)


def test_fitted_attributes_and_signature():
    B = [[0.2, 0.5], [0.5, 0.2]]
    X = tdadp.sbm([200, 200], B, random_state=0)
    A = tdadp.sample_grdpg(X, random_state=1)
    est = AdjacencySpectralEmbedding(n_components=2)
    Xh = est.fit_transform(A)
    assert est.signature_ == (1, 1) and Xh.signature == (1, 1)
    assert est.eigenvalues_[0] > 0 > est.eigenvalues_[1]
    assert Xh.shape == (400, 2)


def test_dense_sparse_and_batch_agree(flipped):
    _, _, B = flipped
    d = ase(B, n_components=3, epsilon=1.0)
    s = ase(sp.csr_matrix(B), n_components=3, epsilon=1.0)
    # dense n > 1000 runs block Krylov on float32 products (relative residual 1e-6)
    np.testing.assert_allclose(np.asarray(s), np.asarray(d), atol=1e-3)
    batch = AdjacencySpectralEmbedding(n_components=3, epsilon=1.0).fit_transform([B, B])
    par = AdjacencySpectralEmbedding(n_components=3, epsilon=1.0, n_jobs=2).fit_transform([B, B])
    for x, y in zip(batch, par):
        np.testing.assert_array_equal(x, y)
    np.testing.assert_allclose(batch[0], d, atol=1e-10)


def test_diagonal_augmentation_changes_only_what_it_should(flipped):
    _, A, _ = flipped
    plain = ase(A, n_components=3)
    aug = ase(A, n_components=3, diagonal_augmentation=True)
    assert aug.shape == plain.shape
    # augmentation reduces the Gram matrix's diagonal bias
    assert not np.allclose(plain, aug)


@pytest.mark.parametrize(
    "kw, msg",
    [
        ({"epsilon": 0.0}, "nothing to recover|pure noise"),
        ({"epsilon": -1.0}, "'epsilon' parameter.*got -1.0"),
        ({"epsilon": np.nan}, "'epsilon' parameter.*got nan"),
        ({"epsilon": 1.0, "adjust": False}, "adjust=False"),
        ({"n_jobs": 0}, "'n_jobs' parameter"),
        ({"n_jobs": 1.5}, "'n_jobs' parameter"),
        ({"adjust": "yes"}, "'adjust' parameter"),
        ({"n_components": 0}, "n_components"),
        ({"n_components": 500}, "smaller than the number of nodes"),
        ({"solver": "magic"}, "solver"),
    ],
)
def test_bad_parameters(flipped, kw, msg):
    B = flipped[2][:100, :100]
    with pytest.raises(ValueError, match=msg):
        AdjacencySpectralEmbedding(**kw).fit_transform(B)


@pytest.mark.parametrize(
    "A, msg",
    [
        (np.array([[0, 1, 0], [0, 0, 1], [0, 1, 0]]), "symmetric"),
        (np.array([[0.0, np.nan], [np.nan, 0.0]]), "NaN"),
        (np.ones((3, 4)), "square"),
        (np.ones((2, 2, 2, 2)), "2-D"),
    ],
)
def test_bad_graphs(A, msg):
    with pytest.raises(ValueError, match=msg):
        ase(A, n_components=1)


def test_eps_inf_is_plain(flipped):
    _, A, _ = flipped
    np.testing.assert_array_equal(ase(A, 3, epsilon=np.inf), ase(A, 3))
