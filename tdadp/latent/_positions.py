"""Latent positions that carry their gRDPG signature (and labels) along a pipeline."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..utils._validation import as_real_array

__all__ = ["LatentPositions", "get_signature", "get_isolated", "as_latent_matrix"]


def _check_signature(signature, d):
    try:
        p, q = (int(s) for s in signature)
    except (TypeError, ValueError):
        raise ValueError(
            f"signature must be a pair (p, q) of integers, got {signature!r}.") from None
    if p < 0 or q < 0 or p + q != d:
        raise ValueError(
            f"signature (p, q) = ({p}, {q}) must satisfy p + q = d = {d} with p, q >= 0."
        )
    return p, q


class LatentPositions(np.ndarray):
    """An ``(n, d)`` float array of latent positions with gRDPG metadata.

    It behaves as a plain ndarray everywhere; the samplers return it so that the signature
    reaches :class:`~tdadp.GRDPG` inside a Pipeline without the user repeating it.

    Attributes
    ----------
    signature : tuple of int
        ``(p, q)`` with ``p + q == d``: the inner product is ``<x, I_pq y>`` with
        ``I_pq = diag(1 x p, -1 x q)``. Columns are ordered positive part first.
    labels : ndarray of shape (n,) or None
        Ground-truth memberships (SBM block, circle id), when the model has them.
    isolated : ndarray of bool of shape (n,) or None
        The nodes with no edge in the graph they were embedded from (set by
        :class:`~tdadp.AdjacencySpectralEmbedding`; None when unknown). Their rows carry no
        signal (the plain embedding puts them at the origin), so the clusterers label them
        -1 (see :func:`get_isolated`).

    Notes
    -----
    Indexing keeps the metadata true to the result. Selecting rows (a slice, integer or
    boolean index) keeps the signature and selects the same rows of ``labels`` and
    ``isolated``. Selecting columns restricts the signature: each kept column keeps its sign,
    so ``X[:, :2]`` of a signature-(3, 0) matrix has signature (2, 0) and ``X[:, [0, 2]]`` of
    a (1, 2) matrix has (1, 1). A result that is not a table of whole rows and columns of
    ``X`` (a row ``X[0]``, a column, a scalar, an element-wise gather), an empty one, or a
    column selection that puts a negative column before a positive one (no ``(p, q)``
    describes it) is a plain ndarray.
    Arithmetic keeps the metadata (``2 * X`` has the same signature); pickling keeps it;
    ``np.asarray(X)`` gives a plain array (do that before reshaping or transposing: numpy
    reshapes views after they are made, so their metadata cannot be corrected).

    Examples
    --------
    >>> from tdadp import sbm
    >>> X = sbm([3, 3], [[0.2, 0.5], [0.5, 0.2]], random_state=0)
    >>> X.signature, X[:, :1].signature, X[:, 1:].signature
    ((1, 1), (1, 0), (0, 1))
    >>> X[4:].labels.tolist()
    [1, 1]
    >>> type(X[0]).__name__, type(X[:, ::-1]).__name__
    ('ndarray', 'ndarray')
    """

    def __new__(cls, data, signature=None, labels=None, isolated=None):
        obj = as_real_array(data, "latent positions").view(cls)
        if obj.ndim != 2:
            raise ValueError(f"latent positions must be 2-D (n, d), got shape {obj.shape}.")
        n, d = obj.shape
        obj.signature = (d, 0) if signature is None else _check_signature(signature, d)
        obj.labels = _check_rows(labels, n, "labels")
        isolated = _check_rows(isolated, n, "isolated")
        if isolated is not None and isolated.dtype != bool:
            raise ValueError(f"isolated must be a boolean mask, got dtype {isolated.dtype}.")
        obj.isolated = isolated
        return obj

    def __array_finalize__(self, obj):
        if obj is None:
            return
        # Views and arithmetic results keep the metadata; indexing corrects it (__getitem__).
        self.signature = getattr(obj, "signature", None)
        self.labels = getattr(obj, "labels", None)
        self.isolated = getattr(obj, "isolated", None)

    def __getitem__(self, key):
        out = super().__getitem__(key)
        if not isinstance(out, LatentPositions):
            return out  # a scalar
        where = self._source(key, out.shape)
        if where is None:
            return out.view(np.ndarray)
        rows, cols = where
        signs = np.arange(self.shape[1])[cols] < self.signature[0]
        p = int(np.count_nonzero(signs))
        if np.any(~signs[:p]):  # a negative column before a positive one
            return out.view(np.ndarray)
        out.signature = (p, len(cols) - p)
        out.labels = None if self.labels is None else self.labels[rows]
        out.isolated = None if self.isolated is None else self.isolated[rows]
        return out

    def _source(self, key, shape):
        """(rows, cols) of ``self`` that ``self[key]`` is made of, or None if not a table."""
        if len(shape) != 2 or 0 in shape or self.ndim != 2 or self.signature is None:
            return None
        n, d = self.shape
        # Index the row and column numbers the way the data was indexed.
        R = np.broadcast_to(np.arange(n)[:, None], (n, d))[key]
        C = np.broadcast_to(np.arange(d)[None, :], (n, d))[key]
        if R.shape != shape or np.any(R[:, :1] != R) or np.any(C[:1] != C):
            return None
        return R[:, 0], C[0]

    def __reduce__(self):
        # Keep the metadata through pickling (joblib workers, caches).
        constructor, args, state = super().__reduce__()
        return constructor, args, (state, self.signature, self.labels, self.isolated)

    def __setstate__(self, state):
        # Pickles made before ``isolated`` existed hold three fields.
        base_state, self.signature, self.labels, *rest = state
        self.isolated = rest[0] if rest else None
        super().__setstate__(base_state)


def _check_rows(values, n, name):
    """``values`` as an array of one entry a row, or None."""
    if values is None:
        return None
    values = np.asarray(values)
    if values.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), one per row of the latent "
                         f"positions, got shape {values.shape}.")
    return values


def _carried_signature(X):
    """The signature ``X`` carries: a LatentPositions attribute, or a DataFrame's attrs."""
    if isinstance(X, LatentPositions):
        return X.signature
    attrs = getattr(X, "attrs", None)  # pandas output of LatentSampler or the embedding
    return attrs.get("signature") if isinstance(attrs, dict) else None


