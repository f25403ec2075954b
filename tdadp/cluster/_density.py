"""Neighbourhood graphs and density estimates for ToMATo.

ToMATo needs two things on a point cloud: a neighbourhood graph (the symmetrised k-nearest
neighbour graph or the radius graph) and a density estimate at every point. Both come from one
k-d tree query, so a fit queries the neighbours once.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.spatial import cKDTree
from sklearn.neighbors import KernelDensity

__all__ = ["knn_distances", "Neighbours", "knn_graph_edges", "knn_graph_arcs",
           "tied_neighbour_arcs", "arcs_to_edges", "radius_graph_edges", "log_dtm_density",
           "log_kde_density", "edges_to_csr"]

# Distances within this relative margin of each other are one distance: an embedding of a
# graph with symmetries puts nodes equally far apart (a regular simplex for disjoint cliques),
# equal up to rounding, about 1e-15 of the distance.
TIE_RTOL = 1e-9

# The floor of exp(log-density) keeps duplicated points (every neighbour at distance 0) at a
# finite, very large density instead of +inf, which would make prominences infinite.
_LOG_TINY = float(np.log(np.finfo(np.float64).tiny))


def _workers(n_jobs):
    if n_jobs is None:
        return 1
    return int(n_jobs)


def knn_distances(X, k, *, n_jobs=None, tree=None, rows=None):
    """Distances and indices of the ``k`` nearest neighbours of every point, itself excluded.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    k : int
        Number of neighbours, ``k < n_samples``.
    n_jobs : int or None
        Worker threads for the k-d tree query (-1: all cores).
    tree : scipy.spatial.cKDTree, optional
        A tree already built on ``X``.
    rows : ndarray of int, optional
        Only these points' neighbours (among all of ``X``); default every point's.

    Returns
    -------
    distances : ndarray of shape (n_samples, k), or (rows.size, k)
        Sorted increasingly along each row.
    indices : ndarray of shape (n_samples, k), or (rows.size, k)
    """
    tree = cKDTree(X) if tree is None else tree
    queried = np.arange(X.shape[0]) if rows is None else np.asarray(rows, dtype=np.intp)
    n = queried.size
    dist, idx = tree.query(X if rows is None else X[queried], k=k + 1,
                           workers=_workers(n_jobs))
    full_dist = np.atleast_2d(dist).reshape(n, k + 1)
    full_idx = np.atleast_2d(idx).reshape(n, k + 1).astype(np.intp, copy=False)
    # The point itself at distance 0 nearly always comes first: dropping that column is a view,
    # where the general rule below costs a few passes over the whole array.
    odd = np.flatnonzero(full_idx[:, 0] != queried)
    dist, idx = full_dist[:, 1:], full_idx[:, 1:]
    if odd.size:
        # With duplicated points the point itself need not come first among its zero-distance
        # neighbours: drop it wherever it is, or the farthest neighbour when it is absent.
        d, i = full_dist[odd], full_idx[odd]
        is_self = i == queried[odd][:, None]
        is_self[~is_self.any(axis=1), -1] = True
        keep = ~(is_self & (is_self.cumsum(axis=1) == 1))
        dist, idx = dist.copy(), idx.copy()
        dist[odd] = d[keep].reshape(odd.size, k)
        idx[odd] = i[keep].reshape(odd.size, k)
    return dist, idx


class Neighbours:
    """The nearest neighbours of one point cloud, queried once and re-queried only for more.

    A fit refines its scale and a selection compares several: they read the first ``k``
    columns of one query (the same neighbours a query of ``k`` would give, bar the order of
    exact ties) instead of querying again.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_jobs : int or None
        Worker threads for the k-d tree queries.
    lists : (distances, indices) or None
        Neighbours already known (as :func:`knn_distances` returns them).
    budget : callable or None
        Called with the number of neighbours before each query, to refuse one beyond the
        memory left.
    """

    def __init__(self, X, *, n_jobs=None, lists=None, budget=None):
        self.X = X
        self.n_jobs = n_jobs
        self.budget = budget
        self._tree = None
        self._dist, self._idx = (None, None) if lists is None else lists

    @property
    def tree(self):
        """A k-d tree on the points, built on first use."""
        if self._tree is None:
            self._tree = cKDTree(self.X)
        return self._tree

    @property
    def width(self):
        """Number of neighbours known without a query."""
        return 0 if self._idx is None else self._idx.shape[1]

    def nearest(self, k):
        """Distances and indices of the ``k`` nearest neighbours (views: not to be written)."""
        if k > self.width:
            if self.budget is not None:
                self.budget(k)
            self._dist, self._idx = knn_distances(self.X, k, n_jobs=self.n_jobs,
                                                  tree=self.tree)
        return self._dist[:, :k], self._idx[:, :k]


def knn_graph_arcs(indices, X=None, distances=None, *, tree=None):
    """Arcs from every point to each of its ``k`` nearest neighbours (``indices``'s columns)
    and, given the points and their distances to more than ``k`` neighbours, to every point
    tied with its ``k``-th (:func:`tied_neighbour_arcs`).

    As undirected edges they are the symmetrised k-nearest-neighbour graph's, a pair listed
    twice when each point is among the other's neighbours. The merge tree reads duplicates as
    one edge, so a fit skips :func:`knn_graph_edges`'s sort of ``n k`` keys.
    """
    n, k = indices.shape
    rows, cols = np.repeat(np.arange(n, dtype=np.intp), k), indices.ravel()
    if X is None or distances is None or distances.shape[1] <= k:
        return rows, cols
    if not np.any(distances[:, k] <= distances[:, k - 1] * (1.0 + TIE_RTOL)):
        return rows, cols
    tied_rows, tied_cols = tied_neighbour_arcs(X, distances, k, tree=tree)
    return np.concatenate([rows, tied_rows]), np.concatenate([cols, tied_cols])


def tied_neighbour_arcs(X, distances, k, *, tree=None):
    """Arcs from every point whose ``k`` nearest neighbours end inside a tie to every point as
    near as its ``k``-th.

    Where a point's ``(k+1)``-th nearest neighbour is as near as its ``k``-th (within
    :data:`TIE_RTOL`), which of the tied points make its ``k`` is decided by rounding, and
    the k-nearest-neighbour graph with it: the nodes of ten disjoint triangles, embedded at
    the vertices of a regular simplex, had their graph cut into three components, three
    "clusters" made of nothing. Joining a point to every tied one makes the graph depend on
    the distances only. A point with more than ``k`` others at distance 0 (repeated points)
    is joined to the first of them instead: one arc a point, where the tied ones would be as
    many as the repeats.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    distances : ndarray of shape (n_samples, m)
        Each point's ``m`` nearest neighbour distances (sorted), ``m > k`` to see the ties
        (else no arc).
    k : int
    tree : scipy.spatial.cKDTree or callable, optional
        A tree already built on ``X``, or a function that gives one (called only when a tie
        needs it).

    Returns
    -------
    rows, cols : ndarray of int
        The arcs (pairs may repeat those of :func:`knn_graph_arcs`).
    """
    empty = np.empty(0, dtype=np.intp)
    if distances.shape[1] <= k:
        return empty, empty
    reach = distances[:, k - 1] * (1.0 + TIE_RTOL)
    tied = np.flatnonzero(distances[:, k] <= reach)
    if tied.size == 0:
        return empty, empty
    rows, cols = [], []
    repeated = tied[reach[tied] == 0]
    if repeated.size:
        # Every repeat of such a point is one too (it has the same neighbours).
        _, first, group = np.unique(X[repeated], axis=0, return_index=True,
                                    return_inverse=True)
        rows.append(repeated)
        cols.append(repeated[first[group.ravel()]])
    spread = tied[reach[tied] > 0]
    if spread.size:
        tree = cKDTree(X) if tree is None else tree() if callable(tree) else tree
        balls = tree.query_ball_point(X[spread], reach[spread])
        sizes = np.fromiter(map(len, balls), dtype=np.intp, count=spread.size)
        rows.append(np.repeat(spread, sizes))
        cols.append(np.concatenate(balls).astype(np.intp))
    return np.concatenate(rows), np.concatenate(cols)


def knn_graph_edges(indices):
    """Undirected edges (u < v, unique) of the symmetrised k-nearest-neighbour graph.

    An edge joins u and v when either is among the other's k nearest neighbours (the "or"
    symmetrisation used by Chazal et al.).
    """
    n, k = indices.shape
    return arcs_to_edges(n, np.repeat(np.arange(n, dtype=np.intp), k), indices.ravel())


def arcs_to_edges(n, rows, cols):
    """Undirected edges (u < v, unique) of arcs between ``n`` points (loops dropped)."""
    u = np.minimum(rows, cols)
    v = np.maximum(rows, cols)
    mask = u != v
    key = _unique_sorted(u[mask].astype(np.int64) * n + v[mask])
    return (key // n).astype(np.intp), (key % n).astype(np.intp)


def _unique_sorted(key):
    # np.sort + mask: several times faster than np.unique on millions of int64 keys.
    key = np.sort(key)
    if key.size:
        keep = np.empty(key.size, dtype=bool)
        keep[0] = True
        np.not_equal(key[1:], key[:-1], out=keep[1:])
        key = key[keep]
    return key


def radius_graph_edges(X, radius, *, tree=None):
    """Undirected edges (u < v) between points at distance at most ``radius``."""
    tree = cKDTree(X) if tree is None else tree
    pairs = tree.query_pairs(radius, output_type="ndarray")
    if pairs.size == 0:
        empty = np.empty(0, dtype=np.intp)
        return empty, empty
    return pairs[:, 0].astype(np.intp), pairs[:, 1].astype(np.intp)


def log_dtm_density(distances, dim):
    """Logarithm of the distance-to-measure density estimate.

    ``log f(x) = -log( (1/k) * sum_j d_j(x)**dim )`` where ``d_1(x) <= ... <= d_k(x)`` are the
    distances from ``x`` to its ``k`` nearest other sample points. ``f`` is, up to the constant
    ``k / (n V_dim)``, the k-nearest-neighbour density estimator of Biau et al. (2011), i.e.
    ``DTM(x)**(-dim)`` for the distance to the empirical measure with exponent ``dim``; it is the
    estimate gudhi's ``Tomato(density_type="logDTM")`` uses (gudhi counts the point itself among
    the neighbours, which only adds a constant to the log-density).

    Distances are divided by the largest of each row before the power, so large ``dim``
    neither overflows nor underflows. Each row must be sorted increasingly, as
    :func:`knn_distances` returns them: the largest is the last.
    """
    scale = distances[:, -1]
    zero = scale == 0
    safe = np.where(zero, 1.0, scale)
    # The power in place and the sum divided (np.mean's arithmetic, without its overhead): a
    # stability selection computes this density for every subsample and candidate.
    ratio = distances / safe[:, None]
    np.power(ratio, dim, out=ratio)
    ratio_mean = ratio.sum(axis=1) / ratio.shape[1]  # in [1/k, 1]
    ratio_mean[zero] = 1.0  # all neighbours at distance 0: handled below
    log_mean = np.log(ratio_mean) + dim * np.log(safe)
    log_mean = np.where(zero, _LOG_TINY, np.maximum(log_mean, _LOG_TINY))
    return -log_mean


def log_kde_density(X, bandwidth):
    """Logarithm of a Gaussian kernel density estimate (scikit-learn's ``KernelDensity``)."""
    kde = KernelDensity(kernel="gaussian", bandwidth=bandwidth, rtol=1e-6)
    return kde.fit(X).score_samples(X)


def edges_to_csr(n, u, v):
    """Symmetric boolean CSR adjacency of an undirected edge list (u < v)."""
    rows = np.concatenate([u, v])
    cols = np.concatenate([v, u])
    data = np.ones(rows.size, dtype=bool)
    A = sp.csr_matrix((data, (rows, cols)), shape=(n, n))
    A.sort_indices()
    return A
