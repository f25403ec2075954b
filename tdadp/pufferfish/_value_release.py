"""Releases of a real query value whose noise is calibrated on a public model.

The Pufferfish mechanisms (the Wasserstein Mechanism, the Markov Quilt Mechanism) are fitted on
the model of the data, the class Theta (the secret pairs' conditional distributions, or each
node's candidate quilts), not on private data; ``transform`` then adds the calibrated Laplace
noise to query values the caller computed. ``fit`` and ``transform`` take different inputs, so
``fit_transform`` cannot exist.
"""

from __future__ import annotations

import decimal
import math
import numbers

import numpy as np

from ..dp._noise import add_noise
from ..release._base import ReleaseMechanism

__all__ = ["as_real", "as_databases", "check_positive_noise", "ValueRelease"]

# Nested lists are walked this deep at most when looking for strings, bools and complex values.
_MAX_DEPTH = 32


def _bad_leaf(v, allow_bool):
    """What is wrong with one element (None when it is a real number or a nested sequence)."""
    if isinstance(v, (str, bytes, np.str_, np.bytes_)):
        return "a string (not a number)"
    if isinstance(v, (bool, np.bool_)):
        return None if allow_bool else "a bool (not a number)"
    if isinstance(v, (numbers.Real, decimal.Decimal, list, tuple, np.ndarray)):
        return None
    if isinstance(v, numbers.Complex):
        return "complex values"
    return f"a {type(v).__name__} (not a number)"


def _dtype_problem(dtype, allow_bool):
    if dtype.kind in "USV":
        return "a string (not a number)"
    if dtype.kind == "c":
        return "complex values"
    if dtype.kind == "b" and not allow_bool:
        return "a bool (not a number)"
    if dtype.kind in "mM":
        return "dates or times (not numbers)"
    return None


def _walk(x, allow_bool, depth=0):
    """The first problem found in a nested list/tuple or object array, or None."""
    if isinstance(x, np.ndarray) and x.dtype != object:
        return _dtype_problem(x.dtype, allow_bool)
    if depth > _MAX_DEPTH:
        return "sequences nested too deeply"
    for v in (x.ravel() if isinstance(x, np.ndarray) else x):
        bad = _bad_leaf(v, allow_bool)
        if bad is None and isinstance(v, (list, tuple, np.ndarray)):
            bad = _walk(v, allow_bool, depth + 1)
        if bad is not None:
            return bad
    return None


def as_real(x, name, allow_bool=True):
    """``x`` as a float array; strings, complex, non-numeric or ragged input is a ValueError.

    numpy would turn the string "3" into 3.0 and None into NaN: both are refused, as are
    complex values and (unless ``allow_bool``) bools, also inside lists.
    """
    arr = None
    if isinstance(x, (list, tuple)):
        bad = _walk(x, allow_bool)
    else:
        bad = _bad_leaf(x, allow_bool) if isinstance(
            x, (str, bytes, np.str_, np.bytes_, bool, np.bool_)) else None
    if bad is None:
        try:
            arr = np.asarray(x)
        except (TypeError, ValueError):
            bad = "a ragged or non-numeric sequence"
        else:
            bad = _walk(arr, allow_bool) if arr.dtype == object else _dtype_problem(
                arr.dtype, allow_bool)
    if bad is not None:
        raise ValueError(f"{name} must be real numbers, got {bad}.")
    try:
        return np.asarray(arr, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be a number or an array of numbers, got "
                         f"{type(x).__name__}.") from None


def as_databases(databases):
    """``databases`` checked: a non-empty 2-D array of finite real values (one possible
    database per row, one node or record per column); returned as given (ints stay ints)."""
    try:
        D = np.asarray(databases)
    except (TypeError, ValueError):
        raise ValueError("databases must be a 2-D array (one database per row), got a ragged "
                         "or non-numeric sequence.") from None
    if D.ndim != 2 or D.shape[0] == 0 or D.shape[1] == 0:
        raise ValueError(f"databases must be a non-empty 2-D array (one database per row, one "
                         f"node per column), got shape {D.shape}.")
    values = as_real(D, "databases")
    if not np.isfinite(values).all():
        raise ValueError("databases must hold finite values (no NaN or infinity).")
    return D if D.dtype.kind in "biuf" else values


def check_positive_noise(calibration, epsilon, what):
    """Refuse a calibration that adds no noise at a finite epsilon.

    A Pufferfish release at finite epsilon with zero noise protects nothing: the mechanisms
    refuse the inputs that lead there (no secret pair, W = 0), and this catches what is left
    (a noise scale below the smallest float, or beyond float range).
    """
    if not math.isfinite(float(epsilon)):
        return
    scale = calibration.scale
    if calibration.t == 0 or not scale > 0:
        raise ValueError(f"{what}: the noise scale at epsilon = {float(epsilon):g} is 0 or "
                         "below the smallest float, so the release would carry no noise; "
                         "rescale the query (a larger Lipschitz constant / sensitivity) or "
                         "check the model.")
    if not math.isfinite(scale):
        raise ValueError(f"{what}: the noise scale at epsilon = {float(epsilon):g} is beyond "
                         "float range; use a larger epsilon or a smaller Lipschitz constant.")


class ValueRelease(ReleaseMechanism):
    """Base of the mechanisms fitted on a public model that release real query values.

    A subclass's ``_calibrate`` sets ``noise_calibration_``; it names what ``fit`` takes in
    ``_fitted_on`` (in words) and ``_fit_input`` (the argument, for the error message).
    """

    _fitted_on = "the model"
    _fit_input = "model"

    def _split(self, X):
        value = as_real(X, "the query value", allow_bool=False)
        if not np.isfinite(value).all():
            raise ValueError("the query value contains NaN or infinite values.")
        cal = self.noise_calibration_
        with np.errstate(over="ignore"):
            steps = np.ldexp(np.max(np.abs(value)), -cal.grid_log2) if value.size else 0.0
        if cal.t > 0 and not np.isfinite(steps):
            # The noise is drawn on a grid of 2^grid_log2 (a 2^-30 share of the sensitivity):
            # a value that many grid steps from 0 is beyond float range there.
            raise ValueError(f"the query value is too large for the noise's resolution (a grid "
                             f"of 2^{cal.grid_log2}, set by the noise scale "
                             f"{cal.scale:.3g}): rescale the query and its sensitivity.")
        return [value], True

    def _release(self, value, rng):
        return add_noise(value, self.noise_calibration_, rng)

    def transform(self, X):
        """Release the query value(s) ``X`` plus the fitted Laplace noise (``noise_scale_``).

        Parameters
        ----------
        X : float or array-like
            The true query value (an array gets independent noise per entry). Strings,
            bools, complex values, NaN and infinities are refused.

        One call is one release (an array included): ``accountant``, when set, is charged
        ``guarantee_`` once, before any noise is drawn.

        Returns
        -------
        float or ndarray
        """
        return super().transform(X)

    def fit_transform(self, X, y=None):
        """Not available: ``fit`` takes the model and ``transform`` the query value, two
        different inputs. Call ``fit(model).transform(value)``."""
        raise TypeError(f"{type(self).__name__} is fitted on {self._fitted_on} and transforms "
                        f"query values: call fit({self._fit_input}).transform(value) instead "
                        "of fit_transform.")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags
