"""The regularised Laplacian embedding behind the default's "laplacian" candidate."""

import numpy as np
import scipy.sparse as sp

from tdadp import EdgeFlip, PackedAdjacency, sample_grdpg, sbm
from tdadp.cluster._laplacian import regularized_laplacian_embedding


def _direct(A, k, tau):
    A = np.asarray(A, dtype=float)
    deg = A.sum(axis=1)
    d = 1.0 / np.sqrt(deg + (deg.mean() if tau is None else tau))
    w, V = np.linalg.eigh(d[:, None] * A * d[None, :])
    V = V[:, np.argsort(-np.abs(w))[:k]]
    return V / np.linalg.norm(V, axis=1, keepdims=True)


def _same_subspace(X, Y):
    # Unit rows of two bases of one eigenspace differ by an orthogonal map: Gram matrices agree.
    np.testing.assert_allclose(X @ X.T, Y @ Y.T, atol=1e-6)


def test_matches_the_definition_on_dense_sparse_and_packed_graphs():
    B = np.full((3, 3), 0.05) + np.eye(3) * 0.3
    A = EdgeFlip(3.0, random_state=1).fit_transform(
        sample_grdpg(sbm([30, 40, 50], B, random_state=0), random_state=1))
    dense = np.asarray(A.toarray() if sp.issparse(A) else A, dtype=float)
    for tau in (None, 0.0, 7.5):
        expected = _direct(dense, 3, tau)
        for graph in (dense, sp.csr_matrix(dense), PackedAdjacency.from_dense(dense)):
            _same_subspace(regularized_laplacian_embedding(graph, 3, tau=tau), expected)


def test_isolated_nodes_get_zero_rows_and_bipartite_structure_is_kept():
    A = np.zeros((12, 12))
    A[:5, 5:10] = 1.0
    A[5:10, :5] = 1.0  # complete bipartite on 10 nodes, 2 nodes with no edge
    X = regularized_laplacian_embedding(A, 2)
    np.testing.assert_array_equal(X[10:], 0.0)
    # The two sides of the bipartite graph: the eigenvalue -1 direction separates them.
    assert np.all(X[:5] @ X[5:10].T < 0.5)


def test_a_large_sparse_graph_takes_arpack_with_the_block_krylov_answer(monkeypatch):
    import tdadp.cluster._laplacian as lap
    from tdadp.embed._eigen import top_eigenpairs

    B = np.full((3, 3), 0.002) + np.eye(3) * 0.02
    A = sp.csr_matrix(sample_grdpg(sbm([500, 500, 500], B, random_state=0), random_state=1))
    X = regularized_laplacian_embedding(A, 3)
    # the block Krylov solver on the same operator, as for a dense or packed graph
    base = lap.ShiftedAdjacency(A)
    deg = base.row_sums()
    d = 1.0 / np.sqrt(deg + deg.mean())
    _, V = top_eigenpairs(lap._NormalizedAdjacency(base, d), 3, solver="krylov")
    V = V / np.linalg.norm(V, axis=1, keepdims=True)
    np.testing.assert_allclose(X @ X.T, V @ V.T, atol=1e-5)

    # ARPACK that does not converge within its bound: the block Krylov solver answers.
    def refuse(*args, **kwargs):
        raise lap.ArpackNoConvergence("no", np.empty(0), np.empty((0, 0)))

    monkeypatch.setattr(lap, "eigsh", refuse)
    Y = regularized_laplacian_embedding(A, 3)
    np.testing.assert_allclose(Y @ Y.T, X @ X.T, atol=1e-5)
