"""Which ToMATo modes stand out from the noise: a bootstrap confidence band on prominence.

The prominence diagram of the density estimate f on the neighbourhood graph is compared with
the diagrams of bootstrap estimates f*: the points keep their places and their graph, and a
multinomial resample of the sample reweights the neighbours each density is estimated from
(the distance-to-measure density of the resampled measure, the point itself left out). The
(1 - alpha) quantile c of the bottleneck distances W(Dgm f, Dgm f*) is a confidence radius
for the diagram of the density at that scale, and a mode whose prominence exceeds 2c lies
farther from the diagonal than the band reaches: it is significant at level alpha
(the bottleneck bootstrap of Chazal, Fasy, Lecci, Michel, Rinaldo and Wasserman 2018, after
the confidence sets of Fasy et al. 2014). Keeping the graph fixed keeps the number of modes
that never die fixed, so every bootstrap distance is finite.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import gudhi
import numpy as np
from tqdm.auto import tqdm

from ._hierarchy import build_merge_tree

__all__ = ["weighted_log_dtm", "prominence_band"]

_TINY = np.finfo(np.float64).tiny


# Rows per block of the bootstrap densities: each temporary then holds about a million
# entries (8 MB, cache-sized), whatever the number of points.
_BLOCK_ENTRIES = 1 << 20


def weighted_log_dtm(distances, weights, k, dim):
    """log DTM density with neighbour weights: ``-log`` of the mean of ``d**dim`` over the
    first ``k`` units of weight along each row (rows sorted by distance)."""
    powered, log_scale = _powered(distances, dim)
    return _weighted_log_dtm(powered, log_scale, weights, k)


def _powered(distances, dim):
    """``(d / s)**dim`` and ``dim * log s``, with ``s`` the largest distance of each row: the
    part of the weighted density that every bootstrap replicate shares."""
    scale = distances.max(axis=1)
    scale = np.where(scale > 0, scale, 1.0)
    return (distances / scale[:, None]) ** dim, dim * np.log(scale)


def _weighted_log_dtm(powered, log_scale, weights, k):
    cum = np.cumsum(weights, axis=1)
    take = np.clip(k - (cum - weights), 0, weights)
    mass = np.maximum(take.sum(axis=1), 1.0)
    mean = (take * powered).sum(axis=1) / mass
    return -(np.log(np.maximum(mean, _TINY)) + log_scale)


def _diagram(tree):
    # Superlevel sets as sublevel sets of -f; modes that never die keep death +inf.
    return np.column_stack([-tree.births, -tree.deaths])


def _replicate_gap(point_weights, powered, log_scale, indices, k, u, v, reference):
    """Bottleneck distance from the reference diagram to one bootstrap replicate's, the
    density computed by blocks of rows so its temporaries stay small at a million points."""
    n = powered.shape[0]
    block = max(1, _BLOCK_ENTRIES // max(1, powered.shape[1]))
    boot = np.empty(n)
    for start in range(0, n, block):
        rows = slice(start, start + block)
        boot[rows] = _weighted_log_dtm(powered[rows], log_scale[rows],
                                       point_weights[indices[rows]], k)
    return gudhi.bottleneck_distance(reference, _diagram(build_merge_tree(boot, u, v)))


def prominence_band(density, distances, indices, u, v, k, dim, *, n_bootstrap, alpha, rng,
                    n_jobs=None, verbose=False, desc="bootstrap"):
    """The bootstrap radius ``c``: modes of prominence above ``2 c`` are significant.

    Parameters
    ----------
    density : ndarray of shape (n,)
        The fitted log-density.
    distances, indices : ndarray of shape (n, m)
        Each point's ``m >= k`` nearest other points (sorted).
    u, v : ndarray
        The neighbourhood graph's edges.
    k : int
        Neighbours of the density estimate.
    dim : float
        Exponent of the DTM density.
    n_bootstrap : int
    alpha : float in (0, 1)
    rng : numpy Generator
    n_jobs : int or None
        Threads computing replicates at once (-1: every core). The resampling weights are
        drawn from ``rng`` in replicate order in the calling thread, so the radius does not
        depend on ``n_jobs``.
    verbose : bool, default=False
        Count the finished replicates on a tqdm bar (stderr) named ``desc``; the radius does
        not depend on it.
    desc : str, default="bootstrap"

    Returns
    -------
    float
    """
    n = density.shape[0]
    reference = _diagram(build_merge_tree(density, u, v))
    powered, log_scale = _powered(distances, dim)
    workers = (os.cpu_count() or 1) if n_jobs == -1 else max(1, int(n_jobs or 1))
    workers = min(workers, n_bootstrap)

    def gap(weights):
        return _replicate_gap(weights, powered, log_scale, indices, k, u, v, reference)

    def draws():
        for _ in range(n_bootstrap):
            yield rng.multinomial(n, np.full(n, 1.0 / n)).astype(np.float64)

    gaps = []
    with tqdm(total=n_bootstrap, desc=desc, unit="replicate", disable=not verbose) as bar:
        if workers == 1:
            for w in draws():
                gaps.append(gap(w))
                bar.update(1)
        else:
            # numpy, the merge tree's compiled passes and hera release the GIL for most of a
            # replicate; at most 2 * workers weight vectors are alive at once.
            with ThreadPoolExecutor(workers) as pool:
                pending = []
                for w in draws():
                    pending.append(pool.submit(gap, w))
                    if len(pending) == 2 * workers:
                        gaps.extend(f.result() for f in pending[:workers])
                        bar.update(workers)
                        pending = pending[workers:]
                gaps.extend(f.result() for f in pending)
                bar.update(len(pending))
    return float(np.quantile(np.asarray(gaps), 1.0 - alpha))
