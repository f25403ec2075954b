"""The dilation-invariant bottleneck distance W_DI(D1, D2) = inf over c > 0 of W_inf(D1, c D2).

A change of units multiplies every birth and death by the same c > 0, and so does edgeFlip's
shrinkage of the latent positions on features whose birth and death both scale: W_DI compares
raw diagrams regardless of scale, without the logarithm's blow-up near 0. f(c) = W_inf(D1,
c D2) is piecewise linear and L-Lipschitz (L the largest finite coordinate of D2 in absolute
value); the certified method is a Piyavskii-Shubert branch and bound over c, the exact one
scans the breakpoints left open. The notation, the bracket, the Lipschitz constant and the
proofs are on the documentation's theory page: docs/theory/dilation_invariant.rst (the site's
theory/dilation_invariant.html).
"""

from __future__ import annotations

import heapq
import math

import numpy as np

from ..utils._params import Interval, Options, check_param
from ._bottleneck import ADDITIVE_ERROR, bottleneck_pair, resolve_pair
from ._certified import CertifiedResult
from ._matching import covers_all
from ._parts import Parts, normalizing_exponent

__all__ = ["dilation_invariant_bottleneck", "DilationInvariantResult"]

# Lines of the exact method: about 4 per pair of finite points; their crossings, at most
# _EXACT_MAX_LINES**2 / 2, are enumerated in blocks.
_EXACT_MAX_LINES = 4_000
# Pairs (points that must be matched x candidate partners) above which the union-graph
# certificate is skipped: it is built densely, and only the points far from the diagonal
# need partners, so this is rarely reached.
_CERTIFY_MAX_PAIRS = 4_000_000


class DilationInvariantResult(CertifiedResult):
    """``(distance, scale)`` of :func:`dilation_invariant_bottleneck`, with certificates.

    It unpacks as a 2-tuple; attributes give more.

    Attributes
    ----------
    distance : float
        ``bottleneck_distance(D1, scale * D2)`` (an upper bound of W_DI, equal to it for the
        exact method).
    scale : float
        The scale ``c >= 0`` applied to ``D2``.
    lower, upper : float
        Certified bounds: ``lower <= W_DI(D1, D2) <= upper == distance``.
    method : {"exact", "certified"}
    n_evaluations : int
        Number of bottleneck computations.
    """

    _arg = "scale"


def _scaled(Y, c):
    """``c * Y`` with infinite coordinates kept (0 * inf would be nan)."""
    out = np.array(Y, dtype=np.float64)
    finite = np.isfinite(out)
    out[finite] *= c
    return out


