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

The subspace is a choice too. A network with K communities has an expected adjacency matrix of
rank at most K, so its K leading spectral dimensions hold the communities (the rule of spectral
clustering: Ng, Jordan and Weiss 2001; Rohe, Chatterjee and Yu 2011; Lei and Rinaldo 2015),
while an embedding dimension chosen from the scree plot may add directions along which each
community spreads. A density estimate on a few dozen points degrades fast with the dimension,
so on small networks the K leading directions can show two modes where the whole embedding
shows none (the Davis southern women at eps = 4). The leading directions are those of the
uncentred second moment: for a spectral embedding, its coordinates of largest |eigenvalue|.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

__all__ = ["default_k", "leading_directions", "has_spectral_gap", "GAP_RATIO",
           "stability_candidates", "resolve_candidate", "most_stable", "adjusted_rand"]

# Neighbourhoods relative to the default round(1.5 ln n), and the density's neighbours
# relative to the graph's: the range the measured networks and point clouds needed.
_K_FACTORS = (0.5, 1.0, 2.0)
_DENSITY_FACTORS = (1, 2)

# Largest ratio of the (K+1)-th to the K-th second-moment eigenvalue at which the K leading
# directions are offered to the selection. Measured on the privacy-adjusted embeddings of 10
# releases: Davis southern women 0.63 to 0.76 at eps >= 4 (0.69 to 0.89 at eps = 2), karate
# 0.84 to 0.99, two latent circles 0.93 to 0.995.
GAP_RATIO = 0.8


def default_k(n_samples):
    """The default neighbourhood size on ``n_samples`` points: ``round(1.5 ln n)``, at least 1
    and at most ``n - 1``.

    A k-nearest-neighbour graph keeps a cluster connected and its clusters apart when ``k``
    grows like ``log n`` (Brito et al. 1997; Maier, Hein and von Luxburg 2009); the constant
    1.5 is the one that recovered the known groups of the networks in the Notes of
    :class:`ToMATo`: 5 neighbours on 34 nodes, 12 on 4,000, 21 on a million.
    """
    n = int(n_samples)
    return int(min(max(1, round(1.5 * math.log(max(n, 2)))), max(1, n - 1)))


def leading_directions(X, n_directions):
    """The ``n_directions`` leading right singular vectors of ``X`` (uncentred) and the
    eigenvalues of the second moment ``X^T X``.

    Returns
    -------
    V : ndarray of shape (n_features, n_directions)
        Orthonormal columns, each signed so that its largest entry in absolute value is
        positive (a deterministic choice: the clusters do not depend on it).
    values : ndarray of shape (n_features,)
        The eigenvalues of ``X^T X`` (squared singular values), decreasing.

    Computed from the ``d x d`` second-moment matrix, a pass over ``X`` whatever its length.
    """
    values, vectors = np.linalg.eigh(X.T @ X)
    order = np.argsort(values)[::-1]
    V = vectors[:, order[:n_directions]]
    signs = np.sign(V[np.argmax(np.abs(V), axis=0), np.arange(V.shape[1])])
    return V * np.where(signs == 0, 1.0, signs), values[order]


def has_spectral_gap(values, n_directions):
    """Whether the ``n_directions`` leading directions are set apart from the next one:
    eigenvalue ``n_directions + 1`` at most :data:`GAP_RATIO` times eigenvalue
    ``n_directions`` of the second moment.

    Without a gap the leading subspace is not determined by the data: its perturbation is
    bounded by the noise over the gap (Davis and Kahan 1970), and a rotation-invariant
    structure, such as the plane of two concentric latent circles (eigenvalues within 1 to 7%
    of each other), has none. Keeping part of it gives cuts that are stable under subsampling
    and meaningless (adjusted Rand index 0 on the circles, where the whole space gives 1).
    """
    values = np.asarray(values, dtype=float)
    if values.size <= n_directions or values[n_directions - 1] <= 0:
        return False
    return bool(values[n_directions] <= GAP_RATIO * values[n_directions - 1])


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


def stability_candidates(metric, k, density_k, subspaces=("full",)):
    """The (subspace, metric, k factor or k, density factor or density_k) settings to compare:
    every choice left open (``metric="auto"``, ``k=None``, ``density_k=None``, more than one
    subspace) is varied, the whole space first (the preference on ties)."""
    metrics = ("euclidean", "angular") if metric == "auto" else (metric,)
    ks = [("factor", f) for f in _K_FACTORS] if k is None else [("value", k)]
    dks = [("factor", f) for f in _DENSITY_FACTORS] if density_k is None else [("value",
                                                                                density_k)]
    return [dict(subspace=s, metric=m, k=kk, density_k=dk)
            for s in subspaces for m in metrics for kk in ks for dk in dks]


def resolve_candidate(candidate, n_samples):
    """(metric, k, density_k) of a candidate on ``n_samples`` points."""
    kind, value = candidate["k"]
    k = int(round(value * default_k(n_samples))) if kind == "factor" else int(value)
    k = max(1, min(k, n_samples - 1))
    kind, value = candidate["density_k"]
    dk = int(value * k) if kind == "factor" else int(value)
    return candidate["metric"], k, max(1, min(dk, n_samples - 1))


def most_stable(n_samples, n_clusters, candidates, cluster, rng, *, n_subsamples=10,
                fraction=0.8, max_points=2000):
    """The candidate whose ``n_clusters``-clusterings of subsamples agree most.

    Parameters
    ----------
    n_samples : int
    n_clusters : int
    candidates : list
        Settings passed to ``cluster``.
    cluster : callable
        ``cluster(idx, candidate) -> (labels, resolved)`` of the subsample of the points of
        indices ``idx`` (sorted); ``resolved`` says whether every cluster is large enough for
        the candidate's scale.
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
    n = int(n_samples)
    m = int(min(max(n_clusters + 1, round(fraction * n)), max_points, n))
    subsamples = [np.sort(rng.choice(n, m, replace=False)) for _ in range(n_subsamples)]
    scores = np.empty(len(candidates))
    resolved = np.ones(len(candidates), dtype=bool)
    for c, candidate in enumerate(candidates):
        labels = []
        for idx in subsamples:
            full = np.full(n, -1, dtype=np.intp)
            full[idx], ok = cluster(idx, candidate)
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
