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
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from ..utils._params import Interval, Options, check_param
from ._value_release import as_real

__all__ = [
    "BinaryIntervalFamily",
    "stationary_distribution",
    "check_transition",
    "parse_thetas",
    "family_cells",
    "is_irreducible",
    "check_secret_pairs",
    "chain_support",
]

_TOL = 1e-9
_INITIAL_WORDS = ("stationary", "any")


@dataclass(frozen=True)
class BinaryIntervalFamily:
    """The interval family Theta = [alpha, 1 - alpha] of binary chains.

    Every transition matrix ``[[p, 1 - p], [1 - q, q]]`` with ``p, q`` in ``[alpha, 1 - alpha]``
    (the paper's synthetic class), each chain started from its stationary distribution
    (``start="stationary"``, as in the authors' experiment code) or from every initial
    distribution on the simplex (``start="any"``, the class as the paper's Section 5.1 states
    it).

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

    With ``start="any"`` the influences depend on the node, through the marginal of X_i alone
    (see :func:`mqm_exact_scale`, Notes): its supremum over the initial distributions is
    ``max_x log P^(i-1)(x, s') / P^(i-1)(x, s)``, again a monotone function of ``lam^(i-1)``
    and of ``pi(s') / pi(s)``, bounded at a corner of the same boxes. MQMApprox's bound
    (Lemma 4.8) holds for every initial distribution, so ``start`` does not change it.

    Parameters
    ----------
    alpha : float in (0, 1/2]
    cells : int >= 1, default=40
        Cells per side of the square.
    start : {"stationary", "any"}, default="stationary"
        The initial distributions of the class: each chain's stationary distribution, or all
        of them (the simplex).

    Examples
    --------
    >>> from tdadp.pufferfish import BinaryIntervalFamily, mqm_approx_scale
    >>> fam = BinaryIntervalFamily(0.2)
    >>> round(mqm_approx_scale(fam, 100, 1.0).score, 3)
    29.632
    """

    alpha: float
    cells: int = 40
    start: str = "stationary"

    def __post_init__(self):
        check_param(self.alpha, [Interval("real", 0, 0.5, "right")], "alpha",
                    "BinaryIntervalFamily")
        check_param(self.cells, [Interval("int", 1, 10_000, "both")], "cells",
                    "BinaryIntervalFamily")
        check_param(self.start, [Options(*_INITIAL_WORDS)], "start", "BinaryIntervalFamily")
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
        """The cells' corner chains, as (initial, transition) pairs (the family's start)."""
        grid = self.grid()
        return [(self.start, np.array([[p, 1 - p], [1 - q, q]])) for p in grid for q in grid]


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
        return np.asarray(x).ndim
    except (TypeError, ValueError):
        return -1


def _is_pair(item):
    """Whether ``item`` is one (initial, transition) pair rather than a sequence of them: its
    first entry is a word or a 1-D array (a theta, a pair itself, is ragged)."""
    return (isinstance(item, (tuple, list)) and len(item) == 2
            and (isinstance(item[0], str) or _ndim(item[0]) == 1))


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


def _classes(P):
    """(labels, closed) of the communicating classes of P: the strongly connected components
    of the directed graph of its positive entries, and which of them no edge leaves."""
    adj = P > 0
    n_comp, labels = connected_components(csr_matrix(adj), directed=True, connection="strong")
    rows, cols = np.nonzero(adj)
    leaving = labels[rows] != labels[cols]
    closed = np.ones(n_comp, dtype=bool)
    closed[labels[rows[leaving]]] = False
    return labels, closed


def is_irreducible(P):
    """Whether the chain is irreducible: the graph of the positive entries of P is strongly
    connected (decided on the graph, not on a rank: tiny positive entries count)."""
    labels, _ = _classes(np.asarray(P))
    return bool(labels.max() == 0)