class _Problem:
    """f(c) = max over dimensions of W_inf(X, c Y), with the data of its bounds."""

    def __init__(self, pairs, e):
        self.pairs = pairs
        self.e = e
        self.n_evaluations = 0
        self.parts = [(Parts(X), Parts(Y)) for X, Y in pairs]
        self.infinite = any(P.counts() != Q.counts() for P, Q in self.parts)
        fin1 = [P.finite for P, _ in self.parts]
        fin2 = [Q.finite for _, Q in self.parts]
        self.A1 = max([float(np.max((Z[:, 1] - Z[:, 0]) / 2)) for Z in fin1 if Z.size]
                      + [0.0])
        self.A2 = max([float(np.max((Z[:, 1] - Z[:, 0]) / 2)) for Z in fin2 if Z.size]
                      + [0.0])
        # Infinite points, paired by sorted order: (x_i, b_i) with cost |x_i - c b_i|.
        xs, bs = [], []
        for P, Q in self.parts:
            if P.counts() == Q.counts():
                xs += [P.essential, P.neg_birth]
                bs += [Q.essential, Q.neg_birth]
        self.inf_x = np.concatenate(xs) if xs else np.zeros(0)
        self.inf_b = np.concatenate(bs) if bs else np.zeros(0)
        coords = [np.abs(Z).ravel() for Z in fin2] + [np.abs(self.inf_b)]
        self.L = max([float(z.max()) for z in coords if z.size] + [0.0])
        self.scale_of_coords = max(
            [float(np.abs(Z).max()) for Z in fin1 + fin2 if Z.size]
            + [float(np.abs(z).max()) for z in (self.inf_x, self.inf_b) if z.size] + [0.0])

    def value(self, c):
        self.n_evaluations += 1
        return max((bottleneck_pair(X, _scaled(Y, c), self.e, False) for X, Y in self.pairs),
                   default=0.0)

    def bracket_top(self, U):
        """Largest scale that can beat the value U (None: f does not depend on c)."""
        tops = []
        if self.A2 > 0:
            tops.append((U + self.A1) / self.A2)
        nz = self.inf_b != 0
        if nz.any():
            tops.append(float(np.min((U + np.abs(self.inf_x[nz])) / np.abs(self.inf_b[nz]))))
        return min(tops) if tops else None

    # --- the union-graph certificate ---------------------------------------------------

    def n_pairs(self):
        return sum(P.finite.shape[0] * Q.finite.shape[0] for P, Q in self.parts)

    def certifies(self, c0, c1, v):
        """Whether f >= v on all of [c0, c1] (True only when proved)."""
        if self.inf_b.size:
            lo = _min_abs_line(self.inf_x, self.inf_b, c0, c1)
            if float(lo.max()) >= v:
                return True
        for P, Q in self.parts:
            A, B = P.finite, Q.finite
            aA = (A[:, 1] - A[:, 0]) / 2
            aB = (B[:, 1] - B[:, 0]) / 2
            needy_a = np.flatnonzero(aA >= v)
            needy_b = np.flatnonzero(c0 * aB >= v)
            if needy_a.size == 0 and needy_b.size == 0:
                continue
            if (needy_a.size and B.shape[0] == 0) or (needy_b.size and A.shape[0] == 0):
                return True
            if needy_a.size and not _union_covers(A[needy_a], B, c0, c1, v, rows_first=True):
                return True
            if needy_b.size and not _union_covers(B[needy_b], A, c0, c1, v, rows_first=False):
                return True
        return False


