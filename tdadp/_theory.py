"""Theory helpers: the private latent map of Prop. 1, its signature, and alignment errors."""

from __future__ import annotations

import numpy as np
import scipy.linalg as la

from ._latent_positions import LatentPositions, get_signature
from ._mechanisms import flip_probability
from ._validation import check_epsilon

__all__ = [
    "private_latent_map",
    "private_signature",
    "inertia",
    "procrustes_align",
    "gram_error",
    "two_to_infinity_error",
]


def _as_latent(X, name="X"):
    Xa = np.asarray(X, dtype=float)
    if Xa.ndim != 2:
        raise ValueError(f"{name} must be a 2-D (n, d) array, got shape {Xa.shape}.")
    if not np.all(np.isfinite(Xa)):
        raise ValueError(f"{name} contains NaN or inf.")
    return Xa


def inertia(X, signature=None, rtol=1e-9):
    """Signature (numbers of positive and negative eigenvalues) of ``X I_pq X^T``.

    Computed from a thin QR of ``X`` (``X I X^T = Q (R I R^T) Q^T``), so it costs O(n d^2)
    and never forms the n x n matrix.

    Parameters
    ----------
    X : array-like of shape (n, d)
    signature : pair of int, optional
        ``(p, q)`` of ``X``; taken from ``X.signature`` or RDPG by default.
    rtol : float
        Eigenvalues below ``rtol`` times the largest magnitude count as zero.

    Returns
    -------
    (p, q) : tuple of int
    """
    Xa = _as_latent(X)
    p, q = get_signature(X, signature)
    J = np.r_[np.ones(p), -np.ones(q)]
    _, R = la.qr(Xa, mode="economic")
    w = la.eigvalsh((R * J) @ R.T)
    cut = rtol * max(np.abs(w).max(), 1e-300)
    return int(np.sum(w > cut)), int(np.sum(w < -cut))


def private_latent_map(X, epsilon, signature=None):
    """Latent positions of the edgeFlip release: ``phi(x) = sqrt(1 - 2 pi) x ⊕ sqrt(pi)``.

    Prop. 1: ``E[A_eps | X] = (1 - 2 pi) P + pi (11^T - I)``, so the release is a gRDPG with
    these latent positions and inner-product signature ``(p + 1, q)``:
    ``<phi(x), I phi(y)> = (1 - 2 pi) <x, I y> + pi``.

    Parameters
    ----------
    X : array-like of shape (n, d)
        Non-private latent positions (columns ordered positive part first).
    epsilon : float in [0, inf]
    signature : pair of int, optional
        ``(p, q)`` of ``X``.

    Returns
    -------
    phi_X : LatentPositions of shape (n, d + 1)
        Columns: the ``p`` positive coordinates, the new ``sqrt(pi)`` coordinate, then the
        ``q`` negative ones, so that ``phi_X.signature == (p + 1, q)``.

    Notes
    -----
    The map always adds a coordinate, but the *rank* of the private Gram matrix is ``d + 1``
    only when the all-ones vector is outside the column space of ``X`` (for an SBM it is
    inside, and the rank stays ``d``). The embedding dimension and signature of a private
    graph are given by :func:`private_signature`, the inertia of the private Gram matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp import circle, private_latent_map
    >>> X = circle(5, random_state=0)
    >>> Y = private_latent_map(X, 1.0)
    >>> Y.shape, Y.signature
    ((5, 4), (4, 0))
    """
    Xa = _as_latent(X)
    p, q = get_signature(X, signature)
    pi = flip_probability(check_epsilon(epsilon))
    scaled = np.sqrt(1.0 - 2.0 * pi) * Xa
    const = np.full((Xa.shape[0], 1), np.sqrt(pi))
    out = np.hstack([scaled[:, :p], const, scaled[:, p:]])
    labels = getattr(X, "labels", None)
    return LatentPositions(out, signature=(p + 1, q), labels=labels)


def private_signature(X, epsilon, signature=None, rtol=1e-9):
    """Signature of the private Gram matrix ``(1 - 2 pi) X I_pq X^T + pi 11^T``.

    This, not a blind ``(p + 1, q)``, is the embedding dimension and signature to expect
    after edgeFlip (see :func:`private_latent_map`). At ``epsilon = 0`` it is ``(1, 0)``
    (Erdős–Rényi(1/2)).

    Examples
    --------
    >>> from tdadp import sbm, private_signature
    >>> X = sbm([100, 100], [[0.2, 0.5], [0.5, 0.2]], random_state=0)
    >>> private_signature(X, 1.0)        # the all-ones vector is in X's column space
    (1, 1)
    """
    Y = private_latent_map(X, epsilon, signature)
    return inertia(Y, Y.signature, rtol=rtol)


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
    Xh, Xa = _as_latent(X_hat, "X_hat"), _as_latent(X, "X")
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
    Xh = _as_latent(X_hat, "X_hat")
    ph, qh = get_signature(X_hat, signature_hat)
    Jh = np.r_[np.ones(ph), -np.ones(qh)]
    n = Xh.shape[0]
    if X is not None:
        Xa = _as_latent(X, "X")
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
