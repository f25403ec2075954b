"""The class Theta of a Markov chain: the (initial distribution, transition matrix) pairs.

The data are one Markov chain X_1, ..., X_T on k states, and the class Theta of data
distributions is public knowledge of how it is generated: a finite sequence of (initial
distribution, transition matrix) pairs, or the continuum :class:`BinaryIntervalFamily`. This
module validates and parses a class (:func:`parse_thetas`) and computes a chain's stationary
distribution.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..utils._params import Interval, check_param
from ._value_release import as_real

__all__ = [
    "BinaryIntervalFamily",
    "stationary_distribution",
    "check_transition",
    "parse_thetas",
    "family_cells",
]

_TOL = 1e-9
_INITIAL_WORDS = ("stationary", "any")


@dataclass(frozen=True)
class BinaryIntervalFamily:
    """The interval family Theta = [alpha, 1 - alpha] of binary chains, started at stationarity.

    Every transition matrix ``[[p, 1 - p], [1 - q, q]]`` with ``p, q`` in ``[alpha, 1 - alpha]``
    (the paper's synthetic class), each chain started from its stationary distribution (as in
    the authors' experiment code).

    How the continuum is covered. For :func:`mqm_approx_scale` the paper's closed forms hold
    on the whole square: ``pi_min = alpha`` and eigengap ``g = 2 alpha`` (the eigenvalues are 1
    and ``p + q - 1``). For :func:`mqm_exact_scale` and :func:`gk16_scale` the square is cut
    into ``cells x cells`` cells, and on each cell every term of the influence is bounded
    above by its value at a corner of a box containing the cell's chains: for a binary chain
    started at stationarity ``P^t(s, y) = pi(y) + lam^t (1{s = y} - pi(y))`` with
    ``lam = p + q - 1``, so each log-ratio of Eq. (5) is a function of ``lam^t`` and of
    ``pi(s') / pi(s)`` that is monotone in each (GK16's conditional odds likewise are products
    of monotone functions of p and q). The resulting noise is an upper bound on the noise every
    chain of the family needs (a proof, not a sample of the family), and it tends to the
    family's supremum as ``cells`` grows; the result also reports the largest exact score over
    the cell corners (a lower bound on that supremum), so the gap is visible.

    Parameters
    ----------
    alpha : float in (0, 1/2]
    cells : int >= 1, default=40
        Cells per side of the square.

    Examples
    --------
    >>> from tdadp.pufferfish import BinaryIntervalFamily, mqm_approx_scale
    >>> fam = BinaryIntervalFamily(0.2)
    >>> round(mqm_approx_scale(fam, 100, 1.0).score, 3)
    29.632
    """

    alpha: float
    cells: int = 40

    def __post_init__(self):
        check_param(self.alpha, [Interval("real", 0, 0.5, "right")], "alpha",
                    "BinaryIntervalFamily")
        check_param(self.cells, [Interval("int", 1, 10_000, "both")], "cells",
                    "BinaryIntervalFamily")
        object.__setattr__(self, "alpha", float(self.alpha))
        object.__setattr__(self, "cells", int(self.cells))

    @property
    def pi_min(self):
        """The smallest stationary probability over the family: alpha."""
        return self.alpha

    @property
    def gap(self):
        """The smallest absolute spectral gap over the family: 2 alpha."""
        return 2.0 * self.alpha

    def grid(self):
        """The cells' edges along p and along q: ``cells + 1`` points of the interval."""
        return np.linspace(self.alpha, 1.0 - self.alpha, self.cells + 1)

    def corners(self):
        """The cells' corner chains, as (initial, transition) pairs (stationary start)."""
        grid = self.grid()
        return [("stationary", np.array([[p, 1 - p], [1 - q, q]])) for p in grid for q in grid]


def family_cells(fam):
    """The cells of the interval family: ``(p0, p1, q0, q1)`` for each of its cells x cells."""
    grid = fam.grid()
    for j in range(fam.cells):
        for m in range(fam.cells):
            yield grid[j], grid[j + 1], grid[m], grid[m + 1]


@dataclass
class _Chain:
    """One validated theta: initial pmf (None for "any"), transition matrix, stationarity."""

    initial: np.ndarray | None
    P: np.ndarray
    stationary: bool


def _ndim(x):
    if isinstance(x, str):
        return -1
    try:
        return np.asarray(x, dtype=float).ndim
    except (TypeError, ValueError):
        return -1


def _is_pair(item):
    return (isinstance(item, (tuple, list)) and len(item) == 2
            and (isinstance(item[0], str) or _ndim(item[0]) == 1) and _ndim(item[1]) == 2)


def check_transition(P, where):
    """``P`` checked to be a square stochastic matrix, rows renormalised to sum to 1 exactly.

    ``where`` names the matrix in the error messages.
    """
    P = as_real(P, f"{where}: the transition matrix")
    if P.ndim != 2 or P.shape[0] != P.shape[1] or P.shape[0] == 0:
        raise ValueError(f"{where}: the transition matrix must be square (k x k, k >= 1), got "
                         f"shape {P.shape}.")
    if not np.isfinite(P).all() or (P < 0).any():
        raise ValueError(f"{where}: the transition matrix must have finite non-negative "
                         "entries (no NaN).")
    rows = P.sum(axis=1)
    if np.any(np.abs(rows - 1.0) > _TOL):
        bad = int(np.argmax(np.abs(rows - 1.0)))
        raise ValueError(f"{where}: the transition matrix must be stochastic (each row sums "
                         f"to 1); row {bad} sums to {rows[bad]!r}.")
    return P / rows[:, None]


def stationary_distribution(P):
    """The stationary distribution of a transition matrix with a unique one.

    Parameters
    ----------
    P : array-like of shape (k, k)
        A stochastic matrix (rows sum to 1).

    Returns
    -------
    ndarray of shape (k,)

    Raises
    ------
    ValueError
        When the chain has several stationary distributions (more than one closed class).

    Examples
    --------
    >>> from tdadp.pufferfish import stationary_distribution
    >>> stationary_distribution([[0.9, 0.1], [0.4, 0.6]]).round(6).tolist()
    [0.8, 0.2]
    """
    P = check_transition(P, "stationary_distribution")
    k = P.shape[0]
    A = P.T - np.eye(k)
    if np.linalg.matrix_rank(A, tol=1e-10) != k - 1:
        raise ValueError("the chain has more than one stationary distribution (several closed "
                         "classes): give its initial distribution explicitly.")
    M = np.vstack([A, np.ones((1, k))])
    b = np.zeros(k + 1)
    b[-1] = 1.0
    pi = np.linalg.lstsq(M, b, rcond=None)[0]
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()


def parse_thetas(thetas):
    """("family", BinaryIntervalFamily) or ("finite", [_Chain, ...])."""
    if isinstance(thetas, BinaryIntervalFamily):
        return "family", thetas
    if _is_pair(thetas):
        thetas = [thetas]
    try:
        items = list(thetas)
    except TypeError:
        raise ValueError("thetas must be a BinaryIntervalFamily or a sequence of (initial "
                         "distribution, transition matrix) pairs.") from None
    if not items:
        raise ValueError("thetas must contain at least one (initial distribution, transition "
                         "matrix) pair.")
    chains = []
    k = None
    for j, item in enumerate(items):
        where = f"theta {j}"
        if not (isinstance(item, (tuple, list)) and len(item) == 2):
            raise ValueError(f"{where}: each theta must be an (initial distribution, transition "
                             f"matrix) pair, got {type(item).__name__}.")
        q, P = item
        P = check_transition(P, where)
        if k is None:
            k = P.shape[0]
        elif P.shape[0] != k:
            raise ValueError(f"{where}: every theta must have the same number of states ({k}), "
                             f"got {P.shape[0]}.")
        if isinstance(q, str):
            if q not in _INITIAL_WORDS:
                raise ValueError(f"{where}: the initial distribution must be a pmf, "
                                 f"'stationary' or 'any', got {q!r}.")
            if q == "any":
                chains.append(_Chain(None, P, False))
            else:
                chains.append(_Chain(stationary_distribution(P), P, True))
            continue
        q = as_real(q, f"{where}: the initial distribution")
        if q.shape != (k,):
            raise ValueError(f"{where}: the initial distribution must have one probability per "
                             f"state ({k}), got shape {q.shape}.")
        if not np.isfinite(q).all() or (q < 0).any():
            raise ValueError(f"{where}: the initial distribution must be non-negative "
                             "probabilities (no NaN).")
        if abs(q.sum() - 1.0) > _TOL:
            raise ValueError(f"{where}: the initial distribution must sum to 1, got "
                             f"{q.sum()!r}.")
        chains.append(_Chain(q / q.sum(), P, False))
    return "finite", chains
