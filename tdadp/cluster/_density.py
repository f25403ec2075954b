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

__all__ = ["knn_distances", "knn_graph_edges", "radius_graph_edges", "log_dtm_density",
           "log_kde_density", "edges_to_csr"]

# The floor of exp(log-density) keeps duplicated points (every neighbour at distance 0) at a
# finite, very large density instead of +inf, which would make prominences infinite.
_LOG_TINY = float(np.log(np.finfo(np.float64).tiny))


def _workers(n_jobs):
    if n_jobs is None:
        return 1
    return int(n_jobs)


def knn_distances(X, k, *, n_jobs=None, tree=None):
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

    Returns
    -------
    distances : ndarray of shape (n_samples, k)
        Sorted increasingly along each row.
    indices : ndarray of shape (n_samples, k)
    """
    n = X.shape[0]
    tree = cKDTree(X) if tree is None else tree
    dist, idx = tree.query(X, k=k + 1, workers=_workers(n_jobs))
    dist = np.atleast_2d(dist).reshape(n, k + 1)
    idx = np.atleast_2d(idx).reshape(n, k + 1)
    # With duplicated points the point itself need not come first among its zero-distance
    # neighbours: drop it wherever it is, or the farthest neighbour when it is absent.
    is_self = idx == np.arange(n)[:, None]
    missing = ~is_self.any(axis=1)
    is_self[missing, -1] = True
    first = is_self.cumsum(axis=1) == 1
    drop = is_self & first
    keep = ~drop
    return dist[keep].reshape(n, k), idx[keep].reshape(n, k).astype(np.intp, copy=False)


def knn_graph_edges(indices):
    """Undirected edges (u < v, unique) of the symmetrised k-nearest-neighbour graph.

    An edge joins u and v when either is among the other's k nearest neighbours (the "or"
    symmetrisation used by Chazal et al.).
    """
    n, k = indices.shape
    rows = np.repeat(np.arange(n, dtype=np.intp), k)
    cols = indices.ravel()
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
    neither overflows nor underflows.
    """
    scale = distances.max(axis=1)
    zero = scale == 0
    safe = np.where(zero, 1.0, scale)
    ratio_mean = np.mean((distances / safe[:, None]) ** dim, axis=1)  # in [1/k, 1]
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
