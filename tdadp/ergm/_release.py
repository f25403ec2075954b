"""Private releases of ERGM statistics: restricted, smooth and private local sensitivity.

The statistics of an exponential random graph model (:mod:`tdadp.ergm._terms`) have
global sensitivities of order n (alternating k-triangles, k-two-paths) or are bounded only by
the decay (alternating k-stars). Three releases calibrate them better (Goldberg 2018, ch. 4;
Lu and Miklau 2014; Kasiviswanathan, Nissim, Raskhodnikova, Smith 2013; Nissim,
Raskhodnikova, Smith 2007):

- ``level="edge", method="restricted"``: project the graph onto H_k (maximum degree <= k)
  with :func:`~tdadp.release.project_max_degree`, add Laplace noise calibrated to the
  sensitivity over H_k (Goldberg's Table 4.1, corrected where it is loose);
- ``level="node", method="restricted"``: truncate the graph into H_k (isolate every node of
  degree > k, :func:`truncate_max_degree`), add Cauchy noise scaled to a smooth upper bound of
  the local sensitivity of the truncated statistic: eps-node-DP on *every* graph;
- ``level="edge", method="local"``: no projection; release a private upper bound of a
  quantity of edge sensitivity 1 that bounds the local sensitivity (maximum shared partners,
  maximum degree), then the statistic with Laplace noise calibrated to that bound:
  (eps, delta)-edge-DP on every graph (Lu and Miklau's private local sensitivity).

Notation: ``d_i`` degree, ``L_ij`` shared partners of the dyad ij, ``r = 1 - 1/decay``,
``rho_t = r^t`` (``rho_0 = 1``) and ``phi(t) = sum_{s<t} rho_s = decay (1 - r^t)``. Then
altktriangles is ``sum_{ij in E} phi(L_ij)``, altktwopaths is ``sum_{i<j} phi(L_ij)`` and
altkstars is ``sum_i psi(d_i)`` with ``psi(d) = lambda sum_{s<d} (1 - rho_s)``. Every proof
below uses only ``0 <= rho_t <= 1`` and ``rho_0 = 1``; hence ``0 <= phi(t+1) - phi(t) <= 1``,
``phi(t) <= t`` and ``0 <= psi(d+1) - psi(d) = lambda (1 - rho_d) <= lambda``. The release
computes the statistics *exactly* with ``rho_t`` replaced by ``fl(r^t)`` rounded down to a
multiple of ``2^-64`` (which still lies in [0, 1]: the proofs hold for it as they are, and the
bounds are computed exactly from the same values and rounded up), so floating-point error
can neither move a statistic nor shrink a bound. The statistics differ from
:func:`~tdadp.graphs.ergm_statistics` by about ``2^-64`` per term.

Edge level: sensitivities on H_k (neighbours toggle one dyad, both graphs in H_k)
--------------------------------------------------------------------------------
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

Node level: sensitivities on H_k
--------------------------------
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

The values used are in :func:`ergm_restricted_sensitivity`; the thesis's in
:data:`THESIS_TABLE`.

Edge level: the statistic of the projection, on all graphs
---------------------------------------------------------
The projection is not 1-Lipschitz (see :mod:`tdadp.release._projection`), but between
neighbouring inputs the projected degrees differ by at most 2 in L1, with every projected
degree <= k. Statistics of the degrees therefore keep their H_k sensitivity on all graphs:
edges (half the L1 change), altkstars (``sum_x |psi(d_x) - psi(d'_x)| <= 2 max_{t<=k-1}
lambda (1 - rho_t)``), nodefactor (the ends at each level are sums of degrees). For the
others the release is eps-edge DP only for neighbours both in H_k, and ``guarantee_``
states that restriction: exhaustive search over all graphs on 5 and 6 nodes finds the change
of the projected statistic up to 2x the H_k bound for altktriangles and altktwopaths (n = 6,
k = 2), 3x for nodematch and 5x for nodemix (labels 0, 0, 1, 1, 2, 2).

Node level: truncation and smooth sensitivity (eps-node-DP on all graphs)
------------------------------------------------------------------------
``T_k`` isolates every node of degree > k (Kasiviswanathan et al.'s naive truncation); the
result is in H_k. Let Delta be the node sensitivity on H_k above.

*Lemma.* If G' is G with v isolated and ``W = {w in N_G(v): d_G(w) = k + 1}``, then
``|f(T_k G) - f(T_k G')| <= Delta (1 + |W|)``. Proof: ``T_k G - v`` (v isolated) is a node
neighbour of ``T_k G`` in H_k. The nodes low (degree <= k) in G' but not in G are v and W,
so ``T_k G'`` with W isolated is ``T_k G - v``; isolating the nodes of W one at a time from
``T_k G'`` is a path of |W| node-neighbour steps through subgraphs of ``T_k G'``, all in H_k.
From the side of the smaller graph (G = G'' with v isolated) the nodes of W have degree k
in G. Hence ``LS(G) <= A_0(G)`` with

``A_s(G) = Delta (1 + s + #{w : k - s <= d_G(w) <= k + 1 + s})``,

and ``A_s(G) <= A_{s+1}(G')`` for node neighbours (one node's degree changes arbitrarily,
the others by at most one). So ``S*(G) = max_{s>=0} e^{-beta s} A_s(G)`` is a beta-smooth
upper bound on the local sensitivity of ``f o T_k``: ``S*(G) >= LS(G)`` and ``S*(G) <=
max_s e^{-beta s} A_{s+1}(G') <= e^beta S*(G')`` (:func:`truncation_smooth_sensitivity`).

*Cauchy noise.* For the standard Cauchy density h, ``|d/dz log h(z)| = |2z / (1 + z^2)| <=
1``, so a slide by Delta changes the log-density by at most |Delta|; a dilation by e^lam
multiplies ``h(u) / (e^lam h(e^lam u)) = (1 + e^(2 lam) u^2) / (e^lam (1 + u^2))``, which
lies in [e^-|lam|, e^|lam|]. For d independent coordinates the slide costs the L1 norm and
the dilation d |lam|. So h^d is (alpha, beta) = (eps/2, eps/(2d))-admissible and
``f(T_k x) + (S*_beta(x) / alpha) Z`` is eps-node-DP on all graphs (Nissim et al. 2007,
admissible noise: from x to a neighbour x' the release is the slide by
``alpha (f(x) - f(x')) / S*(x)``, of L1 norm <= alpha since ``S*(x) >= LS(x)``, then the
dilation by ``S*(x) / S*(x')`` in [e^-beta, e^beta]: eps/2 each). The scale
``S*(x)/alpha`` depends on the data and is never released (:class:`ERGMRelease` records
alpha, beta and Delta instead).
The Cauchy variate is drawn in floating point (numpy's ``standard_cauchy``, or
``tan(pi (U - 1/2))`` from a 53-bit uniform with ``random_state="secure"``): unlike the exact
Laplace sampler of :mod:`tdadp.dp._noise`, it has the Mironov (2012) caveats (a finite
set of outputs whose spacing depends on the scale and the statistic).

Edge level: private local sensitivity ((eps, delta)-edge DP on all graphs)
-------------------------------------------------------------------------
Local sensitivity bounds (toggle uv, L_uv the same in both graphs):

- altktriangles: the change is ``phi(L_uv) + sum_{m in N(u) & N(v)} (rho + rho) <=
  phi(L_uv) + 2 L_uv``, so ``LS(x) <= g(C) = 2C + gamma (1 - r^C)``, C the maximum of
  ``L_ij`` over *all* dyads (over edges only, adding an edge could raise it by more than one).
  C has edge sensitivity 1: toggling uv moves ``L_ab`` only when {u, v} = {a, m} or {m, b}
  with m the partner, which for a given ab is one path at most.
- altktwopaths: the change is at most ``(d_u - x_uv) + (d_v - x_uv)``, so ``LS(x) <= g(D) =
  2D``, D the maximum degree (edge sensitivity 1).
- edges 1, altkstars 2 lambda, nodematch 1, nodefactor 2, nodemix 1: global (no bound
  needed).

Both g are nondecreasing and ``LS <= g(n - 2)``. The release draws
``theta_hat = theta(x) + Lap(1/eps1) + log(1/(2 delta))/eps1``, uses ``g(clip(floor(theta_hat),
0, n - 2))`` and releases the statistic plus ``Lap(g/eps2)``. Proof of (eps1 + eps2,
delta)-DP: for neighbours x, x' the law of theta_hat changes by at most e^eps1; whenever
``theta_hat >= theta(x)``, ``g >= LS(x) >= |f(x) - f(x')|`` and the second draw changes by at
most e^eps2; the event ``theta_hat < theta(x)`` has probability at most delta under x. The
offset is computed for the exact sampler: noise of scale t/s grid units, offset m =
``ceil(log(1/(2 delta)) t/s) + 1`` units, ``P(Z <= -(m+1)) = q^(m+1)/(1+q) <= 2 delta q/(1+q)
<= delta`` with ``q = e^(-s/t)``. theta_hat is part of the release (``ERGMRelease.meta``), so
the Laplace scales computed from it are public.

Budget
------
``epsilon`` is the total. The p statistics share it equally (basic composition): a term with
``size`` statistics (one for scalar terms, one per level or level pair for nodefactor and
nodemix) gets ``epsilon * size / p`` and is released as one block calibrated to its L1
sensitivity (the vector Laplace mechanism; for Cauchy noise alpha = eps_block/2 and beta =
eps_block/(2 size) = epsilon/(2p)). With ``method="local"`` a data-dependent statistic
spends ``bound_share`` of its share on theta_hat and the rest on the statistic, and the
total ``delta`` is split equally over those statistics.

References
----------
Goldberg, "Towards differentially private inference on network data", Harvard (2018).
Lu, Miklau, "Exponential random graph estimation under differential privacy", KDD (2014).
Kasiviswanathan, Nissim, Raskhodnikova, Smith, "Analyzing graphs with node differential
privacy", TCC (2013).
Nissim, Raskhodnikova, Smith, "Smooth sensitivity and sampling in private data analysis",
STOC (2007).
Mironov, "On significance of the least significant bits for differential privacy", CCS (2012).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from ..dp._guarantee import PrivacyGuarantee
from ..dp._noise import add_noise, calibrate_noise
from ..graphs._packed import PackedAdjacency
from ..io._input import graph_batch
from ..release._base import GraphRelease
from ..release._counts import degrees
from ..release._projection import project_max_degree
from ..utils._params import Interval, Options
from ..utils._random import OSRandom
from ..utils._sampling import discrete_laplace
from ..utils._validation import check_adjacency, check_positive_int
from ._terms import ALTERNATING_TERMS, ERGMTerms, ergm_statistics, parse_terms

__all__ = [
    "ERGM_LEVELS",
    "ERGM_METHODS",
    "THESIS_TABLE",
    "ERGMRelease",
    "ergm_restricted_sensitivity",
    "truncate_max_degree",
    "truncation_smooth_sensitivity",
    "ERGMStatisticsRelease",
    "ergm_statistics_release",
]

ERGM_LEVELS = ("edge", "node")
ERGM_METHODS = ("restricted", "local")

# Goldberg (2018), Tables 4.1 (edge level) and 4.2 (node level), as printed, for the record:
# (level, term) -> f(k, decay). The releases use the values of ergm_restricted_sensitivity;
# ("node", "altktwopaths") here is wrong for k >= 3 (see the module notes).
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

# The decay tables are in units of 2^-64: rho_t = R_t / 2^64 with R_t an integer.
_BITS = 64
_ONE = 1 << _BITS
# Terms whose statistic is a count (integer-valued): released with add_noise directly.
_COUNT_TERMS = ("edges", "nodematch", "nodefactor", "nodemix")
# Terms whose statistic of the edge projection keeps its H_k sensitivity on all graphs.
_PROJECTION_SAFE = ("edges", "altkstars", "nodefactor")
# Terms whose local sensitivity is data-dependent (method="local").
_LOCAL_TERMS = ("altktriangles", "altktwopaths")
# Smallest beta of the smooth bound: below it the Cauchy scale leaves float range.
_MIN_BETA = 2.0 ** -500


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


def _up(x):
    """The smallest float >= the exact value ``x``."""
    x = Fraction(x)
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


# Above this degree cutoff the exact tables of r^t (one entry per degree) would cost memory
# for nothing: no graph that fits in memory has such degrees. The bounds then use
# phi(t) <= decay and psi increments <= decay instead (valid, slightly looser).
_TABLE_LIMIT = 1 << 20


def _restricted_bound(name, decay, k, level):
    """The sensitivity over H_k of one term (its block's L1 for vector terms), exactly."""
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


def _global_bound(name, decay):
    """Global edge sensitivity of a term with a data-independent bound (method="local")."""
    if name == "altkstars":
        return 2 * Fraction(decay)
    return Fraction(2 if name == "nodefactor" else 1)


def _local_bound(name, decay, theta):
    """``g(theta)``, the local sensitivity bound of altktriangles (theta = max shared partners)
    or altktwopaths (theta = max degree), exactly; theta a non-negative int."""
    if name == "altktriangles":
        return 2 * theta + Fraction(_phi_units(decay, theta)[theta], _ONE)
    return Fraction(2 * theta)


def _check_level_k(level, max_degree):
    if not (isinstance(level, str) and level in ERGM_LEVELS):
        raise ValueError(f"level must be one of {ERGM_LEVELS}, got {level!r}.")
    return check_positive_int(max_degree, "max_degree")


def ergm_restricted_sensitivity(statistics, max_degree, level="edge", labels=None):
    """Sensitivity of each ERGM statistic over graphs of maximum degree at most ``max_degree``.

    Edge level: neighbours differ in one dyad; node level: one is the other with one node's
    edges removed. Both neighbours must have maximum degree <= k. The values are proven in
    the module notes and checked by exhaustive search in the tests; where they differ from
    Goldberg's tables (:data:`THESIS_TABLE`):

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
    statistics : terms, or a parsed :class:`~tdadp.graphs.ERGMTerms`
        See :func:`~tdadp.graphs.parse_terms`.
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
        out[off:off + size] = _up(_restricted_bound(name, decay, k, level))
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


def _smooth_factor(deg, k, beta):
    """``max_{s>=0} e^{-beta s} (1 + s + #{w : k - s <= deg_w <= k + 1 + s})``."""
    n = deg.size
    # Node w is counted from s = dist_w on; every node once s >= max(dist).
    dist = np.maximum(np.maximum(k - deg, deg - k - 1), 0)
    s_full = int(dist.max(initial=0))
    counts = np.cumsum(np.bincount(dist, minlength=s_full + 1))
    s = np.arange(s_full + 1)
    if math.isinf(beta):
        return float(1 + counts[0])
    with np.errstate(over="ignore", under="ignore"):
        best = float(np.max(np.exp(-beta * s) * (1.0 + s + counts)))
    # Beyond s_full the count is n and e^{-beta s} (1 + s + n) peaks at s* = 1/beta - 1 - n.
    s_star = 1.0 / beta - 1.0 - n
    if s_star > s_full:
        for c in (math.floor(s_star), math.ceil(s_star)):
            best = max(best, math.exp(-beta * c) * (1.0 + c + n))
    return best


def truncation_smooth_sensitivity(degrees, max_degree, sensitivity, beta):
    """beta-smooth upper bound on the local sensitivity of ``f o T_k`` (node neighbours).

    ``S*(G) = max_{s>=0} e^{-beta s} A_s(G)`` with ``A_s(G) = Delta (1 + s + #{w : k - s <=
    deg_G(w) <= k + 1 + s})``, Delta the node sensitivity of f over H_k (see the module notes
    for the proof that ``S* >= LS`` and ``S*(G) <= e^beta S*(G')`` for node neighbours). The
    maximum is exact: over every s up to the one where all nodes are counted, then at the
    peak of ``e^{-beta s} (1 + s + n)``.

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
    factor = _smooth_factor(deg.astype(np.int64), k, float(beta))
    out = delta * factor
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True, eq=False)
class ERGMRelease:
    """What :class:`ERGMStatisticsRelease` releases for one graph.

    ``np.asarray(release)`` gives ``values``.

    Attributes
    ----------
    values : ndarray of float64, shape (n_statistics,)
        The noisy statistics, in the order of ``meta["statistic_names"]``.
    scales : ndarray of float64 or None
        Scale of the noise of each statistic when it is public: the fixed Laplace scales of
        the restricted edge-level release; with ``method="local"``, the scales computed from
        the released bounds (``meta["bounds"]``). None for the node-level release, whose
        Cauchy scale ``S*(x)/alpha`` depends on the data and is not released; recompute it
        for a latent x from ``meta["alpha"]``, ``meta["beta"]``, ``meta["sensitivity"]`` and
        ``meta["max_degree"]`` with :func:`truncation_smooth_sensitivity`.
    kind : {"laplace", "cauchy"}
        The noise's law (Laplace on a grid of ``2^-30`` scales, or standard Cauchy times the
        scale).
    meta : dict
        ``method``, ``level``, ``max_degree``, ``statistic_names``, ``epsilon`` (the share of
        each statistic) and, per method: ``sensitivity``; ``alpha``, ``beta`` (node level);
        ``bounds`` (released upper bounds theta_hat, NaN where none is needed) and ``delta``
        (method="local").
    """

    values: np.ndarray
    scales: np.ndarray | None
    kind: str
    meta: dict

    def __array__(self, dtype=None, copy=None):
        return np.array(self.values, dtype=dtype, copy=True)

    def __repr__(self):
        return f"ERGMRelease(values={self.values!r}, kind={self.kind!r})"


def _exact_statistics(A, terms):
    """Every statistic of a validated graph exactly (ints and Fractions), in statistic order.

    The alternating terms use the tables of ``_rho_units`` (see the module notes); the counts
    come from :func:`~tdadp.graphs.ergm_statistics` (integers, exact in float64).
    """
    B = sp.csr_matrix(A, dtype=np.int64)
    out = [None] * terms.n_statistics
    count_idx = [i for i, name in enumerate(terms.names) if name in _COUNT_TERMS]
    if count_idx:
        sub = ERGMTerms(tuple(terms.names[i] for i in count_idx),
                        tuple(terms.decays[i] for i in count_idx),
                        tuple(terms.sizes[i] for i in count_idx), terms.labels, terms.levels,
                        ())
        counts = np.rint(ergm_statistics(B, sub)).astype(np.int64).tolist()
        pos = 0
        for i in count_idx:
            off, size = terms.offsets[i], terms.sizes[i]
            out[off:off + size] = counts[pos:pos + size]
            pos += size
    deg = np.asarray(B.sum(axis=1)).ravel().astype(np.int64)
    P = None
    for name, decay, off in zip(terms.names, terms.decays, terms.offsets):
        if name == "altkstars":
            hist = np.bincount(deg)
            psi = _psi_units(decay, hist.size - 1)
            total = sum(int(h) * psi[d] for d, h in enumerate(hist.tolist()) if h)
            out[off] = Fraction(decay) * Fraction(total, _ONE)
        elif name in ("altktriangles", "altktwopaths"):
            if P is None:
                P = B @ B
            upper = sp.triu(P.multiply(B) if name == "altktriangles" else P, k=1).tocoo()
            hist = np.bincount(upper.data.astype(np.int64), minlength=1)
            phi = _phi_units(decay, hist.size - 1)
            out[off] = Fraction(sum(int(h) * phi[t] for t, h in enumerate(hist.tolist()) if h),
                                _ONE)
    return out


def _bound_quantity(A, name):
    """theta(x): max shared partners over all dyads (altktriangles) or max degree."""
    B = sp.csr_matrix(A, dtype=np.int64)
    if name == "altktwopaths":
        return int(np.asarray(B.sum(axis=1)).max(initial=0))
    P = sp.triu(B @ B, k=1)
    return int(P.max()) if P.nnz else 0


def _laplace_exact(value, calibration, rng):
    """``value`` (exact) plus the calibration's Laplace noise, as a float.

    The same exact sampler as :func:`~tdadp.release.add_noise` (discrete Laplace in grid
    units), fed the statistic in exact arithmetic: a real-valued alternating statistic is
    rounded to the grid exactly, whatever its size, and only the final sum is rounded to a
    float (post-processing).
    """
    c = calibration
    if c.t == 0:
        return float(value)
    grid = Fraction(2) ** c.grid_log2
    units = round(Fraction(value) / grid)
    z = int(discrete_laplace(rng, c.t, c.s, 1)[0])
    return float((units + z) * grid)


def _standard_cauchy(rng, size):
    if isinstance(rng, OSRandom):
        # OSRandom offers uniforms only: the inverse CDF (a floating-point draw, see the notes).
        return np.tan(np.pi * (rng.random(size) - 0.5))
    return rng.standard_cauchy(size)


@dataclass(frozen=True)
class _Block:
    """How one term's statistics are released (fixed at fit)."""

    name: str
    decay: float
    start: int
    size: int
    epsilon: float
    sensitivity: float          # nan for a data-dependent bound (method="local")
    calibration: object = None  # NoiseCalibration of a fixed-scale Laplace release
    alpha: float = math.nan     # Cauchy (node level)
    bound_calibration: object = None  # theta_hat's noise (method="local")
    bound_offset: int = 0       # theta_hat's offset, in grid units
    epsilon_statistic: float = math.nan
    delta: float = 0.0

    @property
    def stop(self):
        return self.start + self.size


class ERGMStatisticsRelease(GraphRelease):
    """Private release of a vector of ERGM statistics (restricted, smooth or local sensitivity).

    Three mechanisms (see the module notes of :mod:`tdadp.ergm._release` for every
    sensitivity and its proof):

    - ``level="edge", method="restricted"``: the statistics of the edge projection onto
      H_k (:func:`~tdadp.release.project_max_degree`) plus Laplace noise calibrated to the
      sensitivity over H_k (:func:`ergm_restricted_sensitivity`). eps-edge DP on all graphs
      for edges, altkstars and nodefactor; for the other terms only for neighbours both of
      maximum degree <= k (``guarantee_.restriction`` says so).
    - ``level="node", method="restricted"``: the statistics of the truncation
      (:func:`truncate_max_degree`) plus Cauchy noise of scale ``S*(x)/alpha``, S* the smooth
      bound of :func:`truncation_smooth_sensitivity`: eps-node DP on all graphs (neighbours:
      one graph is the other with one node's edges removed).
    - ``level="edge", method="local"``: the statistics themselves; altktriangles and
      altktwopaths with Laplace noise calibrated to a released upper bound of their local
      sensitivity, the others to their global sensitivity: (eps, delta)-edge DP on all
      graphs.

    ``epsilon`` is the total budget, shared equally by the statistics (a nodefactor or
    nodemix block of size s gets s shares and is calibrated jointly to its L1 sensitivity).

    Parameters
    ----------
    statistics : str or sequence of (str or (str, float)), default=("edges",)
        ERGM terms, see :func:`~tdadp.graphs.parse_terms`.
    epsilon : float in (0, inf], default=1.0
        Total privacy budget.
    level : {"edge", "node"}, default="edge"
    max_degree : int >= 1 or None, default=None
        k, required by ``method="restricted"`` (unused by "local").
    method : {"restricted", "local"}, default="restricted"
        "local" is edge level only.
    delta : float in (0, 1), default=1e-6
        Total delta of ``method="local"`` (split over its data-dependent statistics; the
        release is pure eps-DP when there are none).
    bound_share : float in (0, 1), default=0.5
        With ``method="local"``, the part of a data-dependent statistic's budget spent on its
        sensitivity bound.
    labels : array-like of shape (n_nodes,), optional
        Node labels (public) for the labelled terms.
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
    n_jobs : int, optional
        Graphs of a batch released in parallel (threads); results do not depend on it.

    Attributes
    ----------
    guarantee_ : PrivacyGuarantee
        Unit "edge" or "node"; its ``components`` are the guarantees of each term's block.
        With ``method="local"`` and a data-dependent statistic, its ``delta`` is the total
        delta ((eps, delta)-DP; the components carry their shares).
    terms_ : ERGMTerms
    statistic_epsilon_ : ndarray of float64
        Each statistic's share of epsilon (``epsilon / p``).
    sensitivity_ : ndarray of float64
        Per statistic (a block's L1 for vector terms): the H_k sensitivity (restricted), the
        global one (local; NaN where the bound is data-dependent).
    noise_scale_ : ndarray of float64
        Per statistic, the Laplace scale when it is fixed; NaN where it depends on the data
        (node level; local data-dependent terms).
    delta_ : float
        The total delta spent (0 for pure eps-DP releases).
    alpha_ : ndarray of float64 or None
        Node level: the Cauchy scale divisor of each statistic (``eps_block / 2``).
    beta_ : float or None
        Node level: the smoothness of S* (``epsilon / (2p)``).
    blocks_ : tuple
        The calibration of each term's block (budget, sensitivity, noise parameters), which
        ``transform`` releases with; ``fitted_params_`` holds level, method and k as fitted.

    See Also
    --------
    ergm_statistics_release : the function twin.
    ergm_restricted_sensitivity, truncate_max_degree, truncation_smooth_sensitivity

    References
    ----------
    Goldberg, "Towards differentially private inference on network data", Harvard (2018).
    Lu, Miklau, "Exponential random graph estimation under differential privacy", KDD (2014).
    Kasiviswanathan, Nissim, Raskhodnikova, Smith, "Analyzing graphs with node differential
    privacy", TCC (2013).
    Nissim, Raskhodnikova, Smith, "Smooth sensitivity and sampling in private data
    analysis", STOC (2007).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import ERGMStatisticsRelease
    >>> mech = ERGMStatisticsRelease(["edges", "altkstars"], epsilon=2.0, max_degree=3,
    ...                              random_state=0).fit()
    >>> mech.sensitivity_.tolist()                  # each statistic gets epsilon 1
    [1.0, 3.0]
    >>> np.round(mech.noise_scale_, 6).tolist()   # (a real statistic: one grid unit more)
    [1.0, 3.0]
    >>> mech.guarantee_.restriction is None          # proven on all graphs for these terms
    True
    >>> K4 = np.ones((4, 4), dtype=np.uint8) - np.eye(4, dtype=np.uint8)
    >>> release = mech.transform(K4)
    >>> release.kind, release.values.shape
    ('laplace', (2,))
    >>> node = ERGMStatisticsRelease("altktwopaths", level="node", max_degree=3).fit()
    >>> node.sensitivity_.tolist(), node.guarantee_.unit
    ([9.0], 'node')
    """

    _parameter_constraints = {
        **GraphRelease._parameter_constraints,
        "statistics": "no_validation",  # parsed (and checked) by parse_terms in fit
        "epsilon": ["positive_epsilon"],
        "level": [Options(*ERGM_LEVELS)],
        "max_degree": [None, "positive_int"],
        "method": [Options(*ERGM_METHODS)],
        "delta": [Interval("real", 0, 1, "neither")],
        "bound_share": [Interval("real", 0, 1, "neither")],
        "labels": "no_validation",  # checked by parse_terms in fit
    }

    def __init__(self, statistics=("edges",), epsilon=1.0, level="edge", max_degree=None,
                 method="restricted", delta=1e-6, bound_share=0.5, labels=None,
                 random_state=None, n_jobs=None):
        super().__init__(epsilon=epsilon, random_state=random_state, n_jobs=n_jobs)
        self.statistics = statistics
        self.level = level
        self.max_degree = max_degree
        self.method = method
        self.delta = delta
        self.bound_share = bound_share
        self.labels = labels

    def _calibrate(self, X):
        if self.method == "local" and self.level == "node":
            raise ValueError("method='local' (private local sensitivity) is edge level only; "
                             "use level='node' with method='restricted' (truncation and "
                             "smooth sensitivity).")
        if self.method == "restricted" and self.max_degree is None:
            raise ValueError("method='restricted' needs max_degree (k: the sensitivities "
                             "hold on graphs of maximum degree at most k).")
        if self.method == "local" and self.max_degree is not None:
            raise ValueError("method='local' projects nothing: max_degree must be None.")
        self.terms_ = parse_terms(self.statistics, self.labels)
        if X is not None:
            items, _ = graph_batch(X)  # validated, then dropped
            if self.terms_.labels is not None:
                for A in items:
                    if A.shape[0] != self.terms_.labels.shape[0]:
                        raise ValueError(f"labels cover {self.terms_.labels.shape[0]} nodes, "
                                         f"a graph has {A.shape[0]}.")
        return self._guarantee()

    def _guarantee(self):
        terms = self.terms_
        p = terms.n_statistics
        eps = float(self.epsilon)
        k = self.max_degree
        self.statistic_epsilon_ = np.full(p, eps / p)
        self.sensitivity_ = np.full(p, np.nan)
        self.noise_scale_ = np.full(p, np.nan)
        self.alpha_ = self.beta_ = None
        n_local = sum(1 for n in terms.names if n in _LOCAL_TERMS) \
            if self.method == "local" else 0
        delta_each = float(self.delta) / n_local if n_local else 0.0
        self.delta_ = float(self.delta) if n_local else 0.0
        if self.level == "node":
            self.alpha_ = np.full(p, np.nan)
            self.beta_ = eps / (2 * p)
            if self.beta_ < _MIN_BETA:
                raise ValueError(f"epsilon={eps!r} is too small for the smooth-sensitivity "
                                 "release: its Cauchy scale would leave float range.")
        blocks, components = [], []
        for name, decay, off, size in zip(terms.names, terms.decays, terms.offsets,
                                          terms.sizes):
            eps_b = eps * size / p
            label = terms.statistic_names[off] if size == 1 else name
            restriction = None
            if self.method == "restricted":
                sens = _up(_restricted_bound(name, decay, k, self.level))
                self.sensitivity_[off:off + size] = sens
                if self.level == "edge":
                    cal = calibrate_noise(sens, eps_b, "laplace", integer=name in _COUNT_TERMS)
                    self.noise_scale_[off:off + size] = cal.scale
                    if name not in _PROJECTION_SAFE:
                        restriction = f"graphs of maximum degree at most {k}"
                    block = _Block(name, decay, off, size, eps_b, sens, calibration=cal)
                    components.append(PrivacyGuarantee(
                        mechanism=f"ERGMStatisticsRelease[{label}]", epsilon=eps_b,
                        unit="edge", sensitivity=sens, noise_scale=cal.scale,
                        restriction=restriction, effective_epsilon=min(eps_b, cal.epsilon)))
                else:
                    alpha = eps_b / 2
                    self.alpha_[off:off + size] = alpha
                    block = _Block(name, decay, off, size, eps_b, sens, alpha=alpha)
                    components.append(PrivacyGuarantee(
                        mechanism=f"ERGMStatisticsRelease[{label}]", epsilon=eps_b,
                        unit="node", sensitivity=sens))
            elif name in _LOCAL_TERMS:
                # Products, not a difference: at eps = inf, inf - inf would be nan.
                eps1 = eps_b * float(self.bound_share)
                eps2 = eps_b * (1.0 - float(self.bound_share))
                bcal = calibrate_noise(1.0, eps1, "laplace", integer=True)
                offset = 0
                if bcal.t:
                    offset = max(0, math.ceil(math.log(1 / (2 * delta_each)) * bcal.t / bcal.s)
                                 + 1)
                block = _Block(name, decay, off, size, eps_b, math.nan, bound_calibration=bcal,
                               bound_offset=offset, epsilon_statistic=eps2, delta=delta_each)
                components.append(PrivacyGuarantee(
                    mechanism=f"ERGMStatisticsRelease[{label}]", epsilon=eps_b, unit="edge",
                    delta=delta_each))
            else:
                sens = _up(_global_bound(name, decay))
                cal = calibrate_noise(sens, eps_b, "laplace", integer=name in _COUNT_TERMS)
                self.sensitivity_[off:off + size] = sens
                self.noise_scale_[off:off + size] = cal.scale
                block = _Block(name, decay, off, size, eps_b, sens, calibration=cal)
                components.append(PrivacyGuarantee(
                    mechanism=f"ERGMStatisticsRelease[{label}]", epsilon=eps_b, unit="edge",
                    sensitivity=sens, noise_scale=cal.scale,
                    effective_epsilon=min(eps_b, cal.epsilon)))
            blocks.append(block)
        self.blocks_ = tuple(blocks)
        self.fitted_params_ = {"level": self.level, "method": self.method, "max_degree": k}
        restriction = next((c.restriction for c in components if c.restriction), None)
        single = components[0] if len(components) == 1 else None
        return PrivacyGuarantee(
            mechanism=type(self).__name__, epsilon=eps,
            unit="node" if self.level == "node" else "edge",
            sensitivity=None if single is None else single.sensitivity,
            noise_scale=None if single is None else single.noise_scale,
            restriction=restriction,
            delta=self.delta_,
            effective_epsilon=(min(eps, sum(c.effective_epsilon for c in components))
                               if all(c.effective_epsilon is not None for c in components)
                               else None),
            components=tuple(components) if len(components) > 1 else ())

    def _release(self, A, rng):
        if isinstance(A, PackedAdjacency):
            A = A.tocsr()
        fitted = self.fitted_params_
        level, method, k = fitted["level"], fitted["method"], fitted["max_degree"]
        terms = self.terms_
        p = terms.n_statistics
        n = A.shape[0]
        if terms.labels is not None and terms.labels.shape[0] != n:
            raise ValueError(f"labels cover {terms.labels.shape[0]} nodes, the graph has {n}.")
        meta = {"method": method, "level": level, "max_degree": k,
                "statistic_names": terms.statistic_names,
                "epsilon": self.statistic_epsilon_.copy(),
                "sensitivity": self.sensitivity_.copy()}
        values = np.empty(p)
        if level == "node":
            exact = _exact_statistics(truncate_max_degree(A, k), terms)
            factor = _smooth_factor(degrees(A), k, self.beta_)
            for b in self.blocks_:
                value = np.array([float(v) for v in exact[b.start:b.stop]])
                if math.isinf(b.alpha):
                    values[b.start:b.stop] = value
                    continue
                # The scale S*(x)/alpha is data-dependent: used here, never returned.
                scale = b.sensitivity * factor / b.alpha
                values[b.start:b.stop] = value + scale * _standard_cauchy(rng, b.size)
            meta.update(alpha=self.alpha_.copy(), beta=self.beta_)
            return ERGMRelease(values, None, "cauchy", meta)
        if method == "restricted":
            exact = _exact_statistics(project_max_degree(A, k), terms)
        else:
            exact = _exact_statistics(A, terms)
        scales = self.noise_scale_.copy()
        bounds = np.full(p, np.nan)
        for b in self.blocks_:
            if b.calibration is not None:
                if b.name in _COUNT_TERMS:
                    values[b.start:b.stop] = add_noise(
                        np.asarray(exact[b.start:b.stop], dtype=np.int64), b.calibration, rng)
                else:
                    values[b.start] = _laplace_exact(exact[b.start], b.calibration, rng)
                continue
            # Private local sensitivity: an upper bound on theta(x) except with prob. delta.
            c = b.bound_calibration
            theta = _bound_quantity(A, b.name)
            shift = -c.grid_log2
            units = theta << shift
            if c.t:
                units += int(discrete_laplace(rng, c.t, c.s, 1)[0]) + b.bound_offset
            bounds[b.start] = float(Fraction(units, 1 << shift))
            theta_used = min(max(units >> shift, 0), max(n - 2, 0))  # floor, then clip
            sens = _up(_local_bound(b.name, b.decay, theta_used))
            cal = calibrate_noise(sens, b.epsilon_statistic, "laplace", integer=False)
            scales[b.start] = cal.scale
            values[b.start] = _laplace_exact(exact[b.start], cal, rng)
        if method == "local":
            meta.update(bounds=bounds, delta=np.array([b.delta for b in self.blocks_
                                                       for _ in range(b.size)]))
        return ERGMRelease(values, scales, "laplace", meta)

    def _join(self, outputs, single):
        return outputs[0] if single else list(outputs)

    def transform(self, X):
        """Release the noisy statistics of each graph.

        Parameters
        ----------
        X : adjacency matrix (dense or scipy sparse), networkx graph, or a sequence of them

        Returns
        -------
        ERGMRelease for one graph; a list of them for a batch.
        """
        return super().transform(X)


def ergm_statistics_release(A, statistics, epsilon, level="edge", max_degree=None,
                            method="restricted", delta=1e-6, bound_share=0.5, labels=None,
                            random_state=None):
    """Release noisy ERGM statistics of a graph (see :class:`ERGMStatisticsRelease`).

    Returns
    -------
    ERGMRelease (a list of them for a batch of graphs)

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import ergm_statistics_release
    >>> K4 = np.ones((4, 4), dtype=np.uint8) - np.eye(4, dtype=np.uint8)
    >>> r = ergm_statistics_release(K4, ["edges", ("altktriangles", 1.0)], np.inf,
    ...                             max_degree=3)
    >>> r.values.tolist()                               # K4 is in H_3: nothing projected
    [6.0, 6.0]
    """
    return ERGMStatisticsRelease(
        statistics=statistics, epsilon=epsilon, level=level, max_degree=max_degree,
        method=method, delta=delta, bound_share=bound_share, labels=labels,
        random_state=random_state).fit_transform(A)
