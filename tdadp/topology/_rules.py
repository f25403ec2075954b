"""Parameter rules shared by the topology stages: homology dimensions and point clouds."""

from __future__ import annotations

import numbers

import numpy as np

from ..utils._params import Rule
from ..utils._validation import as_real_array

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


def check_cloud(X):
    """One point cloud as a C-contiguous (n_points, n_features) float64 array."""
    X = np.ascontiguousarray(as_real_array(X, "a point cloud", finite=False))
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
