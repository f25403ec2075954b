"""Sensitivities of ERGM statistics: restricted to H_k, global, local, and smooth after truncation.

The statistics of an exponential random graph model (:mod:`tdadp.ergm._terms`) have global
sensitivities of order n (alternating k-triangles, k-two-paths) or are bounded only by the
decay (alternating k-stars). The private releases of :mod:`tdadp.ergm._release` calibrate
their noise to the bounds computed here, each proven in the docstring of the function that
computes it:

- :func:`restricted_bound` (:func:`ergm_restricted_sensitivity`): the sensitivity over H_k,
  the graphs of maximum degree at most k, at edge and node level (Goldberg's Tables 4.1 and
  4.2, corrected where they are loose or wrong; the thesis's values are kept in
  :data:`THESIS_TABLE`);
- :func:`truncate_max_degree` and :func:`truncation_smooth_sensitivity`: a smooth upper bound
  of the local node sensitivity of a statistic of the truncated graph;
- :func:`global_bound`, :func:`local_bound` and :func:`bound_quantity`: the global edge
  sensitivities and the local sensitivity bounds of Lu and Miklau's private local
  sensitivity.

:func:`exact_statistics` computes the statistics in exact arithmetic from the same tables of
``r^t`` as the bounds (see the notes above ``_BITS``). The documentation's theory page
docs/theory/ergm.rst (the site's theory/ergm.html) renders these proofs.

References
----------
Goldberg, "Towards differentially private inference on network data", Harvard (2018).
Lu, Miklau, "Exponential random graph estimation under differential privacy", KDD (2014).
Kasiviswanathan, Nissim, Raskhodnikova, Smith, "Analyzing graphs with node differential
privacy", TCC (2013).
Nissim, Raskhodnikova, Smith, "Smooth sensitivity and sampling in private data analysis",
STOC (2007).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from ..graphs._packed import PackedAdjacency
from ..release._counts import degrees
from ..utils._validation import check_adjacency, check_positive_int
from ._kernels import shared_partners
from ._terms import ALTERNATING_TERMS, ERGMTerms, edge_arrays, parse_terms, term_statistics

__all__ = [
    "ERGM_LEVELS",
    "THESIS_TABLE",
    "COUNT_TERMS",
    "ergm_restricted_sensitivity",
    "truncate_max_degree",
    "truncation_smooth_sensitivity",
    "truncation_smooth_factor",
    "restricted_bound",
    "global_bound",
    "local_bound",
    "bound_quantity",
    "exact_statistics",
    "round_up",
]

ERGM_LEVELS = ("edge", "node")

# Goldberg (2018), Tables 4.1 (edge level) and 4.2 (node level), as printed, for the record:
# (level, term) -> f(k, decay). The releases use the values of ergm_restricted_sensitivity;
# ("node", "altktwopaths") here is wrong for k >= 3 (see restricted_bound).
THESIS_TABLE = {
    ("edge", "edges"): lambda k, decay: 1.0,
    ("edge", "altkstars"): lambda k, decay: 2.0 * decay,
    ("edge", "altktriangles"): lambda k, decay: 2.0 * (k - 1) + decay,
    ("edge", "altktwopaths"): lambda k, decay: 2.0 * (k - 1),
    ("edge", "nodematch"): lambda k, decay: 1.0,
    ("edge", "nodefactor"): lambda k, decay: 2.0,
    ("edge", "nodemix"): lambda k, decay: 1.0,
    ("node", "edges"): lambda k, decay: float(k),
    ("node", "altkstars"): lambda k, decay: 3.0 * decay * k,
    ("node", "altktriangles"): lambda k, decay: k * k / 2 + (decay - 0.5) * k,
    ("node", "altktwopaths"): lambda k, decay: k * k / 2 + k / 2,
    ("node", "nodematch"): lambda k, decay: float(k),
    ("node", "nodefactor"): lambda k, decay: 2.0 * k,
    ("node", "nodemix"): lambda k, decay: float(k),
}

# Notation, used by every proof of this module: ``d_i`` degree, ``L_ij`` shared partners of
# the dyad ij, ``r = 1 - 1/decay``, ``rho_t = r^t`` (``rho_0 = 1``) and
# ``phi(t) = sum_{s<t} rho_s = decay (1 - r^t)``. Then altktriangles is
# ``sum_{ij in E} phi(L_ij)``, altktwopaths is ``sum_{i<j} phi(L_ij)`` and altkstars is
# ``sum_i psi(d_i)`` with ``psi(d) = lambda sum_{s<d} (1 - rho_s)``. Every proof uses only
# ``0 <= rho_t <= 1`` and ``rho_0 = 1``; hence ``0 <= phi(t+1) - phi(t) <= 1``,
# ``phi(t) <= t`` and ``0 <= psi(d+1) - psi(d) = lambda (1 - rho_d) <= lambda``.
#
# Exact arithmetic: the releases compute the statistics *exactly* (exact_statistics) with
# ``rho_t`` replaced by ``fl(r^t)`` rounded down to a multiple of ``2^-64`` (which still lies
# in [0, 1]: the proofs hold for it as they are, and the bounds are computed exactly from the
# same values and rounded up, round_up), so floating-point error can neither move a statistic
# nor shrink a bound. The statistics differ from :func:`~tdadp.ergm.ergm_statistics` by about
# ``2^-64`` per term.

# The decay tables are in units of 2^-64: rho_t = R_t / 2^64 with R_t an integer.
_BITS = 64
_ONE = 1 << _BITS
# Terms whose statistic is a count (integer-valued): released with add_noise directly.
COUNT_TERMS = ("edges", "nodematch", "nodefactor", "nodemix")


def _rho_units(decay, T):
    """``R_t = floor(fl(r^t) 2^64)`` for t = 0..T: integers in [0, 2^64], ``R_0 = 2^64``.

    Each value is computed on its own (``r ** t``), so it does not depend on T.
    """
    r = 1.0 - 1.0 / float(decay)
    return [_ONE] + [math.floor(math.ldexp(r ** t, _BITS)) for t in range(1, T + 1)]


def _phi_units(decay, T):
    """``Phi_t = sum_{s<t} R_s`` for t = 0..T (phi(t) = Phi_t / 2^64)."""
    R = _rho_units(decay, T)
    out, acc = [0], 0
    for t in range(T):
        acc += R[t]
        out.append(acc)
    return out


def _psi_units(decay, T):
    """``sum_{s<d} (2^64 - R_s)`` for d = 0..T (psi(d) = decay * this / 2^64)."""
    R = _rho_units(decay, T)
    out, acc = [0], 0
    for t in range(T):
        acc += _ONE - R[t]
        out.append(acc)
    return out


def round_up(x):
    """The smallest float >= the exact value ``x``."""
    x = Fraction(x)
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


# Above this degree cutoff the exact tables of r^t (one entry per degree) would cost memory
# for nothing: no graph that fits in memory has such degrees. The bounds then use
# phi(t) <= decay and psi increments <= decay instead (valid, slightly looser).
_TABLE_LIMIT = 1 << 20



def restricted_bound(name, decay, k, level):
    """The sensitivity over H_k of one term (its block's L1 for vector terms), exactly.

    Both neighbours have maximum degree <= k. The bounds and their proofs follow (notation
    above ``_BITS``); :func:`ergm_restricted_sensitivity` tabulates them against Goldberg's
    (:data:`THESIS_TABLE`), and the tests check them by exhaustive search.

    **Edge level** (neighbours toggle one dyad, both graphs in H_k).
    Toggle uv; all quantities are taken in the graph without uv, where ``d_u, d_v <= k - 1``.

    - edges: 1.
    - altkstars: only ``psi(d_u)`` and ``psi(d_v)`` change, each by ``lambda (1 - rho_d) <=
      max_{t<=k-1} lambda (1 - rho_t)``: **2 lambda (1 - r^(k-1))** (thesis: 2 lambda). Tight
      (two disjoint (k-1)-stars joined at their centres).
    - altktriangles: the term of uv itself, ``phi(L_uv) <= phi(k-1)`` (``L_uv <= k - 1``), and
      for each of the ``L_uv`` common neighbours m the terms of the edges um and vm, whose
      shared partners grow by one (v, resp. u): ``rho <= 1`` each. No other term changes (uv is
      one of the two edges of a two-path a-m-b only if {a, b} meets {u, v}).
      **2(k-1) + gamma (1 - r^(k-1))** (thesis: 2(k-1) + gamma). Tight (u, v with k-1 common
      neighbours and nothing else).
    - altktwopaths: the dyads um, m in N(v) \\ {u}, and vm, m in N(u) \\ {v}, gain one shared
      partner (``rho <= 1`` each); ``L_uv`` does not change: **2(k-1)** (thesis: the same).
    - nodematch 1; nodefactor (block, L1) 2 (the two edge ends); nodemix (block, L1) 1.

    **Node level** (sensitivities on H_k).
    Node neighbours: one graph is the other with the edges of one node v removed (v isolated;
    the node set is fixed and public). A rewiring of v's edges is two such steps. Let ``d <= k``
    be v's degree; every node has degree <= k in both graphs.

    - edges: **k**.
    - altkstars: v's own term ``psi(d) <= psi(k)``, and each of its d neighbours loses one
      degree, ``lambda (1 - rho_t)`` with ``t <= k - 1``:
      **psi(k) + k lambda (1 - r^(k-1))** ``= lambda k - lambda^2 (1 - r^k) + k lambda
      (1 - r^(k-1)) < 2 lambda k`` (thesis: 3 lambda k, valid but loose). Tight (v in K_{k+1}).
    - altktriangles: the d edge terms at v, ``phi(L_vw) <= phi(k-1)`` each, and the edges ab
      inside N(v) (at most C(k, 2)) lose the shared partner v, ``rho <= 1`` each; no other term
      changes. **k gamma (1 - r^(k-1)) + k(k-1)/2** (thesis: k^2/2 + (gamma - 1/2) k, valid).
    - altktwopaths: the dyads vm lose all their shared partners: ``sum_m phi(L_vm) <= sum_m
      L_vm = sum_{w in N(v)} (d_w - 1) <= k(k-1)``; the C(k, 2) dyads inside N(v) lose one,
      ``rho <= 1`` each. **3k(k-1)/2**, tight for every decay (v with k neighbours, each with
      k-1 private neighbours: n = k^2 + 1, the change is k(k-1) + C(k, 2)).
      **The thesis's k^2/2 + k/2 is wrong for k >= 3.** Counterexamples: v = 0 ~ 1, 2, 3 with
      1 ~ 3, 1 ~ 4, 2 ~ 3, 2 ~ 4 (n = 5, k = 3, gamma = 2) changes by 7.25 > 6; on n = 7,
      v ~ a, b, c, a ~ m1, m2, b ~ m2, m3, c ~ m3, m1 changes by 9 - 6/gamma > 6 for gamma > 2;
      the tight graph above (n = 10, k = 3) by 9 at every gamma. Exhaustive search over all
      graphs on 5 and 6 nodes finds the ratio to the thesis value up to 1.37 (n = 5, k = 3,
      gamma = 5) and 1.46 (n = 6, k = 4, gamma = 5), and at gamma = 1 already 7/6 (n = 6,
      k = 3); over all graphs of H_3 on 7 nodes, changes up to 8 (gamma = 1, 2) and 8.6
      (gamma = 5) against the thesis's 6. The corrected bound is never exceeded.
    - nodematch k; nodefactor (block, L1) 2k; nodemix (block, L1) k.
    """
    lam = Fraction(decay) if np.isfinite(decay) else None
    edge = level == "edge"
    if k > _TABLE_LIMIT and name in ALTERNATING_TERMS:
        if name == "altkstars":
            return 2 * lam if edge else 2 * lam * k
        if name == "altktriangles":
            return 2 * (k - 1) + lam if edge else k * lam + Fraction(k * (k - 1), 2)
    if name == "edges":
        return Fraction(1 if edge else k)
    if name == "nodematch" or name == "nodemix":
        return Fraction(1 if edge else k)
    if name == "nodefactor":
        return Fraction(2 if edge else 2 * k)
    if name == "altkstars":
        # The largest degree increment of psi over degrees 0..k-1.
        R = _rho_units(decay, k)
        step = lam * Fraction(max(_ONE - R[t] for t in range(k)), _ONE)
        if edge:
            return 2 * step
        return lam * Fraction(_psi_units(decay, k)[k], _ONE) + k * step
    if name == "altktriangles":
        phi = Fraction(_phi_units(decay, k - 1)[k - 1], _ONE)
        if edge:
            return 2 * (k - 1) + phi
        return k * phi + Fraction(k * (k - 1), 2)
    if name == "altktwopaths":
        return Fraction(2 * (k - 1)) if edge else Fraction(3 * k * (k - 1), 2)
    raise ValueError(f"unknown ERGM term {name!r}.")  # pragma: no cover (parse_terms checks)


def global_bound(name, decay):
    """Global edge sensitivity of a term with a data-independent bound (method="local").

    Toggling one dyad changes edges by 1, altkstars by at most 2 lambda (two degrees move by
    one, each psi increment is at most lambda), nodematch and nodemix by 1 and nodefactor by 2
    (the two edge ends); see :func:`restricted_bound` at edge level with k unbounded.
    """
    if name == "altkstars":
        return 2 * Fraction(decay)
    if name in _GLOBAL_BOUNDS:
        return Fraction(_GLOBAL_BOUNDS[name])
    # A term without a proved bound must never get a default one: its release would be
    # under-noised without anyone noticing.
    raise ValueError(f"the term {name!r} has no global edge sensitivity bound in tdadp: it "
                     "cannot be released with method='local'.")


# Data-independent edge sensitivities of the terms that have one (altkstars scales with its
# decay and is handled above).
_GLOBAL_BOUNDS = {"edges": 1, "nodematch": 1, "nodefactor": 2, "nodemix": 1}


def local_bound(name, decay, theta):
    """``g(theta)``, the local sensitivity bound of altktriangles (theta = max shared partners)
    or altktwopaths (theta = max degree), exactly; theta a non-negative int.

    Local sensitivity bounds (toggle uv, ``L_uv`` the same in both graphs):

    - altktriangles: the change is ``phi(L_uv) + sum_{m in N(u) & N(v)} (rho + rho) <=
      phi(L_uv) + 2 L_uv``, so ``LS(x) <= g(C) = 2C + gamma (1 - r^C)``, C the maximum of
      ``L_ij`` over *all* dyads (over edges only, adding an edge could raise it by more than one).
      C has edge sensitivity 1: toggling uv moves ``L_ab`` only when {u, v} = {a, m} or {m, b}
      with m the partner, which for a given ab is one path at most.
    - altktwopaths: the change is at most ``(d_u - x_uv) + (d_v - x_uv)``, so ``LS(x) <= g(D) =
      2D``, D the maximum degree (edge sensitivity 1).
    - edges 1, altkstars 2 lambda, nodematch 1, nodefactor 2, nodemix 1: global (no bound
      needed).

    Both g are nondecreasing and ``LS <= g(n - 2)``. How the release uses them (a private
    upper bound of theta, then Laplace noise calibrated to ``g``) and why it is
    (eps, delta)-edge DP: ``_private_local_sensitivity`` in :mod:`tdadp.ergm._release`.
    """
    if name == "altktriangles":
        return 2 * theta + Fraction(_phi_units(decay, theta)[theta], _ONE)
    return Fraction(2 * theta)


def bound_quantity(A, name):
    """theta(x): max shared partners over all dyads (altktriangles) or max degree.

    Both have edge sensitivity 1 (see :func:`local_bound`), so Laplace noise of scale
    1/eps1 releases them privately.
    """
    B = sp.csr_matrix(A, dtype=np.int64)
    if name == "altktwopaths":
        return int(np.asarray(B.sum(axis=1)).max(initial=0))
    P = sp.triu(B @ B, k=1)
    return int(P.max()) if P.nnz else 0


def _check_level_k(level, max_degree):
    if not (isinstance(level, str) and level in ERGM_LEVELS):
        raise ValueError(f"level must be one of {ERGM_LEVELS}, got {level!r}.")
    return check_positive_int(max_degree, "max_degree")


def ergm_restricted_sensitivity(statistics, max_degree, level="edge", labels=None):
    """Sensitivity of each ERGM statistic over graphs of maximum degree at most ``max_degree``.

    Edge level: neighbours differ in one dyad; node level: one is the other with one node's
    edges removed. Both neighbours must have maximum degree <= k. The values are proven in
    :func:`restricted_bound` and checked by exhaustive search in the tests; where they differ
    from Goldberg's tables (:data:`THESIS_TABLE`):

    ========================  ==========================  ===========================
    term                      edge level                  node level
    ========================  ==========================  ===========================
    edges                     1                           k
    altkstars (lambda)        2 lam (1 - r^(k-1))         psi(k) + k lam (1 - r^(k-1))
                              (thesis 2 lam)              (< 2 lam k; thesis 3 lam k)
    altktriangles (gamma)     2(k-1) + gam (1 - r^(k-1))  k gam (1 - r^(k-1)) + k(k-1)/2
                              (thesis 2(k-1) + gam)       (thesis k^2/2 + (gam - 1/2) k)
    altktwopaths (gamma)      2(k-1)                      3k(k-1)/2 (thesis k^2/2 + k/2:
                                                          **wrong** for k >= 3)
    nodematch                 1                           k
    nodefactor (block L1)     2                           2k
    nodemix (block L1)        1                           k
    ========================  ==========================  ===========================

    with ``r = 1 - 1/decay`` and ``psi(k) = lam k - lam^2 (1 - r^k)``.

    Parameters
    ----------
    statistics : terms, or a parsed :class:`~tdadp.ergm.ERGMTerms`
        See :func:`~tdadp.ergm.parse_terms`.
    max_degree : int >= 1
        k.
    level : {"edge", "node"}, default="edge"
    labels : array-like, optional
        Node labels, needed by the labelled terms (they fix the number of statistics).

    Returns
    -------
    ndarray of float64, shape (n_statistics,)
        In the order of ``statistic_names``. Every statistic of a vector term's block
        carries the L1 sensitivity of the whole block (the block is released jointly,
        calibrated to it). Values are rounded up to floats.

    Examples
    --------
    >>> from tdadp.ergm import ergm_restricted_sensitivity
    >>> ergm_restricted_sensitivity(["edges", "altkstars", "altktwopaths"], 3).tolist()
    [1.0, 3.0, 4.0]
    >>> ergm_restricted_sensitivity(["edges", "altktwopaths"], 3, level="node").tolist()
    [3.0, 9.0]
    """
    k = _check_level_k(level, max_degree)
    terms = statistics if isinstance(statistics, ERGMTerms) else parse_terms(statistics, labels)
    out = np.empty(terms.n_statistics)
    for name, decay, off, size in zip(terms.names, terms.decays, terms.offsets, terms.sizes):
        out[off:off + size] = round_up(restricted_bound(name, decay, k, level))
    return out


def truncate_max_degree(A, max_degree):
    """Naive truncation into H_k: remove every edge of every node of degree > ``max_degree``.

    Kasiviswanathan et al.'s truncation: nodes of degree at most k keep their edges to each
    other; the result has maximum degree at most k and equals ``A`` when ``A`` is in H_k.
    Unlike :func:`~tdadp.release.project_max_degree` it depends on degrees only, which is what
    the smooth bound of :func:`truncation_smooth_sensitivity` rests on.

    Parameters
    ----------
    A : adjacency matrix (dense binary array or scipy sparse)
    max_degree : int >= 1

    Returns
    -------
    A_trunc : same storage as ``A`` (uint8 ndarray or CSR)

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import truncate_max_degree
    >>> star = np.zeros((4, 4), dtype=np.uint8); star[0, 1:] = star[1:, 0] = 1
    >>> int(truncate_max_degree(star, 2).sum())          # the centre has degree 3
    0
    >>> int(truncate_max_degree(star, 3).sum()) // 2
    3
    """
    k = check_positive_int(max_degree, "max_degree")
    if isinstance(A, PackedAdjacency):
        A = A.tocsr()
    A = check_adjacency(A)
    low = degrees(A) <= k
    if sp.issparse(A):
        C = A.tocoo()
        keep = low[C.row] & low[C.col]
        return sp.csr_matrix((C.data[keep], (C.row[keep], C.col[keep])), shape=A.shape)
    return A * np.outer(low, low).astype(A.dtype)


def truncation_smooth_factor(deg, k, beta):
    """``max_{s>=0} e^{-beta s} (1 + s + #{w : k - s <= deg_w <= k + 1 + s})``.

    Node w is counted from ``s = dist_w`` on (``dist_w`` its distance to the window [k, k+1]),
    so the count is a step function of s, constant between consecutive distinct distances;
    there ``e^{-beta s} (1 + s + c)`` is unimodal (peak at ``1/beta - 1 - c``), so each
    stretch's ends and the integers around its peak (clamped) stand for the whole stretch:
    O(n log n) time and O(n) memory whatever k (no array of length k).
    """
    n = deg.size
    dist = np.maximum(np.maximum(k - deg, deg - k - 1), 0)
    if math.isinf(beta):
        return float(1 + np.count_nonzero(dist == 0))
    values, per_value = np.unique(dist, return_counts=True)
    counts = np.cumsum(per_value)
    if not values.size or values[0] > 0:  # no node in the window at s = 0
        values, counts = np.r_[0, values], np.r_[0, counts]
    # stretches [starts, ends] of constant count over [0, s_full]
    s_full = int(values[-1])
    starts, ends = values, np.r_[values[1:] - 1, s_full]
    peak = 1.0 / beta - 1.0 - counts
    candidates = [starts, ends]
    for rounding in (np.floor, np.ceil):
        candidates.append(np.clip(rounding(peak), starts, ends).astype(np.int64))
    s = np.concatenate(candidates).astype(np.int64)
    c = np.concatenate([counts] * len(candidates)).astype(np.int64)
    with np.errstate(over="ignore", under="ignore"):
        best = float(np.max(np.exp(-beta * s) * (1.0 + s + c)))
    # Beyond s_full the count is n and e^{-beta s} (1 + s + n) peaks at s* = 1/beta - 1 - n.
    s_star = 1.0 / beta - 1.0 - n
    if s_star > s_full:
        for c in (math.floor(s_star), math.ceil(s_star)):
            best = max(best, math.exp(-beta * c) * (1.0 + c + n))
    return best


def truncation_smooth_sensitivity(degrees, max_degree, sensitivity, beta):
    """beta-smooth upper bound on the local sensitivity of ``f o T_k`` (node neighbours).

    ``S*(G) = max_{s>=0} e^{-beta s} A_s(G)`` with ``A_s(G) = Delta (1 + s + #{w : k - s <=
    deg_G(w) <= k + 1 + s})``, Delta the node sensitivity of f over H_k (see Notes for the
    proof that ``S* >= LS`` and ``S*(G) <= e^beta S*(G')`` for node neighbours). The
    maximum is exact: over every s up to the one where all nodes are counted, then at the
    peak of ``e^{-beta s} (1 + s + n)`` (:func:`truncation_smooth_factor`).

    Parameters
    ----------
    degrees : array-like of int, shape (n,)
        Degrees of the (untruncated) graph G.
    max_degree : int >= 1
        k.
    sensitivity : float >= 0 or array of them
        Delta (one per statistic for an array).
    beta : float in (0, inf]

    Returns
    -------
    float or ndarray
        ``S*(G)`` for each Delta.

    Notes
    -----
    Truncation and smooth sensitivity (the node-level release is eps-node-DP on all graphs).
    ``T_k`` isolates every node of degree > k (Kasiviswanathan et al.'s naive truncation,
    :func:`truncate_max_degree`); the result is in H_k. Let Delta be the node sensitivity on
    H_k (:func:`restricted_bound` at node level).

    *Lemma.* If G' is G with v isolated and ``W = {w in N_G(v): d_G(w) = k + 1}``, then
    ``|f(T_k G) - f(T_k G')| <= Delta (1 + |W|)``. Proof: ``T_k G - v`` (v isolated) is a node
    neighbour of ``T_k G`` in H_k. The nodes low (degree <= k) in G' but not in G are v and W,
    so ``T_k G'`` with W isolated is ``T_k G - v``; isolating the nodes of W one at a time from
    ``T_k G'`` is a path of ``|W|`` node-neighbour steps through subgraphs of ``T_k G'``, all in
    H_k.
    From the side of the smaller graph (G = G'' with v isolated) the nodes of W have degree k
    in G. Hence ``LS(G) <= A_0(G)`` with

    ``A_s(G) = Delta (1 + s + #{w : k - s <= d_G(w) <= k + 1 + s})``,

    and ``A_s(G) <= A_{s+1}(G')`` for node neighbours (one node's degree changes arbitrarily,
    the others by at most one). So ``S*(G) = max_{s>=0} e^{-beta s} A_s(G)`` is a beta-smooth
    upper bound on the local sensitivity of ``f o T_k``: ``S*(G) >= LS(G)`` and ``S*(G) <=
    max_s e^{-beta s} A_{s+1}(G') <= e^beta S*(G')`` (what this function computes).

    Examples
    --------
    >>> from tdadp.ergm import truncation_smooth_sensitivity
    >>> # no node of degree 2 or 3 (k = 2): only the s-terms grow, and beta = 1 stops them
    >>> truncation_smooth_sensitivity([0, 0, 0, 0], 2, 1.0, beta=1.0)
    1.0
    >>> truncation_smooth_sensitivity([2, 3, 1, 0], 2, 2.0, beta=float("inf"))   # 2 * (1 + 2)
    6.0
    """
    k = check_positive_int(max_degree, "max_degree")
    deg = np.asarray(degrees)
    if deg.ndim != 1 or deg.dtype.kind not in "iu" or (deg.size and deg.min() < 0):
        raise ValueError("degrees must be a 1-D array of non-negative integers.")
    delta = np.asarray(sensitivity, dtype=float)
    if not np.all(np.isfinite(delta)) or np.any(delta < 0):
        raise ValueError(f"sensitivity must be finite and non-negative, got {sensitivity!r}.")
    if not (isinstance(beta, (int, float, np.floating)) and beta > 0):
        raise ValueError(f"beta must be a positive number, got {beta!r}.")
    factor = truncation_smooth_factor(deg.astype(np.int64), k, float(beta))
    out = delta * factor
    return float(out) if out.ndim == 0 else out


def exact_statistics(A, terms):
    """Every statistic of a validated graph exactly (ints and Fractions), in statistic order.

    The alternating terms use the tables of ``_rho_units`` (see the notes above ``_BITS``);
    the counts come from :func:`~tdadp.ergm.ergm_statistics` (integers, exact in float64).
    """
    B = sp.csr_matrix(A, dtype=np.int64)
    out = [None] * terms.n_statistics
    count_idx = [i for i, name in enumerate(terms.names) if name in COUNT_TERMS]
    if count_idx:
        sub = ERGMTerms(tuple(terms.names[i] for i in count_idx),
                        tuple(terms.decays[i] for i in count_idx),
                        tuple(terms.sizes[i] for i in count_idx), terms.labels, terms.levels,
                        ())
        counts = np.rint(term_statistics(B, sub)).astype(np.int64).tolist()
        pos = 0
        for i in count_idx:
            off, size = terms.offsets[i], terms.sizes[i]
            out[off:off + size] = counts[pos:pos + size]
            pos += size
    deg = np.asarray(B.sum(axis=1)).ravel().astype(np.int64)
    edge_L = hist_L = None
    if any(name in ("altktriangles", "altktwopaths") for name in terms.names):
        # shared partners edge by edge (memory linear in the graph, no matrix product)
        indptr, indices = edge_arrays(B)
        edge_L, hist_L = shared_partners(indptr, indices, int(deg.sum()) // 2)
    for name, decay, off in zip(terms.names, terms.decays, terms.offsets):
        if name == "altkstars":
            hist = np.bincount(deg)
            psi = _psi_units(decay, hist.size - 1)
            total = sum(int(h) * psi[d] for d, h in enumerate(hist.tolist()) if h)
            out[off] = Fraction(decay) * Fraction(total, _ONE)
        elif name in ("altktriangles", "altktwopaths"):
            # hist[t]: edges (dyads) i < j with t shared partners (phi(0) = 0: t = 0 adds 0)
            hist = np.bincount(edge_L, minlength=1) if name == "altktriangles" else \
                np.trim_zeros(hist_L, "b")
            if not hist.size:
                hist = np.zeros(1, dtype=np.int64)
            phi = _phi_units(decay, hist.size - 1)
            out[off] = Fraction(sum(int(h) * phi[t] for t, h in enumerate(hist.tolist()) if h),
                                _ONE)
    return out