def get_signature(X, signature=None):
    """The signature to use for ``X``: explicit, else carried by ``X``, else RDPG ``(d, 0)``.

    ``X`` carries one as a :class:`LatentPositions` or as a pandas DataFrame made by a tdadp
    stage with ``set_output(transform="pandas")`` (in ``X.attrs["signature"]``).
    """
    d = np.shape(X)[1]
    if signature is None:
        signature = _carried_signature(X) or (d, 0)
    return _check_signature(signature, d)


def get_isolated(X):
    """The mask of isolated nodes ``X`` carries, or None.

    A :class:`LatentPositions` carries it as ``X.isolated``; a pandas DataFrame made by the
    embedding with ``set_output(transform="pandas")`` carries the index labels of its
    isolated nodes in ``X.attrs["isolated"]`` (labels, not a mask: pandas copies ``attrs``
    unchanged through row selections, so a mask would no longer match the rows, and a list
    of names still does). Anything else carries none.

    Parameters
    ----------
    X : LatentPositions, pandas DataFrame or array-like

    Returns
    -------
    ndarray of bool of shape (n,), or None

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.latent import LatentPositions, get_isolated
    >>> X = LatentPositions(np.ones((3, 2)), isolated=[False, True, False])
    >>> get_isolated(X[1:]).tolist(), get_isolated(np.ones((3, 2)))
    ([True, False], None)
    """
    if isinstance(X, LatentPositions):
        return None if X.isolated is None else np.asarray(X.isolated, dtype=bool)
    attrs = getattr(X, "attrs", None)
    names = attrs.get("isolated") if isinstance(attrs, dict) else None
    index = getattr(X, "index", None)
    if names is None or index is None or not hasattr(index, "isin"):
        return None
    return np.asarray(index.isin(list(names)), dtype=bool)


def as_latent_matrix(X, name="X"):
    """``X`` as an ``(n, d)`` float64 array of finite reals, ``n >= 2``, ``d >= 1``, or an error.

    Latent positions are the nodes of a graph: at least two, each with a coordinate. A sparse
    matrix is refused (TypeError); complex numbers, strings, NaN and inf too (ValueError).
    """
    if sp.issparse(X):
        raise TypeError(f"{name} must be a dense (n, d) array of latent positions; sparse input "
                        "is not supported.")
    Xa = as_real_array(X, name)
    if Xa.ndim != 2:
        raise ValueError(f"{name} must be a 2-D (n, d) array, got shape {Xa.shape}.")
    n, d = Xa.shape
    if n == 0 or d == 0:
        # Worded as scikit-learn words empty data, which its estimator checks look for.
        raise ValueError(f"{name} is empty: {n} sample(s) and {d} feature(s) "
                         f"(shape={Xa.shape}) while a minimum of 1 is required.")
    if n < 2:
        raise ValueError(f"{name} must hold at least 2 nodes (rows), got n_samples = {n}.")
    return Xa
