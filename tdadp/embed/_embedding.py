"""Adjacency spectral embedding, plain or adjusted for edgeFlip."""

from __future__ import annotations

import math

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from ..utils._batch import join_batch, map_items
from ._dimension import zhu_ghodsi_elbows
from ._eigen import SOLVERS, ShiftedAdjacency, resolve_solver, top_eigenpairs
from ..latent._positions import LatentPositions
from ..release._flip import flip_probability
from ..io._input import graph_batch
from ..utils._validation import check_epsilon, check_positive_int, check_symmetric_matrix

__all__ = ["adjacency_spectral_embedding", "AdjacencySpectralEmbedding"]


def _check_params(n_components, epsilon, n_elbows, solver, max_components):
    if n_components is not None:
        check_positive_int(n_components, "n_components")
    if epsilon is not None:
        eps = check_epsilon(epsilon)
        if eps == 0:
            raise ValueError(
                "epsilon = 0: edgeFlip at epsilon 0 releases pure noise (every dyad is a fair "
                "coin), so there is no signal left to recover; the privacy-adjusted embedding "
                "is undefined (it divides by 1 - 2 pi(0) = 0)."
            )
    check_positive_int(n_elbows, "n_elbows")
    if max_components is not None:
        check_positive_int(max_components, "max_components")
    if solver not in SOLVERS:
        raise ValueError(f"solver={solver!r} is not one of {SOLVERS}.")


def _embed_one(A, n_components, epsilon, n_elbows, solver, diagonal_augmentation,
               max_components):
    A = check_symmetric_matrix(A, "A", keep_dtype=True)
    n = A.shape[0]
    shift, scale = 0.0, 1.0
    if epsilon is not None and not np.isinf(epsilon):
        pi = flip_probability(epsilon)
        shift, scale = pi, 1.0 / (1.0 - 2.0 * pi)
    op = ShiftedAdjacency(A, shift=shift, scale=scale)
    if diagonal_augmentation:
        op.diagonal = op.row_sums() / (n - 1)
    if n_components is None:
        k = max_components or max(2, math.ceil(math.log2(n)))
        k = min(k, n - 1)
        # The elbow needs magnitudes to a few digits only: scan loosely, then refine the
        # kept eigenpairs (noise eigenvalues cluster and converge slowly).
        w, V = top_eigenpairs(op, k, solver, tol=1e-3)
        d = min(zhu_ghodsi_elbows(np.abs(w), n_elbows)[-1], k)
        if resolve_solver(op, k, solver) != "dense":
            w, V = top_eigenpairs(op, d, solver)
    else:
        if n_components >= n:
            raise ValueError(f"n_components={n_components} must be smaller than the number "
                             f"of nodes ({n}).")
        d = n_components
        w, V = top_eigenpairs(op, d, solver)
    w, V = w[:d], V[:, :d]
    # Positive eigenvalues first (by magnitude), then negative: the I_pq column convention.
    order = np.concatenate([np.flatnonzero(w >= 0), np.flatnonzero(w < 0)])
    w, V = w[order], V[:, order]
    signature = (int(np.sum(w >= 0)), int(np.sum(w < 0)))
    X = V * np.sqrt(np.abs(w))
    return LatentPositions(X, signature=signature), w, signature


def adjacency_spectral_embedding(A, n_components=None, epsilon=None, *, n_elbows=2,
                                 solver="auto", diagonal_augmentation=False,
                                 max_components=None, return_eigenvalues=False):
    """Adjacency spectral embedding (ASE), plain or privacy-adjusted.

    ``A ≈ U Λ U^T`` with the ``d`` eigenvalues of largest magnitude; the embedding is
    ``U |Λ|^(1/2)`` and the signs of ``Λ`` estimate the gRDPG signature.

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, n), networkx graph, or a sequence of them
        Symmetric (possibly weighted) adjacency.
    n_components : int, optional
        Embedding dimension ``d``; chosen by the Zhu–Ghodsi elbow when None.
    epsilon : float, optional
        The budget of the edgeFlip release ``A``: embed the privacy-adjusted matrix
        ``(A - pi (11^T - I)) / (1 - 2 pi)``, whose expectation is ``P`` off the diagonal,
        so the embedding estimates the non-private latent positions (and their dimension).
        ``11^T`` is never formed. ``epsilon = 0`` is an error (nothing to recover).
    n_elbows : int, default=2
        With ``n_components=None``, the dimension is the ``n_elbows``-th elbow (as in
        graspologic: a single dominant eigenvalue often makes the first elbow 1).
    solver : {"auto", "dense", "arpack", "krylov"}, default="auto"
        See :func:`tdadp.embed._eigen.top_eigenpairs`.
    diagonal_augmentation : bool, default=False
        Replace the (zero) diagonal with degree / (n - 1) before embedding.
    max_components : int, optional
        Number of eigenvalues scanned for the elbow; default ``max(2, ceil(log2 n))``.
    return_eigenvalues : bool, default=False
        Also return the eigenvalues (in the column order of the embedding).

    Returns
    -------
    X_hat : LatentPositions of shape (n, d), or a list of them
        Columns with positive eigenvalues first; ``X_hat.signature`` is ``(p_hat, q_hat)``.
    eigenvalues : ndarray of shape (d,), or a list of them
        Only with ``return_eigenvalues=True``.

    References
    ----------
    Sussman, Tang, Fishkind, Priebe, "A consistent adjacency spectral embedding for
    stochastic blockmodel graphs", JASA 107 (2012).
    Rubin-Delanchy, Cape, Tang, Priebe, "A statistical interpretation of spectral embedding:
    the generalised random dot product graph", JRSS-B 84 (2022).
    Vishwanath, Hehir, "Signal recovery from random dot-product graphs under local
    differential privacy", AISTATS (2025).

    Examples
    --------
    >>> from tdadp import circle, sample_grdpg, edge_flip, adjacency_spectral_embedding
    >>> A = sample_grdpg(circle(300, random_state=0), random_state=1)
    >>> X_hat = adjacency_spectral_embedding(edge_flip(A, 2.0, random_state=2),
    ...                                      n_components=3, epsilon=2.0)
    >>> X_hat.shape, X_hat.signature
    ((300, 3), (3, 0))
    """
    est = AdjacencySpectralEmbedding(
        n_components=n_components, epsilon=epsilon, n_elbows=n_elbows, solver=solver,
        diagonal_augmentation=diagonal_augmentation, max_components=max_components)
    X_hat = est.fit_transform(A)
    return (X_hat, est.eigenvalues_) if return_eigenvalues else X_hat


