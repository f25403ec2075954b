"""The ToMATo merge tree: hill climbing, the elder rule, and re-cutting it.

The hill climbing of Chazal et al. attaches every point to its highest neighbour; following
these pointers to the top gives the basin (leaf cluster) of each local maximum of the density.
Those pointers are resolved in one compiled pass over the points by decreasing density (a
point's highest neighbour is reached before it; :func:`_climb`, beside the numpy pointer
jumping it must equal). Basins then merge along the
superlevel filtration: an edge (u, v) appears when its lower endpoint does, at density
``min(f(u), f(v))``; when two clusters meet, the one with the lower peak dies (elder rule) and
its prominence is ``peak - density at the meeting point``. Only the edges of a maximum spanning
forest of the basin graph can merge clusters: the union-find runs over the earliest edge of each
pair of basins, in one compiled pass (:func:`_elder_rule`, beside the minimum spanning forest
and Python loop it must equal), not over every edge of the graph.

Re-cutting merges the modes of lowest prominence, which is a connected-components computation
on the basins: no density or graph is recomputed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from numba import njit
from scipy.sparse.csgraph import connected_components, minimum_spanning_tree

__all__ = ["MergeTree", "build_merge_tree"]


@dataclass
class MergeTree:
    """Everything a re-cut needs, with the modes listed in diagram order.

    Diagram order: modes that never die (one per connected component of the graph) first, by
    decreasing peak density; then the others by decreasing prominence (ties: the earlier death,
    i.e. the higher death density, first; then the higher peak).
    """

    leaf_of_point: np.ndarray  # (n,) mode (in diagram order) whose basin holds each point
    modes: np.ndarray  # (L,) point index of each mode's peak
    births: np.ndarray  # (L,) density at the peak
    deaths: np.ndarray  # (L,) density where the mode merges into an older one, -inf if never
    merge_edges: np.ndarray  # (L, 2) modes joined by the merge that kills each mode, -1 if none
    n_components: int  # modes that never die (connected components of the graph)
    min_density: float  # lowest density value, the end of the filtration
    density: np.ndarray = field(repr=False)  # (n,) the density the tree was built from

    @property
    def low_density(self):
        """10% quantile of the density, the level of the sparse fringe (read by the
        largest-gap cut only: a cut into a given number of clusters skips its cost)."""
        return float(np.quantile(self.density, 0.1))

    @property
    def n_modes(self):
        return self.births.shape[0]

    @property
    def prominences(self):
        """Finite prominences (birth - death) of the mortal modes, in decreasing order."""
        return self.births[self.n_components:] - self.deaths[self.n_components:]

    def labels(self, n_clusters):
        """Labels after merging all but the ``n_clusters`` most prominent modes.

        ``n_clusters`` must lie in ``[n_components, n_modes]``. Labels are numbered by the
        diagram position of each cluster's surviving mode (0: the most prominent cluster).
        """
        c = int(n_clusters)
        root = _component_roots(self.merge_edges[c:], self.n_modes)
        rank = np.cumsum(root == np.arange(root.size)) - 1  # roots numbered by position
        return rank[root][self.leaf_of_point]


@njit(nogil=True, cache=True)
def _component_roots(merged, n_modes):  # pragma: no cover - compiled
    """The best-placed (smallest) mode of the component of every mode, the components joined
    by the edges ``merged``: a union-find whose root is always the smaller index. With exact
    ties in prominence the kept mode and the component's top mode could differ: naming each
    component by its best-placed mode keeps the labels ``0 .. c - 1`` anyway. The same
    components and names as scipy's connected components (:func:`_labels_reference`), in one
    compiled pass (a stability selection cuts over a hundred small trees)."""
    parent = np.arange(n_modes)
    for e in range(merged.shape[0]):
        rx = _root(parent, merged[e, 0])
        ry = _root(parent, merged[e, 1])
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)
    for i in range(n_modes):
        parent[i] = _root(parent, i)
    return parent


def _labels_reference(merged, n_modes):
    """:func:`_component_roots` by scipy's connected components: the code it must equal."""
    L = n_modes
    graph = sp.coo_matrix(
        (np.ones(merged.shape[0], dtype=np.int8), (merged[:, 0], merged[:, 1])), shape=(L, L))
    _, comp = connected_components(graph, directed=False)
    first = np.full(comp.max() + 1, L, dtype=np.intp)
    np.minimum.at(first, comp, np.arange(L, dtype=np.intp))
    return first[comp]


@njit(nogil=True, cache=True)
def _root(parent, i):  # pragma: no cover - compiled
    root = i
    while parent[root] != root:
        root = parent[root]
    while parent[i] != root:  # path compression
        parent[i], i = root, parent[i]
    return root


