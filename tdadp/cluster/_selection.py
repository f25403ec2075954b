"""Choosing ToMATo's geometry and scale from the data: the most stable clustering.

For a given number of clusters K, each candidate setting (metric, graph neighbours, density
neighbours) clusters random subsamples of the points into K clusters; its *stability* is the
mean adjusted Rand index between the clusterings of every two subsamples, on the points they
share. The setting whose clusterings agree most across subsamples is kept (clustering
stability: Ben-Hur, Elisseeff and Guyon 2002; Lange, Roth, Braun and Buhmann 2004; von Luxburg
2010). The adjusted Rand index scores a cut that splits off a few noise points near 0, so an
unstable noise mode does not win by keeping one big cluster. A stable one does: a far outlier
split off alone in every subsample is a perfectly stable, useless cut. So a setting whose
subsample clusterings have a cluster smaller than its neighbourhoods (``k + 1`` points, below
which the density at that scale cannot resolve a mode) ranks after every setting that
resolves all its clusters.

Neighbour counts are relative to :func:`default_k` of the sample size, so a setting chosen on
subsamples carries over to the whole cloud.
"""

from __future__ import annotations

import itertools

import numpy as np

__all__ = ["stability_candidates", "most_stable", "adjusted_rand"]

# Neighbourhoods relative to the default round(1.5 ln n), and the density's neighbours
# relative to the graph's: the range the measured networks and point clouds needed.
_K_FACTORS = (0.5, 1.0, 2.0)
_DENSITY_FACTORS = (1, 2)


def adjusted_rand(a, b):
    """The adjusted Rand index of two labelings by non-negative integers (scikit-learn's
    ``adjusted_rand_score``, without its input validation, which took three quarters of a
    selection's time on small clouds)."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    n = a.size
    if n < 2:
        return 1.0
    table = np.bincount(a * (int(b.max()) + 1) + b).astype(np.float64)
    pairs = float((table * (table - 1)).sum() / 2)
    rows = np.bincount(a).astype(np.float64)
    cols = np.bincount(b).astype(np.float64)
    pa = float((rows * (rows - 1)).sum() / 2)
    pb = float((cols * (cols - 1)).sum() / 2)
    expected = pa * pb / (n * (n - 1) / 2)
    top = (pa + pb) / 2
    if top == expected:  # both labelings trivial in the same way: a perfect match
        return 1.0
    return (pairs - expected) / (top - expected)


def stability_candidates(metric, k, density_k):
    """The (metric, k factor or k, density factor or density_k) settings to compare: every
    choice left open (``metric="auto"``, ``k=None``, ``density_k=None``) is varied."""
    metrics = ("euclidean", "angular") if metric == "auto" else (metric,)
    ks = [("factor", f) for f in _K_FACTORS] if k is None else [("value", k)]
    dks = [("factor", f) for f in _DENSITY_FACTORS] if density_k is None else [("value",
                                                                                density_k)]
    return [dict(metric=m, k=kk, density_k=dk) for m in metrics for kk in ks for dk in dks]


def resolve_candidate(candidate, n_samples, default_k):
    """(metric, k, density_k) of a candidate on ``n_samples`` points."""
    kind, value = candidate["k"]
    k = int(round(value * default_k(n_samples))) if kind == "factor" else int(value)
    k = max(1, min(k, n_samples - 1))
    kind, value = candidate["density_k"]
    dk = int(value * k) if kind == "factor" else int(value)
    return candidate["metric"], k, max(1, min(dk, n_samples - 1))


def most_stable(X, n_clusters, candidates, cluster, rng, *, n_subsamples=10, fraction=0.8,
                max_points=2000):
    """The candidate whose ``n_clusters``-clusterings of subsamples agree most.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    n_clusters : int
    candidates : list
        Settings passed to ``cluster``.
    cluster : callable
        ``cluster(Y, candidate) -> (labels, resolved)`` of a subsample ``Y``; ``resolved``
        says whether every cluster is large enough for the candidate's scale.
    rng : numpy Generator
    n_subsamples : int
        Subsamples drawn (the same ones for every candidate).
    fraction : float
        Share of the points in a subsample, at most ``max_points`` points (the choice is
        relative to the sample size, so large clouds are judged on subsamples of that size).

    Returns
    -------
    best : int
        Index of the chosen candidate (the first on ties: the candidates' order is the
        preference).
    scores : ndarray of shape (n_candidates,)
        Stability of each candidate, in [-1, 1] (1: every subsample clustered alike).
    resolved : ndarray of bool, shape (n_candidates,)
        Whether every subsample clustering of the candidate resolved all its clusters.
    """
    n = X.shape[0]
    m = int(min(max(n_clusters + 1, round(fraction * n)), max_points, n))
    subsamples = [np.sort(rng.choice(n, m, replace=False)) for _ in range(n_subsamples)]
    scores = np.empty(len(candidates))
    resolved = np.ones(len(candidates), dtype=bool)
    for c, candidate in enumerate(candidates):
        labels = []
        for idx in subsamples:
            full = np.full(n, -1, dtype=np.intp)
            full[idx], ok = cluster(X[idx], candidate)
            resolved[c] &= bool(ok)
            labels.append(full)
        agreement = []
        for a, b in itertools.combinations(labels, 2):
            both = (a >= 0) & (b >= 0)
            agreement.append(adjusted_rand(a[both], b[both]))
        scores[c] = np.mean(agreement)
    # Resolved settings first, then the most stable; the first on ties.
    best = int(np.lexsort((np.arange(len(candidates)), -scores, ~resolved))[0])
    return best, scores, resolved
