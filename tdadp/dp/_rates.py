"""The flip rates of randomized response on dyads, and the privacy loss of a rate.

They live in the guarantee vocabulary because a guarantee is checked against them wherever
it is read back (a release file's sidecar states a mechanism, an epsilon and a rate: the
rate must be the one that mechanism implements at that epsilon), not only where a release is
made.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from ..utils._validation import check_epsilon, check_epsilon_array

__all__ = [
    "RATE_GRID",
    "flip_probability",
    "laplace_flip_probability",
    "implemented_rate",
    "rate_epsilon",
    "RANDOMIZED_RESPONSE_RATES",
]


def flip_probability(epsilon):
    """edgeFlip's flip probability ``pi(eps) = 1 / (1 + e^eps)``.

    Computed as ``expit(-eps)``, which neither overflows for large ``eps`` nor loses
    precision near 0.

    Parameters
    ----------
    epsilon : float or array-like, in [0, inf]

    Returns
    -------
    pi : float or ndarray, in [0, 1/2]

    Examples
    --------
    >>> from tdadp import flip_probability
    >>> round(flip_probability(1.0), 7), flip_probability(0.0), flip_probability(float("inf"))
    (0.2689414, 0.5, 0.0)
    """
    eps = check_epsilon_array(epsilon)
    pi = expit(-eps)
    return float(pi) if pi.ndim == 0 else pi


def laplace_flip_probability(epsilon):
    """Flip rate ``(1/2) e^(-eps/2)`` of thresholded Laplace noise, ``1{A + Lap(1/eps) > 1/2}``.

    Examples
    --------
    >>> from tdadp import laplace_flip_probability
    >>> round(laplace_flip_probability(1.0), 4)
    0.3033
    """
    eps = check_epsilon_array(epsilon)
    rate = 0.5 * np.exp(-eps / 2)
    return float(rate) if rate.ndim == 0 else rate


#: Resolution of the flip rates the mechanisms use: a dense release flips a dyad when a
#: uniform double on the grid k 2^-53 falls below the rate, so a rate is realized exactly
#: when it lies on that grid.
RATE_GRID = 2.0 ** -53


def implemented_rate(rate, epsilon):
    """The flip rate a mechanism uses for the ideal ``rate`` at budget ``epsilon``.

    ``rate`` rounded up to the grid ``k 2^-53`` (toward 1/2: never less private than asked; a
    change below ``2^-50``),
    after allowing for the few ulps of error of its floating-point evaluation; at least
    ``2^-53`` for every finite ``epsilon``, where the ideal rate underflows (edgeFlip's
    ``1 / (1 + e^eps)`` is 0 in float64 from eps = 745, the thresholded Laplace rate from
    eps = 1490) or falls below the grid. 0 only at ``epsilon = inf``, 1/2 at ``epsilon = 0``.

    A dense release realizes this rate exactly; a sparse one flips at a rate at most a
    relative ``2^-30`` above it (:func:`~tdadp.graphs._dyads.gap_parameters`).

    Examples
    --------
    >>> from tdadp.release import implemented_rate, flip_probability
    >>> implemented_rate(flip_probability(800.0), 800.0) == 2.0 ** -53   # not 0: no copy
    True
    >>> implemented_rate(flip_probability(float("inf")), float("inf"))
    0.0
    """
    epsilon = check_epsilon(epsilon)
    if epsilon == np.inf:
        return 0.0
    rate = float(rate)
    if rate >= 0.5:
        return 0.5
    ticks = np.ceil(rate * (1.0 + 2.0 ** -50) / RATE_GRID)
    return float(min(0.5, max(1.0, ticks) * RATE_GRID))


def rate_epsilon(rate):
    """Privacy loss ``log((1 - r) / r)`` of randomized response at flip rate ``r``."""
    if rate == 0:
        return np.inf
    return float(np.log1p(-rate) - np.log(rate)) if rate < 0.5 else 0.0


#: The ideal flip rate at epsilon of every randomized-response mechanism, by the name its
#: guarantee states.
RANDOMIZED_RESPONSE_RATES = {
    "EdgeFlip": flip_probability,
    "LaplaceFlip": laplace_flip_probability,
}
