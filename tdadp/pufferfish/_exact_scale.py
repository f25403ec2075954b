"""MQMExact's noise scale: the exact max-influence of every quilt of a chain (Eq. (5)).

* :func:`mqm_exact_scale` (MQMExact, Algorithm 3): the exact max-influence by Eq. (5), from
  the powers of the transition matrix and the marginals, over the quilt set of Lemma 4.6
  (O(T^2) quilts per node; ``max_quilt`` = the paper's quilt-length parameter l keeps the
  quilt nodes within l of X_i).
* The influence tables it searches: :func:`exact_tables` for one finite theta,
  :func:`family_tables` for one cell of the interval family (upper bounds, see
  :class:`BinaryIntervalFamily`), and :func:`quilt_influence_tables` to inspect them.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ._approx_scale import approx_tables
from ._mixing import chain_mixing
from ._quilt_search import (
    InfluenceTables,
    fixed_search_operations,
    node_search_operations,
    quilt_choice,
    score_objective,
    search_built,
)
from ._scale import (
    ChainNoiseScale,
    check_scale_args,
    check_work_memory,
    check_work_operations,
    quiet_log,
)
from ._theta import check_secret_pairs, family_cells, parse_thetas

__all__ = ["mqm_exact_scale", "quilt_influence_tables", "exact_tables", "family_tables",
           "exact_nbytes", "exact_operations"]

# |lam^t| from which the interval family's "any"-start bound of the marginal is shared by all
# later nodes (its excess over the exact node-by-node bound is then about 1e-12).
_TAIL_POWER = 1e-12
# Elements of the (distance, state, state, state) temporaries of the log-ratio tables held at
# once: the tables are built a few distances at a time (memory O(l k^2), not O(l k^3)).
_CHUNK_ELEMS = 2_000_000


# --------------------------------------------------------------------------------------------
# Influence tables


def _powers(P, n):
    k = P.shape[0]
    out = np.empty((n + 1, k, k))
    out[0] = np.eye(k)
    for t in range(1, n + 1):
        out[t] = out[t - 1] @ P
    return out


def _chunks(n, k):
    """Slices of the distances 0..n-1 whose (k, k, k) temporaries fit in _CHUNK_ELEMS."""
    step = max(1, _CHUNK_ELEMS // max(1, k ** 3))
    return [slice(a, min(n, a + step)) for a in range(0, n, step)]


def _forward_table(Pw):
    """F[t, s, s'] = max_y log P^t(s, y) / P^t(s', y) over y with P^t(s, y) > 0."""
    out = np.empty(Pw.shape)
    for sl in _chunks(Pw.shape[0], Pw.shape[1]):
        P = Pw[sl]
        lg = quiet_log(P)
        with np.errstate(invalid="ignore"):
            diff = lg[:, :, None, :] - lg[:, None, :, :]
        diff = np.where(P[:, :, None, :] > 0, diff, -np.inf)
        out[sl] = diff.max(axis=3)
    return out


def _backward_base(Pw, support):
    """G[t, s, s'] = max_x log P^t(x, s) / P^t(x, s') over x in ``support``, P^t(x, s) > 0."""
    out = np.empty(Pw.shape)
    for sl in _chunks(Pw.shape[0], Pw.shape[1]):
        P = Pw[sl]
        lg = quiet_log(P)
        with np.errstate(invalid="ignore"):
            diff = lg[:, :, :, None] - lg[:, :, None, :]
        mask = (P[:, :, :, None] > 0) & support[None, :, None, None]
        out[sl] = np.where(mask, diff, -np.inf).max(axis=1)
    return out


def exact_nbytes(k, T, L, start):
    """Bytes of the main arrays of :func:`exact_tables` (``start``: "stationary", "pmf" or
    "any"): the powers of P and the log-ratio tables (L + 1 distances of k x k), their
    chunked temporaries, and for a stationary start the l x l two-sided table; for a pmf start
    the marginals of the T nodes, for an "any" start the T powers of P."""
    n, k2 = L + 1, k * k
    nbytes = 8 * (5 * n * k2 + 4 * min(n * k ** 3, max(_CHUNK_ELEMS, k ** 3)))
    if start == "stationary":
        nbytes += 8 * (3 * n * k2 + 2 * n * n)
    elif start == "any":
        nbytes += 8 * (2 * T * k2 + k ** 3) + (T + 1) * k
    else:
        nbytes += 9 * (T + 1) * k
    return nbytes


def _marginal_operations(k, start):
    """Elementary operations of one node's marginal term: for an "any" start the (k, k, k)
    log-ratios of P^(i-1) (difference, mask, maximum, and the unbounded test), for a pmf
    start a k x k difference."""
    return 6.0 * k ** 3 if start == "any" else 4.0 * k * k


def exact_operations(k, T, L, start):
    """Elementary operations of :func:`exact_tables` and of the quilt search over them, before
    any window is widened (the search checks that itself).

    The log-ratio tables cost about 10 k^3 a distance (the differences, masks and maxima of
    their (k, k, k) slices, and the power of P). A stationary start adds the l x l two-sided
    table over the k (k - 1) secret pairs and the position-free search; otherwise every one
    of the T nodes has its own tables (:func:`node_search_operations`), plus for an "any"
    start the T powers of P and each node's k^3 marginal term.
    """
    n, pairs = L + 1, k * (k - 1)
    ops = 10.0 * n * k ** 3
    if start == "stationary":
        return ops + 2.0 * L * L * pairs + fixed_search_operations(T, L)
    if start == "any":
        ops += float(T) * k ** 3
    return ops + float(T) * k * k + node_search_operations(T, L, pairs,
                                                           _marginal_operations(k, start))


def _pair_mask(valid):
    V = valid[:, None] & valid[None, :]
    np.fill_diagonal(V, False)
    return V


def _masked_max(E, V):
    """max over the (s, s') pairs of V of E[..., s, s'] (-inf without a pair)."""
    if not V.any():
        return np.full(E.shape[:-2], -np.inf)
    return E[..., V].max(axis=-1)


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


def exact_tables(chain, T, L):
    """Exact influences (Eq. (5)) of one finite theta for quilt distances up to L."""
    P = chain.P
    k = P.shape[0]
    start = "stationary" if chain.stationary else ("any" if chain.initial is None else "pmf")
    what = f"MQMExact's influence tables ({k} states, T = {T}, quilt length {L}, {start} start)"
    check_work_memory(exact_nbytes(k, T, L, start), what)
    check_work_operations(
        exact_operations(k, T, L, start), what,
        "Use MQMApprox (its bound needs no k^3 tables and no search node by node), a "
        "stationary start (one set of tables for every node), a smaller max_quilt (the "
        "quilt-length parameter l), fewer states or a shorter chain (length T).")
    Pw = _powers(P, L)
    F = _forward_table(Pw)
    if chain.stationary:
        pi = chain.initial
        valid = pi > 0
        V = _pair_mask(valid)
        G = _backward_base(Pw, np.ones(k, dtype=bool))
        lpi = quiet_log(pi)
        with np.errstate(invalid="ignore"):
            D = lpi[None, :] - lpi[:, None]
        D = np.where(V, D, -np.inf)
        with np.errstate(invalid="ignore"):     # inf + -inf off the pairs, never read
            Gd = G + D
        EF = _masked_max(F, V)
        EB = _masked_max(Gd, V)
        E2 = np.full((L + 1, L + 1), -np.inf)
        if L:
            E2[1:, 1:] = _two_sided(Gd[1:], F[1:], V)
        return InfluenceTables(T, L, E2, EF, EB)

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
                lq = quiet_log(Q)
                with np.errstate(invalid="ignore"):
                    R = lq[:, None, :] - lq[:, :, None]          # [x, s, s'] log Q(x,s')/Q(x,s)
                R = np.where(Q[:, :, None] > 0, R, -np.inf)
                D = R.max(axis=0)
                # a row reaching s' but not s makes the ratio unbounded
                unbounded = ((Q[:, None, :] > 0) & (Q[:, :, None] == 0)).any(axis=0)
                D = np.where(unbounded, np.inf, D)
        else:
            V = _pair_mask(supports[i])
            lm = quiet_log(mu[i])
            with np.errstate(invalid="ignore"):
                D = lm[None, :] - lm[:, None]
        D = np.where(V, D, -np.inf)
        with np.errstate(invalid="ignore"):     # inf + -inf off the pairs, never read
            Ga = G[1:A + 1] + D                              # (A, k, k)
        EF = np.full(B + 1, -np.inf)
        EF[1:] = _masked_max(F[1:B + 1], V)
        EB = np.full(A + 1, -np.inf)
        EB[1:] = _masked_max(Ga, V)
        E2 = np.full((A + 1, B + 1), -np.inf)
        if A and B:
            E2[1:, 1:] = _two_sided(Ga, F[1:B + 1], V)
        return E2, EF, EB, V.any()

    return InfluenceTables(T, L, node=node, pairs=k * (k - 1),
                           per_node=_marginal_operations(k, start))


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
    return quiet_log(np.maximum(first, second))


def _power_range(lam_lo, lam_hi, n):
    """(lo, hi) of lam^t over lam in [lam_lo, lam_hi], for t = 0..n."""
    t = np.arange(n + 1)
    a, b = lam_lo ** t, lam_hi ** t
    odd = (t % 2) == 1
    hi = np.where(odd, b, np.maximum(a, b))
    straddle = (lam_lo <= 0.0) & (lam_hi >= 0.0)
    lo = np.where(odd, a, np.where(straddle, 0.0, np.minimum(a, b)))
    return lo, hi


def _box_log_marginal(m_lo, m_hi, r_lo, r_hi):
    """Upper bound of log max((1 + m/r) / (1 - m), (1 - m) / (1 + m r)) over m in
    [m_lo, m_hi] and r in [r_lo, r_hi]: the first ratio grows with m, the second falls, and
    at a fixed m both fall with r when m >= 0 and grow when m < 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        r1 = np.where(m_hi >= 0, r_lo, r_hi)
        first = np.where(m_hi < 1, (1.0 + m_hi / r1) / (1.0 - m_hi), np.inf)
        r2 = np.where(m_lo >= 0, r_lo, r_hi)
        den = 1.0 + m_lo * r2
        second = np.where(den > 0, (1.0 - m_lo) / den, np.inf)
    return quiet_log(np.maximum(first, second))