@njit(nogil=True, cache=True)
def _elder_rule(a, b, by_time, n_basins):  # pragma: no cover - compiled
    """The merges of the elder rule: the earliest edges between basins (``a < b``, listed by
    increasing ``(a, b)``) taken in the order ``by_time`` (a stable sort of their times), each
    joining two clusters killing the younger (the larger index: the lower peak). Returns the
    mode each merge kills and the edge that merges it, in order. Kruskal's algorithm in that
    order keeps the same edges, in the same order, as scipy's minimum spanning forest followed
    by a union-find over its edges sorted by time (:func:`_elder_reference`), which also sorts
    the weights stably from the same (a, b) layout: the ties between edges of one time, all at
    one point, go the same way."""
    parent = np.arange(n_basins)
    young = np.empty(n_basins, np.int64)
    edge = np.empty(n_basins, np.int64)
    m = 0
    for i in range(by_time.shape[0]):
        e = by_time[i]
        ra = _root(parent, a[e])
        rb = _root(parent, b[e])
        if ra == rb:
            continue
        y, o = (ra, rb) if ra > rb else (rb, ra)
        parent[y] = o
        young[m] = y
        edge[m] = e
        m += 1
    return young[:m].copy(), edge[:m].copy()


def _elder_reference(a, b, t, n_basins):
    """:func:`_elder_rule` by scipy's minimum spanning forest of the basin graph, then a
    union-find in Python over its edges by time: the code it must equal. Returns the killed
    modes and the ``(a, b, t)`` of the merges, in order."""
    L = n_basins
    # Weights t + 1 > 0: scipy reads explicit zeros as missing edges. The pairs come sorted
    # by (a, b), so they are the CSR layout already.
    indptr = np.zeros(L + 1, dtype=np.intp)
    np.cumsum(np.bincount(a, minlength=L), out=indptr[1:])
    forest = minimum_spanning_tree(
        sp.csr_matrix(((t + 1).astype(np.float64), b, indptr), shape=(L, L))).tocoo()
    fa, fb = forest.row.astype(np.intp), forest.col.astype(np.intp)
    ft = forest.data.astype(np.int64) - 1
    by_time = np.argsort(ft, kind="stable")
    fa, fb, ft = fa[by_time], fb[by_time], ft[by_time]
    parent = list(range(L))
    young = []
    for e in range(fa.size):
        ra, rb = _root.py_func(parent, int(fa[e])), _root.py_func(parent, int(fb[e]))
        y, o = (ra, rb) if ra > rb else (rb, ra)
        parent[y] = o
        young.append(y)
    return np.array(young, dtype=np.int64), fa, fb, ft


@njit(nogil=True, cache=True)
def _table_minima(key, t, cells):  # pragma: no cover - compiled
    """The smallest ``t`` of every ``key`` present, keys increasing (``np.minimum.at`` into a
    table of ``cells`` entries, then its filled cells in order)."""
    never = np.iinfo(np.int64).max
    first = np.full(cells, never, np.int64)
    for e in range(key.shape[0]):
        if t[e] < first[key[e]]:
            first[key[e]] = t[e]
    m = 0
    for c in range(cells):
        if first[c] != never:
            m += 1
    keys = np.empty(m, np.int64)
    times = np.empty(m, np.int64)
    m = 0
    for c in range(cells):
        if first[c] != never:
            keys[m], times[m] = c, first[c]
            m += 1
    return keys, times


def _earliest_per_pair(a, b, t, n_basins, n):
    """The earliest of the edges (time ``t``) between each pair of basins ``a < b``, pairs in
    increasing ``(a, b)``."""
    L = n_basins
    key = a * L + b
    cells = L * L
    if cells <= max(4 * key.size, 1 << 20):
        # Few basins: a minimum per pair in a dense table, where sorting the (many) edges
        # between basins took most of a fit's merge tree.
        key, t = _table_minima(key, t, cells)
        return key // L, key % L, t
    # One sort by (pair, time): the first edge of every run of a pair is its earliest.
    order = np.argsort(key * n + t) if cells * n < 2**62 else np.lexsort((t, key))
    key, t = key[order], t[order]
    first = np.ones(key.size, dtype=bool)
    np.not_equal(key[1:], key[:-1], out=first[1:])
    key, t = key[first], t[first]
    return key // L, key % L, t


