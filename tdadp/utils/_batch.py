"""One item or a batch of items: the mapping every stage shares.

A sample is a whole graph, point cloud or diagram. Stages accept a single item or a sequence
of items and map each to one output, so a Pipeline runs one analysis or a batch of replicates
with the same code.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from joblib import Parallel, delayed

__all__ = ["split_batch", "map_items", "join_batch"]


def _is_matrix_like(x):
    return sp.issparse(x) or (isinstance(x, np.ndarray) and x.ndim == 2)


def split_batch(X, *, what="matrix", single_types=()):
    """Split ``X`` into a list of 2-D items and say whether it was a single item.

    A 2-D array, a scipy sparse matrix or an instance of ``single_types`` is one item; a 3-D
    array, or a list/tuple of such items, is a batch. A nested list of numbers is converted
    with numpy first.

    Returns
    -------
    items : list
    single : bool
    """
    if _is_matrix_like(X) or (single_types and isinstance(X, single_types)):
        return [X], True
    if not isinstance(X, (np.ndarray, list, tuple)) and hasattr(X, "__array__"):
        X = np.asarray(X)  # array-likes (a DataFrame, a wrapped array) are tables too
        if X.ndim == 2:
            return [X], True
    if isinstance(X, np.ndarray):
        if X.ndim == 3:
            return list(X), False
        raise ValueError(
            f"expected a 2-D {what} or a sequence of them, got an array with {X.ndim} "
            f"dimension(s) and shape {X.shape}. Reshape your data: one item is 2-D, a batch "
            "of equal-shape items may be 3-D."
        )
    if isinstance(X, (list, tuple)):
        if len(X) == 0:
            raise ValueError(f"expected a 2-D {what} or a non-empty sequence of them, got an "
                             "empty sequence.")
        if all(_is_matrix_like(x) or (single_types and isinstance(x, single_types)) for x in X):
            return list(X), False
        try:
            arr = np.asarray(X)
        except (TypeError, ValueError):  # ragged nesting
            arr = None
        if arr is not None and arr.ndim in (2, 3):
            # Real numbers become floats; strings and complex numbers keep their dtype (a
            # cast would parse "1.5" and drop imaginary parts) so the item's own check
            # refuses them by name.
            if (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool) \
                    and not np.iscomplexobj(arr):
                arr = arr.astype(float)
            return split_batch(arr, what=what)
        items = []
        for x in X:
            sub, single = split_batch(x, what=what, single_types=single_types)
            if not single:
                raise ValueError(f"a batch of {what}s must not be nested.")
            items.extend(sub)
        return items, False
    raise ValueError(
        f"expected a 2-D {what} (numpy array or scipy sparse matrix) or a sequence of them, "
        f"got {type(X).__name__}."
    )


def map_items(func, items, streams=None, n_jobs=None, prefer="threads"):
    """Apply ``func(item)`` or ``func(item, stream)`` to every item.

    The result does not depend on ``n_jobs``: each item's randomness comes only from its own
    pre-spawned stream.
    """
    if streams is None:
        calls = [delayed(func)(item) for item in items]
    else:
        calls = [delayed(func)(item, rng) for item, rng in zip(items, streams)]
    if n_jobs in (None, 1) or len(items) == 1:
        return [call[0](*call[1], **call[2]) for call in calls]
    return Parallel(n_jobs=n_jobs, prefer=prefer)(calls)


def join_batch(outputs, single):
    """The single output for a single item, else the list of outputs."""
    return outputs[0] if single else outputs
