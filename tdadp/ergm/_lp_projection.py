"""Flow and LP Lipschitz extensions of ERGM statistics from H_k to all graphs (node level).

Kasiviswanathan, Nissim, Raskhodnikova and Smith (2013) replace a statistic f, whose node
sensitivity is small only on H_k (maximum degree <= k), by the optimum of a flow or linear
program that equals f on H_k and has that small sensitivity on *every* graph; Blocki, Blum,
Datta and Sheffet (2013) call such maps projections onto H_k, and Goldberg (2018, Sec. 5.3)
compares "the LP projection" with naive truncation. Here:

- edges: the flow extension, ``maxflow / 2`` on the bipartite double cover with capacity k
  at each node (:func:`lp_statistic`), computed exactly in integers;
- altktriangles and altktwopaths: a packing LP over the wedges (two-paths ``a - m - b``, for
  altktriangles only those closed by the edge ab) with the concave weights of the
  alternating sum, solved by HiGHS and certified by a repaired primal and dual solution;
- altkstars has no such program (its degree function is convex: a maximisation of it is not
  an LP) and is released by truncation only.

Each extension has node sensitivity at most the H_k bound Delta of
:func:`~tdadp.ergm.ergm_restricted_sensitivity` on all graphs; the proofs are in
:func:`lp_statistic`, and the tests check them by exhaustive search.

References
----------
Kasiviswanathan, Nissim, Raskhodnikova, Smith, "Analyzing graphs with node differential
privacy", TCC (2013), Sec. 4-5 (flow and LP extensions).
Blocki, Blum, Datta, Sheffet, "Differentially private data analysis of social networks via
restricted sensitivity", ITCS (2013).
Goldberg, "Towards differentially private inference on network data", Harvard (2018).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from scipy.sparse.csgraph import maximum_flow

from ..graphs._packed import PackedAdjacency
from ..utils._validation import check_adjacency, check_positive_int
from ._sensitivity import restricted_bound, round_up
from ._terms import parse_terms

__all__ = ["LP_TERMS", "LP_MAX_WEDGES", "lp_sensitivity", "lp_statistic"]

#: The terms with a flow or LP extension.
LP_TERMS = ("edges", "altktriangles", "altktwopaths")
#: The largest LP (in wedges; it has two variables and about five nonzeros per wedge) that
#: :func:`lp_statistic` builds: about 1.6 GB of HiGHS's working memory at 2^24.
LP_MAX_WEDGES = 1 << 24
_BYTES_PER_WEDGE = 100
# The LP's value is a floating-point optimum: it is released only when a feasible solution
# and a dual bound certify it within 2^_GAP_LOG2 Delta, and the sensitivity is raised by
# 2^_MARGIN_LOG2 Delta to cover the gap on both neighbours.
_GAP_LOG2 = -18
_MARGIN_LOG2 = -16
# Weights below 2^-30 are dropped (the u-variables of later shared partners): at most
# 2^-30 decay per pair, and it keeps HiGHS's coefficients within nine decades.
_WEIGHT_FLOOR = 2.0 ** -30
_ONE = 1 << 64


def _weight_units(decay, T):
    """``floor(fl(r^s) 2^64)`` for s < T, cut where the weight falls below the floor: the
    exact values of the statistic's tables (tdadp.ergm._sensitivity's notes), as ints."""
    r = 1.0 - 1.0 / float(decay)
    out = []
    for s in range(T):
        w = math.floor(math.ldexp(r ** s, 64)) if s else _ONE
        if w < _WEIGHT_FLOOR * _ONE:
            break
        out.append(w)
    return out


def lp_sensitivity(name, decay, max_degree):
    """The node sensitivity of the extension of ``name`` on all graphs, rounded up.

    ``Delta`` (the H_k node bound of :func:`~tdadp.ergm.ergm_restricted_sensitivity`) for
    edges, whose flow value is exact; ``Delta (1 + 2^-16)`` for the LP terms, whose released
    value is within ``2^-18 Delta`` of the exact optimum on each neighbour.
    """
    k = check_positive_int(max_degree, "max_degree")
    if name not in LP_TERMS:
        raise ValueError(f"{name!r} has no LP extension (the LP terms: {', '.join(LP_TERMS)}).")
    delta = Fraction(round_up(restricted_bound(name, decay, k, "node")))
    if name == "edges":
        return float(delta)
    return round_up(delta * (1 + Fraction(1, 1 << -_MARGIN_LOG2)))


def _flow_edges(B, k):
    """``maxflow / 2`` of the double cover (exact: a Fraction)."""
    n = B.shape[0]
    C = B.tocoo()
    src, sink = 2 * n, 2 * n + 1
    left = np.arange(n)
    rows = np.concatenate([np.full(n, src), C.row, n + left])
    cols = np.concatenate([left, n + C.col, np.full(n, sink)])
    caps = np.concatenate([np.full(n, k), np.ones(C.nnz, dtype=np.int64), np.full(n, k)])
    G = sp.csr_matrix((caps.astype(np.int32), (rows, cols)), shape=(2 * n + 2, 2 * n + 2))
    return Fraction(int(maximum_flow(G, src, sink).flow_value), 2)


def _wedges(B, closed):
    """Every wedge ``a - m - b`` (a < b) as (pair key a n + b, centre m); ``closed`` keeps
    those with ab an edge."""
    n = B.shape[0]
    indptr, indices = B.indptr, B.indices
    keys, centres = [], []
    for m in range(n):
        nb = indices[indptr[m]:indptr[m + 1]]
        if nb.size < 2:
            continue
        i, j = np.triu_indices(nb.size, 1)
        keys.append(nb[i].astype(np.int64) * n + nb[j])
        centres.append(np.full(i.size, m, dtype=np.int64))
    if not keys:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    keys, centres = np.concatenate(keys), np.concatenate(centres)
    if closed:
        U = sp.triu(B, k=1).tocoo()
        edge_keys = np.sort(U.row.astype(np.int64) * n + U.col)
        if not edge_keys.size:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        pos = np.minimum(np.searchsorted(edge_keys, keys), edge_keys.size - 1)
        keep = edge_keys[pos] == keys
        keys, centres = keys[keep], centres[keep]
    return keys, centres


def lp_statistic(A, statistic, max_degree):
    """The flow or LP extension of one ERGM statistic at degree cutoff k.

    Parameters
    ----------
    A : adjacency matrix (dense binary array or scipy sparse)
    statistic : "edges", ("altktriangles", decay) or ("altktwopaths", decay)
    max_degree : int >= 1
        k.

    Returns
    -------
    value : Fraction or float
        Exact (a Fraction) for edges and whenever the LP's all-ones point is feasible (then
        it is the statistic with the weights below 2^-30 dropped); otherwise the value of a
        feasible LP solution within ``2^-18 Delta`` of the optimum (a float).

    Raises
    ------
    ValueError
        If the LP would exceed ``LP_MAX_WEDGES`` wedges (before it is built), or if
        HiGHS's solution cannot be certified within the gap. Both depend on the graph: a
        release (:class:`~tdadp.ergm.ERGMStatisticsRelease`) computes the LP before the
        budget is charged, so such a refusal costs nothing, but whether it happens is one
        bit about the graph that the node-level guarantee does not cover (the error says no
        more than which limit was hit).

    Notes
    -----
    Node neighbours: G' is G with the edges of one node v removed (the node set is public).
    Let Delta be the H_k node bound (:func:`~tdadp.ergm.ergm_restricted_sensitivity`).

    *Edges* (the flow extension of Kasiviswanathan et al.). The LP ``max sum_e x_e`` over
    ``0 <= x <= 1`` with ``sum_{e at w} x_e <= k`` at every node w equals half the maximum
    flow of the double cover (source -> w_L with capacity k, w_L -> z_R with capacity 1 per
    edge wz, z_R -> sink with capacity k): a flow f gives ``x_wz = (f_wz + f_zw) / 2``, an x
    the flow ``f_wz = f_zw = x_wz``. On H_k, ``x = 1`` is feasible: the value is the edge
    count. A solution of G' is one of G; a solution of G without the edges at v (at most k of
    x) is one of G': the value changes by at most **k = Delta**.

    *Alternating k-triangles and k-two-paths* (Kasiviswanathan et al.'s LP for subgraph
    counts, with weights). Both are ``sum_p phi(L_p)`` over pairs p = ab (edges for
    k-triangles, dyads for k-two-paths) with L_p wedges ``a - m - b`` (m a common neighbour),
    ``phi(L) = sum_{s < L} w_s``, ``1 = w_0 >= w_1 >= ... >= 0`` (the tables' ``r^s``). The
    LP has a variable ``y_pm in [0, 1]`` per wedge and ``u_ps in [0, 1]`` for ``s < L_p``:

    ``max sum_p t_p``, ``t_p = sum_s w_s u_ps``, subject to ``sum_s u_ps <= sum_m y_pm`` (each
    pair) and ``load_v = sum_{p at v} t_p + sum_{wedges centred at v} y_pm <= Delta`` (each
    node v).

    Given y, the largest ``t_p`` is ``Phi_p(Y_p)``, the greedy fill of ``Y_p = sum_m y_pm``
    (the weights decrease): concave, nondecreasing and 1-Lipschitz. So ``t_p <= phi(L_p)``
    and the LP is at most f. On H_k the all-ones point (``y = u = 1``, ``t_p = phi(L_p)``) is
    feasible: ``load_v = sum_{p at v} phi(L_p) + (wedges centred at v)`` is at most
    ``k phi(k - 1) + C(k, 2)`` for k-triangles and ``sum_{w in N(v)} (d_w - 1) + C(k, 2) <=
    3k(k - 1)/2`` for k-two-paths (``phi(L) <= L``): exactly the H_k bounds' proofs
    (``restricted_bound`` in tdadp.ergm._sensitivity). So the LP equals f on H_k.

    Sensitivity on all graphs. A solution of G' is one of G (v's pairs and wedges at 0; L_p
    only grows), so ``LP(G) >= LP(G')``. From an optimal solution of G, drop the pairs at v
    (``t_p``) and the wedges centred at v (``y_pv``); a pair ab inside N(v) keeps
    ``Y'_p = Y_p - y_pv`` and takes ``t'_p = min(t_p, Phi_p(Y'_p)) >= t_p - y_pv`` (greedy
    over ``s < L_p - 1``, which holds ``Y'_p``). No load grows, so this is a solution of G',
    and ``LP(G) - LP(G') <= sum_{p at v} t_p + sum y_pv = load_v <= Delta``.

    *Floating point.* The weights are the statistic's exact tables (multiples of 2^-64, those
    below 2^-30 dropped, which the proofs allow: w_s = 0 from there). HiGHS's optimum is a
    float; the value returned is that of a feasible solution (HiGHS's primal, capped to
    ``Phi_p`` and scaled into the node constraints) whose gap to a dual bound (HiGHS's dual,
    its reduced costs repaired) is at most ``2^-18 Delta``: the returned values of node
    neighbours differ by at most ``Delta (1 + 2^-17)``, covered by :func:`lp_sensitivity`.
    Both certificates are evaluated in floating point (relative error about 1e-13, covered
    by the factor ``1 - 2^-40`` of the scaling and by the gap's slack). The time to solve
    depends on the graph (not hidden).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import lp_statistic
    >>> star = np.zeros((5, 5), dtype=np.uint8); star[0, 1:] = star[1:, 0] = 1
    >>> lp_statistic(star, "edges", 2)            # truncation at k = 2 keeps no edge
    Fraction(2, 1)
    """
    k = check_positive_int(max_degree, "max_degree")
    terms = parse_terms([statistic])
    name, decay = terms.names[0], terms.decays[0]
    if name not in LP_TERMS:
        raise ValueError(f"{name!r} has no LP extension (the LP terms: {', '.join(LP_TERMS)}).")
    if isinstance(A, PackedAdjacency):
        A = A.tocsr()
    B = sp.csr_matrix(check_adjacency(A), dtype=np.int64)
    B.sort_indices()
    if name == "edges":
        return _flow_edges(B, k)
    delta = float(round_up(restricted_bound(name, decay, k, "node")))
    if delta == 0:
        # k = 1: every wedge is in its centre's constraint with coefficient 1, every u in its
        # pair's ends' with a positive weight: all are 0.
        return Fraction(0)
    n = B.shape[0]
    deg = np.diff(B.indptr)
    closed = name == "altktriangles"
    # Wedges are counted before any is listed: sum_m C(d_m, 2) bounds them.
    if int((deg * (deg - 1) // 2).sum()) > LP_MAX_WEDGES and (
            not closed or _count_closed(B) > LP_MAX_WEDGES):
        raise ValueError(
            f"the LP extension of {name} would need more than {LP_MAX_WEDGES} wedges "
            f"(about {LP_MAX_WEDGES * _BYTES_PER_WEDGE / 2**30:.1f} GiB); release it by "
            "truncation (projection='truncation').")
    keys, centres = _wedges(B, closed)
    if keys.size == 0:
        return Fraction(0)
    pair_keys, pair_of, L = np.unique(keys, return_inverse=True, return_counts=True)
    W = _weight_units(decay, int(L.max()))
    S = len(W)
    Phi = np.concatenate([[0], np.cumsum(np.array(W, dtype=object))]) if S else np.zeros(1)
    Lc = np.minimum(L, S)
    ends = np.stack([pair_keys // n, pair_keys % n])
    # The all-ones point: exact value, feasible when every load is below Delta.
    phi_f = np.array([float(Fraction(int(v), _ONE)) for v in Phi])
    load = np.bincount(ends.ravel(), weights=np.tile(phi_f[Lc], 2), minlength=n) + \
        np.bincount(centres, minlength=n)
    if load.max() <= delta * (1 - 2.0 ** -30):
        return Fraction(int(sum(int(Phi[c]) for c in Lc.tolist())), _ONE)
    return _solve(pair_of, centres, ends, Lc, W, delta, n)


def _count_closed(B):
    """Closed wedges (3 x triangles), from the shared partners of the edges."""
    P = (B @ B).multiply(B)
    return int(P.sum())


def _solve(pair_of, centres, ends, Lc, W, delta, n):
    """The certified LP value (a float); variables: y (one per wedge), then u (per pair and
    s < Lc)."""
    n_y, n_p = pair_of.size, Lc.size
    w = np.array([float(Fraction(v, _ONE)) for v in W])
    # u variables: pair p, slot s < Lc[p]
    u_pair = np.repeat(np.arange(n_p), Lc)
    u_slot = np.arange(u_pair.size) - np.repeat(np.cumsum(Lc) - Lc, Lc)
    u_w = w[u_slot]
    n_u = u_pair.size
    # rows: pairs (n_p), then nodes (n)
    rows = np.concatenate([pair_of, u_pair, n_p + centres, n_p + ends[0, u_pair],
                           n_p + ends[1, u_pair]])
    cols = np.concatenate([np.arange(n_y), n_y + np.arange(n_u), np.arange(n_y),
                           n_y + np.arange(n_u), n_y + np.arange(n_u)])
    vals = np.concatenate([-np.ones(n_y), np.ones(n_u), np.ones(n_y), u_w, u_w])
    M = sp.csr_matrix((vals, (rows, cols)), shape=(n_p + n, n_y + n_u))
    b = np.concatenate([np.zeros(n_p), np.full(n, delta)])
    c = np.concatenate([np.zeros(n_y), u_w])
    gap_max = math.ldexp(delta, _GAP_LOG2)
    last = None
    for options in ({}, {"primal_feasibility_tolerance": 1e-10,
                         "dual_feasibility_tolerance": 1e-10}):
        res = linprog(-c, A_ub=M, b_ub=b, bounds=(0, 1), method="highs", options=options)
        if res.status != 0:
            last = res.message
            continue
        lower = _primal_value(res.x, pair_of, centres, ends, Lc, u_pair, u_w, w, delta, n)
        upper = _dual_bound(-res.ineqlin.marginals, M, b, c)
        last = f"certified gap {upper - lower:.3g} > {gap_max:.3g}"
        if upper - lower <= gap_max:
            return lower
    raise ValueError(f"the LP extension could not be certified ({last}).")


def _primal_value(x, pair_of, centres, ends, Lc, u_pair, u_w, w, delta, n):
    """The value of a feasible solution built from HiGHS's x: t_p capped to Phi_p(Y_p), then
    every variable scaled into the node constraints."""
    n_y = pair_of.size
    y = np.clip(x[:n_y], 0.0, 1.0)
    u = np.clip(x[n_y:], 0.0, 1.0)
    t = np.bincount(u_pair, weights=u_w * u, minlength=Lc.size)
    Y = np.minimum(np.bincount(pair_of, weights=y, minlength=Lc.size), Lc)
    # Phi_p(Y): the full weights below floor(Y), then the fraction of the next
    cum = np.concatenate([[0.0], np.cumsum(w)])
    whole = np.floor(Y).astype(np.int64)
    nxt = np.where(whole < Lc, w[np.minimum(whole, w.size - 1)], 0.0)
    t = np.minimum(t, cum[whole] + (Y - whole) * nxt)
    load = np.bincount(ends.ravel(), weights=np.tile(t, 2), minlength=n) + \
        np.bincount(centres, weights=y, minlength=n)
    top = load.max()
    # Phi(s Y) >= s Phi(Y) (concave, Phi(0) = 0): scaling keeps t below Phi.
    scale = 1.0 if top <= delta else delta / top
    return math.fsum(t) * scale * (1.0 - 2.0 ** -40)


def _dual_bound(lam, M, b, c):
    """Weak duality: ``b . lam + sum max(0, c - M^T lam)`` bounds the optimum, lam >= 0."""
    lam = np.maximum(lam, 0.0)
    mu = np.maximum(c - M.T @ lam, 0.0)
    return (math.fsum(b * lam) + math.fsum(mu)) * (1.0 + 2.0 ** -40) + 1e-300