@njit(nogil=True, cache=True)
def _climb(order, u, v):  # pragma: no cover - compiled
    """The hill climbing in one pass: the order of the points (decreasing density, ties by
    index), each point's basin (peaks numbered by decreasing density) and the edges between
    basins, ``a < b`` at the rank ``t`` of the edge's lower endpoint. The same arrays as
    :func:`_climb_reference`, without its scattered minima and pointer-jumping passes: each
    point's highest neighbour ranks above it, so its peak is known when it is reached."""
    n = order.shape[0]
    rank = np.empty(n, np.int64)
    for r in range(n):
        rank[order[r]] = r
    best = rank.copy()
    for e in range(u.shape[0]):
        x, y = u[e], v[e]
        if rank[y] < best[x]:
            best[x] = rank[y]
        if rank[x] < best[y]:
            best[y] = rank[x]
    basin = np.empty(n, np.int64)
    peaks = np.empty(n, np.int64)
    L = 0
    for r in range(n):
        p = order[r]
        if best[p] == r:
            basin[p] = L
            peaks[L] = p
            L += 1
        else:
            basin[p] = basin[order[best[p]]]
    m = 0
    for e in range(u.shape[0]):
        if basin[u[e]] != basin[v[e]]:
            m += 1
    a = np.empty(m, np.int64)
    b = np.empty(m, np.int64)
    t = np.empty(m, np.int64)
    m = 0
    for e in range(u.shape[0]):
        x, y = basin[u[e]], basin[v[e]]
        if x != y:
            a[m], b[m] = min(x, y), max(x, y)
            t[m] = max(rank[u[e]], rank[v[e]])
            m += 1
    return order, rank, peaks[:L].copy(), basin, a, b, t


def _climb_reference(order, u, v):
    """:func:`_climb` in numpy (vectorised pointer jumping), the code it must equal."""
    n = order.shape[0]
    rank = np.empty(n, dtype=np.intp)
    rank[order] = np.arange(n, dtype=np.intp)
    best = rank.copy()
    if u.size:
        np.minimum.at(best, u, rank[v])
        np.minimum.at(best, v, rank[u])
    pointer = order[best]
    while True:
        nxt = pointer[pointer]
        if np.array_equal(nxt, pointer):
            break
        pointer = nxt
    peaks = np.flatnonzero(pointer == np.arange(n))
    peaks = peaks[np.argsort(rank[peaks], kind="stable")]
    basin_of_peak = np.full(n, -1, dtype=np.intp)
    basin_of_peak[peaks] = np.arange(peaks.size, dtype=np.intp)
    basin = basin_of_peak[pointer]
    bu, bv = basin[u], basin[v]
    cross = np.flatnonzero(bu != bv)
    bu, bv = bu[cross], bv[cross]
    a = np.minimum(bu, bv).astype(np.int64, copy=False)
    b = np.maximum(bu, bv).astype(np.int64, copy=False)
    t = np.maximum(rank[u[cross]], rank[v[cross]]).astype(np.int64, copy=False)
    return order, rank, peaks, basin, a, b, t


def build_merge_tree(density, u, v):
    """Build the ToMATo merge tree of ``density`` on the undirected graph with edges (u, v).

    Parameters
    ----------
    density : ndarray of shape (n,)
        Finite density (or log-density) values.
    u, v : ndarray of int
        Edge endpoints, each undirected edge listed at least once, in either direction (the
        arcs of a k-nearest-neighbour graph list a pair twice when each point is among the
        other's neighbours).

    Returns
    -------
    MergeTree
    """
    n = density.shape[0]
    # A strict total order on the points (decreasing density, ties by index); every point
    # climbs to its highest neighbour, the point itself if it is a local maximum, and so on up
    # to a peak: its basin. Edges between basins appear at the rank of their lower endpoint.
    # For every pair of basins only the earliest edge can matter, and among those only a
    # spanning forest.
    order = np.argsort(-density, kind="stable")
    order, rank, peaks, basin, a, b, t = _climb(order, np.asarray(u, np.int64),
                                                np.asarray(v, np.int64))
    L = peaks.size

    births = density[peaks]
    deaths = np.full(L, -np.inf)
    death_rank = np.full(L, n, dtype=np.int64)
    merge_edges = np.full((L, 2), -1, dtype=np.intp)
    if a.size:
        a, b, t = _earliest_per_pair(a, b, t, L, n)
        young, merge = _elder_rule(a, b, np.argsort(t, kind="stable"), L)
        deaths[young] = density[order[t[merge]]]
        death_rank[young] = t[merge]
        merge_edges[young, 0] = a[merge]
        merge_edges[young, 1] = b[merge]

    mortal = np.isfinite(deaths)
    prom = np.where(mortal, births - np.where(mortal, deaths, 0.0), np.inf)
    # Diagram order: immortal modes by peak, then decreasing prominence, earlier death first,
    # then higher peak. np.lexsort sorts by the last key first.
    ids = np.arange(L)
    diagram_order = np.lexsort((ids, death_rank, -prom, mortal))
    position = np.empty(L, dtype=np.intp)
    position[diagram_order] = ids
    merge_edges = merge_edges[diagram_order]
    has_edge = merge_edges[:, 0] >= 0
    merge_edges[has_edge] = position[merge_edges[has_edge]]
    return MergeTree(
        leaf_of_point=position[basin],
        modes=peaks[diagram_order],
        births=births[diagram_order],
        deaths=deaths[diagram_order],
        merge_edges=merge_edges,
        n_components=int(L - mortal.sum()),
        min_density=float(density.min()),
        density=density,
    )
