"""Comparing an embedding with the latent positions it estimates, up to non-identifiability."""

from __future__ import annotations

import numpy as np
import scipy.linalg as la

from ..latent._positions import as_latent_matrix, get_signature

__all__ = ["procrustes_align", "gram_error", "two_to_infinity_error"]


def procrustes_align(X_hat, X):
    """Rotate ``X_hat`` onto ``X`` by orthogonal Procrustes (RDPG non-identifiability).

    Parameters
    ----------
    X_hat, X : array-like of shape (n, d)

    Returns
    -------
    X_aligned : ndarray of shape (n, d)
        ``X_hat @ W`` with ``W = argmin_{W orthogonal} ||X_hat W - X||_F``.
    W : ndarray of shape (d, d)

    Notes
    -----
    A gRDPG with ``q > 0`` is identifiable only up to the indefinite orthogonal group
    O(p, q), which orthogonal Procrustes cannot undo: compare gRDPG estimates with
    :func:`gram_error` instead.
    """
    Xh, Xa = as_latent_matrix(X_hat, "X_hat"), as_latent_matrix(X, "X")
    if Xh.shape != Xa.shape:
        raise ValueError(f"X_hat and X must have the same shape, got {Xh.shape} and "
                         f"{Xa.shape}.")
    W, _ = la.orthogonal_procrustes(Xh, Xa)
    return Xh @ W, W


def two_to_infinity_error(X_hat, X):
    """``max_i ||(X_hat W - X)_i||_2`` at the Procrustes rotation ``W``.

    The 2→∞ norm (largest row error) controls every node's estimate at once; it is the
    error of the uniform consistency results for ASE. ``W`` is the Frobenius-optimal
    rotation, the standard choice in those results.

    Returns
    -------
    float
    """
    aligned, _ = procrustes_align(X_hat, X)
    return float(np.max(np.linalg.norm(aligned - np.asarray(X, dtype=float), axis=1)))


def gram_error(X_hat, X=None, *, signature_hat=None, signature=None, P=None, norm="max",
               exclude_diagonal=True):
    """Error between ``X_hat I X_hat^T`` and a target Gram matrix, invariant to O(p, q).

    Parameters
    ----------
    X_hat : array-like of shape (n, d_hat)
        Estimated positions (an embedding carries its signature).
    X : array-like of shape (n, d), optional
        True positions; the target is ``X I_pq X^T``. Give ``X`` or ``P``.
    signature_hat, signature : pair of int, optional
        Signatures of ``X_hat`` and ``X`` (default: their ``signature`` attribute or RDPG).
    P : array-like of shape (n, n), optional
        An explicit target matrix (e.g. ``(1 - 2 pi) P + pi``).
    norm : {"max", "mean", "fro", "relative_fro"}
        Entrywise max, entrywise mean absolute error, Frobenius norm, or Frobenius norm
        relative to the target's.
    exclude_diagonal : bool, default=True
        Ignore the diagonal (no self-loops: the diagonal of P is never observed).

    Returns
    -------
    float

    Notes
    -----
    Computed in row blocks: memory stays O(n) beyond ``P`` itself.
    """
    norms = ("max", "mean", "fro", "relative_fro")
    if norm not in norms:
        raise ValueError(f"norm={norm!r} is not one of {norms}.")
    if (X is None) == (P is None):
        raise ValueError("give exactly one of X (true positions) or P (target matrix).")
    Xh = as_latent_matrix(X_hat, "X_hat")
    ph, qh = get_signature(X_hat, signature_hat)
    Jh = np.r_[np.ones(ph), -np.ones(qh)]
    n = Xh.shape[0]
    if X is not None:
        Xa = as_latent_matrix(X, "X")
        if Xa.shape[0] != n:
            raise ValueError(f"X_hat has {n} rows but X has {Xa.shape[0]}.")
        p, q = get_signature(X, signature)
        J = np.r_[np.ones(p), -np.ones(q)]
    else:
        P = np.asarray(P, dtype=float)
        if P.shape != (n, n):
            raise ValueError(f"P must have shape {(n, n)}, got {P.shape}.")
    worst, total, total_sq, target_sq, count = 0.0, 0.0, 0.0, 0.0, 0
    step = max(1, (1 << 22) // max(n, 1))
    for i0 in range(0, n, step):
        i1 = min(n, i0 + step)
        G_hat = (Xh[i0:i1] * Jh) @ Xh.T
        G = (Xa[i0:i1] * J) @ Xa.T if X is not None else P[i0:i1]
        D = np.abs(G_hat - G)
        if exclude_diagonal:
            rows = np.arange(i1 - i0)
            D[rows, rows + i0] = 0.0
            G = G.copy()
            G[rows, rows + i0] = 0.0
        worst = max(worst, float(D.max()))
        total += float(D.sum())
        total_sq += float((D * D).sum())
        target_sq += float((G * G).sum())
    count = n * (n - 1) if exclude_diagonal else n * n
    if norm == "max":
        return worst
    if norm == "mean":
        return total / count
    if norm == "fro":
        return float(np.sqrt(total_sq))
    return float(np.sqrt(total_sq / max(target_sq, 1e-300)))
