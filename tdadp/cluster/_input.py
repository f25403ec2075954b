"""The point cloud a clusterer fits: validated once, the same way for every clusterer."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..utils._validation import as_real_array

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _validate_data
except ImportError:  # pragma: no cover - older scikit-learn
    def _validate_data(estimator, X, **kwargs):
        return estimator._validate_data(X, **kwargs)

__all__ = ["check_point_cloud"]


def check_point_cloud(estimator, X, *, reset=True):
    """``X`` as a float64 array of at least 2 points, recording (``reset``) or checking the
    number of features on ``estimator``."""
    if not sp.issparse(X):  # scikit-learn refuses sparse input itself, by name
        # check_array would parse strings such as "1.5" and drop imaginary parts
        as_real_array(X, "a point cloud", finite=False)
    if not reset:
        return _validate_data(estimator, X, dtype=np.float64, reset=False)
    return _validate_data(estimator, X, dtype=np.float64, ensure_min_samples=2)