def family_tables(p0, p1, q0, q1, T, L, start="stationary"):
    """Bounds of the influences over the binary chains with p in [p0, p1], q in [q0, q1].

    ``start="stationary"``: position-free tables. ``start="any"``: tables per node, the
    marginal of X_i bounded over every initial distribution (see :func:`mqm_exact_scale`).
    """
    check_work_memory(8 * 12 * (L + 1) ** 2, f"the interval family's influence tables "
                                             f"(quilt length {L})")
    lam_lo, lam_hi = p0 + q0 - 1.0, p1 + q1 - 1.0
    mu_lo, mu_hi = _power_range(lam_lo, lam_hi, L)
    # r = pi(s') / pi(s): s = 0 -> (1 - p)/(1 - q); s = 1 -> (1 - q)/(1 - p)
    r_box = [((1 - p1) / (1 - q0), (1 - p0) / (1 - q1)),
             ((1 - q1) / (1 - p0), (1 - q0) / (1 - p1))]
    Fs = np.stack([_box_log_ratio(mu_lo, mu_hi, lo, hi) for lo, hi in r_box])
    Fs[:, 0] = -np.inf
    EF = Fs.max(axis=0)
    if start == "stationary":
        with np.errstate(invalid="ignore"):     # inf + -inf at the unused distance 0 only
            E2 = (Fs[:, :, None] + Fs[:, None, :]).max(axis=0)
        return InfluenceTables(T, L, E2, EF, EF.copy())

    # Any start. For the pair (s, s') with r = pi(s') / pi(s) and m = lam^t, a binary chain
    # has P^t(x, y) = pi(y) + m (1{x = y} - pi(y)), so the supremum over the initial
    # distributions of log P(X_i = s') / P(X_i = s), max_x log P^t(x, s') / P^t(x, s) with
    # t = i - 1 (x = s' or s), is log r + D_t with
    #   D_t = log max((1 + m/r) / (1 - m), (1 - m) / (1 + m r)),
    # and log r + max_u log P^a(u, s) / P^a(u, s') is the stationary start's F_a (a binary
    # chain is reversible). So the backward terms are F_a + D_(i-1): bounding D_t on its own
    # keeps the cell's slack in r small, as D_t -> 0 when the chain forgets its start.
    # From the first t with |lam^t| <= _TAIL_POWER on (|lam| < 1: it only shrinks), every node
    # shares one bound of D_t, over m in [-|lam^t0|, |lam^t0|]: position-free tables for the
    # nodes i >= t0 + 1, searched at once (D_t0 is then within about 1e-12 of 0).
    top = max(abs(lam_lo), abs(lam_hi))
    if top >= 1 or not _TAIL_POWER > 0:
        n = T - 1
    else:
        n = min(T - 1, int(np.ceil(np.log(_TAIL_POWER) / np.log(max(top, 1e-300)))) + 1)
    m_lo, m_hi = _power_range(lam_lo, lam_hi, max(n, 0))
    small = np.flatnonzero(np.maximum(np.abs(m_lo), np.abs(m_hi)) <= _TAIL_POWER)
    t0 = max(int(small[0]) if small.size else T, 1)
    m_lo, m_hi = m_lo[:t0], m_hi[:t0]
    Ds = np.stack([_box_log_marginal(m_lo, m_hi, lo, hi) for lo, hi in r_box])
    Gs = Fs
    def node(i, W=L):
        A, B = min(i - 1, W), min(T - i, W)
        EFi = EF[:B + 1].copy()
        EB = np.full(A + 1, -np.inf)
        E2 = np.full((A + 1, B + 1), -np.inf)
        if A:
            DG = Ds[:, i - 1, None] + Gs[:, 1:A + 1]         # (pair, a)
            EB[1:] = DG.max(axis=0)
            if B:
                E2[1:, 1:] = (DG[:, :, None] + Fs[:, None, 1:B + 1]).max(axis=0)
        return E2, EFi, EB, True

    if t0 >= T:
        return InfluenceTables(T, L, node=node)
    m = float(max(abs(lam_lo), abs(lam_hi)) ** t0)
    tail = np.array([_box_log_marginal(np.array(-m), np.array(m), lo, hi) for lo, hi in r_box])
    DG = tail[:, None] + Fs                                   # (pair, a)
    with np.errstate(invalid="ignore"):     # inf + -inf at the unused distance 0 only
        E2 = (DG[:, :, None] + Fs[:, None, :]).max(axis=0)
    return InfluenceTables(T, L, E2, EF, DG.max(axis=0), node=node, tail_from=t0 + 1)


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
    T, _, _, L = check_scale_args(T, 1.0, 1.0, max_quilt)
    if kind != "finite" or len(chains) != 1:
        raise ValueError("quilt_influence_tables takes one (initial, transition) pair.")
    chain = chains[0]
    if method == "approx":
        pi_min, gap = chain_mixing(chain.P)
        tab = approx_tables(pi_min, gap, T, L, chain.P.shape[0])
    elif method == "exact":
        if not chain.stationary:
            raise ValueError("quilt_influence_tables needs a stationary start ('stationary'): "
                             "otherwise the influences depend on the node.")
        tab = exact_tables(chain, T, L)
    else:
        raise ValueError(f"method must be 'exact' or 'approx', got {method!r}.")
    return tab.E2, tab.EF, tab.EB


