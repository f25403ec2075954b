"""Top eigenpairs by magnitude of a symmetric operator, for dense and sparse graphs.

Three solvers:

- ``dense``: LAPACK ``eigh`` of the whole matrix, exact, for small n;
- ``arpack``: implicitly restarted Lanczos (``scipy.sparse.linalg.eigsh``) on a
  LinearOperator, the choice for sparse graphs (one sparse matvec per step);
- ``krylov``: block Lanczos with full reorthogonalization and thick restarts, for large
  dense graphs. Each step is one matrix-times-block product (BLAS 3 on a float32 copy of a
  0/1 matrix, whose entries are exact), so it runs at machine speed where single-vector
  Lanczos is bound by memory bandwidth, and blocks resolve the clustered noise eigenvalues
  of random graphs quickly; iteration stops when every Ritz pair's residual is small.

The operator is ``(A - shift * (11^T - I)) * scale`` (+ optional diagonal): the
privacy-adjusted matrix of edgeFlip without ever forming 11^T.

The iterative solvers' steps are products with the graph, which on a large packed graph take
seconds each: ``verbose=True`` counts them on a progress bar (stderr).
"""

from __future__ import annotations

import functools

import numpy as np
import scipy.linalg as la
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, eigsh
from threadpoolctl import ThreadpoolController
from tqdm.auto import tqdm

from ..graphs._packed import PackedAdjacency
from ..utils._memory import check_memory
from ._packed_ops import packed_degrees, packed_matmat

__all__ = ["ShiftedAdjacency", "resolve_solver", "top_eigenpairs", "SOLVERS", "SolveInfo",
           "KRYLOV_BUDGET"]

SOLVERS = ("auto", "dense", "arpack", "krylov")
_DENSE_MAX_N = 1000


class ShiftedAdjacency:
    """The symmetric operator ``M = scale * (A - shift * (11^T - I)) + diag(diagonal)``.

    ``A`` is dense (any numeric dtype; 0/1 matrices are multiplied in float32, exactly),
    scipy sparse, or a :class:`~tdadp.graphs.PackedAdjacency` (products by a compiled kernel
    over its bits, see :mod:`tdadp.embed._packed_ops`). ``11^T`` is never materialized.
    ``progress``, when set (an object with ``update(count)``, such as a tqdm bar), is told of
    every product.
    """

    def __init__(self, A, shift=0.0, scale=1.0, diagonal=None):
        self.n = A.shape[0]
        self.shift = float(shift)
        self.scale = float(scale)
        self.diagonal = diagonal
        self.progress = None
        if isinstance(A, PackedAdjacency):
            self.A = A
            self.dtype = np.float64
        elif sp.issparse(A):
            self.A = A.astype(np.float64)
            self.dtype = np.float64
        elif A.dtype in (np.uint8, np.int8, np.bool_, np.float32, np.int16, np.uint16):
            if A.dtype != np.float32:
                check_memory(4.0 * self.n ** 2, f"the float32 copy of a dense graph on "
                             f"{self.n} nodes that the embedding multiplies by",
                             " Embed a packed graph instead (EdgeFlip(output='packed')): one "
                             "bit per dyad, no copy.")
            self.A = np.ascontiguousarray(A, dtype=np.float32)
            self.dtype = np.float32
        else:
            self.A = np.ascontiguousarray(A, dtype=np.float64)
            self.dtype = np.float64

    def matmat(self, Q):
        Q = np.asarray(Q)
        if isinstance(self.A, PackedAdjacency):
            Z = packed_matmat(self.A, Q)
        else:
            Z = np.asarray(self.A @ Q.astype(self.dtype, copy=False), dtype=np.float64)
        if self.shift:
            Qd = Q.astype(np.float64, copy=False)
            Z -= self.shift * Qd.sum(axis=0, keepdims=True)
            Z += self.shift * Qd
        Z *= self.scale
        if self.diagonal is not None:
            Z += self.diagonal[:, None] * Q
        if self.progress is not None:
            self.progress.update(1)
        return Z

    def row_sums(self):
        """Row sums of ``scale * (A - shift (11^T - I))`` (for diagonal augmentation)."""
        if isinstance(self.A, PackedAdjacency):
            s = packed_degrees(self.A)
        else:
            s = np.asarray(self.A.sum(axis=1), dtype=np.float64).ravel()
        return self.scale * (s - self.shift * (self.n - 1))

    def entry_sum(self):
        """The sum of the entries of ``A`` (twice the edges of a simple graph): a popcount of
        a packed graph's words, a fraction of a product's cost, where its degrees take a
        pass that attributes every bit to a row and a column."""
        if isinstance(self.A, PackedAdjacency):
            return 2.0 * self.A.count_edges()
        return float(self.A.sum(dtype=np.float64))

    def to_dense(self):
        check_memory(8.0 * self.n ** 2, f"a dense float64 matrix on {self.n} nodes")
        if sp.issparse(self.A) or isinstance(self.A, PackedAdjacency):
            M = self.A.toarray()
        else:
            M = np.array(self.A, dtype=np.float64)
        M = np.asarray(M, dtype=np.float64)
        if self.shift:
            M -= self.shift
            M[np.diag_indices(self.n)] += self.shift
        M *= self.scale
        if self.diagonal is not None:
            M[np.diag_indices(self.n)] += self.diagonal
        return M

    def linear_operator(self):
        def mv(v):
            return self.matmat(np.asarray(v, dtype=np.float64).reshape(-1, 1)).ravel()

        return LinearOperator((self.n, self.n), matvec=mv, matmat=self.matmat,
                              rmatvec=mv, dtype=np.float64)


