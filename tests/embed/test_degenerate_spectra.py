"""The automatic dimension on spectra that repeat an eigenvalue: never a piece of an
eigenspace (complete graphs, disjoint cliques)."""

import numpy as np
import pytest
import scipy.sparse as sp

from tdadp import AdjacencySpectralEmbedding
from tdadp.embed._dimension import zhu_ghodsi_elbows
from tdadp.embed._eigen import ShiftedAdjacency, top_eigenpairs


def test_no_elbow_between_equal_values():
    # Rounding used to place the second elbow inside the run of equal values.
    assert zhu_ghodsi_elbows([19, 1 + 2e-16, 1, 1 - 2e-16, 1]) == [1]
    assert zhu_ghodsi_elbows([2, 2, 2 + 4e-16, 2, 2]) == [5]
    assert zhu_ghodsi_elbows([5, 3, 3, 1, 1], n_elbows=1) == [3]
    # Values further apart than rtol are not ties.
    assert zhu_ghodsi_elbows([19, 1.1, 1, 1, 1], rtol=1e-3) == [1, 2]


@pytest.mark.parametrize("count,size,expected", [(1, 20, 1), (10, 3, 10), (3, 30, 3)])
def test_a_repeated_top_eigenvalue_is_kept_whole(count, size, expected):
    block = np.ones((size, size)) - np.eye(size)
    A = sp.block_diag([block] * count, format="csr")
    est = AdjacencySpectralEmbedding().fit(A)
    # Ten triangles: ten eigenvalues 2, more than the default scan of ceil(log2 30) = 5.
    assert est.n_components_ == expected
    assert np.allclose(np.abs(est.eigenvalues_), size - 1)


def test_a_given_scan_is_not_widened():
    A = sp.block_diag([np.ones((3, 3)) - np.eye(3)] * 10, format="csr")
    assert AdjacencySpectralEmbedding(max_components=5).fit(A).n_components_ == 5


def test_krylov_keeps_its_basis_orthonormal_when_the_space_stops_growing():
    # A complete graph's products lie in the block's span and the all-ones vector: the rest
    # of each new block is rounding, which normalising turned into directions along the
    # basis (the top eigenvalue of K_1200 came out 1,222, then 33,000 after 32 products).
    n = 1200
    op = ShiftedAdjacency(np.ones((n, n)) - np.eye(n))
    w, V, info = top_eigenpairs(op, 5, "krylov", tol=1e-3, max_products=32, return_info=True)
    np.testing.assert_allclose(w, [n - 1, -1, -1, -1, -1], atol=1e-9)
    np.testing.assert_allclose(V.T @ V, np.eye(5), atol=1e-12)
    assert info.converged
