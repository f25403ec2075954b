"""Bottleneck and Wasserstein distances between persistence diagrams.

The finite parts go to hera (Kerber, Morozov, Nigmetov 2017) through gudhi; the infinite
parts (essential classes, -inf births of log-scale diagrams) are matched here in closed form,
since hera does not know -inf births and gudhi's wrapper leaves their conventions implicit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import gudhi
import numpy as np
from gudhi import hera
from scipy.spatial import cKDTree

from ..utils._output import is_dataframe
from ..utils._params import Interval, check_param
from ._diagram import as_diagram
from ._matching import covers_all, maximum_matching
from ._parts import Parts, normalizing_exponent

__all__ = ["bottleneck_distance", "wasserstein_distance", "finite_bottleneck",
           "resolve_pair", "ADDITIVE_ERROR"]

# gudhi's default e (the smallest positive double) is an additive error: a result below this
# threshold can only come from equal diagrams. Diagrams reach gudhi normalised (largest
# coordinate in [0.5, 1), see normalizing_exponent), so the threshold is relative to the
# largest coordinate, far below the resolution of its float64 differences.
_ZERO_SNAP = 1e-290

# The additive error of gudhi's bottleneck: None (exact) or a finite non-negative number.
ADDITIVE_ERROR = [None, Interval("real", 0, None, "left")]


def _covers(N, aN, M, eps, strict):
    """Whether every point of N that cannot go to the diagonal at level eps can be matched
    into M within eps (all with cost <= eps, or < eps when ``strict``)."""
    needy = np.flatnonzero(aN >= eps if strict else aN > eps)
    if needy.size == 0:
        return True
    if M.shape[0] == 0:
        return False
    R = N[needy]
    pairs = cKDTree(R).sparse_distance_matrix(cKDTree(M), eps * (1 + 1e-9) + 1e-300,
                                              p=np.inf, output_type="ndarray")
    i, j = pairs["i"].astype(np.int64), pairs["j"].astype(np.int64)
    cost = np.max(np.abs(R[i] - M[j]), axis=1)  # the same arithmetic as the verification
    keep = cost < eps if strict else cost <= eps
    i, j = i[keep], j[keep]
    return covers_all(i, j, needy.size, M.shape[0])


def _feasible(P, Q, eps, strict=False):
    """Decision problem: is W_inf(P, Q) <= eps (or < eps when ``strict``)?

    By the Mendelsohn-Dulmage theorem a matching covering the points of both diagrams that
    are farther than eps from the diagonal exists iff one covering those of P and one covering
    those of Q exist; each is a maximum bipartite matching (Hopcroft-Karp with its dead ends
    marked, in _matching: scipy's takes exponential time on some diagrams) on the edges
    incident to these points only.
    """
    aP, aQ = (P[:, 1] - P[:, 0]) / 2, (Q[:, 1] - Q[:, 0]) / 2
    return _covers(P, aP, Q, eps, strict) and _covers(Q, aQ, P, eps, strict)


def finite_bottleneck(P, Q, e=None):
    """Bottleneck distance between two arrays of finite off-diagonal points.

    gudhi's fast algorithm gives the value; with the default (exact) ``e`` it is then
    certified by two decision problems (value feasible, anything below infeasible), because
    gudhi <= 3.13 returns a wrong value on rare inputs (GUDHI/gudhi-devel PR #1367, about
    0.4% of small random pairs). On failure hera's exact algorithm is used instead.
    """
    if P.shape[0] == 0 and Q.shape[0] == 0:
        return 0.0
    if P.shape[0] == 0 or Q.shape[0] == 0:
        R = P if P.shape[0] else Q
        return float(np.max(R[:, 1] - R[:, 0]) / 2.0)
    val = float(gudhi.bottleneck_distance(P, Q, e))
    if val < _ZERO_SNAP:
        val = 0.0
    if e is None or e == 0:
        rel = 1e-12
        if not (_feasible(P, Q, val * (1 + rel)) and not _feasible(P, Q, val * (1 - rel),
                                                                     strict=True)):
            val = float(hera.bottleneck_distance(P, Q, 0.0))
    return val


def resolve_pair(D1, D2, homology_dimension):
    """Normalise two inputs to lists of per-dimension array pairs.

    Returns ``(dims, pairs, per_dim)``: ``per_dim`` is False when both inputs were bare arrays
    or a single dimension was asked for (one result, not a dict).
    """
    # Diagrams are mappings dimension -> points (a PersistenceDiagram or a plain dict) or
    # their DataFrame form, which is array-like but no bare (k, 2) array.
    bare = not any(isinstance(D, Mapping) or is_dataframe(D) for D in (D1, D2))
    if bare:
        X, Y = as_diagram(D1), as_diagram(D2)
        return (0,), [(X[0], Y[0])], False
    D1, D2 = as_diagram(D1), as_diagram(D2)
    if homology_dimension is None:
        dims = tuple(sorted(set(D1.homology_dimensions) | set(D2.homology_dimensions)))
        return dims, [(D1.get(k), D2.get(k)) for k in dims], True
    k = int(homology_dimension)
    if k not in D1 and k not in D2:
        raise ValueError(f"homology dimension {k} is in neither diagram (they have "
                         f"{D1.homology_dimensions} and {D2.homology_dimensions}).")
    return (k,), [(D1.get(k), D2.get(k))], False


def _infinite_bottleneck(P1, P2):
    """Bottleneck cost of the infinite kinds (sorted matchings); inf on a count mismatch."""
    if P1.counts() != P2.counts():
        return np.inf
    cost = 0.0
    for x, y in ((P1.essential, P2.essential), (P1.neg_birth, P2.neg_birth)):
        if x.size:
            cost = max(cost, float(np.max(np.abs(y - x))))
    return cost


def _finite_matching(P, Q, value):
    """An optimal matching of finite points at bottleneck value ``value``.

    Perfect matching in the standard bipartite graph: left = P and one diagonal copy per Q
    point, right = Q and one diagonal copy per P point; p-q edges of cost <= value, p-diag(p)
    and diag(q)-q when the persistence allows, and diag(q)-diag(p) for every p-q edge (enough:
    a matched pair p-q frees exactly these two copies).
    """
    n1, n2 = P.shape[0], Q.shape[0]
    if n1 == 0 and n2 == 0:
        return np.zeros((0, 2), dtype=np.int64)
    scale = max(1.0, float(np.max(np.abs(np.concatenate([P.ravel(), Q.ravel()])))))
    slack = 64 * np.finfo(float).eps * scale
    aP = (P[:, 1] - P[:, 0]) / 2 if n1 else np.zeros(0)
    aQ = (Q[:, 1] - Q[:, 0]) / 2 if n2 else np.zeros(0)
    for attempt in range(4):
        thr = value + slack * (16 ** attempt)
        if n1 and n2:
            pairs = cKDTree(P).sparse_distance_matrix(cKDTree(Q), thr, p=np.inf,
                                                      output_type="ndarray")
            pi, qi = pairs["i"].astype(np.int64), pairs["j"].astype(np.int64)
        else:
            pi = qi = np.zeros(0, dtype=np.int64)
        rows = [pi, np.flatnonzero(aP <= thr), n1 + np.flatnonzero(aQ <= thr), n1 + qi]
        cols = [qi, n2 + np.flatnonzero(aP <= thr), np.flatnonzero(aQ <= thr), n2 + pi]
        match = maximum_matching(np.concatenate(rows), np.concatenate(cols), n1 + n2, n1 + n2)
        if (match >= 0).all():
            break
    else:  # pragma: no cover - hera's value is within rounding of a feasible threshold
        raise RuntimeError("could not rebuild a matching at the bottleneck value.")
    out = []
    for i in range(n1):
        j = match[i]
        out.append((i, j if j < n2 else -1))
    for j in range(n2):
        # diag(q_j) is adjacent only to q_j itself (q_j goes to the diagonal) or to copies.
        if match[n1 + j] == j:
            out.append((-1, j))
    return np.array(out, dtype=np.int64).reshape(-1, 2)


def bottleneck_pair(X, Y, e, matching):
    # Computed on the diagrams scaled by an exact power of two (see normalizing_exponent).
    k = normalizing_exponent(X, Y)
    P1, P2 = Parts(np.ldexp(X, -k)), Parts(np.ldexp(Y, -k))
    inf_cost = _infinite_bottleneck(P1, P2)
    fin = finite_bottleneck(P1.finite, P2.finite, None if e is None else math.ldexp(e, -k))
    value = math.ldexp(max(fin, inf_cost), k)
    if not matching:
        return value
    if not np.isfinite(value):
        return value, None
    m = _finite_matching(P1.finite, P2.finite, fin)
    rows = []
    if m.size:
        i, j = m[:, 0], m[:, 1]
        fi = np.append(P1.finite_idx, -1)  # index -1 (the diagonal) maps to -1
        fj = np.append(P2.finite_idx, -1)
        rows.append(np.c_[fi[i], fj[j]])
    for a, b in ((P1.essential_idx, P2.essential_idx), (P1.neg_birth_idx, P2.neg_birth_idx),
                 (P1.full_idx, P2.full_idx)):
        rows.append(np.c_[a, b])
    return value, np.concatenate(rows).astype(np.int64).reshape(-1, 2)


def bottleneck_distance(D1, D2, homology_dimension=None, matching=False, e=None):
    """Bottleneck distance W_inf between two persistence diagrams.

    W_inf(D1, D2) = min over matchings of the largest L_inf cost, where a point may also be
    matched to the diagonal at cost (death - birth) / 2. Finite points go to hera (through
    :func:`gudhi.bottleneck_distance`); points with an infinite coordinate are matched here:
    points (b, inf) only match each other (cost ``|b - b'|``), points (-inf, d) of log-scale
    diagrams only match each other (cost ``|d - d'|``), points (-inf, inf) only match each other
    (cost 0). If the counts of one of these kinds differ, the distance is ``inf``. Points on
    the diagonal are ignored.

    Parameters
    ----------
    D1, D2 : PersistenceDiagram, DataFrame or (k, 2) array_like
        Two diagrams (or their DataFrame form, :meth:`PersistenceDiagram.to_frame`), or two
        bare arrays of (birth, death) pairs.
    homology_dimension : int, optional
        Compare this dimension only. By default every dimension of either diagram is compared
        (missing dimensions count as empty) and the largest distance is returned, which is the
        bottleneck distance of the diagrams as graded multisets.
    matching : bool, default=False
        Also return an optimal matching: an (m, 2) int array of row indices ``(i, j)`` into
        ``D1[k]`` and ``D2[k]``, ``-1`` standing for the diagonal. ``None`` when the distance
        is infinite (every matching is then optimal). For several dimensions, a dict
        ``dimension -> matching``.
    e : float, optional
        Additive error (a finite number >= 0) passed to :func:`gudhi.bottleneck_distance`.
        The default (None, the smallest positive double) is exact up to the last bits of the
        mantissa and fast; 0 selects hera's slower exact algorithm.

    Returns
    -------
    distance : float
    matching : ndarray or dict, only if ``matching=True``

    Notes
    -----
    The distance is positively homogeneous, so the diagrams are compared after scaling by the
    power of two that brings their largest finite coordinate into [0.5, 1), an exact
    operation in floating point: coordinates up to the largest double (1.8e308) give the
    exact distance instead of overflowing in differences.

    References
    ----------
    .. [1] H. Edelsbrunner and J. Harer, *Computational Topology: An Introduction*, AMS, 2010.
    .. [2] M. Kerber, D. Morozov and A. Nigmetov, "Geometry helps to compare persistence
       diagrams", ACM J. Exp. Algorithmics 22, 2017 (hera).

    Examples
    --------
    >>> import numpy as np
    >>> bottleneck_distance(np.array([[0.0, 2.0]]), np.zeros((0, 2)))
    1.0
    >>> from tdadp.topology import PersistenceDiagram
    >>> D = PersistenceDiagram({0: [[0, 1], [0, np.inf]], 1: [[0.2, 0.9]]})
    >>> bottleneck_distance(D, D)
    0.0
    """
    check_param(homology_dimension, [None, "nonnegative_int"], "homology_dimension")
    check_param(matching, ["boolean"], "matching")
    check_param(e, ADDITIVE_ERROR, "e")
    dims, pairs, per_dim = resolve_pair(D1, D2, homology_dimension)
    results = [bottleneck_pair(X, Y, e, matching) for X, Y in pairs]
    if not matching:
        return float(max(results, default=0.0))
    value = float(max((r[0] for r in results), default=0.0))
    if per_dim:
        return value, {k: r[1] for k, r in zip(dims, results)}
    return value, results[0][1]


def _infinite_wasserstein(P1, P2, order):
    if P1.counts() != P2.counts():
        return np.inf
    total = 0.0
    for x, y in ((P1.essential, P2.essential), (P1.neg_birth, P2.neg_birth)):
        if x.size:
            total += float(np.sum(np.abs(y - x) ** order))
    return total


def _same_multiset(A, B):
    if A.shape != B.shape:
        return False
    return np.array_equal(A[np.lexsort(A.T[::-1])], B[np.lexsort(B.T[::-1])])


def _wasserstein_pair(X, Y, order, internal_p, delta):
    """Sum of the q-th powers of the optimal costs (for arrays already normalised)."""
    P1, P2 = Parts(X), Parts(Y)
    inf_part = _infinite_wasserstein(P1, P2, order)
    A, B = P1.finite, P2.finite
    if _same_multiset(A, B):
        # hera's auction stops within a relative error; equal diagrams must give 0 exactly.
        fin = 0.0
    else:
        fin = float(hera.wasserstein_distance(A, B, order=order, internal_p=internal_p,
                                              delta=delta))
    return fin ** order + inf_part


def wasserstein_distance(D1, D2, homology_dimension=None, order=1.0, internal_p=np.inf,
                         delta=0.01):
    """q-Wasserstein distance W_q between two persistence diagrams.

    W_q(D1, D2) = (min over matchings of the sum of ``cost ** q``)^(1/q), with ground distance
    the L_{internal_p} norm and the diagonal available to every point. Finite points go to
    hera's auction algorithm (through :func:`gudhi.hera.wasserstein_distance`, no POT needed);
    infinite points follow the rules of :func:`bottleneck_distance`, matched by sorting, which
    is optimal for every q >= 1. Over several dimensions the q-th powers add up.

    Parameters
    ----------
    D1, D2 : PersistenceDiagram, its DataFrame form or (k, 2) array_like
    homology_dimension : int, optional
        Compare this dimension only (default: all dimensions jointly).
    order : float, default=1
        The exponent q, a finite number >= 1 (use :func:`bottleneck_distance` for q = inf).
    internal_p : float, default=inf
        Ground norm on the plane, in [1, inf].
    delta : float, default=0.01
        Relative error of hera's auction: the result lies within a factor (1 + delta) of the
        exact distance. Identical diagrams give exactly 0.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If the sum of q-th powers leaves the range of float64 (a very large ``order``).

    Notes
    -----
    As for :func:`bottleneck_distance`, the diagrams are scaled by one power of two (exact)
    bringing their largest finite coordinate into [0.5, 1): costs are then at most 2 in
    L_inf, and their q-th powers cannot overflow for coordinates near 1e200, nor hang hera's
    auction.

    References
    ----------
    .. [1] M. Kerber, D. Morozov and A. Nigmetov, "Geometry helps to compare persistence
       diagrams", ACM J. Exp. Algorithmics 22, 2017.
    """
    check_param(homology_dimension, [None, "nonnegative_int"], "homology_dimension")
    check_param(order, [Interval("real", 1, None, "left")], "order")
    check_param(internal_p, [Interval("real", 1, math.inf, "both")], "internal_p")
    check_param(delta, [Interval("real", 0, None, "neither")], "delta")
    order, internal_p, delta = float(order), float(internal_p), float(delta)
    _, pairs, _ = resolve_pair(D1, D2, homology_dimension)
    k = normalizing_exponent(*(Z for pair in pairs for Z in pair))
    total = sum(_wasserstein_pair(np.ldexp(X, -k), np.ldexp(Y, -k), order, internal_p, delta)
                for X, Y in pairs)
    counts_match = all(Parts(X).counts() == Parts(Y).counts() for X, Y in pairs)
    if counts_match and not np.isfinite(total):
        raise ValueError(f"the sum of costs to the power order={order:g} overflows float64; "
                         "use a smaller order (or bottleneck_distance for the limit).")
    return math.ldexp(float(total ** (1.0 / order)), k)