def _gth(P):
    """Stationary distribution of an irreducible stochastic matrix by Grassmann-Taksar-Heyman
    elimination: no subtraction, so every entry has a small relative error, however tiny."""
    k = P.shape[0]
    if k == 1:
        return np.ones(1)
    if k == 2:
        a, b = P[0, 1], P[1, 0]
        return np.array([b, a]) / (a + b)
    A = np.array(P, dtype=float)
    np.fill_diagonal(A, 0.0)
    for n in range(k - 1, 0, -1):
        s = A[n, :n].sum()          # > 0: the chain censored to 0..n is irreducible
        A[:n, n] /= s
        A[:n, :n] += np.outer(A[:n, n], A[n, :n])
    pi = np.zeros(k)
    pi[0] = 1.0
    for j in range(1, k):
        pi[j] = pi[:j] @ A[:j, j]
    return pi / pi.sum()


def stationary_distribution(P):
    """The stationary distribution of a transition matrix with a unique one.

    The chain has a unique stationary distribution when exactly one of its communicating
    classes is closed (decided on the directed graph of the positive entries of P, so a
    transition of probability 1e-12 links two states); the distribution is zero outside that
    class and is computed on it by Grassmann-Taksar-Heyman elimination, which keeps a small
    relative error in every entry (tiny transition probabilities are not lost).

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
    labels, closed = _classes(P)
    if closed.sum() != 1:
        raise ValueError("the chain has more than one stationary distribution (several closed "
                         "classes): give its initial distribution explicitly.")
    members = np.flatnonzero(labels == int(np.flatnonzero(closed)[0]))
    sub = P[np.ix_(members, members)]
    pi = np.zeros(P.shape[0])
    pi[members] = _gth(sub)         # a closed class: its rows are those of P, sums and all
    return pi


def _no_pair_reason(chain, T):
    """Why one theta makes every X_i certain (None when some node has two possible states)."""
    k = chain.P.shape[0]
    if k < 2:
        return "the chain has a single state"
    if chain.initial is None:
        return None                                 # "any" start: X_1 takes every state
    support = chain.initial > 0
    if chain.stationary:
        return None if support.sum() >= 2 else (
            "its stationary distribution puts all the mass on one state, which it never "
            "leaves")
    positive = chain.P > 0
    # While the possible states form a singleton, the chain follows a deterministic path; after
    # k + 1 such nodes a state repeats and the path is a cycle forever.
    for _ in range(min(T, k + 1)):
        if support.sum() >= 2:
            return None
        support = positive[support].any(axis=0)
    if T == 1:
        return "its initial distribution is one state, and the chain has a single node"
    return ("its initial distribution is one state and every transition the chain then makes "
            "is certain")


def check_secret_pairs(kind, chains, T):
    """Refuse a class under which no secret pair has both sides possible.

    Pufferfish privacy protects the pairs "X_i = a" against "X_i = b" of states of positive
    probability under a theta. When every theta makes every X_i certain, there is no such pair:
    the mechanism would compute a noise of 0 and release the data exactly, a promise about
    nothing. The interval family (alpha > 0) always has pairs.
    """
    if kind == "family":
        return
    reasons = [_no_pair_reason(c, T) for c in chains]
    if any(r is None for r in reasons):
        return
    detail = "; ".join(f"theta {j}: {r}" for j, r in enumerate(reasons))
    raise ValueError(
        f"thetas: no secret pair is possible (T = {T}): under every theta each X_i has a "
        f"single possible state ({detail}). Pufferfish privacy protects the secrets "
        "'X_i = a' against 'X_i = b' of positive probability, so this class leaves nothing "
        "to protect and the release would get no noise at all. Give a class under which the "
        "chain is random, or use GroupDPHistogram (differential privacy for any data).")


def chain_support(kind, chains):
    """What a class allows, per theta: (allowed first states or None for any, allowed
    transitions), or None when the class allows every chain (the interval family)."""
    if kind == "family":
        return None
    return [(None if c.initial is None else c.initial > 0, c.P > 0) for c in chains]


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
