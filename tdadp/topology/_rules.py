"""Parameter rules shared by the topology stages: homology dimensions and point clouds."""

from __future__ import annotations

import numbers

import numpy as np

from ..utils._params import Rule

__all__ = ["HOMOLOGY_DIMENSIONS", "as_dimensions", "check_cloud"]


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


def check_cloud(X):
    """One point cloud as a C-contiguous (n_points, n_features) float64 array.

    Real numbers only: strings are refused (``np.asarray`` would parse ``"1.5"`` silently) and
    so are complex numbers (a cast to float drops the imaginary part). An object array of
    numbers is converted, as scikit-learn does.
    """
    X = np.asarray(X)
    if X.dtype.kind in "USV" or _holds(X, (str, bytes)):
        raise TypeError(f"a point cloud must hold real numbers, got strings (dtype {X.dtype}).")
    if X.dtype.kind == "c" or _holds(X, (complex, np.complexfloating)):
        raise ValueError("Complex data not supported: a point cloud must be real, got "
                         f"dtype {X.dtype} (casting would drop the imaginary part).")
    if X.dtype == object:
        X = X.astype(np.float64)  # a TypeError naming the element that is not a number
    elif not (np.issubdtype(X.dtype, np.number) or X.dtype == bool):
        raise TypeError(f"a point cloud must be numeric, got dtype {X.dtype}.")
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"a point cloud must be a 2-D (n_points, n_features) array, got shape "
                         f"{X.shape}.")
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"the point cloud is empty (shape {X.shape}).")
    if not np.isfinite(X).all():
        raise ValueError("the point cloud contains NaN or infinite coordinates.")
    return X