def _order_by_magnitude(w, V, k):
    idx = np.argsort(-np.abs(w), kind="stable")[:k]
    return w[idx], V[:, idx]


def _fix_signs(V):
    # The largest-magnitude entry of each eigenvector is made positive, so that results do not
    # depend on the solver's arbitrary sign choice.
    rows = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[rows, np.arange(V.shape[1])])
    signs[signs == 0] = 1
    return V * signs


def _dense_solver(op, k):
    w, V = la.eigh(op.to_dense())
    return _order_by_magnitude(w, V, k)


def _arpack_solver(op, k, rng, tol):
    v0 = rng.standard_normal(op.n)
    w, V = eigsh(op.linear_operator(), k=k, which="LM", v0=v0, tol=tol,
                 maxiter=max(1000, 20 * op.n))
    return _order_by_magnitude(w, V, k)


@functools.cache
def _blas_pools():
    # threadpool_limits finds the loaded BLAS libraries afresh on every call (a scan of the
    # process's memory maps, about 14 ms: 0.26 s of a 2.8 s embedding at n = 10,000); the
    # libraries are loaded once, so they are found once.
    return ThreadpoolController()


def _one_blas_thread():
    return _blas_pools().limit(limits=1)


def _ritz(T, k):
    # A few hundred rows at most: threads only add waiting (under CPU contention threaded
    # OpenBLAS busy-waits, 0.2 s per call instead of milliseconds).
    with _one_blas_thread():
        w, S = la.eigh((T + T.T) / 2)
    return _order_by_magnitude(w, S, k)


def _orthonormal(X):
    """Orthonormal basis of the columns of a tall, thin ``X`` (as ``_ritz``: one thread)."""
    with _one_blas_thread():
        return np.linalg.qr(X)[0]


