"""The Markov quilts of a chain and the search for every node's best quilt.

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

Every chain scale (and the composition of releases) is one search: the influences of the
quilts indexed by their distances a, b (:class:`InfluenceTables`), an objective of a quilt's
influence and card(X_N) minimized at each node (:class:`Objective`), and the largest of these
minima over the nodes (:func:`search`, :func:`search_built`). Numbers of nodes are 1-based
(X_1 is the first node), as in the paper. The documentation's theory page
docs/theory/markov_quilts.rst (the site's theory/markov_quilts.html) states these bounds with
the code that computes them.
"""

from __future__ import annotations

import math

import numpy as np

from ._scale import QuiltChoice, check_work_memory, check_work_operations

__all__ = [
    "InfluenceTables",
    "Objective",
    "score_objective",
    "search",
    "search_built",
    "quilt_choice",
    "search_nbytes",
    "node_operations",
    "node_search_operations",
    "fixed_search_operations",
]

# Nodes evaluated at once by the position-free search (memory: this many x the quilt length).
_CHUNK = 4096
# Quilt distances searched first at each node by the node-by-node search.
_WINDOW = 32
# A node's tables and candidates also cost a fixed 0.3 to 0.6 ms of interpreted calls (two
# states, measured), worth this many elementary operations at the 2e8 a second of the tables.
_NODE_OVERHEAD = 1e5


def search_nbytes(T, W):
    """Bytes of the main arrays of a position-free search over T nodes with quilts up to W:
    the per-node values, the W x W tables and their temporaries, the chunks of nodes."""
    return 8 * (6 * T + 10 * (W + 1) ** 2 + 8 * min(T, _CHUNK) * (W + 1))


def node_operations(nodes, T, W, pairs, per_node):
    """Elementary operations of the tables of the given nodes (an array) with quilts up to W:
    for each node, the sum and maximum over ``pairs`` secret pairs of every two-sided quilt
    (a, b), the one-sided maxima, ``per_node`` more (the node's marginal term), and the
    fixed cost of the node's interpreted calls."""
    a = np.minimum(nodes - 1, W).astype(float)
    b = np.minimum(T - nodes, W).astype(float)
    return float(np.sum((2 * a * b + 2 * (a + b)) * pairs + per_node + _NODE_OVERHEAD))


def node_search_operations(T, L, pairs, per_node):
    """:func:`node_operations` of every node of the node-by-node search with its first window
    (``min(L, 32)``); widening a node's window is checked when the search asks for it."""
    W = min(L, _WINDOW)
    # the nodes within W of an end, one by one; every other node has a = b = W
    ends = np.unique(np.r_[np.arange(1, min(W, T) + 1), np.arange(max(1, T - W + 1), T + 1)])
    middle = T - ends.size
    return (node_operations(ends, T, W, pairs, per_node)
            + middle * ((2 * W * W + 4 * W) * pairs + per_node + _NODE_OVERHEAD))


def fixed_search_operations(T, W):
    """Elementary operations of the position-free search with quilts up to W: the prefix
    minima of the W x W table, the nodes within W of an end, and the bisection's nodes."""
    return 6.0 * (W + 1) ** 2 + 12.0 * (W + 1) * (min(T, 2 * W) + 3 * math.log2(T + 1))


def _node_nbytes(W):
    """Bytes of one node's tables and candidate arrays for quilts up to W."""
    return 8 * 6 * (W + 1) ** 2