class AdjacencySpectralEmbedding(TransformerMixin, BaseEstimator):
    """Adjacency spectral embedding of a graph, or of each graph of a batch.

    Parameters
    ----------
    n_components : int, optional
        Embedding dimension; the Zhu–Ghodsi elbow when None (see ``n_elbows``).
    epsilon : float, optional
        Budget of the edgeFlip release being embedded: embed the privacy-adjusted matrix
        ``(A - pi (11^T - I)) / (1 - 2 pi)`` (a rank-one correction applied through a
        LinearOperator). None embeds ``A`` as it is.
    n_elbows : int, default=2
        Elbow used when ``n_components`` is None.
    solver : {"auto", "dense", "arpack", "krylov"}, default="auto"
        Dense LAPACK for n <= 1000, ARPACK for sparse graphs, block Krylov (BLAS 3 on a
        float32 copy, relative residuals below 1e-6) for large dense graphs.
    diagonal_augmentation : bool, default=False
        Put degree / (n - 1) on the diagonal before embedding.
    max_components : int, optional
        Eigenvalues scanned for the elbow; default ``max(2, ceil(log2 n))``.
    n_jobs : int, optional
        Graphs of a batch embedded in parallel (threads).

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (d,) (a list for a batch)
        Eigenvalues of the embedded matrix, positive ones first, each group by decreasing
        magnitude, in the column order of the embedding.
    signature_ : tuple of int (a list for a batch)
        ``(p_hat, q_hat)``: numbers of positive and negative eigenvalues kept.
    n_components_ : int (a list for a batch)
        Embedding dimension used.

    Notes
    -----
    ``transform`` embeds the graphs it is given (the embedding of a new graph does not depend
    on the fitted one); ``fit_transform`` embeds once and records the fitted attributes.

    References
    ----------
    Sussman, Tang, Fishkind, Priebe, JASA 107 (2012); Rubin-Delanchy, Cape, Tang, Priebe,
    JRSS-B 84 (2022); Zhu, Ghodsi, CSDA 51 (2006); Vishwanath, Hehir, AISTATS (2025).

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from tdadp import LatentSampler, GRDPG, EdgeFlip, AdjacencySpectralEmbedding
    >>> pipe = make_pipeline(LatentSampler("circle", n_nodes=200, random_state=0),
    ...                      GRDPG(random_state=1), EdgeFlip(1.0, random_state=2),
    ...                      AdjacencySpectralEmbedding(n_components=3, epsilon=1.0))
    >>> embeddings = pipe.fit_transform(4)
    >>> len(embeddings), embeddings[0].shape
    (4, (200, 3))
    """

    def __init__(self, n_components=None, epsilon=None, n_elbows=2, solver="auto",
                 diagonal_augmentation=False, max_components=None, n_jobs=None):
        self.n_components = n_components
        self.epsilon = epsilon
        self.n_elbows = n_elbows
        self.solver = solver
        self.diagonal_augmentation = diagonal_augmentation
        self.max_components = max_components
        self.n_jobs = n_jobs

    def _embed(self, X):
        _check_params(self.n_components, self.epsilon, self.n_elbows, self.solver,
                      self.max_components)
        epsilon = None if self.epsilon is None else float(self.epsilon)
        # Weighted graphs are welcome here: _embed_one checks symmetry only.
        items, single = graph_batch(X, validate=False)
        results = map_items(
            lambda A: _embed_one(A, self.n_components, epsilon, self.n_elbows, self.solver,
                                 bool(self.diagonal_augmentation), self.max_components),
            items, None, self.n_jobs)
        return results, single

    def fit(self, X, y=None):
        """Embed ``X`` and record eigenvalues, signature and dimension.

        Parameters
        ----------
        X : adjacency matrix, networkx graph, or sequence of them
        y : ignored

        Returns
        -------
        self
        """
        self._record(*self._embed(X))
        return self

    def _record(self, results, single):
        self.eigenvalues_ = join_batch([r[1] for r in results], single)
        self.signature_ = join_batch([r[2] for r in results], single)
        self.n_components_ = join_batch([r[0].shape[1] for r in results], single)

    def transform(self, X):
        """Embed each graph.

        Parameters
        ----------
        X : adjacency matrix, networkx graph, or sequence of them

        Returns
        -------
        X_hat : LatentPositions of shape (n, d), or a list of them
        """
        results, single = self._embed(X)
        return join_batch([r[0] for r in results], single)

    def fit_transform(self, X, y=None, **fit_params):
        results, single = self._embed(X)
        self._record(results, single)
        return join_batch([r[0] for r in results], single)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        tags.input_tags.sparse = True
        return tags