def _min_abs_line(x, b, c0, c1):
    """min over c in [c0, c1] of |x - c b|, elementwise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.where(b != 0, x / b, np.nan)
    inside = (root >= c0) & (root <= c1)
    ends = np.minimum(np.abs(x - c0 * b), np.abs(x - c1 * b))
    return np.where(inside, 0.0, ends)


def _min_pair_cost(A, B, c0, c1):
    """min over c in [c0, c1] of max(|x - c b|, |y - c d|) for every p = (x, y) in A (rows)
    and q = (b, d) in B (columns): the convex cost is smallest at an end or a breakpoint."""
    x, y = A[:, 0][:, None], A[:, 1][:, None]
    b, d = B[:, 0][None, :], B[:, 1][None, :]
    best = np.minimum(np.maximum(np.abs(x - c0 * b), np.abs(y - c0 * d)),
                      np.maximum(np.abs(x - c1 * b), np.abs(y - c1 * d)))
    with np.errstate(divide="ignore", invalid="ignore"):
        for num, den in ((x, b), (y, d), (x - y, b - d), (x + y, b + d)):
            c = num / den
            ok = np.isfinite(c) & (c >= c0) & (c <= c1)
            if ok.any():
                cc = np.where(ok, c, c0)
                val = np.maximum(np.abs(x - cc * b), np.abs(y - cc * d))
                best = np.where(ok, np.minimum(best, val), best)
    return best


def _union_covers(R, M, c0, c1, v, rows_first):
    """Whether the points R can all be matched into M with edges of cost < v somewhere on
    [c0, c1] (R from D1 and M from D2 when ``rows_first``, else the reverse)."""
    if R.shape[0] * M.shape[0] > _CERTIFY_MAX_PAIRS:
        return True  # too large to build densely: no certificate, the bound splits instead
    cost = _min_pair_cost(R, M, c0, c1) if rows_first else _min_pair_cost(M, R, c0, c1).T
    i, j = np.nonzero(cost < v)
    return covers_all(i, j, R.shape[0], M.shape[0])


# --- branch and bound -----------------------------------------------------------------------

def _branch_and_bound(prob, hi, seeds, tol, max_evaluations):
    """Lipschitz branch and bound of f on [0, hi]. Returns (scales, values, lower bound)."""
    L = prob.L
    xs = sorted({0.0, hi, *[s for s in seeds if 0.0 <= s <= hi]})
    vals = {x: prob.value(x) for x in xs}
    ub = min(vals.values())

    def bound(x0, x1):
        f0, f1 = vals[x0], vals[x1]
        if L == 0 or x1 <= x0:
            return min(f0, f1), x0
        lb = (f0 + f1 - L * (x1 - x0)) / 2
        s = min(max((x0 + x1) / 2 + (f0 - f1) / (2 * L), x0), x1)
        return max(lb, 0.0), s

    heap = []
    for x0, x1 in zip(xs[:-1], xs[1:]):
        lb, s = bound(x0, x1)
        heapq.heappush(heap, (lb, x0, x1, s))
    settled_lb = math.inf  # smallest lower bound of the intervals proved >= a value
    while heap:
        lb, x0, x1, s = heap[0]
        if min(lb, settled_lb) >= ub - tol or prob.n_evaluations >= max_evaluations:
            break
        heapq.heappop(heap)
        v = ub - tol
        if v > lb and prob.certifies(x0, x1, v):
            settled_lb = min(settled_lb, v)
            continue
        if s <= x0 or s >= x1 or x1 - x0 <= 1e-15 * max(1.0, x1):
            settled_lb = min(settled_lb, lb)  # no room to split: keep its bound
            continue
        vals[s] = fs = prob.value(s)
        ub = min(ub, fs)
        for a, b in ((x0, s), (s, x1)):
            lb_ab, s_ab = bound(a, b)
            heapq.heappush(heap, (lb_ab, a, b, s_ab))
    lower = min(heap[0][0] if heap else ub, settled_lb, ub)
    xs = np.array(sorted(vals))
    return xs, np.array([vals[x] for x in xs]), lower


# --- exact scan of the breakpoints -----------------------------------------------------------

def _lines(prob):
    """Every line alpha + beta c that f can follow: (alpha, beta) arrays."""
    al, be = [], []
    for P, Q in prob.parts:
        A, B = P.finite, Q.finite
        if A.size and B.size:
            for k in (0, 1):
                x = np.repeat(A[:, k], B.shape[0])
                b = np.tile(B[:, k], A.shape[0])
                al += [x, -x]
                be += [-b, b]
        if A.size:
            al.append((A[:, 1] - A[:, 0]) / 2)
            be.append(np.zeros(A.shape[0]))
        if B.size:
            al.append(np.zeros(B.shape[0]))
            be.append((B[:, 1] - B[:, 0]) / 2)
    if prob.inf_x.size:
        al += [prob.inf_x, -prob.inf_x]
        be += [-prob.inf_b, prob.inf_b]
    if not al:
        return np.zeros(0), np.zeros(0)
    alpha, beta = np.concatenate(al), np.concatenate(be)
    # identical lines give no crossing: keep one of each
    ab = np.unique(np.column_stack([alpha, beta]), axis=0)
    return ab[:, 0], ab[:, 1]


def _crossings(alpha, beta, hi, lo_value, hi_value):
    """Scales in [0, hi] where two lines cross with a value in [lo_value, hi_value), sorted by
    value: (scales, values)."""
    S, V = [], []
    n = alpha.size
    block = max(1, 2_000_000 // max(1, n))
    for start in range(0, n, block):
        a1, b1 = alpha[start:start + block, None], beta[start:start + block, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            c = (alpha[None, :] - a1) / (b1 - beta[None, :])
            v = a1 + b1 * c
        keep = np.isfinite(c) & (c >= 0) & (c <= hi) & (v >= lo_value) & (v < hi_value)
        # each unordered pair once
        keep &= np.arange(start, start + a1.shape[0])[:, None] < np.arange(n)[None, :]
        S.append(c[keep])
        V.append(v[keep])
    S, V = np.concatenate(S), np.concatenate(V)
    order = np.lexsort((S, V))
    return S[order], V[order]


def dilation_invariant_bottleneck(D1, D2, tol=None, method="auto", homology_dimension=None,
                                  max_evaluations=10_000, e=None):
    """Dilation-invariant bottleneck distance W_DI(D1, D2) = min over c >= 0 of
    W_inf(D1, c D2).

    ``c D`` multiplies every birth and death by ``c``. A change of units of the data, or a
    shrinkage of the latent positions such as edgeFlip's sqrt(1 - 2 pi), scales a raw
    diagram, so W_DI compares shapes regardless of scale: W_DI(Dgm(Y), Dgm(cY)) = 0 with
    scale 1 / c, on raw diagrams (no logarithm, so features born near 0 are not blown up as
    in the shift-invariant distance of log diagrams). Over several homology dimensions one
    common scale is used and the distance is the largest over dimensions. Not symmetric in
    general: the scale acts on ``D2``, and W_DI(D1, D2) need not equal W_DI(D2, D1) (the
    bottleneck distance is not scale invariant).

    Parameters
    ----------
    D1, D2 : PersistenceDiagram, its DataFrame form or (k, 2) array_like
        Diagrams (deaths may be inf; births -inf).
    tol : float, optional
        Certified method: stop when ``upper - lower <= tol`` (a finite number >= 0). Default:
        1e-6 times the largest half-persistence of the finite points of ``D1`` (or 1e-9 times
        the largest coordinate when there is none). Ignored by the exact method.
    method : {"auto", "exact", "certified"}, default="auto"
        ``"exact"``: branch and bound, then a scan of the breakpoints that could still
        improve (see Notes); exact up to float rounding. ``"certified"``: lower and upper
        bounds within ``tol``. ``"auto"``: exact when f has at most 4,000 candidate lines
        (about 30 points a side), certified otherwise.
    homology_dimension : int, optional
        Compare this dimension only (default: all dimensions of either diagram, one scale).
    max_evaluations : int, default=10000
        Budget of bottleneck computations.
    e : float, optional
        Additive error (finite, >= 0) passed to :func:`gudhi.bottleneck_distance` (default:
        its near-exact fast mode).

    Returns
    -------
    DilationInvariantResult
        Unpacks as ``(distance, scale)`` with ``bottleneck_distance(D1, scale * D2) ==
        distance``; also has ``lower``, ``upper``, ``method`` and ``n_evaluations``. If the
        counts of infinite points differ (in any compared dimension) the distance is inf and
        the scale 1.

    Notes
    -----
    f(c) = W_inf(D1, c D2) is continuous, piecewise linear and L-Lipschitz in c, with L the
    largest finite ``|coordinate|`` of ``D2``; its pieces are the lines +-(x - c b), +-(y - c d)
    of pairs of points, the diagonal costs of ``D1`` (constants) and of ``c D2`` (lines
    through 0), and the costs of the sorted infinite points. The minimiser lies in
    [0, (U + A1) / A2] for any value U of f (A1, A2: the largest half-persistences), so the
    minimum exists. See docs/theory/dilation_invariant.rst for the proofs of the bracket, of the
    union-graph certificate of flat stretches and of the exact breakpoint scan. W_DI is positively
    homogeneous in both diagrams together: it is computed on the diagrams scaled by a power of two
    that brings their largest finite coordinate into [0.5, 1) (exact in floating point).

    References
    ----------
    .. [1] D. R. Sheehy, O. Kisielius and N. J. Cavanna, "Computing the shift-invariant
       bottleneck distance for persistence diagrams", CCCG 2018 (the shift-invariant
       distance; a dilation of raw diagrams is a shift of log diagrams).
    .. [2] S. A. Piyavskii, "An algorithm for finding the absolute extremum of a function",
       USSR Comput. Math. Math. Phys. 12, 1972; B. O. Shubert, SIAM J. Numer. Anal. 9, 1972.
    .. [3] S. Vishwanath and J. Hehir, "Signal recovery from random dot-product graphs under
       local differential privacy", AISTATS 2025 (the shrinkage sqrt(1 - 2 pi)).

    Examples
    --------
    >>> import numpy as np
    >>> D = np.array([[0.0, 2.0], [0.5, 1.5]])
    >>> d, c = dilation_invariant_bottleneck(D, D / 4)
    >>> d, c
    (0.0, 4.0)
    """
    check_param(method, [Options("auto", "exact", "certified")], "method")
    check_param(tol, [None, Interval("real", 0, None, "left")], "tol")
    check_param(homology_dimension, [None, "nonnegative_int"], "homology_dimension")
    check_param(max_evaluations, ["positive_int"], "max_evaluations")
    check_param(e, ADDITIVE_ERROR, "e")
    _, pairs, _ = resolve_pair(D1, D2, homology_dimension)
    # W_DI(2^-k D1, 2^-k D2) = 2^-k W_DI(D1, D2) at the same scale: solved on the diagrams
    # scaled by an exact power of two so that no difference overflows.
    k = normalizing_exponent(*(Z for pair in pairs for Z in pair))
    pairs = [(np.ldexp(np.asarray(X, dtype=float), -k), np.ldexp(np.asarray(Y, dtype=float),
                                                                 -k)) for X, Y in pairs]
    res = _solve(pairs, None if tol is None else math.ldexp(tol, -k), method,
                 max_evaluations, None if e is None else math.ldexp(e, -k))
    return DilationInvariantResult(math.ldexp(res.distance, k), res.scale,
                                   math.ldexp(res.lower, k), math.ldexp(res.upper, k),
                                   res.method, res.n_evaluations)


def _solve(pairs, tol, method, max_evaluations, e):
    prob = _Problem(pairs, e)
    if prob.infinite:
        return DilationInvariantResult(math.inf, 1.0, math.inf, math.inf, "exact", 0)
    if method == "auto":
        n_lines = 4 * prob.n_pairs() + 2 * prob.inf_x.size + sum(
            P.finite.shape[0] + Q.finite.shape[0] for P, Q in prob.parts)
        method = "exact" if n_lines <= _EXACT_MAX_LINES else "certified"
    fp = 1e-12 * max(prob.scale_of_coords, 1e-300)
    if tol is None:
        tol = 1e-6 * prob.A1 if prob.A1 > 0 else 1e-9 * max(prob.scale_of_coords, 1e-300)
    f1 = prob.value(1.0)
    hi = prob.bracket_top(f1)
    if hi is None or prob.L == 0:  # f does not depend on the scale
        return DilationInvariantResult(f1, 1.0, f1, f1, method, prob.n_evaluations)
    hi = max(hi, 0.0)
    seeds = [1.0]
    if prob.A2 > 0 and prob.A1 > 0:
        seeds.append(prob.A1 / prob.A2)  # the largest features matched
    gap = fp if method == "exact" else tol
    budget = max_evaluations if method == "certified" else min(max_evaluations, 200)
    xs, vals, lower = _branch_and_bound(prob, hi, seeds, gap, budget)
    best = int(np.argmin(vals))
    scale, ub = float(xs[best]), float(vals[best])
    if method == "certified":
        return DilationInvariantResult(ub, scale, min(lower, ub), ub, method,
                                       prob.n_evaluations)
    if ub - lower <= fp:  # the branch and bound closed the gap to rounding
        return DilationInvariantResult(ub, scale, ub, ub, method, prob.n_evaluations)
    # exact: the breakpoints with a value between the lower bound and the best value
    alpha, beta = _lines(prob)
    S, V = _crossings(alpha, beta, hi, lower - fp, ub - fp)
    # Lipschitz bounds from the branch and bound's evaluations, by blocks
    keep = np.ones(S.size, dtype=bool)
    for start in range(0, S.size, 100_000):
        part = slice(start, start + 100_000)
        env = np.max(vals[None, :] - prob.L * np.abs(xs[None, :] - S[part, None]), axis=1)
        keep[part] = env <= V[part] + fp
    S, V = S[keep], V[keep]
    for s, v in zip(S, V):
        # Lipschitz bounds from every evaluation so far skip scales that cannot reach v
        if np.max(vals - prob.L * np.abs(xs - s)) > v + fp:
            continue
        fs = prob.value(float(s))
        xs, vals = np.append(xs, s), np.append(vals, fs)
        if fs < ub:
            scale, ub = float(s), fs
        if fs <= v + fp:
            break
    return DilationInvariantResult(ub, scale, ub, ub, "exact", prob.n_evaluations)
