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
subsamples carries over to the whole cloud. A cloud of more than 4,000 points is judged on a
random 4,000 of them (:func:`stability_subsamples`), so the cost does not grow with its size;
and when every setting clusters the first few subsamples alike the comparison stops there
(:func:`candidates_agree`): the choice would change few labels. For the same reason, of the
settings that cluster every subsample as the most stable one does (:func:`clusters_alike`),
ToMATo fits the one with the fewest neighbours: its clusters at the least cost.

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
from numba import njit

__all__ = ["default_k", "leading_directions", "has_spectral_gap", "GAP_RATIO",
           "stability_candidates", "resolve_candidate", "stability_subsamples",
           "candidates_agree", "clusters_alike", "most_stable", "adjusted_rand", "AGREE_AFTER",
           "AGREEMENT"]

# Neighbourhoods relative to the default round(1.5 ln n), and the density's neighbours
# relative to the graph's: the range the measured networks and point clouds needed.
_K_FACTORS = (0.5, 1.0, 2.0)
_DENSITY_FACTORS = (1, 2)

# The comparison stops after this many subsamples when every two candidates' clusterings of
# each agree to this adjusted Rand index: whichever is chosen then moves few labels (on the
# four clusters of benchmarks/bench_cluster.py every two settings agree to 0.97 or 0.98), and
# the other subsamples would cost more than twice as much again.
AGREE_AFTER = 3
AGREEMENT = 0.95

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
    selection's time on small clouds; the pair counts in one compiled pass, exact integers)."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    n = a.size
    if b.size != n:
        raise ValueError(f"two labelings of {n} and {b.size} points: give labels of the same "
                         "points.")
    if n < 2:
        return 1.0
    pairs, pa, pb = _pair_counts(a, b)
    if pairs < 0:
        raise ValueError("adjusted_rand needs labels that are non-negative integers.")
    # The sums of squares of counts below 2**53 are exact as floats: the arithmetic of the
    # numpy version this replaced, to the bit.
    pairs, pa, pb = pairs / 2, pa / 2, pb / 2
    expected = pa * pb / (n * (n - 1) / 2)
    top = (pa + pb) / 2
    if top == expected:  # both labelings trivial in the same way: a perfect match
        return 1.0
    return (pairs - expected) / (top - expected)


@njit(nogil=True, cache=True)
def _pair_counts(a, b):  # pragma: no cover - compiled
    """Twice the pairs of points together in both labelings, in ``a``, in ``b`` (sums of
    ``c (c - 1)`` over the contingency table, its rows, its columns); -1 for a negative
    label."""
    na = 0
    nb = 0
    for i in range(a.shape[0]):
        if a[i] < 0 or b[i] < 0:
            return -1, -1, -1
        na = max(na, a[i] + 1)
        nb = max(nb, b[i] + 1)
    table = np.zeros(na * nb, np.int64)
    rows = np.zeros(na, np.int64)
    cols = np.zeros(nb, np.int64)
    for i in range(a.shape[0]):
        table[a[i] * nb + b[i]] += 1
        rows[a[i]] += 1
        cols[b[i]] += 1
    pairs = 0
    for c in table:
        pairs += c * (c - 1)
    pa = 0
    for c in rows:
        pa += c * (c - 1)
    pb = 0
    for c in cols:
        pb += c * (c - 1)
    return pairs, pa, pb


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


