"""The shift-invariant bottleneck distance W_SI(D1, D2) = min_s W_inf(D1 + s, D2).

f(s) = W_inf(D1 + s, D2) is 1-Lipschitz and piecewise linear (slopes -1, 0, +1). The certified
method is a Piyavskii-Shubert branch and bound over s, with intervals settled at once by a
matching test on a union graph and shifts evaluated on pruned diagrams at a known slack; the
exact method scans the breakpoints (crossings of two pair costs) the bounds leave open, in
order of value. The notation, the bracket, the pruning bounds and the proofs are on the
documentation's theory page: docs/theory/shift_invariant.rst (the site's
theory/shift_invariant.html).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial import cKDTree

from ..utils._params import Interval, Options, check_param
from ._bottleneck import ADDITIVE_ERROR, bottleneck_pair, finite_bottleneck, resolve_pair
from ._certified import CertifiedResult
from ._matching import covers_all
from ._parts import Parts, normalizing_exponent

__all__ = ["shift_invariant_bottleneck", "ShiftInvariantResult"]

_EXACT_MAX_PAIRS = 4_000_000


class ShiftInvariantResult(CertifiedResult):
    """``(distance, shift)`` of :func:`shift_invariant_bottleneck`, with certificates.

    It unpacks as a 2-tuple; attributes give more.

    Attributes
    ----------
    distance : float
        ``bottleneck_distance(D1.shift(shift), D2)`` (an upper bound of W_SI, equal to it for
        the exact method).
    shift : float
    lower, upper : float
        Certified bounds: ``lower <= W_SI(D1, D2) <= upper == distance``.
    method : {"exact", "certified"}
    n_evaluations : int
        Number of bottleneck computations.
    """

    _arg = "shift"


class _Problem:
    """f(s) = W_inf(D1 + s, D2) over the selected dimensions, with its structure."""

    def __init__(self, pairs, e=None):
        self.pairs = [(np.asarray(X, float).reshape(-1, 2), np.asarray(Y, float).reshape(-1, 2))
                      for X, Y in pairs]
        self.e = e
        self.fin = []
        xs, ys = [], []
        self.compatible = True
        for X, Y in self.pairs:
            p1, p2 = Parts(X), Parts(Y)
            self.fin.append((p1.finite, p2.finite))
            if p1.counts() != p2.counts():
                self.compatible = False  # W_SI is inf; the shift still fits the rest
                continue
            xs += [p1.essential, p1.neg_birth]
            ys += [p2.essential, p2.neg_birth]
        self.inf_x = np.concatenate(xs) if xs else np.zeros(0)
        self.inf_y = np.concatenate(ys) if ys else np.zeros(0)
        if self.inf_x.size:
            delta = self.inf_y - self.inf_x
            self.L, self.H = float(delta.min()), float(delta.max())
        else:
            self.L = self.H = None
        coords = [np.abs(P).max() for pair in self.fin for P in pair if P.size]
        coords += [np.abs(self.inf_x).max(), np.abs(self.inf_y).max()] if self.inf_x.size else []
        self.scale = max([1.0] + [float(c) for c in coords])
        self.fp = 1e-12 * self.scale
        # Sending every finite point to the diagonal costs a_max: f_fin never exceeds it.
        self.a_max = max([float(np.max(Z[:, 1] - Z[:, 0]) / 2) for pair in self.fin
                          for Z in pair if Z.size] + [0.0])
        # Each diagram by decreasing half-persistence, so that pruning at t keeps a prefix.
        self._by_persistence = []
        for P, Q in self.fin:
            sides = []
            for Z in (P, Q):
                order = np.argsort(Z[:, 0] - Z[:, 1], kind="stable")
                sides.append((Z[order], (Z[order, 1] - Z[order, 0]) / 2))
            self._by_persistence.append(sides)
        self.n_evaluations = 0
        self._cache = {}
        self._finite_values = {}
        self._floors = {}
        self.point_bound = _PointBound(self)

    def n_pairs(self):
        return sum(P.shape[0] * Q.shape[0] for P, Q in self.fin)

    # -- evaluations -----------------------------------------------------------------------
    def g(self, s):
        if not self.inf_x.size:
            return 0.0
        return float(np.max(np.abs(self.inf_y - (self.inf_x + s))))

    def evaluate(self, s, t=0.0):
        """``(lower, upper, slack)``: bounds of f(s) from the diagrams pruned at ``t``.

        ``slack`` is the t the bounds were computed at (0 when they are exact). Where every
        point bound already reaches a_max, f(s) = max(a_max, g(s)) without hera.
        """
        s = float(s)
        g = self.g(s)
        top = max(self.a_max, g)
        floor = self.floor(s)
        if floor >= top:
            return top, top, 0.0
        kept = self._kept(t)
        if kept is None:
            val = self.exact_value(s) if self.compatible else max(self._finite(s, None), g)
            return val, val, 0.0
        fin = self._finite(s, kept)
        return max(fin - t, floor), min(max(fin, t, g), top), float(t)

    def floor(self, s):
        """A lower bound of f(s) without hera: single points and the infinite ones."""
        s = float(s)
        if s not in self._floors:
            self._floors[s] = max(self.point_bound(s, s), self.g(s))
        return self._floors[s]

    def _kept(self, t):
        """Rows kept per diagram when pruning at t; None to evaluate exactly instead.

        Pruning that keeps most points saves little, while an exact value is final (the
        returned distance is one) and has no slack.
        """
        if t <= 0:
            return None
        kept = tuple(int(np.searchsorted(-a, -t, side="left"))
                     for sides in self._by_persistence for _, a in sides)
        full = sum(a.size for sides in self._by_persistence for _, a in sides)
        return None if 4 * sum(kept) >= 3 * full else kept

    def _finite(self, s, kept):
        """max over dimensions of W_inf(P + s, Q) on the first ``kept`` rows (all if None)."""
        key = (s, kept)
        if key not in self._finite_values:
            self.n_evaluations += 1
            vals = [0.0]
            for d, ((P, _), (Q, _)) in enumerate(self._by_persistence):
                if kept is not None:
                    P, Q = P[:kept[2 * d]], Q[:kept[2 * d + 1]]
                vals.append(finite_bottleneck(P + s, Q, self.e))
            self._finite_values[key] = max(vals)
        return self._finite_values[key]

    def exact_value(self, s):
        """f(s) computed exactly as ``bottleneck_distance(D1.shift(s), D2)`` computes it."""
        s = float(s)
        if s not in self._cache:
            self.n_evaluations += 1
            self._cache[s] = max([bottleneck_pair(X + s, Y, self.e, False)
                                  for X, Y in self.pairs], default=0.0)
        return self._cache[s]

    # -- bracket ---------------------------------------------------------------------------
    def bracket(self):
        lo, hi = np.inf, -np.inf
        for P, Q in self.fin:
            if not (P.shape[0] and Q.shape[0]):
                continue  # this dimension's f is constant
            aP, aQ = (P[:, 1] - P[:, 0]) / 2, (Q[:, 1] - Q[:, 0]) / 2
            midP, midQ = (P[:, 0] + P[:, 1]) / 2, (Q[:, 0] + Q[:, 1]) / 2
            if aP.max() >= aQ.max():
                i = int(np.argmax(aP))
                m, A = midQ - midP[i], aP[i]
            else:
                j = int(np.argmax(aQ))
                m, A = midQ[j] - midP, aQ[j]
            lo, hi = min(lo, m.min() - A), max(hi, m.max() + A)
        if self.L is not None:
            sg = (self.L + self.H) / 2
            lo, hi = min(lo, sg), max(hi, sg)
        if not np.isfinite(lo):
            return None
        return float(lo), float(hi)


class _PointBound:
    """Shift-dependent lower bound from single points: every point p must be matched.

    For any s, f(s) >= min(a_p, min_q c_pq(s)) for each finite point p of either diagram
    (p goes to the diagonal or to some q). Over an interval I of shifts this gives
    f >= min(a_p, min_q (h_pq + dist(m_pq, I))). It is what certifies flat stretches of f
    (a point with no counterpart pins f at its half-persistence), where the Lipschitz bound
    alone would need evaluations every 2 * tol. The most persistent points of each diagram
    are used, ``k`` a side and dimension.
    """

    def __init__(self, prob, k=32):
        self.M, self.H, self.A = [], [], []
        for P, Q in prob.fin:
            aP, aQ = (P[:, 1] - P[:, 0]) / 2, (Q[:, 1] - Q[:, 0]) / 2
            midP, midQ = (P[:, 0] + P[:, 1]) / 2, (Q[:, 0] + Q[:, 1]) / 2
            for top_of, a_top, mid_top, a_oth, mid_oth, sign in (
                    (P, aP, midP, aQ, midQ, 1.0), (Q, aQ, midQ, aP, midP, -1.0)):
                if not top_of.shape[0]:
                    continue
                idx = np.argsort(-a_top)[:k]
                if a_oth.size:
                    # m = mid_q - mid_p whichever side p is on
                    self.M.append(sign * (mid_oth[None, :] - mid_top[idx, None]))
                    self.H.append(np.abs(a_oth[None, :] - a_top[idx, None]))
                else:
                    self.M.append(np.zeros((idx.size, 0)))
                    self.H.append(np.zeros((idx.size, 0)))
                self.A.append(a_top[idx])

    def __call__(self, x0, x1):
        best = -np.inf
        for M, H, A in zip(self.M, self.H, self.A):
            if M.shape[1]:
                cost = (H + np.maximum(0.0, np.maximum(x0 - M, M - x1))).min(axis=1)
                best = max(best, float(np.max(np.minimum(A, cost))))
            else:
                best = max(best, float(A.max()))
        return best


def _interval_covers(N, aN, M, c0, half, v, sign):
    """Can every point of N at least v from the diagonal match, within cost < v for some
    shift of [c0 - half, c0 + half], a distinct point of M? (N shifted by sign * s.)"""
    needy = np.flatnonzero(aN >= v)
    if needy.size == 0:
        return True
    if M.shape[0] == 0:
        return False
    R = N[needy] + sign * c0
    # cost over the interval = |da| + max(0, |dmid - c0| - half) <= L_inf cost at c0, and
    # the L_inf cost at c0 is at most that + half: query a ball of radius v + half.
    pairs = cKDTree(R).sparse_distance_matrix(cKDTree(M), v + half, p=np.inf,
                                              output_type="ndarray")
    i, j = pairs["i"].astype(np.int64), pairs["j"].astype(np.int64)
    d = M[j] - R[i]
    dmid, da = (d[:, 0] + d[:, 1]) / 2, (d[:, 1] - d[:, 0]) / 2
    keep = np.abs(da) + np.maximum(0.0, np.abs(dmid) - half) < v
    i, j = i[keep], j[keep]
    return covers_all(i, j, needy.size, M.shape[0])


def _below_somewhere(prob, x0, x1, v):
    """False only if f(s) >= v for every s in [x0, x1] (a certificate); True otherwise.

    For each s the matchings of cost < v are those of the bipartite graph with the edges of
    cost < v at s; every such graph is a subgraph of the union over s in [x0, x1] (an edge
    is in the union iff its V dips below v on the interval). If the union graph has no
    matching covering the points that cannot go to the diagonal (Mendelsohn-Dulmage: one
    covering each side's needy points), none of the graphs has one.
    """
    c0, half = (x0 + x1) / 2, (x1 - x0) / 2
    if prob.L is not None and max(x0 - prob.L, prob.H - x1) >= v:
        return False
    for P, Q in prob.fin:
        aP, aQ = (P[:, 1] - P[:, 0]) / 2, (Q[:, 1] - Q[:, 0]) / 2
        if not (_interval_covers(P, aP, Q, c0, half, v, 1.0)
                and _interval_covers(Q, aQ, P, c0, half, v, -1.0)):
            return False
    return True


def _level(ub, tol):
    """The smallest float v with ``ub - v <= tol``: what a lower bound must reach to stop.

    ``ub - (ub - tol)`` can round above ``tol``; a bound certified at exactly ``ub - tol``
    then never stops the search, which went on splitting a flat stretch every 2 tol until
    the evaluation budget ran out.
    """
    v = ub - tol
    while ub - v > tol:
        v = math.nextafter(v, math.inf)
    return v


def _lipschitz_bounds(prob, x, vals):
    """Lower bound of f on each [x_i, x_i+1] from values at the ends, and its argmin."""
    x0, x1, l0, l1 = x[:-1], x[1:], vals[:-1], vals[1:]
    A1, B1 = l0 + x0, l1 - x1
    if prob.L is not None:
        A1, B1 = np.maximum(A1, prob.H), np.maximum(B1, -prob.L)
    s = np.clip((A1 - B1) / 2, x0, x1)
    return np.maximum(A1 - s, B1 + s), s, A1, B1


def _branch_and_bound(prob, lo, hi, tol, max_evaluations, seeds=(), t_min=0.0):
    """Piyavskii-Shubert search of min f on [lo, hi] until ``upper - lower <= tol``.

    With ``t_min > 0`` a shift is first evaluated on the diagrams pruned at half a lower
    bound of f there, and its bounds are refined, down to ``t_min``, only when their slack
    is what keeps an interval open (see docs/theory/shift_invariant.rst). ``t_min = 0``:
    exact values.
    """
    def coarse(floor):
        # f >= floor >= 2 t: the pruned value is within t of f, and the points of half-
        # persistence in (t, 2 t] are kept as partners without having to be matched.
        return max(t_min, floor / 2) if t_min > 0 else 0.0

    xs = np.unique(np.array([lo, hi, (lo + hi) / 2, *seeds], dtype=float))
    xs = xs[(xs >= lo) & (xs <= hi)]
    lv, uv, ts = (np.array(v) for v in zip(*(
        prob.evaluate(s, coarse(prob.floor(s))) for s in xs)))
    # Per interval: a lower bound from points (inherited by sub-intervals) and whether it
    # was computed for this very interval.
    extra = np.full(max(xs.size - 1, 0), -np.inf)
    refined = np.zeros(max(xs.size - 1, 0), dtype=bool)
    while True:
        ub = float(uv.min())
        v = _level(ub, tol)
        if xs.size == 1:
            return xs, lv, uv, min(lv[0], ub), None
        lb_int, s_int, _, _ = _lipschitz_bounds(prob, xs, lv)
        lb_int = np.maximum(lb_int, extra)
        # An interval too narrow to split holds no other float: its endpoints bound it.
        mid = (xs[:-1] + xs[1:]) / 2
        tiny = ~((xs[:-1] < mid) & (mid < xs[1:]))
        lb_int[tiny] = np.maximum(lb_int[tiny], np.minimum(lv[:-1], lv[1:])[tiny])
        # The intervals cover [lo, hi] with their ends, so they alone bound f there (the
        # value at an end, if pruned, may be below what the neighbouring bounds imply).
        k = int(np.argmin(lb_int))
        lb = float(lb_int[k])
        # Closed-form values (see _Problem.evaluate) cost no hera call: the number of
        # points bounds the search too.
        if lb >= v or prob.n_evaluations >= max_evaluations or xs.size > 2 * max_evaluations:
            return xs, lv, uv, lb, lb_int
        if not refined[k]:
            refined[k] = True
            extra[k] = max(extra[k], prob.point_bound(xs[k], xs[k + 1]))
            # On wide intervals the union graph is nearly complete and the certificate
            # fails at a high price; it pays off on the narrow ones around flat stretches.
            narrow = xs[k + 1] - xs[k] <= v / 2
            if extra[k] < v and narrow and not _below_somewhere(prob, xs[k], xs[k + 1], v):
                extra[k] = v
            continue
        # Refine a pruned end when its slack, not the interval's width, keeps the interval
        # open: its exact value would settle the interval, or its bounds straddle the target
        # (it may hold a better upper bound) and the interval is no wider than that slack.
        hopeful = _lipschitz_bounds(prob, xs[k:k + 2], uv[k:k + 2])[0][0] >= v
        width = xs[k + 1] - xs[k]
        ends = [i for i in (k, k + 1) if ts[i] > t_min and (
            hopeful or tiny[k] or (lv[i] < v and 2 * ts[i] >= width))]
        if ends:
            i = max(ends, key=lambda j: ts[j])
            lv[i], uv[i], ts[i] = prob.evaluate(xs[i], coarse(min(lv[i], ts[i] / 4)))
            continue
        if tiny[k]:
            return xs, lv, uv, lb, lb_int
        s = float(s_int[k])
        if not (xs[k] < s < xs[k + 1]):
            s = float(mid[k])
        new = prob.evaluate(s, coarse(max(lb, prob.floor(s))))
        xs = np.insert(xs, k + 1, s)
        lv, uv, ts = (np.insert(a, k + 1, x) for a, x in zip((lv, uv, ts), new))
        extra = np.insert(extra, k + 1, extra[k])
        refined[k] = False
        refined = np.insert(refined, k + 1, False)


def _sigma(prob, xs, lv, ub, lb_int=None):
    """Merged intervals of s where the lower envelope is below ``ub``."""
    _, _, A1, B1 = _lipschitz_bounds(prob, xs, lv)
    left = np.maximum(xs[:-1], A1 - ub)
    right = np.minimum(xs[1:], ub - B1)
    keep = left <= right
    if lb_int is not None:
        keep &= lb_int < ub
    left, right = left[keep], right[keep]
    if not left.size:
        return np.zeros((0, 2))
    out = [[left[0], right[0]]]
    for a, b in zip(left[1:], right[1:]):
        if a <= out[-1][1] + prob.fp:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return np.array(out)


def _ranges(starts, stops):
    """Concatenated aranges [starts[i], stops[i]) with their owner index i."""
    counts = np.maximum(stops - starts, 0)
    owner = np.repeat(np.arange(starts.size), counts)
    if not owner.size:
        return owner, owner
    offsets = np.arange(owner.size) - np.repeat(np.cumsum(counts) - counts, counts)
    return owner, starts[owner] + offsets


def _cost_functions(prob, sigma, ub):
    """(m, h) of every V that is below ``ub`` somewhere in ``sigma``, deduplicated."""
    ms, hs = [], []
    for P, Q in prob.fin:
        if not (P.shape[0] and Q.shape[0]):
            continue
        aP, aQ = (P[:, 1] - P[:, 0]) / 2, (Q[:, 1] - Q[:, 0]) / 2
        midP, midQ = (P[:, 0] + P[:, 1]) / 2, (Q[:, 0] + Q[:, 1]) / 2
        order = np.argsort(midQ)
        midQ, aQ = midQ[order], aQ[order]
        for s0, s1 in sigma:
            start = np.searchsorted(midQ, midP + s0 - ub, side="left")
            stop = np.searchsorted(midQ, midP + s1 + ub, side="right")
            if int(np.maximum(stop - start, 0).sum()) > 50_000_000:
                raise MemoryError("too many candidate pairs for the exact algorithm")
            i, j = _ranges(start, stop)
            m = midQ[j] - midP[i]
            h = np.abs(aQ[j] - aP[i])
            dist = np.maximum(0.0, np.maximum(s0 - m, m - s1))
            keep = h + dist < ub
            ms.append(m[keep])
            hs.append(h[keep])
    if not ms:
        return np.zeros(0), np.zeros(0)
    mh = np.unique(np.c_[np.concatenate(ms), np.concatenate(hs)], axis=0)
    return mh[:, 0], mh[:, 1]


def _candidates(prob, sigma, lb, ub):
    """Candidate breakpoints (s, value) inside ``sigma`` with value in [lb, ub)."""
    m, h = _cost_functions(prob, sigma, ub)
    # Rising branch: value s - r for s >= mr; falling: phi - s for s <= mf.
    r, mr = m - h, m.copy()
    phi, mf = m + h, m.copy()
    if prob.L is not None:
        r, mr = np.append(r, prob.L), np.append(mr, -np.inf)
        phi, mf = np.append(phi, prob.H), np.append(mf, np.inf)
    consts = np.unique(np.concatenate(
        [(Z[:, 1] - Z[:, 0]) / 2 for pair in prob.fin for Z in pair] + [np.zeros(0)]))
    consts = consts[(consts >= lb - prob.fp) & (consts < ub)]
    S, V = [m, ], [h, ]
    # rising x falling: s = (r + phi) / 2, value (phi - r) / 2 in [lb, ub).
    order = np.argsort(phi)
    phi_s, mf_s = phi[order], mf[order]
    start = np.searchsorted(phi_s, r + 2 * lb - prob.fp, side="left")
    stop = np.searchsorted(phi_s, r + 2 * ub, side="left")
    i, j = _ranges(start, stop)
    s = (r[i] + phi_s[j]) / 2
    ok = (s >= mr[i] - prob.fp) & (s <= mf_s[j] + prob.fp)
    S.append(s[ok])
    V.append(((phi_s[j] - r[i]) / 2)[ok])
    if consts.size:
        s = (r[:, None] + consts[None, :])
        ok = s >= mr[:, None] - prob.fp
        S.append(s[ok])
        V.append(np.broadcast_to(consts, s.shape)[ok])
        s = (phi[:, None] - consts[None, :])
        ok = s <= mf[:, None] + prob.fp
        S.append(s[ok])
        V.append(np.broadcast_to(consts, s.shape)[ok])
    S, V = np.concatenate(S), np.concatenate(V)
    inside = np.zeros(S.size, dtype=bool)
    for s0, s1 in sigma:
        inside |= (s0 - prob.fp <= S) & (s1 + prob.fp >= S)
    keep = inside & (lb - prob.fp <= V) & (ub > V)
    S, V = S[keep], V[keep]
    order = np.lexsort((S, V))
    return S[order], V[order]


def shift_invariant_bottleneck(D1, D2, tol=None, method="auto", homology_dimension=None,
                               max_evaluations=10_000, prune=True, e=None):
    """Shift-invariant bottleneck distance W_SI(D1, D2) = min_s W_inf(D1 + s, D2).

    ``D + s`` shifts every point along the diagonal, (b, d) -> (b + s, d + s). On log-scale
    diagrams (:func:`log_diagram`) a change of units c of the data is a shift by log c, so
    W_SI compares shapes regardless of scale: W_SI(log Dgm(cY), log Dgm(Y)) = 0 with shift
    -log c. Over several homology dimensions one common shift is used and the distance is the
    largest over dimensions.

    Parameters
    ----------
    D1, D2 : PersistenceDiagram, its DataFrame form or (k, 2) array_like
        Diagrams (births may be -inf, deaths inf).
    tol : float, optional
        Certified method: stop when ``upper - lower <= tol`` (a finite number >= 0). Default:
        1e-6 times the largest half-persistence of the finite points (or 1e-9 times the
        largest coordinate when there is none). Ignored by the exact method.
    method : {"auto", "exact", "certified"}, default="auto"
        ``"exact"``: branch and bound followed by an exhaustive scan of the candidate shifts
        that could still improve (see Notes); exact up to float rounding. ``"certified"``:
        Lipschitz branch and bound with lower and upper bounds within ``tol``, evaluating
        shifts on pruned diagrams (see ``prune``). ``"auto"`` is exact when the finite parts have
        at most 4e6 candidate pairs (about 2,000 points a side) and certified otherwise.
    homology_dimension : int, optional
        Compare this dimension only (default: all dimensions of either diagram, one shift).
    max_evaluations : int, default=10000
        Budget of bottleneck computations of the branch and bound.
    prune : bool, default=True
        Let the certified method evaluate shifts on the diagrams without their least
        persistent points (half-persistence below a level between ``tol / 4`` and half a
        lower bound of the value there; their effect is accounted for in the bounds).
    e : float, optional
        Additive error (finite, >= 0) passed to :func:`gudhi.bottleneck_distance` (default:
        its near-exact fast mode).

    Returns
    -------
    ShiftInvariantResult
        Unpacks as ``(distance, shift)`` with ``bottleneck_distance(D1.shift(shift), D2) ==
        distance``; also has ``lower``, ``upper``, ``method`` and ``n_evaluations``. If the
        counts of infinite points differ (in any compared dimension) the distance is inf
        and the shift minimises the distance between the remaining points.

    Notes
    -----
    f(s) = W_inf(D1 + s, D2) is 1-Lipschitz and piecewise linear with slopes -1, 0, +1; its
    breakpoints are V bottoms of pair costs ``|s - m| + h``, crossings of rising and falling
    branches and meetings of branches with diagonal costs (a finite candidate set). Points
    with birth -inf (log-scale H0) match each other by sorted log deaths, at cost
    ``|delta_i - s|``; with only such points W_SI = (max delta - min delta) / 2 at shift
    (max delta + min delta) / 2. See docs/theory/shift_invariant.rst for the proofs of the bracket,
    of the pruning bounds and of the exact candidate scan. W_SI is positively homogeneous: it is
    computed on the diagrams scaled by the power of two that brings their largest finite coordinate
    into [0.5, 1) (exact in floating point), so that coordinates up to 1.8e308 do not overflow.

    References
    ----------
    .. [1] D. R. Sheehy, O. Kisielius and N. J. Cavanna, "Computing the shift-invariant
       bottleneck distance for persistence diagrams", CCCG 2018.
    .. [2] S. A. Piyavskii, "An algorithm for finding the absolute extremum of a function",
       USSR Comput. Math. Math. Phys. 12, 1972; B. O. Shubert, SIAM J. Numer. Anal. 9, 1972.
    .. [3] M. Kerber, D. Morozov and A. Nigmetov, "Geometry helps to compare persistence
       diagrams", ACM J. Exp. Algorithmics 22, 2017.

    Examples
    --------
    >>> import numpy as np
    >>> D = np.array([[1.0, 3.0], [2.0, 2.5]])
    >>> d, s = shift_invariant_bottleneck(D + 0.5, D)
    >>> d, s
    (0.0, -0.5)
    """
    check_param(method, [Options("auto", "exact", "certified")], "method")
    check_param(tol, [None, Interval("real", 0, None, "left")], "tol")
    check_param(homology_dimension, [None, "nonnegative_int"], "homology_dimension")
    check_param(max_evaluations, ["positive_int"], "max_evaluations")
    check_param(prune, ["boolean"], "prune")
    check_param(e, ADDITIVE_ERROR, "e")
    _, pairs, _ = resolve_pair(D1, D2, homology_dimension)
    # W_SI(cD1, cD2) = c W_SI(D1, D2) at shift c s: solved on the diagrams scaled by an exact
    # power of two (see normalizing_exponent), so that no difference overflows.
    k = normalizing_exponent(*(Z for pair in pairs for Z in pair))
    pairs = [(np.ldexp(X, -k), np.ldexp(Y, -k)) for X, Y in pairs]
    res = _solve(pairs, None if tol is None else math.ldexp(tol, -k), method,
                 max_evaluations, prune, None if e is None else math.ldexp(e, -k))
    return ShiftInvariantResult(*(math.ldexp(v, k) for v in (res.distance, res.shift,
                                                              res.lower, res.upper)),
                                res.method, res.n_evaluations)


def _solve(pairs, tol, method, max_evaluations, prune, e):
    """:func:`shift_invariant_bottleneck` on validated, normalised per-dimension pairs."""
    prob = _Problem(pairs, e=e)
    if method == "auto":
        method = "exact" if prob.n_pairs() <= _EXACT_MAX_PAIRS else "certified"
    if tol is None:
        tol = 1e-6 * prob.a_max if prob.a_max > 0 else 1e-9

    br = prob.bracket()
    if br is None:  # f is constant
        d = prob.exact_value(0.0)
        return ShiftInvariantResult(d, 0.0, d, d, method, prob.n_evaluations)
    lo, hi = br
    seeds = [] if prob.L is None else [(prob.L + prob.H) / 2]

    if method == "certified":
        t_min = tol / 4 if prune else 0.0
        xs, lv, uv, lb, _ = _branch_and_bound(prob, lo, hi, tol, max_evaluations, seeds,
                                              t_min)
        best_i = int(np.argmin(uv))
        best = float(xs[best_i])
        # the returned distance is computed exactly as bottleneck_distance computes it
        d = prob.exact_value(best)
        return ShiftInvariantResult(d, best, min(lb, d), d, method, prob.n_evaluations)

    # exact: branch and bound to a small gap, then the candidate scan.
    xs, lv, uv, lb, lb_int = _branch_and_bound(
        prob, lo, hi, prob.fp, min(max_evaluations, prob.n_evaluations + 40), seeds)
    best_i = int(np.argmin(uv))
    best, ub = float(xs[best_i]), float(uv[best_i])
    if ub - lb > prob.fp:
        sigma = _sigma(prob, xs, lv, ub - prob.fp, lb_int)
        try:
            S, V = _candidates(prob, sigma, lb, ub - prob.fp) if sigma.size else (
                np.zeros(0),) * 2
        except MemoryError:
            # too many candidate pairs: report the certified bounds reached so far
            d = prob.exact_value(best)
            return ShiftInvariantResult(d, best, min(lb, d), d, "certified",
                                        prob.n_evaluations)
        ex, ev = list(xs), list(uv)
        for s, v in zip(S, V):
            if v >= ub - prob.fp:
                break
            env = np.max(np.asarray(ev) - np.abs(s - np.asarray(ex)))
            if env > v + prob.fp:
                continue
            fs = prob.evaluate(s)[1]
            ex.append(s)
            ev.append(fs)
            if fs < ub:
                best, ub = float(s), fs
            if fs <= v + prob.fp:
                break
    d = prob.exact_value(best)
    return ShiftInvariantResult(d, best, d, d, method, prob.n_evaluations)
