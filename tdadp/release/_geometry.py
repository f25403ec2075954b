"""The geometry of edgeFlip (Prop. 1): the private latent map and the signature it induces.

The closure of gRDPGs under edgeFlip, the rank caveat and the adjustment are derived on the
documentation's theory page docs/theory/edgeflip.rst (the site's theory/edgeflip.html).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as la

from ..latent._positions import LatentPositions, as_latent_matrix, get_signature
from ..utils._validation import check_epsilon
from ._flip import flip_probability

__all__ = ["inertia", "private_latent_map", "private_signature"]


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
    Xa = as_latent_matrix(X)
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
    Xa = as_latent_matrix(X)
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
