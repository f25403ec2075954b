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

import gudhi
import numpy as np

from ._hierarchy import build_merge_tree

__all__ = ["weighted_log_dtm", "prominence_band"]

_TINY = np.finfo(np.float64).tiny


def weighted_log_dtm(distances, weights, k, dim):
    """log DTM density with neighbour weights: ``-log`` of the mean of ``d**dim`` over the
    first ``k`` units of weight along each row (rows sorted by distance)."""
    cum = np.cumsum(weights, axis=1)
    take = np.clip(k - (cum - weights), 0, weights)
    scale = distances.max(axis=1)
    scale = np.where(scale > 0, scale, 1.0)
    mass = np.maximum(take.sum(axis=1), 1.0)
    mean = (take * (distances / scale[:, None]) ** dim).sum(axis=1) / mass
    return -(np.log(np.maximum(mean, _TINY)) + dim * np.log(scale))


def _diagram(tree):
    # Superlevel sets as sublevel sets of -f; modes that never die keep death +inf.
    return np.column_stack([-tree.births, -tree.deaths])


def prominence_band(density, distances, indices, u, v, k, dim, *, n_bootstrap, alpha, rng):
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

    Returns
    -------
    float
    """
    n = density.shape[0]
    reference = _diagram(build_merge_tree(density, u, v))
    gaps = np.empty(n_bootstrap)
    for b in range(n_bootstrap):
        weights = rng.multinomial(n, np.full(n, 1.0 / n)).astype(np.float64)
        boot = weighted_log_dtm(distances, weights[indices], k, dim)
        gaps[b] = gudhi.bottleneck_distance(reference, _diagram(build_merge_tree(boot, u, v)))
    return float(np.quantile(gaps, 1.0 - alpha))