def _score(e, card, eps):
    """card / (eps - e): inf when e >= eps, 0 when e = -inf (no secret to protect)."""
    e = np.asarray(e, dtype=float)
    card = np.asarray(card, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = card / (eps - e)
    s = np.where(e >= eps, np.inf, s)
    return np.where(np.isneginf(e), 0.0, s)


class InfluenceTables:
    """Influence tables of one theta, indexed by quilt distances 1..L (index 0 unused).

    ``fixed`` (position-free: stationary start, or a bound): ``E2[a, b]``, ``EF[b]``, ``EB[a]``.
    Otherwise ``node(i)`` gives the tables of node i, and with ``tail_from`` given, the nodes
    from ``tail_from`` on share the position-free ``E2``, ``EF``, ``EB`` (bounds of theirs).
    ``pairs`` and ``per_node``, when ``pairs`` is given, are what a node's tables cost (see
    :func:`node_operations`): the search then checks the work of widening its windows.
    """

    def __init__(self, T, L, E2=None, EF=None, EB=None, node=None, tail_from=None,
                 pairs=None, per_node=0.0):
        self.T, self.L = T, L
        self.E2, self.EF, self.EB = E2, EF, EB
        self.node = node
        self.tail_from = T + 1 if tail_from is None else int(tail_from)
        self.pairs, self.per_node = pairs, per_node

    @property
    def fixed(self):
        return self.node is None


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


def _fixed_node_values(tab, objective, nodes=None):
    """min over quilts of the objective at the given nodes (default: every node), for
    position-free tables."""
    T, L = tab.T, tab.L
    nodes = np.arange(1, T + 1) if nodes is None else np.asarray(nodes)
    best = np.full(nodes.size, float(objective(np.float64(0.0), T)))
    if L == 0 or nodes.size == 0:
        return best
    # two-sided: prefix minima over a <= A, b <= B
    a = np.arange(1, L + 1)
    S2 = objective(tab.E2[1:, 1:], a[:, None] + a[None, :] - 1)
    M2 = np.minimum.accumulate(np.minimum.accumulate(S2, axis=0), axis=1)
    A = np.minimum(nodes - 1, L)
    B = np.minimum(T - nodes, L)
    both = (A > 0) & (B > 0)
    best[both] = np.minimum(best[both], M2[A[both] - 1, B[both] - 1])
    for start in range(0, nodes.size, _CHUNK):
        idx = nodes[start:start + _CHUNK]
        fw = objective(tab.EF[None, 1:], idx[:, None] + a[None, :] - 1)
        fw = np.where(a[None, :] <= (T - idx)[:, None], fw, np.inf)
        bw = objective(tab.EB[None, 1:], (T - idx)[:, None] + a[None, :])
        bw = np.where(a[None, :] <= (idx - 1)[:, None], bw, np.inf)
        best[start:start + _CHUNK] = np.minimum(best[start:start + _CHUNK],
                                                np.minimum(fw.min(axis=1), bw.min(axis=1)))
    return best


def _nearest_middle(nodes, T):
    """The node nearest the middle (the first of two equally near)."""
    nodes = np.unique(np.asarray(nodes, dtype=np.int64))
    return int(nodes[np.argmin(np.abs(nodes - (T + 1) / 2))])


def _worst_fixed_node(tab, objective, first=1):
    """The node with the largest minimum objective, for position-free tables, among the nodes
    from ``first`` on; of tied nodes (within a relative 1e-12), the one nearest the middle.

    Lemma 4.9's shortcut, without assuming the worst node is the middle one: the nodes with
    quilts of every length up to l on both sides (l < i <= T - l) share their two-sided and
    empty quilts, and the objective grows with card(X_N), so their best one-sided quilt after
    X_i gets worse with i and the one before gets better. Their value is the minimum of a
    constant, a nondecreasing and a nonincreasing function of i: it rises, then falls, and
    its largest value, and the interval of the nodes tied with it, are found by bisection
    (O(l log T) instead of O(T l)); the 2 l nodes near the ends are evaluated one by one.
    """
    T, L = tab.T, tab.L
    lo, hi = max(L + 1, first), T - L           # interior nodes: A = B = L
    if L == 0 or hi - lo < 8:
        nodes = np.arange(first, T + 1)
        values = _fixed_node_values(tab, objective, nodes)
        top = values.max()
        tied = nodes[values >= top - 1e-12 * abs(top)]
        return _nearest_middle(tied, T)
    edge = np.concatenate([np.arange(first, lo), np.arange(hi + 1, T + 1)])
    ev = _fixed_node_values(tab, objective, edge)
    a = np.arange(1, L + 1)
    base = min(float(objective(np.float64(0.0), T)),
               float(objective(tab.E2[1:, 1:], a[:, None] + a[None, :] - 1).min()))
    EF, EB = tab.EF[1:], tab.EB[1:]

    def after(i):
        return float(objective(EF, i + a - 1).min())

    def before(i):
        return float(objective(EB, T - i + a).min())

    def value(i):
        return min(base, after(i), before(i))

    # the first interior node where the quilt after is no better than the one before
    left, right = lo, hi + 1
    while left < right:
        mid = (left + right) // 2
        if after(mid) >= before(mid):
            right = mid
        else:
            left = mid + 1
    peaks = [i for i in (left - 1, left) if lo <= i <= hi]
    peak = max(peaks, key=value)
    top_in = value(peak)
    top = max(top_in, float(ev.max())) if ev.size else top_in
    thr = top - 1e-12 * abs(top)
    tied = list(edge[ev >= thr])
    if top_in >= thr:
        # nondecreasing on [lo, peak], nonincreasing on [peak, hi]
        left, right = lo, peak
        while left < right:
            mid = (left + right) // 2
            if value(mid) >= thr:
                right = mid
            else:
                left = mid + 1
        first = left
        left, right = peak, hi
        while left < right:
            mid = (left + right + 1) // 2
            if value(mid) >= thr:
                left = mid
            else:
                right = mid - 1
        last = left
        middle = (T + 1) / 2
        tied += [first, last] + [min(max(int(m), first), last)
                                 for m in (np.floor(middle), np.ceil(middle))]
    return _nearest_middle(tied, T)


def search(tab, objective):
    """(largest over nodes of the smallest objective, QuiltChoice-like tuple)."""
    T = tab.T
    if tab.fixed:
        # ties (every node far from both ends scores alike): report the one nearest the middle
        i = _worst_fixed_node(tab, objective)
        A, B = min(i - 1, tab.L), min(T - i, tab.L)
        val, (quilt, card, infl) = _node_candidates(
            i, T, tab.E2[:A + 1, :B + 1], tab.EF[:B + 1], tab.EB[:A + 1], objective)
        return val, i, quilt, card, infl
    # Node by node, quilts within a window first: a quilt reaching beyond W has
    # card(X_N) >= W + 1, and the objective grows with card(X_N) at least as fast as
    # objective.card_bound says, so the window is widened only when a wider quilt could win.
    # The nodes to widen are searched after the others, once the work they need is known.
    W0 = min(tab.L, _WINDOW)
    worst = None
    last = min(T, tab.tail_from - 1)
    widen = np.zeros(last + 1, dtype=np.int64)      # the window node i needs (0: W0 is enough)
    for i in range(1, last + 1):
        E2, EF, EB, has_pair = tab.node(i, W0)
        if not has_pair:
            continue
        val, (quilt, card, infl) = _node_candidates(i, T, E2, EF, EB, objective)
        bound = objective.card_bound(val)
        if W0 < tab.L and bound > W0 + 1:
            widen[i] = tab.L if not math.isfinite(bound) else min(tab.L, int(bound) + 1)
        elif worst is None or val > worst[0]:
            worst = (val, i, quilt, card, infl)
    nodes = np.flatnonzero(widen)
    if nodes.size and tab.pairs is not None:
        ops = sum(node_operations(nodes[widen[nodes] == W], T, W, tab.pairs, tab.per_node)
                  for W in np.unique(widen[nodes]))
        check_work_operations(ops, f"the quilt search of {nodes.size} of the {T} nodes with "
                                   f"quilts up to {int(widen.max())} nodes away",
                              "Use MQMApprox, a larger epsilon or a smaller max_quilt (the "
                              "quilt-length parameter l).")
    checked = W0
    for i in nodes:
        i, W = int(i), int(widen[i])
        if checked < W:
            check_work_memory(_node_nbytes(W), f"the quilt search of node {i} with quilts "
                                               f"up to {W} nodes away")
            checked = W
        E2, EF, EB, _ = tab.node(i, W)
        val, (quilt, card, infl) = _node_candidates(i, T, E2, EF, EB, objective)
        # of equal values the first node, as a search in node order would keep
        if worst is None or val > worst[0] or (val == worst[0] and i < worst[1]):
            worst = (val, i, quilt, card, infl)
    if tab.tail_from <= T:
        i = _worst_fixed_node(tab, objective, tab.tail_from)
        A, B = min(i - 1, tab.L), min(T - i, tab.L)
        val, (quilt, card, infl) = _node_candidates(
            i, T, tab.E2[:A + 1, :B + 1], tab.EF[:B + 1], tab.EB[:A + 1], objective)
        if worst is None or val > worst[0]:
            worst = (val, i, quilt, card, infl)
    if worst is None:              # no node has two states of positive probability
        return 0.0, 1, (), T, -np.inf
    return worst


class Objective:
    """Objective of a quilt from its influence and card(X_N), minimized at each node;
    ``card_bound(v)``: quilts with card(X_N) >= it cannot go below v (influences are >= 0)."""

    def __init__(self, func, card_bound):
        self.func, self.card_bound = func, card_bound

    def __call__(self, e, card):
        return self.func(e, card)


def score_objective(eps):
    """The objective of the noise scales: a quilt's score ``card / (eps - e)``."""
    # card / (eps - e) >= card / eps
    return Objective(lambda e, card: _score(e, card, eps),
                      lambda v: 0.0 if v <= 0 else v * eps)


def search_built(build, L, objective, fixed=True, T=None):
    """``search`` over quilts of length <= L, the tables built by ``build(W)`` for W <= L.

    Position-free tables are first built for W = min(L, 32): a quilt reaching beyond W has
    card(X_N) >= W + 1, so when the objective's card bound at the largest node value found is
    at most W + 1 no node can do better with a longer quilt, and the answer is exact; otherwise
    the tables are rebuilt once, long enough for every quilt that could still win (for a chain
    that mixes, the worst node's best quilt is short and the search is O(W^2 + T W), not
    O(T^2)).

    The argument holds for tables per node too (the largest node value found within W is
    the answer when no node's longer quilt could go below it), so ``fixed=True`` also asks
    for this windowing for such tables when they are costly to build long (the interval
    family's); ``fixed=False`` builds them for L at once and lets each node widen its own
    window.

    With ``T`` given, the memory of each search is checked before its tables are built
    (:func:`search_nbytes`; the table builders check their own arrays).
    """
    if not fixed:
        return search(build(L), objective)
    W = min(L, _WINDOW)
    if T is not None:
        check_work_memory(search_nbytes(T, W), f"the quilt search over T = {T} nodes")
    found = search(build(W), objective)
    bound = objective.card_bound(found[0])
    if W < L and bound > W + 1:
        W = L if not math.isfinite(bound) else min(L, int(bound) + 1)
        if T is not None:
            check_work_memory(search_nbytes(T, W), f"the quilt search over T = {T} nodes with "
                                                   f"quilts up to {W} nodes away")
        found = search(build(W), objective)
    return found


def quilt_choice(found):
    """The :class:`QuiltChoice` of a ``search`` result."""
    val, i, quilt, card, infl = found
    return QuiltChoice(score=float(val), node=int(i), quilt=tuple(int(v) for v in quilt),
                       nearby=int(card), influence=float(infl))
