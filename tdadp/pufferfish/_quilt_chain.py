"""Markov chains under the Markov Quilt Mechanism (Song, Wang, Chaudhuri 2017, Section 4.4).

The data are one Markov chain X_1, ..., X_T on k states; the secrets are "X_i = a" for every
node i and state a, the pairs "X_i = a" against "X_i = b"; the class Theta of data
distributions is a set of (initial distribution, transition matrix) pairs. A Markov quilt of
X_i is {X_{i-a}, X_{i+b}} (or one side only, or nothing): given it, the far nodes X_R are
independent of X_i, and the nodes between, X_N (X_i included), are "nearby". Its
max-influence is

    e(X_Q | X_i) = max_{a, b} max_{x_Q} log P(X_Q = x_Q | X_i = a) / P(X_Q = x_Q | X_i = b),

over the secret pairs of positive probability. A release F(X) + Laplace(L sigma) with
``sigma >= min_Q card(X_N) / (eps - e(X_Q | X_i))`` at every node (L: the Lipschitz constant
of F in the number of changed records, L1 norm) is eps-Pufferfish private (Theorem 4.3).

This module computes the noise scales:

* :func:`mqm_exact_scale` (MQMExact, Algorithm 3): the exact max-influence by Eq. (5), from
  the powers of the transition matrix and the marginals, over the quilt set of Lemma 4.6
  (O(T^2) quilts per node; ``max_quilt`` = the paper's quilt-length parameter l keeps the
  quilt nodes within l of X_i).
* :func:`mqm_approx_scale` (MQMApprox, Algorithm 4): the bound of Lemma 4.8 from the class's
  smallest stationary probability pi_min and eigengap g, with the faster search of Lemma 4.9.
* :func:`group_dp_scale` and :func:`gk16_scale`: the baselines of the paper's experiments.

Numbers of nodes are 1-based in every result (X_1 is the first node), as in the paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np
from scipy.linalg import eigvals_banded, solve_banded
from scipy.sparse import diags

from ..utils._params import Interval, check_param
from ._value_release import as_real

__all__ = [
    "BinaryIntervalFamily",
    "QuiltChoice",
    "ChainNoiseScale",
    "stationary_distribution",
    "chain_mixing",
    "mqm_exact_scale",
    "mqm_approx_scale",
    "group_dp_scale",
    "gk16_scale",
    "quilt_influence_tables",
]

_TOL = 1e-9
# Nodes evaluated at once by the position-free search (memory: this many x the quilt length).
_CHUNK = 4096
_INITIAL_WORDS = ("stationary", "any")
# Quilt distances searched first at each node by the node-by-node search.
_WINDOW = 32


# --------------------------------------------------------------------------------------------
# The class Theta


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


def _transition(P, where):
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
    P = _transition(P, "stationary_distribution")
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


def _irreducible(P):
    k = P.shape[0]
    R = (P > 0) | np.eye(k, dtype=bool)
    for _ in range(max(1, math.ceil(math.log2(max(k, 2))))):
        R = (R.astype(np.int64) @ R.astype(np.int64)) > 0
    return bool(R.all())


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
        P = _transition(P, where)
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


def _check_common(T, epsilon, lipschitz, max_quilt):
    check_param(T, [Interval("int", 1, None, "left")], "T")
    check_param(epsilon, ["positive_epsilon"], "epsilon")
    check_param(lipschitz, [Interval("real", 0, math.inf, "neither")], "lipschitz")
    check_param(max_quilt, [None, Interval("int", 0, None, "left")], "max_quilt")
    T = int(T)
    L = T - 1 if max_quilt is None else min(int(max_quilt), T - 1)
    return T, float(epsilon), float(lipschitz), L


# --------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class QuiltChoice:
    """The node with the largest score and its best Markov quilt (one theta, or the class).

    Attributes
    ----------
    score : float
        ``sigma_i = card(X_N) / (eps - e(X_Q | X_i))`` of the best quilt at that node.
    node : int
        The node, 1-based (X_1 is the first).
    quilt : tuple of int
        The quilt's nodes, 1-based (``()``: the empty quilt, every node nearby).
    nearby : int
        ``card(X_N)``, the nearby nodes (X_i included).
    influence : float
        ``e(X_Q | X_i)`` (an upper bound of it for MQMApprox and the interval family).
    """

    score: float
    node: int
    quilt: tuple
    nearby: int
    influence: float


@dataclass(frozen=True)
class ChainNoiseScale:
    """The Laplace noise a release of a function of a Markov chain needs.

    ``float(result)`` is :attr:`scale`.

    Attributes
    ----------
    method : str
        "MQMExact", "MQMApprox", "GroupDP" or "GK16".
    scale : float
        The Laplace scale of the noise added to F(X): ``lipschitz * score`` (``inf`` when the
        method does not apply).
    score : float
        sigma_max, the largest score (the noise in units of L).
    epsilon, lipschitz : float
    length : int
        T, the chain's length.
    per_theta : tuple of QuiltChoice
        MQMExact: one entry per theta (per worst cell for the interval family); MQMApprox: one
        entry for the class. Empty for the baselines.
    applicable : bool
        False when the method cannot give the guarantee (GK16 with a spectral norm >= 1).
    reason : str
        What the numbers rest on, or why the method does not apply.
    lower_score : float or None
        Interval family, MQMExact: the largest exact score over the cells' corner chains (a
        lower bound on what the family needs; ``score`` is an upper bound).
    """

    method: str
    scale: float
    score: float
    epsilon: float
    lipschitz: float
    length: int
    per_theta: tuple = ()
    applicable: bool = True
    reason: str = ""
    lower_score: float | None = None

    def __float__(self):
        return float(self.scale)


# --------------------------------------------------------------------------------------------
# Influence tables


def _powers(P, n):
    k = P.shape[0]
    out = np.empty((n + 1, k, k))
    out[0] = np.eye(k)
    for t in range(1, n + 1):
        out[t] = out[t - 1] @ P
    return out


def _log(x):
    with np.errstate(divide="ignore"):
        return np.log(x)


def _forward_table(Pw):
    """F[t, s, s'] = max_y log P^t(s, y) / P^t(s', y) over y with P^t(s, y) > 0."""
    lg = _log(Pw)
    with np.errstate(invalid="ignore"):
        diff = lg[:, :, None, :] - lg[:, None, :, :]
    diff = np.where(Pw[:, :, None, :] > 0, diff, -np.inf)
    return diff.max(axis=3)


def _backward_base(Pw, support):
    """G[t, s, s'] = max_x log P^t(x, s) / P^t(x, s') over x in ``support``, P^t(x, s) > 0."""
    lg = _log(Pw)
    with np.errstate(invalid="ignore"):
        diff = lg[:, :, :, None] - lg[:, :, None, :]
    mask = (Pw[:, :, :, None] > 0) & support[None, :, None, None]
    return np.where(mask, diff, -np.inf).max(axis=1)


def _pair_mask(valid):
    V = valid[:, None] & valid[None, :]
    np.fill_diagonal(V, False)
    return V


def _masked_max(E, V):
    """max over the (s, s') pairs of V of E[..., s, s'] (-inf without a pair)."""
    if not V.any():
        return np.full(E.shape[:-2], -np.inf)
    return E[..., V].max(axis=-1)


def _score(e, card, eps):
    """card / (eps - e): inf when e >= eps, 0 when e = -inf (no secret to protect)."""
    e = np.asarray(e, dtype=float)
    card = np.asarray(card, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = card / (eps - e)
    s = np.where(e >= eps, np.inf, s)
    return np.where(np.isneginf(e), 0.0, s)


class _Tables:
    """Influence tables of one theta, indexed by quilt distances 1..L (index 0 unused).

    ``fixed`` (position-free: stationary start, or a bound): ``E2[a, b]``, ``EF[b]``, ``EB[a]``.
    Otherwise ``node(i)`` gives the tables of node i.
    """

    def __init__(self, T, L, E2=None, EF=None, EB=None, node=None):
        self.T, self.L = T, L
        self.E2, self.EF, self.EB = E2, EF, EB
        self.node = node

    @property
    def fixed(self):
        return self.node is None


def _two_sided(G_a, F_b, V, chunk_elems=2_000_000):
    """E2[a, b] = max over pairs of G_a[a] + F_b[b] (chunked over a to bound memory)."""
    A, B = G_a.shape[0], F_b.shape[0]
    out = np.empty((A, B))
    k2 = max(1, int(V.sum()))
    step = max(1, chunk_elems // max(1, B * k2))
    Gv = G_a[:, V] if V.any() else None
    Fv = F_b[:, V] if V.any() else None
    for start in range(0, A, step):
        stop = min(A, start + step)
        if Gv is None:
            out[start:stop] = -np.inf
        else:
            out[start:stop] = (Gv[start:stop, None, :] + Fv[None, :, :]).max(axis=2)
    return out


def _exact_tables(chain, T, L):
    """Exact influences (Eq. (5)) of one finite theta for quilt distances up to L."""
    P = chain.P
    k = P.shape[0]
    Pw = _powers(P, L)
    F = _forward_table(Pw)
    if chain.stationary:
        pi = chain.initial
        valid = pi > 0
        V = _pair_mask(valid)
        G = _backward_base(Pw, np.ones(k, dtype=bool))
        lpi = _log(pi)
        with np.errstate(invalid="ignore"):
            D = lpi[None, :] - lpi[:, None]
        D = np.where(V, D, -np.inf)
        Gd = G + D
        EF = _masked_max(F, V)
        EB = _masked_max(Gd, V)
        E2 = np.full((L + 1, L + 1), -np.inf)
        if L:
            E2[1:, 1:] = _two_sided(Gd[1:], F[1:], V)
        return _Tables(T, L, E2, EF, EB)

    # Non-stationary start: the marginals (for an "any" start, the states reachable at each
    # node, and the powers of P for the supremum over the marginals). As in Eq. (5), the
    # earlier quilt node ranges over every state (the transition probabilities are defined for
    # all of them): restricting it to the states of positive probability could only lower the
    # influence, e.g. 12.934 instead of the paper's 13.0219 for its theta_1, whose X_1 is fixed.
    any_start = chain.initial is None
    if any_start:
        Pall = _powers(P, T - 1)
        supports = np.empty((T + 1, k), dtype=bool)
        supports[1] = True
        supports[2:] = (Pall[1:T] > 0).any(axis=1)
    else:
        mu = np.empty((T + 1, k))
        mu[1] = chain.initial
        for i in range(2, T + 1):
            mu[i] = mu[i - 1] @ P
        supports = mu > 0
    G = _backward_base(Pw, np.ones(k, dtype=bool))

    def node(i, W=L):
        A, B = min(i - 1, W), min(T - i, W)
        if any_start:
            V = _pair_mask(supports[i])
            if i == 1:
                D = np.zeros((k, k))
            else:
                Q = Pall[i - 1]                                  # rows: starting states
                lq = _log(Q)
                with np.errstate(invalid="ignore"):
                    R = lq[:, None, :] - lq[:, :, None]          # [x, s, s'] log Q(x,s')/Q(x,s)
                R = np.where(Q[:, :, None] > 0, R, -np.inf)
                D = R.max(axis=0)
                # a row reaching s' but not s makes the ratio unbounded
                unbounded = ((Q[:, None, :] > 0) & (Q[:, :, None] == 0)).any(axis=0)
                D = np.where(unbounded, np.inf, D)
        else:
            V = _pair_mask(supports[i])
            lm = _log(mu[i])
            with np.errstate(invalid="ignore"):
                D = lm[None, :] - lm[:, None]
        D = np.where(V, D, -np.inf)
        Ga = G[1:A + 1] + D                                  # (A, k, k)
        EF = np.full(B + 1, -np.inf)
        EF[1:] = _masked_max(F[1:B + 1], V)
        EB = np.full(A + 1, -np.inf)
        EB[1:] = _masked_max(Ga, V)
        E2 = np.full((A + 1, B + 1), -np.inf)
        if A and B:
            E2[1:, 1:] = _two_sided(Ga, F[1:B + 1], V)
        return E2, EF, EB, V.any()

    return _Tables(T, L, node=node)


def chain_mixing(P):
    """(pi_min, eigengap) of an irreducible chain, as Lemma 4.8 uses them.

    The gap is ``1 - s_2``, with ``s_2`` the second singular value of ``P`` on L2(pi) (of
    ``D^(1/2) P D^(-1/2)``, ``D = diag(pi)``): for a reversible chain, ``max |lambda|`` over the
    eigenvalues other than 1, the paper's absolute spectral gap. Then
    ``|P^t(x, y) / pi(y) - 1| <= s_2^t / pi_min <= exp(-g t) / pi_min`` for every chain,
    reversible or not (the paper states Lemma 4.8 for reversible chains).

    Examples
    --------
    >>> from tdadp.pufferfish import chain_mixing
    >>> [round(v, 6) for v in chain_mixing([[0.9, 0.1], [0.4, 0.6]])]
    [0.2, 0.5]
    """
    P = _transition(P, "chain_mixing")
    if not _irreducible(P):
        raise ValueError("MQMApprox needs irreducible chains (a unique stationary distribution "
                         "with pi_min > 0); use MQMExact for this chain.")
    pi = stationary_distribution(P)
    d = np.sqrt(pi)
    S = d[:, None] * P / d[None, :]
    sv = np.linalg.svd(S, compute_uv=False)
    s2 = float(sv[1]) if sv.size > 1 else 0.0
    return float(pi.min()), float(max(0.0, 1.0 - s2))


def _approx_tables(pi_min, gap, T, L, k):
    t = np.arange(L + 1, dtype=float)
    with np.errstate(over="ignore"):
        Delta = np.exp(-gap * t) / pi_min
    with np.errstate(divide="ignore", invalid="ignore"):
        delta = np.where(Delta < 1.0, np.log1p(Delta) - np.log1p(-Delta), np.inf)
    if k < 2:                       # a single state: no secret pair
        delta = np.full(L + 1, -np.inf)
    delta[0] = -np.inf
    EF = delta.copy()
    EB = 2.0 * delta
    E2 = np.full((L + 1, L + 1), -np.inf)
    E2[1:, 1:] = EB[1:, None] + EF[None, 1:]
    return _Tables(T, L, E2, EF, EB)


def _box_log_ratio(mu_lo, mu_hi, r_lo, r_hi):
    """Upper bound of max_y log P^t(s, y)/P^t(s', y) over lam^t in [mu_lo, mu_hi] and
    pi(s')/pi(s) in [r_lo, r_hi] (binary chain, stationary start)."""
    r1 = np.where(mu_hi >= 0, r_hi, r_lo)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = (1.0 + mu_hi * r1) / (1.0 - mu_hi)
        r2 = np.where(mu_lo < 0, r_lo, r_hi)
        den = 1.0 + mu_lo / r2
        second = np.where(den > 0, (1.0 - mu_lo) / den, np.inf)
        first = np.where(mu_hi < 1, first, np.inf)
    return _log(np.maximum(first, second))


def _family_tables(p0, p1, q0, q1, T, L):
    """Bounds of the influences over the binary chains with p in [p0, p1], q in [q0, q1]."""
    t = np.arange(L + 1)
    lam_lo, lam_hi = p0 + q0 - 1.0, p1 + q1 - 1.0
    a, b = lam_lo ** t, lam_hi ** t
    odd = (t % 2) == 1
    mu_hi = np.where(odd, b, np.maximum(a, b))
    straddle = (lam_lo <= 0.0) & (lam_hi >= 0.0)
    mu_lo = np.where(odd, a, np.where(straddle, 0.0, np.minimum(a, b)))
    # r = pi(s') / pi(s): s = 0 -> (1 - p)/(1 - q); s = 1 -> (1 - q)/(1 - p)
    F0 = _box_log_ratio(mu_lo, mu_hi, (1 - p1) / (1 - q0), (1 - p0) / (1 - q1))
    F1 = _box_log_ratio(mu_lo, mu_hi, (1 - q1) / (1 - p0), (1 - q0) / (1 - p1))
    F0[0] = F1[0] = -np.inf
    Fs = np.stack([F0, F1])
    EF = Fs.max(axis=0)
    E2 = (Fs[:, :, None] + Fs[:, None, :]).max(axis=0)
    return _Tables(T, L, E2, EF, EF.copy())


def quilt_influence_tables(thetas, T, max_quilt=None, method="exact"):
    """The max-influence of every quilt {X_{i-a}, X_{i+b}} of a position-free class.

    For inspection and plotting: ``E2[a, b]``, ``EF[b]`` (quilt ``{X_{i+b}}``) and ``EB[a]``
    (quilt ``{X_{i-a}}``), indices 1..l, for one theta started at stationarity (where they do
    not depend on the node) or for MQMApprox's bound.

    Parameters
    ----------
    thetas : one (initial, transition) pair with initial "stationary"
    T : int
    max_quilt : int or None
    method : {"exact", "approx"}

    Returns
    -------
    (E2, EF, EB) : ndarrays of shapes (l + 1, l + 1), (l + 1,), (l + 1,)

    Examples
    --------
    >>> from tdadp.pufferfish import quilt_influence_tables
    >>> E2, EF, EB = quilt_influence_tables(("stationary", [[0.9, 0.1], [0.4, 0.6]]), 10)
    >>> round(float(EF[1]), 4), round(float(E2[1, 1]), 4)
    (1.7918, 3.5835)
    """
    kind, chains = parse_thetas(thetas)
    T, _, _, L = _check_common(T, 1.0, 1.0, max_quilt)
    if kind != "finite" or len(chains) != 1:
        raise ValueError("quilt_influence_tables takes one (initial, transition) pair.")
    chain = chains[0]
    if method == "approx":
        pi_min, gap = chain_mixing(chain.P)
        tab = _approx_tables(pi_min, gap, T, L, chain.P.shape[0])
    elif method == "exact":
        if not chain.stationary:
            raise ValueError("quilt_influence_tables needs a stationary start ('stationary'): "
                             "otherwise the influences depend on the node.")
        tab = _exact_tables(chain, T, L)
    else:
        raise ValueError(f"method must be 'exact' or 'approx', got {method!r}.")
    return tab.E2, tab.EF, tab.EB


# --------------------------------------------------------------------------------------------
# The searches


def _node_candidates(i, T, E2, EF, EB, objective):
    """Objective values of every quilt of node i, with their (quilt, nearby, influence)."""
    A, B = E2.shape[0] - 1, E2.shape[1] - 1
    vals, info = [], []
    a = np.arange(1, A + 1)
    b = np.arange(1, B + 1)
    if A and B:
        card = a[:, None] + b[None, :] - 1
        v = objective(E2[1:, 1:], card)
        j = np.unravel_index(int(np.argmin(v)), v.shape)
        vals.append(v[j])
        info.append(((i - int(a[j[0]]), i + int(b[j[1]])), int(card[j]), float(E2[1:, 1:][j])))
    if B:
        card = i + b - 1
        v = objective(EF[1:B + 1], card)
        j = int(np.argmin(v))
        vals.append(v[j])
        info.append(((i + int(b[j]),), int(card[j]), float(EF[1 + j])))
    if A:
        card = T - i + a
        v = objective(EB[1:A + 1], card)
        j = int(np.argmin(v))
        vals.append(v[j])
        info.append(((i - int(a[j]),), int(card[j]), float(EB[1 + j])))
    vals.append(float(objective(np.float64(0.0), T)))
    info.append(((), T, 0.0))
    j = int(np.argmin(vals))
    return float(vals[j]), info[j]


def _fixed_node_values(tab, objective):
    """min over quilts of the objective at every node, for position-free tables."""
    T, L = tab.T, tab.L
    nodes = np.arange(1, T + 1)
    best = np.full(T, float(objective(np.float64(0.0), T)))
    if L == 0:
        return best
    # two-sided: prefix minima over a <= A, b <= B
    a = np.arange(1, L + 1)
    S2 = objective(tab.E2[1:, 1:], a[:, None] + a[None, :] - 1)
    M2 = np.minimum.accumulate(np.minimum.accumulate(S2, axis=0), axis=1)
    A = np.minimum(nodes - 1, L)
    B = np.minimum(T - nodes, L)
    both = (A > 0) & (B > 0)
    best[both] = np.minimum(best[both], M2[A[both] - 1, B[both] - 1])
    for start in range(0, T, _CHUNK):
        idx = nodes[start:start + _CHUNK]
        fw = objective(tab.EF[None, 1:], idx[:, None] + a[None, :] - 1)
        fw = np.where(a[None, :] <= (T - idx)[:, None], fw, np.inf)
        bw = objective(tab.EB[None, 1:], (T - idx)[:, None] + a[None, :])
        bw = np.where(a[None, :] <= (idx - 1)[:, None], bw, np.inf)
        best[start:start + _CHUNK] = np.minimum(best[start:start + _CHUNK],
                                                np.minimum(fw.min(axis=1), bw.min(axis=1)))
    return best


def _search(tab, objective):
    """(largest over nodes of the smallest objective, QuiltChoice-like tuple)."""
    T = tab.T
    if tab.fixed:
        values = _fixed_node_values(tab, objective)
        # ties (every node far from both ends scores alike): report the one nearest the middle
        top = values.max()
        tied = np.flatnonzero(values >= top - 1e-12 * abs(top)) + 1
        i = int(tied[np.argmin(np.abs(tied - (T + 1) / 2))])
        A, B = min(i - 1, tab.L), min(T - i, tab.L)
        val, (quilt, card, infl) = _node_candidates(
            i, T, tab.E2[:A + 1, :B + 1], tab.EF[:B + 1], tab.EB[:A + 1], objective)
        return val, i, quilt, card, infl
    # Node by node, quilts within a window first: a quilt reaching beyond W has
    # card(X_N) >= W + 1, and the objective grows with card(X_N) at least as fast as
    # objective.card_bound says, so the window is widened only when a wider quilt could win.
    W0 = min(tab.L, _WINDOW)
    worst = None
    for i in range(1, T + 1):
        E2, EF, EB, has_pair = tab.node(i, W0)
        if not has_pair:
            continue
        val, (quilt, card, infl) = _node_candidates(i, T, E2, EF, EB, objective)
        bound = objective.card_bound(val)
        if W0 < tab.L and bound > W0 + 1:
            W = tab.L if not math.isfinite(bound) else min(tab.L, int(bound) + 1)
            E2, EF, EB, _ = tab.node(i, W)
            val, (quilt, card, infl) = _node_candidates(i, T, E2, EF, EB, objective)
        if worst is None or val > worst[0]:
            worst = (val, i, quilt, card, infl)
    if worst is None:              # no node has two states of positive probability
        return 0.0, 1, (), T, -np.inf
    return worst


class _Objective:
    """Objective of a quilt from its influence and card(X_N), minimized at each node;
    ``card_bound(v)``: quilts with card(X_N) >= it cannot go below v (influences are >= 0)."""

    def __init__(self, func, card_bound):
        self.func, self.card_bound = func, card_bound

    def __call__(self, e, card):
        return self.func(e, card)


def _score_objective(eps):
    # card / (eps - e) >= card / eps
    return _Objective(lambda e, card: _score(e, card, eps),
                      lambda v: 0.0 if v <= 0 else v * eps)


def _search_built(build, L, objective, fixed=True):
    """``_search`` over quilts of length <= L, the tables built by ``build(W)`` for W <= L.

    Position-free tables are first built for W = min(L, 32): a quilt reaching beyond W has
    card(X_N) >= W + 1, so when the objective's card bound at the largest node value found is
    at most W + 1 no node can do better with a longer quilt, and the answer is exact; otherwise
    the tables are rebuilt once, long enough for every quilt that could still win (for a chain
    that mixes, the worst node's best quilt is short and the search is O(W^2 + T W), not
    O(T^2)).
    """
    if not fixed:
        return _search(build(L), objective)
    W = min(L, _WINDOW)
    found = _search(build(W), objective)
    bound = objective.card_bound(found[0])
    if W < L and bound > W + 1:
        W = L if not math.isfinite(bound) else min(L, int(bound) + 1)
        found = _search(build(W), objective)
    return found


def _choice(found):
    val, i, quilt, card, infl = found
    return QuiltChoice(score=float(val), node=int(i), quilt=tuple(int(v) for v in quilt),
                       nearby=int(card), influence=float(infl))


def _family_cells(fam):
    grid = fam.grid()
    for j in range(fam.cells):
        for m in range(fam.cells):
            yield grid[j], grid[j + 1], grid[m], grid[m + 1]


def mqm_exact_scale(thetas, T, epsilon, lipschitz=1.0, max_quilt=None):
    """The Laplace scale of MQMExact (Algorithm 3) for a Markov chain of length T.

    For every theta and node X_i, the quilt minimizing ``card(X_N) / (eps - e(X_Q | X_i))``
    among ``{X_{i-a}, X_{i+b}}``, ``{X_{i-a}}``, ``{X_{i+b}}`` and the empty quilt (the set
    of Lemma 4.6; with ``max_quilt = l`` only ``a, b <= l``), the influence computed exactly by
    Eq. (5)::

        e = max_{x_i, x_i'} [ log P(X_i = x_i') / P(X_i = x_i)
                              + max_{x_{i-a}} log P(X_i = x_i | x_{i-a}) / P(X_i = x_i' | x_{i-a})
                              + max_{x_{i+b}} log P(x_{i+b} | X_i = x_i) / P(x_{i+b} | X_i = x_i') ]

    over the pairs of states of positive probability at X_i. The scale is ``lipschitz`` times
    the largest score over the nodes and the thetas: each theta may use its own quilts, since
    Pufferfish privacy is a promise for each theta separately (this is never more noise than
    Algorithm 2 with the class's max-influence, and equal for one theta).

    Speed-ups: the powers of P and the per-distance log-ratio tables are computed once and
    shared by every node; a chain started at stationarity has node-free influences, so the
    best two-sided quilt of every node is a prefix minimum of one l x l table and the whole
    search is O(l^2 + T l); otherwise each node costs O(l^2 k^2).

    Parameters
    ----------
    thetas : (initial, transition) pair, sequence of them, or BinaryIntervalFamily
        The initial distribution is a pmf, "stationary" (the chain's stationary distribution)
        or "any" (every initial distribution: the influence is the supremum over them).
    T : int >= 1
        The chain's length.
    epsilon : float in (0, inf]
    lipschitz : float > 0, default=1.0
        L: ``||F(x) - F(x')||_1 <= L * (number of nodes where x and x' differ)``. For the
        relative-frequency histogram, ``2 / T``; for the histogram of counts, 2.
    max_quilt : int or None, default=None
        The quilt-length parameter l (quilt nodes within l of X_i); None: no limit.

    Returns
    -------
    ChainNoiseScale
        ``scale``, ``score`` and, per theta, the worst node with its best quilt.

    References
    ----------
    Song, Wang, Chaudhuri, "Pufferfish privacy mechanisms for correlated data", SIGMOD
    (2017), Section 4.4, Algorithm 3.

    Examples
    --------
    The paper's running example (T = 100, eps = 1):

    >>> from tdadp.pufferfish import mqm_exact_scale
    >>> thetas = [([1.0, 0.0], [[0.9, 0.1], [0.4, 0.6]]),
    ...           ([0.9, 0.1], [[0.8, 0.2], [0.3, 0.7]])]
    >>> res = mqm_exact_scale(thetas, 100, 1.0)
    >>> [(round(c.score, 4), c.node, c.quilt) for c in res.per_theta]
    [(13.0219, 8, (3, 13)), (10.6402, 6, (10,))]
    >>> round(float(res), 4)
    13.0219
    """
    kind, chains = parse_thetas(thetas)
    T, eps, lip, L = _check_common(T, epsilon, lipschitz, max_quilt)
    objective = _score_objective(eps)
    lower = None
    if kind == "family":
        fam = chains
        worst = None
        for p0, p1, q0, q1 in _family_cells(fam):
            found = _search_built(partial(_family_tables, p0, p1, q0, q1, T), L, objective)
            if worst is None or found[0] > worst[0]:
                worst = found
        lower = 0.0
        grid = fam.grid()
        for p in grid:
            for q in grid:
                lower = max(lower, _search_built(partial(_family_tables, p, p, q, q, T), L,
                                                 objective)[0])
        per = (_choice(worst),)
        reason = (f"interval family [{fam.alpha:g}, {1 - fam.alpha:g}], stationary start: "
                  f"upper bound over {fam.cells}x{fam.cells} cells (exact score at the "
                  f"corners: at most {lower:.6g})")
    else:
        per = tuple(_choice(_search_built(lambda W, c=c: _exact_tables(c, T, W), L, objective,
                                          fixed=c.stationary)) for c in chains)
        reason = "exact max-influence (Eq. 5) for each theta"
    score = max(c.score for c in per)
    return ChainNoiseScale("MQMExact", lip * score, score, eps, lip, T, per, True, reason,
                           lower)


def mqm_approx_scale(thetas, T, epsilon, lipschitz=1.0, max_quilt=None):
    """The Laplace scale of MQMApprox (Algorithm 4) for a Markov chain of length T.

    The max-influence is bounded by Lemma 4.8 from the class's smallest stationary probability
    ``pi_min`` and eigengap ``g``: with ``Delta_t = exp(-g t) / pi_min < 1``,

        e({X_{i-a}, X_{i+b}} | X_i) <= 2 log((1 + Delta_a)/(1 - Delta_a))
                                       + log((1 + Delta_b)/(1 - Delta_b)),

    the first term for the quilt node before X_i (twice: it also bounds the marginal of X_i,
    whatever the initial distribution), the second for the one after (one-sided quilts keep
    one term). The bound does not depend on the node, so the search is Lemma 4.9's: the node
    with the fewest quilts (the middle) is the worst; here every node's best quilt comes from
    one prefix-minimum table, O(l^2 + T l) in all.

    ``g`` is the absolute spectral gap for reversible chains (as in the paper) and
    ``1 - s_2`` (second singular value on L2(pi)) for the others, which keeps the bound valid
    (see :func:`chain_mixing`). For the interval family, the paper's ``pi_min = alpha`` and
    ``g = 2 alpha``.

    Parameters
    ----------
    thetas : (initial, transition) pair, sequence of them, or BinaryIntervalFamily
        Every transition matrix must be irreducible (initial distributions do not matter).
    T : int >= 1
    epsilon : float in (0, inf]
    lipschitz : float > 0, default=1.0
    max_quilt : int or None, default=None

    Returns
    -------
    ChainNoiseScale
        ``per_theta`` holds one entry, for the class.

    References
    ----------
    Song, Wang, Chaudhuri (2017), Section 4.4, Lemmas 4.8 and 4.9, Algorithm 4.

    Examples
    --------
    >>> from tdadp.pufferfish import mqm_approx_scale
    >>> res = mqm_approx_scale(("stationary", [[0.9, 0.1], [0.4, 0.6]]), 100, 1.0)
    >>> c = res.per_theta[0]
    >>> round(res.score, 4), c.node, c.quilt
    (23.506, 50, (39, 60))
    """
    kind, chains = parse_thetas(thetas)
    T, eps, lip, L = _check_common(T, epsilon, lipschitz, max_quilt)
    if kind == "family":
        pi_min, gap, k = chains.pi_min, chains.gap, 2
    else:
        mix = [chain_mixing(c.P) for c in chains]
        pi_min = min(m[0] for m in mix)
        gap = min(m[1] for m in mix)
        k = chains[0].P.shape[0]
    found = _search_built(lambda W: _approx_tables(pi_min, gap, T, W, k), L,
                          _score_objective(eps))
    choice = _choice(found)
    reason = f"Lemma 4.8 bound with pi_min = {pi_min:.6g}, eigengap g = {gap:.6g}"
    return ChainNoiseScale("MQMApprox", lip * choice.score, choice.score, eps, lip, T,
                           (choice,), True, reason)


def group_dp_scale(T, epsilon, lipschitz=1.0):
    """GroupDP: the whole chain is one group, Laplace scale ``lipschitz * T / epsilon``.

    Differential privacy for two chains differing anywhere, hence Pufferfish privacy for
    every class Theta; the baseline of the paper's experiments.

    Examples
    --------
    >>> from tdadp.pufferfish import group_dp_scale
    >>> float(group_dp_scale(100, 1.0, lipschitz=2 / 100))
    2.0
    """
    T, eps, lip, _ = _check_common(T, epsilon, lipschitz, None)
    score = T / eps
    return ChainNoiseScale("GroupDP", lip * score, score, eps, lip, T, (), True,
                           "group differential privacy over all T records")


def _max_log_ratio(num, den, ok):
    """max of log(num / den) over the entries where ``ok`` and num > 0 (den = 0: inf); at
    least 0 (an influence is non-negative)."""
    with np.errstate(invalid="ignore"):
        r = _log(num) - _log(den)
    r = np.where((num > 0) & ok, r, -np.inf)
    return max(0.0, float(r.max())) if r.size else 0.0


def _gk16_chain_influence(chain, T):
    """(upper, lower) off-diagonals of GK16's influence matrix of one theta:
    ``upper[i] = phi_{i, i+1}`` (influence of X_{i+1} on X_i), ``lower[i] = phi_{i+1, i}``:
    half the largest log-ratio of the conditional of X_i given all the other nodes when X_j
    alone changes (over both orders of the two conditions, so the absolute value)."""
    P = chain.P
    # interior: P(x | u, w) proportional to P(u, x) P(x, w)
    joint = P[:, :, None] * P[None, :, :]                  # [u, x, w]
    norm = joint.sum(axis=1)                               # [u, w]
    ok = norm > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        cond = np.where(ok[:, None, :], joint / np.where(ok, norm, 1.0)[:, None, :], 0.0)
    vary_w = _max_log_ratio(cond[:, :, :, None], cond[:, :, None, :],
                            ok[:, None, :, None] & ok[:, None, None, :])
    vary_u = _max_log_ratio(cond[:, None, :, :], cond[None, :, :, :],
                            ok[:, None, None, :] & ok[None, :, None, :])
    # X_T given X_{T-1} = u: P(u, x); vary u
    end_T = _max_log_ratio(P[:, None, :], P[None, :, :], np.ones((1, 1, 1), dtype=bool))
    # X_1 given X_2 = w: proportional to q(x) P(x, w); vary w
    if chain.initial is None:
        # the supremum over initial distributions adds max_y log P(y, w') / P(y, w)
        col = P.sum(axis=0) > 0
        with np.errstate(invalid="ignore"):
            lr = _log(P)[:, :, None] - _log(P)[:, None, :]     # [x, w, w']
        lr = np.where(P[:, :, None] > 0, lr, -np.inf)
        extra = lr.max(axis=0).T                                # [w, w']: max_y P(y,w')/P(y,w)
        tot = np.where(np.isneginf(lr), -np.inf, lr + extra[None, :, :])
        tot = np.where(col[None, :, None] & col[None, None, :], tot, -np.inf)
        end_1 = max(0.0, float(tot.max()))
    else:
        j1 = chain.initial[:, None] * P                    # [x, w]
        n1 = j1.sum(axis=0)
        ok1 = n1 > 0
        c1 = np.where(ok1[None, :], j1 / np.where(ok1, n1, 1.0)[None, :], 0.0)
        end_1 = _max_log_ratio(c1[:, :, None], c1[:, None, :],
                               ok1[None, :, None] & ok1[None, None, :])
    upper = np.full(T - 1, 0.5 * vary_w)
    lower = np.full(T - 1, 0.5 * vary_u)
    if T >= 2:
        upper[0] = 0.5 * end_1    # phi_{1,2}
        lower[-1] = 0.5 * end_T   # phi_{T,T-1}
    return upper, lower


def _family_gk16(fam, T):
    """Influence off-diagonals bounding every chain of the interval family."""
    a = fam.alpha
    gamma = 0.0

    def phi(odds):
        return np.log(odds / (1.0 + odds))

    def psi(odds):
        return np.log1p(odds)

    for p0, p1, q0, q1 in _family_cells(fam):
        # odds of X_i = 1 given (u, w): rho_u * kappa_w, each monotone in p and q
        rho = {0: ((1 - p1) / p1, (1 - p0) / p0), 1: (q0 / (1 - q0), q1 / (1 - q1))}
        kap = {0: ((1 - q1) / p1, (1 - q0) / p0), 1: (q0 / (1 - p0), q1 / (1 - p1))}
        pairs = []
        for u in (0, 1):      # vary w with u fixed
            pairs.append(((rho[u][0] * kap[0][0], rho[u][1] * kap[0][1]),
                          (rho[u][0] * kap[1][0], rho[u][1] * kap[1][1])))
        for w in (0, 1):      # vary u with w fixed
            pairs.append(((rho[0][0] * kap[w][0], rho[0][1] * kap[w][1]),
                          (rho[1][0] * kap[w][0], rho[1][1] * kap[w][1])))
        for (lo0, hi0), (lo1, hi1) in pairs:
            h = max(phi(hi0) - phi(lo1), phi(hi1) - phi(lo0),
                    psi(hi1) - psi(lo0), psi(hi0) - psi(lo1))
            gamma = max(gamma, 0.5 * h)
    end = 0.5 * math.log((1 - a) / a)
    upper = np.full(T - 1, gamma)
    lower = np.full(T - 1, gamma)
    if T >= 2:
        upper[0] = end
        lower[-1] = end
    return upper, lower


def _tridiagonal_norm(upper, lower):
    """Spectral norm of the tridiagonal matrix with these off-diagonals (zero diagonal): the
    square root of the top eigenvalue of the pentadiagonal Phi^T Phi, O(T)."""
    T = upper.size + 1
    if T == 1:
        return 0.0
    Phi = diags([lower, upper], [-1, 1], format="csr")
    M = (Phi.T @ Phi).todia()
    band = np.zeros((3, T))
    for k in range(3):
        d = M.diagonal(k)
        band[2 - k, k:] = d
    top = eigvals_banded(band, lower=False, select="i", select_range=(T - 1, T - 1))
    return float(np.sqrt(max(0.0, top[-1])))


def gk16_scale(thetas, T, epsilon, lipschitz=1.0):
    """GK16: differential privacy scaled by Ghosh and Kleinberg's influence matrix.

    ``Phi[i, j]`` is the influence of X_j on X_i: half the largest log-ratio of the conditional
    distribution of X_i given all other nodes when X_j alone changes (on a chain only
    neighbours influence each other; the end nodes use their one neighbour). When its spectral
    norm is below 1, an ``eps_DP``-DP release is eps-Pufferfish private for
    ``eps_DP = eps / (2 max_i sum_j (I - Phi)^{-1}_{ij})`` (Ghosh and Kleinberg 2016, as run in
    Song, Wang, Chaudhuri's experiments), so the Laplace scale is ``lipschitz / eps_DP``. The
    supremum over Theta is taken entry by entry (for the interval family, over cells as for
    MQMExact).

    Returns
    -------
    ChainNoiseScale
        ``applicable=False`` (and ``scale=inf``, with the reason) when some theta's influence
        matrix has spectral norm >= 1: GK16 gives no guarantee there.

    References
    ----------
    Ghosh, Kleinberg, "Inferential privacy guarantees for differentially private mechanisms",
    ITCS (2017), arXiv:1603.01508.

    Examples
    --------
    >>> from tdadp.pufferfish import gk16_scale
    >>> res = gk16_scale(("stationary", [[0.6, 0.4], [0.4, 0.6]]), 100, 1.0)
    >>> res.applicable, round(res.score, 3)
    (True, 3.887)
    >>> res = gk16_scale(("stationary", [[0.9, 0.1], [0.1, 0.9]]), 100, 1.0)
    >>> res.applicable, res.scale
    (False, inf)
    """
    kind, chains = parse_thetas(thetas)
    T, eps, lip, _ = _check_common(T, epsilon, lipschitz, None)
    if kind == "family":
        offs = [_family_gk16(chains, T)]
    else:
        offs = [_gk16_chain_influence(c, T) for c in chains]
    worst_rows = 0.0
    worst_norm = 0.0
    for upper, lower in offs:
        rho = _tridiagonal_norm(upper, lower)
        worst_norm = max(worst_norm, rho)
        if not rho < 1.0:
            return ChainNoiseScale(
                "GK16", math.inf, math.inf, eps, lip, T, (), False,
                f"GK16 does not apply: the influence matrix has spectral norm {rho:.4g} >= 1 "
                "(the chain is too strongly correlated for Ghosh and Kleinberg's bound)")
        if T == 1:
            rows = np.ones(1)
        else:
            ab = np.zeros((3, T))
            ab[0, 1:] = -upper
            ab[1, :] = 1.0
            ab[2, :-1] = -lower
            rows = solve_banded((1, 1), ab, np.ones(T))
        worst_rows = max(worst_rows, float(np.max(rows)))
    score = 2.0 * worst_rows / eps
    return ChainNoiseScale("GK16", lip * score, score, eps, lip, T, (), True,
                           f"influence matrix spectral norm {worst_norm:.4g} < 1; "
                           f"max row sum of (I - Phi)^-1 = {worst_rows:.6g}")