def stability_subsamples(n_samples, n_clusters, rng, *, n_subsamples=10, fraction=0.8,
                         max_points=2000, max_pool=4000):
    """The points a selection looks at and its subsamples of them.

    Parameters
    ----------
    n_samples : int
    n_clusters : int
    rng : numpy Generator
    n_subsamples : int
        Subsamples drawn (the same ones for every candidate).
    fraction : float
        Share of the pool in a subsample, at most ``max_points`` points.
    max_points : int
        Largest subsample: the choice is relative to the sample size, so a large cloud is
        judged on subsamples of that size.
    max_pool : int
        Largest pool.

    Returns
    -------
    pool : ndarray of int
        Indices (sorted) of the points drawn from: all of them, or on a larger cloud a random
        ``max_pool`` of them. Subsamples of 2,000 points of a pool of 4,000 share about 1,000
        points, as on a cloud of 4,000, where subsamples of the whole cloud would share a
        number that falls like ``1 / n_samples`` (400 on 10^4 points, 4 on 10^6: too few
        for the agreement of two clusterings to mean anything). Not a smaller pool:
        subsamples of 80% of one sample all see its accidents and agree on splits that
        another sample would not show (on two concentric latent circles of 3,000 + 1,000
        nodes at eps = 1, a pool of 2,500 made a scale that cuts the rings wrongly the most
        stable in one release of ten, adjusted Rand index -0.04 against 0.95).
    subsamples : list of ndarray of int
        Positions in ``pool`` (sorted) of each subsample's points, all of one size.
    """
    n = int(n_samples)
    size = int(min(n, max_pool))
    pool = np.arange(n) if size == n else np.sort(rng.choice(n, size, replace=False))
    m = int(min(max(n_clusters + 1, round(fraction * size)), max_points, size))
    subsamples = [np.sort(rng.choice(size, m, replace=False)) for _ in range(n_subsamples)]
    return pool, subsamples


def candidates_agree(labelings, resolved, threshold=AGREEMENT):
    """Whether every candidate resolved all its clusters and every two candidates clustered
    each subsample so far alike (adjusted Rand index at least ``threshold``).

    ``labelings`` and ``resolved`` as in :func:`most_stable`.
    """
    if not all(resolved):
        return False
    for s in range(len(labelings[0])):
        inside = labelings[0][s] >= 0
        # Candidates often cluster a subsample identically: each distinct labeling once.
        distinct = list({labels[s][inside].tobytes(): labels[s][inside]
                         for labels in labelings}.values())
        if any(adjusted_rand(a, b) < threshold for a, b in itertools.combinations(distinct, 2)):
            return False
    return True


def clusters_alike(a, b, threshold=AGREEMENT):
    """Whether two candidates clustered every subsample alike: adjusted Rand index at least
    ``threshold`` on each subsample's points.

    ``a`` and ``b`` are one candidate's labelings each, as in :func:`most_stable`.
    """
    for x, y in zip(a, b):
        inside = x >= 0
        if adjusted_rand(x[inside], y[inside]) < threshold:
            return False
    return True


def most_stable(labelings, resolved):
    """The candidate whose clusterings of the subsamples agree most.

    Parameters
    ----------
    labelings : list of list of ndarray
        For every candidate, the labels of every subsample's clustering, each an array over
        the pool, -1 at the points outside the subsample.
    resolved : sequence of bool
        For every candidate, whether each of its clusterings resolved all its clusters (none
        smaller than the candidate's neighbourhoods).

    Returns
    -------
    best : int
        Index of the chosen candidate (the first on ties: the candidates' order is the
        preference).
    scores : ndarray of shape (n_candidates,)
        Stability of each candidate, in [-1, 1] (1: every subsample clustered alike): the
        mean adjusted Rand index over pairs of subsamples, on the points they share.
    resolved : ndarray of bool, shape (n_candidates,)
    """
    # Every candidate clusters the same subsamples: the points two of them share are found
    # once per pair.
    pairs = list(itertools.combinations(range(len(labelings[0])), 2))
    shared = [np.flatnonzero((labelings[0][s] >= 0) & (labelings[0][t] >= 0)) for s, t in pairs]
    scores = np.empty(len(labelings))
    for c, labels in enumerate(labelings):
        scores[c] = np.mean([adjusted_rand(labels[s][both], labels[t][both])
                             for (s, t), both in zip(pairs, shared)])
    resolved = np.asarray(resolved, dtype=bool)
    # Resolved settings first, then the most stable; the first on ties.
    best = int(np.lexsort((np.arange(len(labelings)), -scores, ~resolved))[0])
    return best, scores, resolved
