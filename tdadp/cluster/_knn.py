"""Nearest neighbours within the subsamples of a stability selection, from one query of their
pool.

A selection clusters 10 subsamples of one pool of points in every geometry it compares, and
each clustering reads the subsample's nearest neighbours. A point's ``k`` nearest neighbours
within a subsample are the first ``k`` members of the subsample among its nearest neighbours
in the pool, so one query of the pool, wide enough that a subsample keeps ``k`` of each
point's list, serves every subsample. The distances are a query of the subsample's, value for
value (the same pairs of points; the density is the same to the bit); the indices can differ
only in the order of neighbours at exactly equal distances, as between any two queries. The
few rows whose pool list holds fewer than ``k`` members are queried on the subsample.

It pays when a subsample is a large share of its pool: on clouds of up to 2,500 points a
subsample holds 80% of them and the pool's query needs about ``1.5 k`` neighbours a point,
against ``k`` for each of up to 10 subsamples of 0.8 times the size (5 times the lookups, 1.6
times when the comparison stops after 3 subsamples). On larger clouds a subsample holds half
of a pool of 4,000 points and the pool's query needs about ``2.7 k`` neighbours a point, more
lookups than the 3 subsamples a comparison that stops early reads: :func:`pool_pays` keeps
the queries per subsample there.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._density import Neighbours, knn_distances

__all__ = ["pool_width", "pool_pays", "PoolNeighbours"]


def pool_width(k, fraction, n_pool):
    """Neighbours to ask of each pool point so that a subsample holding ``fraction`` of the
    pool keeps ``k`` of them: the binomial mean ``k / fraction`` plus three of its standard
    deviations (in the subsample's units), at most every other point of the pool."""
    f = float(fraction)
    wide = k / f + 3.0 * math.sqrt(k * (1.0 - f)) / f
    return int(min(n_pool - 1, max(k, math.ceil(wide))))


def pool_pays(k, n_subsample, n_pool, n_subsamples):
    """Whether one query of the pool looks up no more neighbours than ``n_subsamples``
    queries of ``k`` neighbours on subsamples of ``n_subsample`` points."""
    width = pool_width(k, n_subsample / n_pool, n_pool)
    return n_pool * width <= n_subsamples * n_subsample * k


@njit(nogil=True, cache=True)
def _first_members(pool_dist, pool_idx, members, where, k):  # pragma: no cover - compiled
    """For each member, the first ``k`` entries of its pool list that are members (``where``:
    position in the subsample, -1 outside), and whether its list held fewer."""
    m = members.shape[0]
    dist = np.zeros((m, k))
    idx = np.zeros((m, k), np.int64)
    short = np.zeros(m, np.bool_)
    for i in range(m):
        p = members[i]
        c = 0
        for j in range(pool_idx.shape[1]):
            w = where[pool_idx[p, j]]
            if w >= 0:
                dist[i, c] = pool_dist[p, j]
                idx[i, c] = w
                c += 1
                if c == k:
                    break
        short[i] = c < k
    return dist, idx, short


class PoolNeighbours:
    """The ``k`` nearest neighbours within any subsample of a pool of points, from one query
    of the pool (made on first use).

    Parameters
    ----------
    Y : ndarray of shape (n_pool, n_features)
        The pool.
    k : int
        Neighbours needed within a subsample.
    n_subsample : int
        Points in each subsample (sets the width of the pool's query).
    n_jobs : int or None
        Worker threads for the k-d tree queries.
    """

    def __init__(self, Y, k, n_subsample, *, n_jobs=None):
        self.Y = Y
        self.k = int(k)
        self.width = pool_width(self.k, n_subsample / Y.shape[0], Y.shape[0])
        self.n_jobs = n_jobs
        self._lists = None

    def within(self, members):
        """A :class:`Neighbours` of the subsample ``Y[members]`` (``members``: positions in
        the pool) that knows its ``k`` nearest neighbours, indices in the subsample."""
        if self._lists is None:
            self._lists = knn_distances(self.Y, self.width, n_jobs=self.n_jobs)
        members = np.asarray(members, dtype=np.int64)
        where = np.full(self.Y.shape[0], -1, dtype=np.int64)
        where[members] = np.arange(members.size)
        dist, idx, short = _first_members(*self._lists, members, where, self.k)
        nb = Neighbours(self.Y[members], n_jobs=self.n_jobs, lists=(dist, idx))
        rows = np.flatnonzero(short)
        if rows.size:
            dist[rows], idx[rows] = knn_distances(nb.X, self.k, n_jobs=self.n_jobs,
                                                  tree=nb.tree, rows=rows)
        return nb
