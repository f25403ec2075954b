"""Latent positions that carry their gRDPG signature (and labels) along a pipeline."""

from __future__ import annotations

import numpy as np

__all__ = ["LatentPositions", "get_signature", "as_latent_matrix"]


class LatentPositions(np.ndarray):
    """An ``(n, d)`` float array of latent positions with gRDPG metadata.

    It behaves as a plain ndarray everywhere; the samplers return it so that the signature
    reaches :class:`~tdadp.GRDPG` inside a Pipeline without the user repeating it.

    Attributes
    ----------
    signature : tuple of int
        ``(p, q)`` with ``p + q == d``: the inner product is ``<x, I_pq y>`` with
        ``I_pq = diag(1 x p, -1 x q)``. Columns are ordered positive part first.
    labels : ndarray of int or None
        Ground-truth memberships (SBM block, circle id), when the model has them.

    Notes
    -----
    Metadata survives views and copies unchanged; ``np.asarray(X)`` gives a plain array.
    """

    def __new__(cls, data, signature=None, labels=None):
        obj = np.asarray(data, dtype=float).view(cls)
        if obj.ndim != 2:
            raise ValueError(f"latent positions must be 2-D (n, d), got shape {obj.shape}.")
        d = obj.shape[1]
        if signature is None:
            signature = (d, 0)
        p, q = (int(s) for s in signature)
        if p < 0 or q < 0 or p + q != d:
            raise ValueError(f"signature {signature} does not match dimension d = {d}.")
        obj.signature = (p, q)
        obj.labels = None if labels is None else np.asarray(labels)
        return obj

    def __array_finalize__(self, obj):
        if obj is None:
            return
        self.signature = getattr(obj, "signature", None)
        self.labels = getattr(obj, "labels", None)

    def __reduce__(self):
        # Keep the metadata through pickling (joblib workers, caches).
        constructor, args, state = super().__reduce__()
        return constructor, args, (state, self.signature, self.labels)

    def __setstate__(self, state):
        base_state, self.signature, self.labels = state
        super().__setstate__(base_state)


def get_signature(X, signature=None):
    """The signature to use for ``X``: explicit, else carried by ``X``, else RDPG ``(d, 0)``."""
    d = np.shape(X)[1]
    if signature is None:
        signature = getattr(X, "signature", None) or (d, 0)
    try:
        p, q = (int(s) for s in signature)
    except (TypeError, ValueError):
        raise ValueError(f"signature must be a pair (p, q) of integers, got {signature!r}.")
    if p < 0 or q < 0 or p + q != d:
        raise ValueError(
            f"signature (p, q) = ({p}, {q}) must satisfy p + q = d = {d} with p, q >= 0."
        )
    return p, q


def as_latent_matrix(X, name="X"):
    Xa = np.asarray(X, dtype=float)
    if Xa.ndim != 2:
        raise ValueError(f"{name} must be a 2-D (n, d) array, got shape {Xa.shape}.")
    if not np.all(np.isfinite(Xa)):
        raise ValueError(f"{name} contains NaN or inf.")
    return Xa
