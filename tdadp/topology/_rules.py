"""Parameter rules shared by the topology stages: homology dimensions and point clouds."""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from ..utils._params import Rule

__all__ = ["HOMOLOGY_DIMENSIONS", "as_dimensions", "check_cloud", "real_array"]


def _is_dimension(k):
    return isinstance(k, (numbers.Integral, np.integer)) and not isinstance(
        k, (bool, np.bool_)) and k >= 0


def _dimensions_ok(value):
    if _is_dimension(value):
        return True
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        return False
    dims = tuple(value)
    return bool(dims) and all(_is_dimension(k) for k in dims)


HOMOLOGY_DIMENSIONS = Rule("a non-negative int or a non-empty sequence of them",
                           _dimensions_ok)


def as_dimensions(value):
    """A validated ``HOMOLOGY_DIMENSIONS`` value as a sorted tuple of distinct ints."""
    if _is_dimension(value):
        return (int(value),)
    return tuple(sorted({int(k) for k in value}))


def _holds(X, kind):
    return X.dtype == object and any(isinstance(v, kind) for v in X.ravel())


def real_array(X, what):
    """``X`` as a float64 array of any shape, or a clear error naming ``what`` it should be.

    Real numbers only: sparse matrices are refused (``np.asarray`` would wrap one in a 0-d
    object array), strings too (it would parse ``"1.5"`` silently) and complex numbers (a cast
    drops the imaginary part). An object array of numbers is converted, as scikit-learn does.
    """
    if sp.issparse(X):
        raise TypeError(f"Sparse data not supported: {what} is a dense array; convert it "
                        "with X.toarray().")
    X = np.asarray(X)
    if X.dtype.kind in "USV" or _holds(X, (str, bytes)):
        raise ValueError(f"{what} is not numeric: it holds strings (dtype {X.dtype}).")
    if X.dtype.kind == "c" or _holds(X, (complex, np.complexfloating)):
        raise ValueError(f"Complex data not supported: {what} must be real, got dtype "
                         f"{X.dtype} (casting would drop the imaginary part).")
    if X.dtype == object:
        return X.astype(np.float64)  # a TypeError naming the element that is not a number
    if not (np.issubdtype(X.dtype, np.number) or X.dtype == bool):
        raise TypeError(f"{what} is not numeric: dtype {X.dtype}.")
    return np.asarray(X, dtype=np.float64)


def check_cloud(X):
    """One point cloud as a C-contiguous (n_points, n_features) float64 array."""
    X = np.ascontiguousarray(real_array(X, "a point cloud"))
    if X.ndim != 2:
        raise ValueError(f"a point cloud must be a 2-D (n_points, n_features) array, got shape "
                         f"{X.shape}.")
    for axis, what in ((0, "sample(s)"), (1, "feature(s)")):
        if X.shape[axis] == 0:  # scikit-learn's wording, which its checks look for
            raise ValueError(f"Found array with 0 {what} (shape={X.shape}) while a minimum of "
                             "1 is required: the point cloud is empty.")
    if not np.isfinite(X).all():
        raise ValueError("the point cloud contains NaN or infinite coordinates.")
    return X
