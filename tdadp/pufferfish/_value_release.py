"""Releases of a real query value whose noise is calibrated on a public model.

The Pufferfish mechanisms (the Wasserstein Mechanism, the Markov Quilt Mechanism) are fitted on
the model of the data, the class Theta (the secret pairs' conditional distributions, or each
node's candidate quilts), not on private data; ``transform`` then adds the calibrated Laplace
noise to query values the caller computed. ``fit`` and ``transform`` take different inputs, so
``fit_transform`` cannot exist.
"""

from __future__ import annotations

import numpy as np

from ..dp._noise import add_noise
from ..release._base import ReleaseMechanism

__all__ = ["as_real", "ValueRelease"]


def as_real(x, name):
    """``x`` as a float array; complex, non-numeric or ragged input is a ValueError."""
    try:
        is_complex = np.iscomplexobj(x)
        out = None if is_complex else np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number or an array of numbers, got "
                         f"{type(x).__name__}.") from None
    if is_complex:
        raise ValueError(f"{name} must be real numbers, got complex values.")
    return out


class ValueRelease(ReleaseMechanism):
    """Base of the mechanisms fitted on a public model that release real query values.

    A subclass's ``_calibrate`` sets ``noise_calibration_``; it names what ``fit`` takes in
    ``_fitted_on`` (in words) and ``_fit_input`` (the argument, for the error message).
    """

    _fitted_on = "the model"
    _fit_input = "model"

    def _split(self, X):
        value = as_real(X, "the query value")
        if not np.isfinite(value).all():
            raise ValueError("the query value contains NaN or infinite values.")
        return [value], True

    def _release(self, value, rng):
        return add_noise(value, self.noise_calibration_, rng)

    def transform(self, X):
        """Release the query value(s) ``X`` plus the fitted Laplace noise (``noise_scale_``).

        Parameters
        ----------
        X : float or array-like
            The true query value (an array gets independent noise per entry).

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