def _new_directions(K, W, scale):
    """An orthonormal basis of ``W`` (already projected off the orthonormal ``K``), off
    ``K`` to rounding.

    When the Krylov space stops growing (a graph of low rank: the product of a complete
    graph with a block lies in the block's span and the all-ones vector), some of ``W``'s
    directions are rounding left over from the projection of a block of norm ``scale``.
    Normalising blows that up to unit vectors with components along ``K`` of order one, the
    basis stops being orthonormal, and the Ritz values leave the spectrum: the largest
    eigenvalue of a complete graph on 1,200 nodes came out 1,222 and growing with every
    product (exact: 1,199). Such directions, of norm below ``sqrt(eps) * scale``, are
    projected off ``K`` again after normalising, twice; they then bring new random
    directions, as a restart would. Other blocks are normalised as before, to the bit.
    """
    with _one_blas_thread():
        Q, R = np.linalg.qr(W)
    length = np.abs(np.diagonal(R))
    if length.size == 0 or length.min() > _DEPENDENT * scale:
        return Q
    for _ in range(2):
        Q = _orthonormal(Q - K @ (K.T @ Q))
    return Q


# A direction of a new block shorter than this times the block it was projected from is
# rounding: its normalised version is not orthogonal to the basis.
_DEPENDENT = float(np.sqrt(np.finfo(np.float64).eps))


# Block products the Krylov solver may take: the cost of one embedding is bounded whatever
# the spectrum. With a gap after the wanted eigenvalues it converges long before (a circle
# release at n = 5,000 takes about 35 in all); without one (a release with no signal, whose
# top eigenvalues sit in the noise bulk) tolerance-driven iterations crawled for hundreds.
# Block Krylov reaches near-optimal low-rank accuracy in this many steps regardless of the
# gap (Musco & Musco 2015), and the residuals it reports say how far it got.
KRYLOV_BUDGET = 48


class SolveInfo:
    """What an iterative solve reached: relative residuals ``|M v - w v| / |w_1|`` of each
    returned pair, block products taken, and whether every residual met the tolerance."""

    __slots__ = ("residuals", "products", "converged")

    def __init__(self, residuals, products, converged):
        self.residuals, self.products, self.converged = residuals, products, converged


def _block_krylov_solver(op, k, rng, tol=1e-6, max_dim=None, max_products=KRYLOV_BUDGET,
                         start=None):
    """Block Lanczos with full reorthogonalization and thick restarts, at most
    ``max_products`` block products; ``start`` (n x j) seeds the first block (a warm start).

    Krylov blocks converge on clustered eigenvalues (the noise bulk of a random graph) far
    faster than plain subspace iteration, with one block product per step.
    """
    n = op.n
    b = min(n, k + 8)
    # A deep basis before each restart pays off on the clustered noise bulk.
    max_dim = min(n, max_dim or max(200, 4 * b))
    X0 = rng.standard_normal((n, b))
    if start is not None:
        X0[:, :start.shape[1]] = start[:, :b]
    Q = _orthonormal(X0)
    K, MK = Q, op.matmat(Q)
    T = K.T @ MK
    products = 1
    while True:
        w, S = _ritz(T, min(T.shape[0], max(k, b)))
        Sk = S[:, :k]
        R = MK @ Sk - (K @ Sk) * w[:k]
        scale = abs(w[0]) if w[0] != 0 else 1.0
        residuals = np.linalg.norm(R, axis=0) / scale
        converged = bool(np.all(residuals <= tol))
        if converged or products >= max_products:
            return w[:k], K @ Sk, SolveInfo(residuals, products, converged)
        if K.shape[1] + b > max_dim:
            # Thick restart on the best Ritz block: its image under M is known already.
            K, MK = K @ S[:, :b], MK @ S[:, :b]
            T = np.diag(w[:b])
        Z = MK[:, -b:]
        W = Z - K @ (K.T @ Z)
        W -= K @ (K.T @ W)
        Qn = _new_directions(K, W, float(np.linalg.norm(Z, axis=0).max()))
        Zn = op.matmat(Qn)
        products += 1
        cross = K.T @ Zn
        T = np.block([[T, cross], [cross.T, Qn.T @ Zn]])
        K, MK = np.hstack([K, Qn]), np.hstack([MK, Zn])


def resolve_solver(op, k, solver="auto"):
    """The solver ``solver`` stands for on this operator: ``auto`` picks dense LAPACK for
    n <= 1000 and the fixed-budget block Krylov method otherwise (dense, sparse and packed
    graphs: ARPACK's tolerance-driven restarts crawl when the top of the spectrum has no
    gap); the iterative solvers give way to LAPACK when nearly every eigenpair is wanted."""
    if solver not in SOLVERS:
        raise ValueError(f"solver={solver!r} is not one of {SOLVERS}.")
    n = op.n
    if solver == "auto":
        if n <= _DENSE_MAX_N or k >= n - 1:
            return "dense"
        return "krylov"
    if solver == "arpack" and k >= n - 1:
        return "dense"
    return solver


def top_eigenpairs(op, k, solver="auto", random_state=0, tol=None, verbose=False, *,
                   max_products=KRYLOV_BUDGET, start=None, return_info=False):
    """The ``k`` eigenpairs of largest magnitude of a :class:`ShiftedAdjacency`.

    Parameters
    ----------
    op : ShiftedAdjacency
    k : int
        ``1 <= k < n``.
    solver : {"auto", "dense", "arpack", "krylov"}
        ``auto``: dense for n <= 1000, block Krylov otherwise.
    random_state : int
        Seed of the starting vectors (the result does not depend on it beyond rounding).
    tol : float, optional
        Iterative solvers stop when every residual ``|M v - w v|`` is below ``tol`` times
        the largest eigenvalue magnitude (krylov, default 1e-6; float32 products of 0/1
        matrices reach about 2e-7), or at ARPACK's relative accuracy ``tol`` (default 1e-10).
    verbose : bool, default=False
        Count the products with the operator on a tqdm bar (stderr); the dense solver is one
        step. The result does not depend on it.
    max_products : int, default=KRYLOV_BUDGET
        Block products the Krylov solver may take (its cost bound, whatever the spectrum).
    start : ndarray of shape (n, j), optional
        Vectors the Krylov solver starts from (e.g. a previous solve's eigenvectors).
    return_info : bool, default=False
        Also return a ``SolveInfo`` named tuple (residuals, products, convergence); the dense
        solver reports its residuals too, ARPACK its residuals with ``products`` 0.

    Returns
    -------
    eigenvalues : ndarray of shape (k,)
        Ordered by decreasing magnitude.
    eigenvectors : ndarray of shape (n, k)
    info : SolveInfo
        Only with ``return_info=True``.
    """
    n = op.n
    if not 1 <= k <= n:
        raise ValueError(f"cannot compute {k} eigenpairs of a {n} x {n} matrix.")
    solver = resolve_solver(op, k, solver)
    rng = np.random.default_rng(random_state)
    args = (op, k, solver, rng, tol, max_products, start)
    if not verbose:
        w, V, info = _solve(*args)
    else:
        unit = "eigh" if solver == "dense" else "product"
        with tqdm(desc=f"{k} eigenpairs of {n} nodes ({solver})", unit=unit,
                  total=1 if solver == "dense" else None) as bar:
            op.progress = bar
            try:
                w, V, info = _solve(*args)
            finally:
                op.progress = None
            if solver == "dense":
                bar.update(1)
    return (w, V, info) if return_info else (w, V)


def _residual_info(op, w, V, products, converged=True):
    R = op.matmat(V) - V * w
    scale = abs(w[0]) if len(w) and w[0] != 0 else 1.0
    return SolveInfo(np.linalg.norm(R, axis=0) / scale, products, converged)


def _solve(op, k, solver, rng, tol, max_products, start):
    if solver == "dense":
        w, V = _dense_solver(op, k)
        info = None
    elif solver == "arpack":
        w, V = _arpack_solver(op, k, rng, 1e-10 if tol is None else tol)
        info = None
    else:
        w, V, info = _block_krylov_solver(op, k, rng, 1e-6 if tol is None else tol,
                                          max_products=max_products, start=start)
    V = _fix_signs(V)
    if info is None:
        progress, op.progress = op.progress, None  # one residual product, not a step
        try:
            info = _residual_info(op, w, V, 0)
        finally:
            op.progress = progress
    return w, V, info
