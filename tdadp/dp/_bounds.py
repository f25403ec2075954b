"""The hypothesis-testing and Bayesian readings of epsilon: power and posterior bounds."""

from __future__ import annotations

import numpy as np
from scipy.special import expit, logit

from ..utils._validation import check_epsilon_array

__all__ = ["power_bound", "posterior_bound"]


def _as_output(x):
    return float(x) if np.ndim(x) == 0 else x


def power_bound(epsilon, alpha, delta=0.0):
    """Largest power of a level-``alpha`` test between two neighbouring inputs under eps-DP.

    ``min(e^eps * alpha, 1 - e^-eps * (1 - alpha))`` (Wasserman and Zhou 2010; Kairouz, Oh,
    Viswanath 2015). The first term is the familiar one; the second binds for large alpha
    (it is the first applied to the complementary test). Under edge DP the two inputs are
    whole networks differing in one dyad: the bound says nothing about a single edge's
    presence under a model with dependent edges (see :func:`edge_privacy_exact`).

    Parameters
    ----------
    epsilon : float or array-like, in [0, inf]
    alpha : float or array-like, in (0, 1)
        Level (false-positive rate) of the test.
    delta : float in [0, 1), default=0
        For (eps, delta)-DP: ``min(e^eps alpha + delta, 1 - e^-eps (1 - alpha - delta), 1)``
        (Kairouz, Oh, Viswanath 2015).

    Returns
    -------
    power : float or ndarray

    Examples
    --------
    >>> from tdadp.dp import power_bound
    >>> round(power_bound(1.0, 0.05), 4), power_bound(0.0, 0.05)
    (0.1359, 0.05)
    >>> round(power_bound(1.0, 0.9), 4)                # the second term binds
    0.9632
    """
    eps = check_epsilon_array(epsilon)
    a = np.asarray(alpha, dtype=float)
    if np.isnan(a).any() or ((a <= 0) | (a >= 1)).any():
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}.")
    d = float(delta)
    if not 0.0 <= d < 1.0:
        raise ValueError(f"delta must lie in [0, 1), got {delta!r}.")
    # exp(-eps) never overflows; e^eps * alpha is capped through the second term instead.
    second = 1.0 - np.exp(-eps) * np.maximum(1.0 - a - d, 0.0)
    first = a / np.maximum(np.exp(-eps), np.finfo(float).tiny) + d
    return _as_output(np.minimum(np.minimum(first, second), 1.0))


def posterior_bound(epsilon, prior, direction="upper"):
    """Range of an adversary's posterior on a protected secret under eps-DP.

    An adversary with prior probability ``prior`` that the input is one of two neighbouring
    networks (rather than the other) ends, after seeing any release, with posterior odds
    within a factor e^eps of the prior odds. So the posterior is at most
    ``e^eps p / (1 - p + e^eps p)`` (``direction="upper"``) and at least
    ``p / (p + e^eps (1 - p))`` (``direction="lower"``). For one edge of a network this holds
    only when the adversary's model makes that edge independent of the rest (otherwise
    replace eps by eps + a, see :func:`edge_privacy_exact`).

    Parameters
    ----------
    epsilon : float or array-like, in [0, inf]
    prior : float or array-like, in [0, 1]
    direction : {"upper", "lower"}, default="upper"

    Returns
    -------
    posterior : float or ndarray

    Examples
    --------
    >>> from tdadp.dp import posterior_bound
    >>> round(posterior_bound(1.0, 0.5), 4), round(posterior_bound(1.0, 0.5, "lower"), 4)
    (0.7311, 0.2689)
    >>> round(posterior_bound(2.0, 0.01), 4)
    0.0695
    """
    eps = check_epsilon_array(epsilon)
    p = np.asarray(prior, dtype=float)
    if np.isnan(p).any() or ((p < 0) | (p > 1)).any():
        raise ValueError(f"prior must lie in [0, 1], got {prior!r}.")
    if direction not in ("upper", "lower"):
        raise ValueError(f"direction must be 'upper' or 'lower', got {direction!r}.")
    sign = 1.0 if direction == "upper" else -1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        post = expit(logit(p) + sign * eps)
    # A certain prior stays certain; an infinite epsilon can reach certainty otherwise.
    post = np.where(p == 0, 0.0, np.where(p == 1, 1.0, post))
    return _as_output(post)
