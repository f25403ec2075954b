"""The regularised spectral embedding of a (released) graph: the eigenvectors of
``D_tau^{-1/2} A D_tau^{-1/2}`` with ``D_tau = D + tau I``.

Normalising by the degrees is what makes spectral clustering work on networks whose
communities differ in size and degree (Rohe, Chatterjee and Yu 2011); adding ``tau`` to every
degree keeps the low-degree nodes of a sparse graph from dominating the leading
eigenvectors (Qin and Rohe 2013; Amini, Chen, Bickel and Levina 2013 add ``tau / n`` to every
dyad instead). A release of edgeFlip is already regularised in Amini et al.'s sense, since
every dyad gains the flip rate; ``tau`` is the release's mean degree, Qin and Rohe's default.

The matrix is taken on the release as it is, not on the privacy-adjusted one: adjusted
degrees of low-degree nodes come out negative at small eps, and the normalised matrix of the
release has the eigenvectors of the adjusted one's degree-normalised form up to the
regularisation the flips add. Eigenpairs are those of largest magnitude, as for the adjacency
embedding, so a disassortative (bipartite) structure is kept as well as an assortative one.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigsh

from ..embed._eigen import ShiftedAdjacency, resolve_solver, top_eigenpairs

__all__ = ["regularized_laplacian_embedding"]

# ARPACK's iterations, per node, before a sparse graph's eigenproblem goes to the block
# Krylov solver.
_ARPACK_RESTARTS = 1


class _NormalizedAdjacency:
    """``diag(d) A diag(d)`` as the eigensolvers' operator (products only)."""

    def __init__(self, base, d):
        self.base, self.d, self.n = base, d, base.n
        self.progress = None

    def matmat(self, Q):
        self.base.progress = self.progress
        return self.d[:, None] * self.base.matmat(self.d[:, None] * np.asarray(Q))

    def to_dense(self):
        return self.d[:, None] * self.base.to_dense() * self.d[None, :]

    def linear_operator(self):
        def mv(v):
            return self.matmat(np.asarray(v, dtype=np.float64).reshape(-1, 1)).ravel()

        return LinearOperator((self.n, self.n), matvec=mv, matmat=self.matmat, rmatvec=mv,
                              dtype=np.float64)


def regularized_laplacian_embedding(A, n_components, *, tau=None, random_state=0):
    """Rows of the ``n_components`` leading eigenvectors (by magnitude) of the regularised
    normalised adjacency ``D_tau^{-1/2} A D_tau^{-1/2}``, each scaled to unit length.

    Parameters
    ----------
    A : ndarray, scipy sparse matrix or PackedAdjacency of shape (n, n)
        One checked graph (a release, as it is).
    n_components : int
        ``1 <= n_components < n``.
    tau : float >= 0 or None, default=None
        Added to every degree; None: the mean degree.
    random_state : int, default=0
        Seed of the iterative eigensolver's start (the result does not depend on it beyond
        rounding).

    Returns
    -------
    ndarray of shape (n, n_components)
        Unit rows (a node with no edge: a zero row).

    References
    ----------
    .. [1] T. Qin and K. Rohe, "Regularized spectral clustering under the degree-corrected
       stochastic blockmodel", NeurIPS 2013.
    .. [2] A. A. Amini, A. Chen, P. J. Bickel and E. Levina, "Pseudo-likelihood methods for
       community detection in large sparse networks", Annals of Statistics 41(4), 2013.
    """
    base = ShiftedAdjacency(A)
    degrees = base.row_sums()
    tau = float(degrees.mean()) if tau is None else float(tau)
    with np.errstate(divide="ignore"):
        d = np.where(degrees + tau > 0, 1.0 / np.sqrt(degrees + tau), 0.0)
    op = _NormalizedAdjacency(base, d)
    V = None
    if sp.issparse(A) and resolve_solver(op, n_components) == "krylov":
        # A sparse graph's normalised matrix has its top eigenvalues spread (they are at
        # most 1 and the bulk is far below): ARPACK converges in few restarts where the block
        # Krylov solver's dense bookkeeping dominates (pubmed, 19,717 nodes: 0.09 s against
        # 2.4 s, the same eigenvalues to 6 digits). Its restarts are bounded; a spectrum
        # without a gap that does not converge in them goes to the block Krylov solver.
        v0 = np.random.default_rng(random_state).standard_normal(op.n)
        try:
            w, V = eigsh(op.linear_operator(), k=n_components, which="LM", v0=v0,
                         tol=1e-10, maxiter=_ARPACK_RESTARTS * op.n)
            V = V[:, np.argsort(-np.abs(w), kind="stable")]
        except ArpackNoConvergence:
            V = None
    if V is None:
        _, V = top_eigenpairs(op, n_components, random_state=random_state)
    norms = np.linalg.norm(V, axis=1, keepdims=True)
    return np.divide(V, norms, out=np.zeros_like(V), where=norms > 0)