# --------------------------------------------------------------------------------------------
# The scale


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

    Raises
    ------
    ValueError
        At a finite epsilon, for a class under which no secret pair is possible (every theta
        makes every X_i certain: the release would get no noise); and, before any work, when
        the tables would need more memory than this process has left (O(l k^2) for the powers
        and log-ratio tables, O(T k) for a pmf start, O(T k^2) for an "any" start, O(T + l^2)
        for the search), or more than ``MAX_OPERATIONS`` (1e10, about a minute) elementary
        operations (``exact_operations``: O(l k^3) for the tables; for a pmf or "any"
        start O(T min(l, 32)^2 k^2) for the search node by node, and O(T k^3) more for an
        "any" start). The message says what to use instead, MQMApprox first.

    Notes
    -----
    Every initial distribution ("any", the paper's synthetic class), without iterating over
    them. Given the quilt ``{X_{i-a}, X_{i+b}}`` the conditional of the quilt is
    ``P(X_{i-a} = u) P^a(u, x_i) P^b(x_i, v) / P(X_i = x_i)``, so the log-ratio for the pair
    ``(s, s')`` is ``log P^a(u, s)/P^a(u, s') + log P^b(s, v)/P^b(s', v) + log mu_i(s')/mu_i(s)``:
    only the marginal ``mu_i = q P^(i-1)`` of X_i depends on the initial distribution q (the
    one-sided quilts drop one of the first two terms; ``{X_{i+b}}`` drops the marginal too).
    ``mu_i(s') / mu_i(s) = sum_x q(x) P^(i-1)(x, s') / sum_x q(x) P^(i-1)(x, s)`` is a ratio of
    two linear functions of q, positive on the simplex, so its level sets are hyperplanes and
    its supremum over the simplex is reached at a vertex (a point-mass start):
    ``max_x P^(i-1)(x, s') / P^(i-1)(x, s)`` (infinite when some start reaches s' but not s).
    The other terms do not involve q, and u ranges over every state as in Eq. (5), so the
    class's influence is the sum of the separate suprema: O(k^3) per node for the marginal's
    term, no search over the simplex. (The paper's Appendix C.4 treats this case; this is our
    derivation, checked against a grid of the simplex in the tests.) Each node then uses the
    quilt that is best for the worst start, so the score is at least the largest score of any
    single start.

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
    T, eps, lip, L = check_scale_args(T, epsilon, lipschitz, max_quilt)
    if np.isfinite(eps):
        check_secret_pairs(kind, chains, T)
    objective = score_objective(eps)
    lower = None
    if kind == "family":
        fam = chains
        worst = None
        # the family's tables are cheap to build for a few quilt lengths: windowed search
        # (valid for the per-node tables of an "any" start too, see search_built)
        fixed = True
        for p0, p1, q0, q1 in family_cells(fam):
            found = search_built(partial(family_tables, p0, p1, q0, q1, T, start=fam.start),
                                 L, objective, fixed=fixed, T=T)
            if worst is None or found[0] > worst[0]:
                worst = found
        lower = 0.0
        grid = fam.grid()
        for p in grid:
            for q in grid:
                lower = max(lower, search_built(partial(family_tables, p, p, q, q, T,
                                                        start=fam.start),
                                                L, objective, fixed=fixed, T=T)[0])
        per = (quilt_choice(worst),)
        reason = (f"interval family [{fam.alpha:g}, {1 - fam.alpha:g}], {fam.start} start: "
                  f"upper bound over {fam.cells}x{fam.cells} cells (exact score at the "
                  f"corners: at most {lower:.6g})")
    else:
        per = tuple(quilt_choice(search_built(lambda W, c=c: exact_tables(c, T, W), L, objective,
                                              fixed=c.stationary, T=T)) for c in chains)
        reason = "exact max-influence (Eq. 5) for each theta"
    score = max(c.score for c in per)
    return ChainNoiseScale("MQMExact", lip * score, score, eps, lip, T, per, True, reason,
                           lower)
