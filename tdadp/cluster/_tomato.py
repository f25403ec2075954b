"""ToMATo (Topological Mode Analysis Tool) as a scikit-learn clusterer."""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils.validation import check_is_fitted

from ..utils._batch import join_batch, map_items, split_batch
from ..utils._memory import check_memory
from ..utils._params import Interval, Options, ParamsMixin, Rule
from ..utils._random import check_random_state, item_streams, stage_tag
from ._cut import CUT_RULES, check_cut, resolve_cut
from ._density import (
    Neighbours,
    arcs_to_edges,
    knn_distances,
    knn_graph_arcs,
    log_dtm_density,
    log_kde_density,
    radius_graph_edges,
)
from ._hierarchy import build_merge_tree
from ._input import check_node_embedding, with_isolated, without_direction
from ._knn import PoolNeighbours, pool_pays
from ._plotting import plot_prominence
from ._selection import (
    AGREE_AFTER,
    candidates_agree,
    clusters_alike,
    default_k,
    has_spectral_gap,
    leading_directions,
    most_stable,
    resolve_candidate,
    stability_candidates,
    stability_subsamples,
)
from ._significance import prominence_band

__all__ = ["ToMATo", "tomato", "default_k"]

_DENSITIES = ("logDTM", "DTM", "logKDE", "KDE")
_GRAPHS = ("knn", "radius")
_METRICS = ("auto", "euclidean", "angular")
_SUBSPACES = ("auto", "full", "leading")

# scipy's k-d tree takes -1 (all cores) or a positive number of workers, as a C long.
_WORKERS = Rule("-1 or an int in [1, 2**31 - 1]",
                lambda v: isinstance(v, (numbers.Integral, np.integer))
                and not isinstance(v, (bool, np.bool_)) and (v == -1 or 1 <= v < 2**31))


def _neighbours(requested, n_samples, name, why):
    """``requested`` neighbours, clamped to the ``n_samples - 1`` other points (warned)."""
    if requested <= n_samples - 1:
        return int(requested)
    warnings.warn(
        f"{name}={requested} neighbours need at least {requested + 1} points ({why}), got "
        f"n_samples={n_samples}: using {name}={n_samples - 1} (n_samples - 1). Set {name} "
        "below n_samples to silence this warning.", UserWarning, stacklevel=4)
    return n_samples - 1


def _resolve(params, n_samples, n_features):
    """The settings of one fit: parameters validated, neighbour counts fitted to the data."""
    check_cut(params["n_clusters"], params["merge_threshold"], "ToMATo")
    if params["graph"] == "radius" and params["radius"] is None:
        raise ValueError("graph='radius' needs a radius (a positive number).")
    if params["n_clusters"] is not None and params["n_clusters"] > n_samples:
        raise ValueError(f"n_clusters={params['n_clusters']} clusters need at least as many "
                         f"points, got n_samples={n_samples}.")
    if params["subspace"] == "leading" and params["n_clusters"] is None:
        raise ValueError("subspace='leading' keeps the n_clusters leading directions: give "
                         "n_clusters, or use subspace='full'.")
    uses_dtm = params["density"] in ("logDTM", "DTM")
    k = params["k"]
    if k is None:
        k = default_k(n_samples)
    elif params["graph"] == "knn":
        k = _neighbours(k, n_samples, "k", "the k-nearest-neighbour graph")
    else:
        k = min(k, n_samples - 1)  # unused by the radius graph
    density_k = params["density_k"]
    if density_k is None:
        # Twice the graph's neighbours smooths the log-density enough for the prominences of
        # noise to stay below those of real modes (measured on ring-shaped communities).
        density_k = min(2 * k, n_samples - 1)
    elif uses_dtm:
        density_k = _neighbours(density_k, n_samples, "density_k", "the DTM density")
    else:
        density_k = min(density_k, n_samples - 1)  # unused by the kernel density
    return dict(params, k=int(k), density_k=int(density_k),
                bandwidth="scott" if params["bandwidth"] is None else params["bandwidth"],
                dim=float(n_features if params["dim"] is None else params["dim"]))


def _angular(X):
    """Rows scaled to unit length; rows with no direction (zero, or at rounding level, see
    :func:`without_direction`) are put at the origin."""
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    flat = without_direction(X)[:, None]
    return np.where(flat, 0.0, X / np.where(flat, 1.0, norms))


def _refined_fit(nb, p, n_clusters):
    """Density and merge tree with at least ``n_clusters`` modes and at most that many
    connected components: the neighbourhoods shrink by a third while the density has fewer
    modes (a finer scale shows more of them), then the graph's k grows while it has more
    components than clusters (never below the modes asked for). Every step reads the
    neighbours ``nb`` holds, querying only for more."""
    density, tree = _fit_tree(nb, p)
    n = nb.X.shape[0]
    while tree.n_modes < n_clusters and max(p["k"], p["density_k"]) > 1:
        p = dict(p, k=max(1, p["k"] * 2 // 3), density_k=max(1, p["density_k"] * 2 // 3))
        density, tree = _fit_tree(nb, p)
    while tree.n_components > n_clusters and p["graph"] == "knn" and p["k"] < n - 1:
        grown = dict(p, k=min(n - 1, 2 * p["k"]))
        g_density, g_tree = _fit_tree(nb, grown)
        if g_tree.n_modes < n_clusters:
            break
        p, density, tree = grown, g_density, g_tree
    return p, density, tree


def _fit_budget(X):
    """Refuses a fit of ``X`` with ``k`` neighbours beyond the memory left: the k-d tree (a
    copy of X and its index), the neighbours' distances and indices (twice, for the graph's
    arcs) and a few per-point arrays for the merge tree."""
    n, d = X.shape
    return lambda k: check_memory(8.0 * n * (2 * d + 4 * (k + 1) + 16), f"ToMATo on {n} "
                                  f"points in R^{d} with {k} neighbours", " Subsample the "
                                  "cloud or use fewer neighbours (k).")


def _fit_tree(nb, p):
    """Density, graph and merge tree of one validated point cloud, from its neighbours ``nb``
    (a :class:`Neighbours`, queried for as many as the fit needs)."""
    X = nb.X
    dtm = p["density"] in ("logDTM", "DTM")
    knn = p["graph"] == "knn"
    # One neighbour past the graph's k shows whether its list ends inside a tie.
    need = max(min(p["k"] + 1, X.shape[0] - 1) if knn else 0, p["density_k"] if dtm else 0)
    if need:
        dist, idx = nb.nearest(need)
    if dtm:
        log_f = log_dtm_density(dist[:, : p["density_k"]], p["dim"])
    else:
        log_f = log_kde_density(X, p["bandwidth"])
    if p["density"] in ("DTM", "KDE"):
        # Normalised to a maximum of 1: the scale of these estimates is arbitrary (and their
        # raw values overflow in high dimension); only the order and ratios matter.
        density = np.exp(log_f - log_f.max())
    else:
        density = log_f
    if knn:
        u, v = knn_graph_arcs(idx[:, : p["k"]], X, dist, tree=lambda: nb.tree)
    else:
        u, v = radius_graph_edges(X, p["radius"], tree=nb.tree)
    return density, build_merge_tree(density, u, v)


class ToMATo(ParamsMixin, ClusterMixin, BaseEstimator):
    """Persistence-based clustering (ToMATo) of a point cloud.

    ToMATo estimates a density at every point, builds a neighbourhood graph, and climbs the
    density along the graph: every point joins the cluster of its highest neighbour, and a
    local maximum starts a new cluster. Where two clusters meet, the one with the lower peak
    dies; its *prominence* (peak density minus density at the meeting point) is how deep a
    valley separates it from a higher mode. Clusters of prominence below a threshold tau are
    merged into their neighbours [1]_. The prominence diagram (:attr:`diagram_`) shows how many
    modes stand out from the noise; the number of clusters is chosen from its largest gap,
    given directly (``n_clusters``) or through ``merge_threshold``, and can be changed after
    fitting with :meth:`recut` at almost no cost.

    Unlike k-means, ToMATo does not assume convex clusters:
    concentric rings, moons or filaments are separated as long as a density valley separates
    them. It is the clusterer of choice for spectral embeddings of networks whose latent
    positions lie on curved manifolds (see :func:`tdadp.cluster.make_private_clustering`).

    Parameters
    ----------
    n_clusters : int or None, default=None
        Number of clusters to keep: the ``n_clusters`` most prominent modes survive. When
        the density has fewer modes, the neighbourhoods (``k`` and ``density_k``) shrink by
        a third until it has enough, and when the graph has more connected components, the
        graph's ``k`` doubles; :attr:`k_`, :attr:`density_k_` and :attr:`scale_refined_`
        report the scale used. A density with fewer modes even at one neighbour (points at
        equal distances, such as 2 points) gives fewer clusters, with a warning;
        :attr:`n_clusters_` says how many. More clusters than points is a ``ValueError``.
        Exclusive with ``merge_threshold``.
    merge_threshold : float or None, default=None
        Prominence threshold tau: a mode of prominence ``< tau`` is merged into the cluster it
        meets; modes of prominence ``>= tau`` and the top mode of each connected component are
        kept. Its unit is that of the density (log-density units for ``"logDTM"`` and
        ``"logKDE"``, a fraction of the maximum density for ``"DTM"`` and ``"KDE"``).
    k : int or None, default=None
        Number of nearest neighbours of each point, the point itself excluded (scikit-learn's
        convention; gudhi's ``k`` counts the point, so gudhi's ``k=16`` is this ``k=15``), for
        the k-nearest-neighbour graph, which is symmetrised (u ~ v when either is among the
        other's k nearest neighbours); a point whose k-th neighbour is as near as further
        ones (to 1e-9, rounding) is joined to all of them, so that no rounding picks its
        neighbours. None chooses it from the number of points,
        ``round(1.5 ln n)`` (:func:`default_k`; see the Notes). A given ``k`` on fewer than
        ``k + 1`` points is clamped to ``n_samples - 1`` (every other point) with a warning;
        :attr:`k_` holds the value used.
    density : {"logDTM", "DTM", "logKDE", "KDE"}, default="logDTM"
        Density estimate. ``"logDTM"``: ``-log((1/m) sum_{j<=m} d_j(x)**dim)``, with ``d_j(x)``
        the distance from ``x`` to its j-th nearest other point and ``m = density_k``: the
        log of the k-nearest-neighbour estimate of Biau et al. [2]_, ``DTM(x)**-dim`` for the
        distance to measure, as in gudhi. ``"DTM"``: its exponential, divided by its maximum.
        ``"logKDE"``/``"KDE"``: a Gaussian kernel density estimate (scikit-learn's
        ``KernelDensity``), in log scale or divided by its maximum; slower on large inputs.
        Log-densities make prominences scale-free ratios of densities, which suits data whose
        clusters have very different densities; this is why ``"logDTM"`` is the default.
    graph : {"knn", "radius"}, default="knn"
        Neighbourhood graph: the symmetrised k-nearest-neighbour graph or the graph of pairs at
        distance at most ``radius`` (where an isolated point is a cluster of its own).
    radius : float or None, default=None
        Radius of the ``"radius"`` graph (required for it, ignored otherwise).
    bandwidth : float, "scott", "silverman" or None, default=None
        Bandwidth of the kernel density estimate; None means Scott's rule.
    density_k : int or None, default=None
        Number of neighbours (the point excluded) for the DTM density; None means
        ``min(2 * k_, n_samples - 1)``. A given value above ``n_samples - 1`` is clamped with
        a warning, as ``k`` is.
    dim : float or None, default=None
        Exponent of the DTM density (the dimension of the support for the estimate of [2]_ to
        be consistent); None means the number of dimensions of the points the density is
        estimated on: the number of features, or ``n_clusters`` in the leading subspace.
    metric : {"auto", "euclidean", "angular"}, default="auto"
        Geometry of the points. ``"angular"`` scales every row to unit length first (rows of
        zeros stay at the origin), so that the clusters are directions: the geometry of the
        spectral embedding of a network whose nodes' degrees vary within a community (a
        degree-corrected block model puts each community on a ray from the origin, which no
        density mode marks), as in spherical spectral clustering [3]_. ``"auto"``: given
        ``n_clusters``, the more stable of the two (see the Notes); otherwise
        ``"euclidean"``.
    subspace : {"auto", "full", "leading"}, default="auto"
        Directions of the points the density is estimated on. ``"full"``: all features.
        ``"leading"``: the projection on the ``n_clusters`` leading right singular vectors of
        ``X`` (uncentred; for a spectral embedding, the coordinates of largest absolute eigenvalue),
        the rule of spectral clustering, where K communities span at most K dimensions [3]_;
        it needs ``n_clusters`` (with no more features than ``n_clusters`` it is the whole
        space). ``"auto"``: given ``n_clusters`` below the number of
        features and a spectral gap after it (the next eigenvalue of ``X^T X`` at most 0.8
        times the ``n_clusters``-th), the more stable of the two (see the Notes); otherwise
        ``"full"``.
    significance : float in (0, 1) or None, default=0.05
        Level of the bootstrap test that decides which modes the automatic count keeps (see
        the Notes); None uses the largest gap in the prominences instead.
    n_bootstrap : int in [1, 100000], default=100
        Bootstrap replicates of that test.
    random_state : None, int, numpy Generator or SeedSequence, default=None
        Seeds the subsamples of the stability selection (when ``n_clusters`` is given and a
        choice is left open) and the bootstrap of the automatic count.
    n_jobs : int or None, default=None
        Threads for the nearest-neighbour queries and the bootstrap replicates (None: 1, -1:
        all cores). The results do not depend on it.
    verbose : bool or int, default=False
        Show a progress bar (tqdm, on stderr) over the bootstrap replicates of the automatic
        count, the long part of a fit. The results do not depend on it.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each point, ``0 .. n_clusters_ - 1``, numbered by decreasing prominence of
        the cluster's mode (0: the most prominent, i.e. the highest peak of the first connected
        component); -1 for an isolated node (see the Notes).
    diagram_ : ndarray of shape (n_modes, 2)
        Prominence diagram: one row ``(birth, death)`` per mode (local maximum of the density on
        the graph), birth its peak density and death the density where it merges into a mode
        with a higher peak, ``-inf`` for the top mode of each connected component. Rows are in
        decreasing prominence (birth - death), the immortal modes first; a cut into ``c``
        clusters keeps the first ``c`` rows.
    modes_ : ndarray of shape (n_modes,)
        Index (row of ``X``) of the peak point of each row of :attr:`diagram_`.
    n_clusters_ : int
        Number of clusters of :attr:`labels_`.
    merge_threshold_ : float
        Threshold tau of the cut: the given ``merge_threshold``; for the bootstrap count,
        ``2 c`` (just above); for ``n_clusters`` or the largest-gap rule, the midpoint of the
        gap between the last kept and the first merged prominence (0 when no mode is merged;
        on an exact tie between them, the tied prominence: the first ``n_clusters_`` rows of
        :attr:`diagram_` are the kept modes).
    confidence_band_ : float
        Bootstrap radius ``c`` of the diagram (set by the automatic count with
        ``significance``): modes of prominence above ``2 c`` are significant.
    n_significant_modes_ : int
        Significant modes, the top mode of each connected component included.
    significant_ : bool
        Whether more than one mode is significant: False means no cluster structure stands
        out from the noise (and one cluster per connected component is returned).
    n_connected_components_ : int
        Connected components of the neighbourhood graph (modes that never die).
    density_ : ndarray of shape (n_samples,)
        Density estimate at every point (NaN at an isolated node).
    isolated_ : ndarray of bool of shape (n_samples,)
        The isolated nodes ``X`` marked (all False for a plain point cloud).
    k_ : int
        Number of neighbours used by the k-nearest-neighbour graph: ``k`` or its default,
        ``n_samples - 1`` when there are not enough points, or the refined value.
    density_k_ : int
        Number of neighbours used by the DTM density.
    scale_refined_ : bool
        Whether ``n_clusters`` made the fit change ``k_`` or ``density_k_`` from the
        selected, requested or default values.
    metric_ : str
        The metric used, ``"euclidean"`` or ``"angular"``.
    subspace_ : str
        The subspace used, ``"full"`` or ``"leading"``.
    components_ : ndarray of shape (n_features, n_clusters) or None
        The leading directions the points were projected on (``subspace_ == "leading"``),
        orthonormal columns; None otherwise.
    selection_ : list of dict or None
        The settings compared by the stability selection, one dict each (``subspace``,
        ``metric``, ``k``, ``density_k`` on the whole cloud, ``stability`` in [-1, 1],
        ``resolved``, ``alike``: whether it clustered every subsample as the most stable
        setting did, ``subsamples`` compared on); None when nothing was selected.
    n_features_in_ : int
        Number of features seen during fit.

    See Also
    --------
    tomato : The function twin, which also maps over a batch of point clouds.
    plot_prominence : Plot :attr:`diagram_` and the threshold.

    Notes
    -----
    **Automatic number of clusters.** With neither ``n_clusters`` nor ``merge_threshold``, the
    modes kept are those significantly distinct from noise (``significance=0.05``): a
    bootstrap reweights the neighbours of the density estimate ``n_bootstrap`` times (the
    points and their graph stay), and the ``1 - significance`` quantile ``c`` of the
    bottleneck distances between the bootstrap diagrams and the fitted one is a confidence
    radius for the diagram [6]_ [7]_. Modes of prominence above ``2 c``
    (:attr:`confidence_band_`), plus the top mode of each connected component, are
    significant (:attr:`n_significant_modes_`) and kept. When only one is, the fit returns
    one cluster and :attr:`significant_` is False: the data show no cluster structure at
    this scale (a uniform or Gaussian cloud, or a 34-node network, where the largest-gap
    rule below guessed a second cluster). With ``metric="auto"`` both geometries are
    tested and the one with more significant modes kept (the euclidean one on ties). The
    bootstrap applies to the ``"logDTM"`` density and costs ``n_bootstrap`` merge trees (two
    sets with ``metric="auto"``).

    With ``significance=None`` or another density, the largest-gap rule: let
    ``s_1 >= ... >= s_m`` be the finite prominences, ``s_{m+1} = 0``, and ``s_0`` stand for the
    immortal modes: the lowest of their peaks minus the lower of the density of the last merge
    (the lowest death of a mortal mode) and the 10% quantile of the density, and at least
    ``s_1``. The cut goes through the largest gap ``s_j - s_{j+1}`` (on ties the one keeping
    fewer clusters) and keeps ``n_connected_components_ + j`` clusters, at least one;
    :attr:`merge_threshold_` is the middle of that gap. It has no notion of noise: on data
    without cluster structure it may report a spurious second cluster.

    **Defaults.** The graph uses ``k = round(1.5 ln n)`` neighbours (:func:`default_k`) and
    the density twice as many. A k-nearest-neighbour graph separates clusters and keeps each
    connected when ``k`` grows like ``log n`` [4]_; a fixed ``k`` does not adapt: the former
    default of 15 (density over 30) covered half of a 34-node network, whose density then
    has a single mode, so that ``n_clusters=2`` gave one cluster (adjusted Rand index 0 on
    Zachary's karate club and on the Davis southern women, against 0.49 to 0.89 for k-means).

    **Stability selection.** Given ``n_clusters``, the choices left open (``metric="auto"``:
    euclidean or angular; ``k=None``: 0.5, 1 or 2 times :func:`default_k`; ``density_k=None``: 1
    or 2 times ``k``; ``subspace="auto"``: all features or the ``n_clusters`` leading
    directions) are compared on 10 random subsamples of 80% of the points (at most 2,000; on
    more than 4,000 points, of a random 4,000 of them, so that any two share about 1,000), each
    clustered into ``n_clusters``. The setting whose clusterings agree most (mean adjusted Rand
    index over pairs of subsamples, on their common points) wins [5]_; settings that split off a
    cluster smaller than their neighbourhoods (a stable outlier) rank last. Of the settings that
    cluster every subsample as the winner does (adjusted Rand index at least 0.95 on each,
    ``alike`` in :attr:`selection_`), the one with the fewest neighbours (``max(k, density_k)``,
    then ``k``) is kept: it gives the same clusters, and the fit's cost grows with its
    neighbours. When all settings cluster the first 3 subsamples alike (every two at 0.95 or
    more, every cluster resolved), the choice changes few labels and the comparison stops there.
    :attr:`selection_` lists the scores. On the privacy-adjusted embedding, mean adjusted Rand
    index over 10 releases (k-means, Gaussian mixture by BIC): karate club 0.67 at eps = 4
    (0.49, 0.12) and 0.88 without privacy (0.88, 0.16); Davis southern women 1.00 at eps = 4
    (0.89, 0.94) and 1.00 (0.89, 1.00); two concentric latent circles at eps = 2 (the clustering
    recipe, seeds 0 to 9) 0.89 with 1,200 + 400 nodes (one release of the 10 at 0.14) and 1.00
    with 3,000 + 1,000, where k-means scores 0. Degree-heterogeneous networks
    choose the angular metric, the circles the euclidean one. On Davis at eps = 4, 9 of the 10
    releases choose the leading subspace (all features: 0.84, with two releases at 0.12 and
    0.30); the karate club and the circles have no spectral gap after K and keep all features.
    Where the signal is weak ToMATo loses: Davis at eps = 2, 0.51 (0.65, 0.42); karate at
    eps = 2, 0.20 (0.34, 0.08).

    **Cost.** One k-d tree query for the ``max(k, density_k)`` nearest neighbours, the density,
    then the hill climbing (one compiled pass over the points by decreasing density) and a
    union-find over the earliest edge between each two basins only: about O(n k log n),
    gudhi's ``Tomato``'s work with the same neighbours, and the whole fit when ``metric``,
    ``k``, ``density_k`` and ``subspace`` are given. Re-cutting is a connected-components pass
    over the modes, O(n). The stability selection adds, per subsample and geometry compared
    (two with ``metric="auto"``, four with the leading subspace too), one k-d tree query that
    serves all its candidates (on clouds of up to about 3,000 points, where a subsample is
    80% of the cloud, one query of the cloud per geometry serves every subsample), and per
    subsample and candidate a density and a merge tree (120 for the defaults' 12 candidates,
    36 when they agree), on at most 2,000 points: a cost that does not grow with ``n``. The
    fit that follows uses the fewest neighbours that give the winner's clusters (half of
    :func:`default_k` when every setting agrees). Measured on the four-cluster mixture of
    ``benchmarks/bench_cluster.py`` on 2 shared cores (2026-11-28), against gudhi's
    ``Tomato(n_clusters=K)`` at its own defaults: with the settings given, 0.7 to 1.0 times
    its time on 10^4 to 10^6 points; with only ``n_clusters`` given, 0.75 to 1.4 times on
    10^5 and 10^6 points, where the selection is a small part of the fit, but 3.5 (K = 4,
    the comparison stopping after 3 subsamples) to 10 times (K = 2, all 10) on 10^4 points,
    where gudhi's whole fit costs less than the neighbour queries of the selection (20
    queries of 2,000 points for up to 44 neighbours at K = 2, about two thirds of its cost:
    several of gudhi's fits), whatever else is made faster. Give ``metric``, ``k``,
    ``density_k`` and ``subspace`` to skip the selection. The automatic count adds
    ``n_bootstrap`` weighted densities and merge trees per metric tried, on ``n_jobs``
    threads. Measured times: the documentation's speed page (``make bench``).

    The merge tree is built once with tau = infinity and cut afterwards; for any tau its cut
    gives the clusters of the thresholded algorithm of [1]_ (one cluster per mode of
    prominence at least tau).

    **Isolated nodes.** An embedding by :class:`~tdadp.AdjacencySpectralEmbedding` marks the
    nodes with no edge in its graph (``X.isolated``, or a DataFrame's
    ``attrs["isolated"]``): their rows carry no signal (the plain embedding puts them all at
    the origin, a spurious dense mode). They are left out of the fit with a warning and
    labelled -1; the other rows get the labels a fit on them alone gives. A plain point
    cloud marks none: a point at the origin is a point like any other.

    References
    ----------
    .. [1] F. Chazal, L. J. Guibas, S. Y. Oudot and P. Skraba, "Persistence-based clustering in
       Riemannian manifolds", Journal of the ACM 60(6), 41, 2013.
    .. [2] G. Biau, F. Chazal, D. Cohen-Steiner, L. Devroye and C. Rodriguez, "A weighted
       k-nearest neighbor density estimate for geometric inference", Electronic Journal of
       Statistics 5, 204-237, 2011.
    .. [3] J. Lei and A. Rinaldo, "Consistency of spectral clustering in stochastic block
       models", Annals of Statistics 43(1), 215-237, 2015.
    .. [4] M. Maier, M. Hein and U. von Luxburg, "Optimal construction of k-nearest-neighbor
       graphs for identifying noisy clusters", Theoretical Computer Science 410(19),
       1749-1764, 2009.
    .. [5] U. von Luxburg, "Clustering stability: an overview", Foundations and Trends in
       Machine Learning 2(3), 235-274, 2010.
    .. [6] B. T. Fasy, F. Lecci, A. Rinaldo, L. Wasserman, S. Balakrishnan and A. Singh,
       "Confidence sets for persistence diagrams", Annals of Statistics 42(6), 2301-2339,
       2014.
    .. [7] F. Chazal, B. Fasy, F. Lecci, B. Michel, A. Rinaldo and L. Wasserman, "Robust
       topological inference: distance to a measure and kernel distance", JMLR 18(159),
       1-40, 2018.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.cluster import ToMATo
    >>> rng = np.random.default_rng(0)
    >>> X = np.concatenate([rng.normal(0, 0.3, (200, 2)), rng.normal(3, 0.3, (200, 2))])
    >>> est = ToMATo().fit(X)
    >>> est.n_clusters_
    2
    >>> np.bincount(est.labels_).tolist()
    [200, 200]
    >>> est.diagram_.shape[1]
    2
    >>> int(est.recut(n_clusters=3).max())  # re-cut the stored merge tree, no refit
    2
    """

    _parameter_constraints = {
        **CUT_RULES,
        "k": [None, "positive_int"],
        "density": [Options(*_DENSITIES)],
        "graph": [Options(*_GRAPHS)],
        "radius": [None, Interval("real", 0, None, "neither")],
        "bandwidth": [None, Options("scott", "silverman"), Interval("real", 0, None, "neither")],
        "density_k": [None, "positive_int"],
        "dim": [None, Interval("real", 0, None, "neither")],
        "metric": [Options(*_METRICS)],
        "subspace": [Options(*_SUBSPACES)],
        "significance": [None, Interval("real", 0, 1, "neither")],
        # Each replicate is a merge tree: a bound keeps a typo from running for days.
        "n_bootstrap": [Interval("int", 1, 100_000, "both")],
        "random_state": ["random_state"],
        "n_jobs": [None, _WORKERS],
        "verbose": ["boolean", "nonnegative_int"],
    }

    def __init__(self, n_clusters=None, merge_threshold=None, k=None, density="logDTM",
                 graph="knn", radius=None, bandwidth=None, density_k=None, dim=None,
                 metric="auto", subspace="auto", significance=0.05, n_bootstrap=100,
                 random_state=None, n_jobs=None, verbose=False):
        self.n_clusters = n_clusters
        self.subspace = subspace
        self.significance = significance
        self.n_bootstrap = n_bootstrap
        self.random_state = random_state
        self.merge_threshold = merge_threshold
        self.k = k
        self.metric = metric
        self.density = density
        self.graph = graph
        self.radius = radius
        self.bandwidth = bandwidth
        self.density_k = density_k
        self.dim = dim
        self.n_jobs = n_jobs
        self.verbose = verbose

    def fit(self, X, y=None):
        """Compute the density, the merge tree and the clusters of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            One point cloud (for a batch of point clouds use :func:`tomato`): the rows of an
            embedding of the nodes of a graph, never the graph itself (refused). Rows it marks
            as isolated nodes are left out (see the Notes).
        y : None
            Ignored.

        Returns
        -------
        self : ToMATo
        """
        self._validate_params()
        X, isolated = check_node_embedding(self, X)
        n_rows = X.shape[0] if isolated is None else isolated.size
        self.isolated_ = np.zeros(n_rows, dtype=bool) if isolated is None else isolated
        p = _resolve(self.get_params(), X.shape[0], X.shape[1])
        # The K leading directions, when a choice of K leaves some out (and, for "auto", the
        # spectrum sets them apart from the rest).
        K = p["n_clusters"]
        components = None
        if K is not None and X.shape[1] > K and p["subspace"] != "full":
            components, values = leading_directions(X, K)
            if p["subspace"] == "auto" and not has_spectral_gap(values, K):
                components = None
        p, self.selection_ = self._select(X, p, components)
        # "auto" left unselected (no n_clusters, or a radius graph) is the whole space.
        self.subspace_ = p["subspace"] = "leading" if (
            components is not None and p["subspace"] == "leading") else "full"
        self.components_ = components if self.subspace_ == "leading" else None
        if self.components_ is not None:
            X = X @ self.components_
            if self.dim is None:
                p["dim"] = float(X.shape[1])
        automatic = p["n_clusters"] is None and p["merge_threshold"] is None
        tested = automatic and self.significance is not None and p["density"] == "logDTM"
        if tested and self.metric == "auto":
            # The automatic count in the geometry that shows more significant modes (the
            # euclidean one on ties).
            fits = [self._fit_one(X, dict(p, metric=m), tested)
                    for m in ("euclidean", "angular")]
            fit = max(fits, key=lambda f: f["n_significant"])
        else:
            fit = self._fit_one(X, p, tested)
        p, tree = fit["p"], fit["tree"]
        self.metric_ = p["metric"]
        self.scale_refined_ = fit["refined"]
        self._tree = tree
        self.k_ = p["k"]
        self.density_k_ = p["density_k"]
        self.density_ = with_isolated(fit["density"], isolated, np.nan)
        self.diagram_ = np.column_stack([tree.births, tree.deaths])
        self.modes_ = tree.modes if isolated is None else np.flatnonzero(~isolated)[tree.modes]
        self.n_connected_components_ = tree.n_components
        self._auto_threshold = None
        if tested:
            self.confidence_band_ = fit["band"]
            self.n_significant_modes_ = fit["n_significant"]
            self.significant_ = self.n_significant_modes_ > 1
            # Modes of prominence >= 2c are kept: the significant ones.
            self._auto_threshold = float(np.nextafter(2.0 * fit["band"], np.inf))
        self._apply_cut(p["n_clusters"], p["merge_threshold"])
        return self

    def _select(self, X, p, components):
        """Settings of the fit: with ``n_clusters``, the most stable of the open choices
        (``metric="auto"``, ``k=None``, ``density_k=None``, ``subspace="auto"``); else the
        defaults."""
        if components is None:
            subspaces = ("full",)
        else:
            subspaces = ("full", "leading") if p["subspace"] == "auto" else (p["subspace"],)
        candidates = stability_candidates(self.metric, self.k, self.density_k, subspaces)
        if p["n_clusters"] is None or len(candidates) == 1 or p["graph"] != "knn":
            return dict(p, metric="euclidean" if p["metric"] == "auto" else p["metric"]), None
        K = p["n_clusters"]
        rng = check_random_state(self.random_state, stage_tag("ToMATo"))
        pool, subsamples = stability_subsamples(X.shape[0], K, rng)
        settings = [resolve_candidate(c, subsamples[0].size) for c in candidates]
        need = max(max(k, density_k) for _, k, density_k in settings)
        clouds = {}
        for subspace, metric in dict.fromkeys((c["subspace"], c["metric"]) for c in candidates):
            Y, dim = X[pool], p["dim"]
            if subspace == "leading":
                Y, dim = Y @ components, float(K) if self.dim is None else p["dim"]
            clouds[subspace, metric] = _angular(Y) if metric == "angular" else Y, dim
        # One neighbour query per subsample and geometry serves all its candidates; when the
        # subsamples are most of the pool, one query of the pool serves every subsample. (On
        # larger clouds, where a subsample is half of the pool, its query once the comparison
        # goes on past the first subsamples saved 2% of a selection on 10^4 points: not done.)
        pools = None
        if pool_pays(need, subsamples[0].size, pool.size, AGREE_AFTER):
            pools = {key: PoolNeighbours(Y, need, subsamples[0].size, n_jobs=p["n_jobs"])
                     for key, (Y, _) in clouds.items()}
        labelings, resolved = [[] for _ in candidates], [True] * len(candidates)
        for s, idx in enumerate(subsamples):
            if s == AGREE_AFTER and candidates_agree(labelings, resolved):
                break  # the choice changes little: the other subsamples are not worth fitting
            if pools is not None:
                subsets = {key: (pools[key].within(idx), dim) for key, (_, dim) in clouds.items()}
            else:
                subsets = {key: (Neighbours(Y[idx], n_jobs=p["n_jobs"]), dim)
                           for key, (Y, dim) in clouds.items()}
                for sub, _ in subsets.values():
                    sub.nearest(need)
            for c, (candidate, (metric, k, density_k)) in enumerate(zip(candidates, settings)):
                sub, dim = subsets[candidate["subspace"], metric]
                q = dict(p, k=k, density_k=density_k, dim=dim, n_jobs=None)
                q, _, tree = _refined_fit(sub, q, K)
                with warnings.catch_warnings():
                    # a subsample whose density cannot give K clusters scores low, silently
                    warnings.simplefilter("ignore", UserWarning)
                    cut, _ = resolve_cut(tree, K)
                labels = np.full(pool.size, -1, dtype=np.intp)
                labels[idx] = tree.labels(cut)
                resolved[c] &= bool(np.bincount(labels[idx]).min() > q["k"])
                labelings[c].append(labels)
        best, scores, resolved = most_stable(labelings, resolved)
        # Settings that cluster every subsample as the most stable one does give its clusters:
        # the one with the fewest neighbours gives them at the least cost (the neighbour query
        # and the merge tree grow with them).
        rows = []
        for c, (candidate, score, ok) in enumerate(zip(candidates, scores, resolved)):
            metric, k, density_k = resolve_candidate(candidate, X.shape[0])
            rows.append(dict(subspace=candidate["subspace"], metric=metric, k=k,
                             density_k=density_k, stability=float(score), resolved=bool(ok),
                             alike=bool(ok == resolved[best]
                                        and clusters_alike(labelings[c], labelings[best])),
                             subsamples=len(labelings[0])))
        best = min((c for c, row in enumerate(rows) if row["alike"]),
                   key=lambda c: (max(rows[c]["k"], rows[c]["density_k"]), rows[c]["k"], c))
        chosen = rows[best]
        return dict(p, subspace=chosen["subspace"], metric=chosen["metric"], k=chosen["k"],
                    density_k=chosen["density_k"]), rows

    def _fit_one(self, X, p, tested):
        """Density and merge tree in ``p``'s metric; with ``tested``, the bootstrap band and
        the number of significant modes."""
        if p["metric"] == "angular":
            X = _angular(X)
        neighbours = None
        if tested:
            # The band needs 3 * density_k neighbours: one query serves the fit too.
            n = X.shape[0]
            m = min(n - 1, max(p["k"], 3 * p["density_k"]))
            check_memory(8.0 * n * (3 * m + 24), f"ToMATo's bootstrap band on {n} points "
                         f"with {m} neighbours", " Subsample the cloud, use fewer neighbours "
                         "(density_k), or give n_clusters or merge_threshold.")
            neighbours = knn_distances(X, m, n_jobs=p["n_jobs"])
        nb = Neighbours(X, n_jobs=p["n_jobs"], lists=neighbours, budget=_fit_budget(X))
        if p["n_clusters"] is None:
            density, tree = _fit_tree(nb, p)
            refined = False
        else:
            requested = (p["k"], p["density_k"])
            p, density, tree = _refined_fit(nb, p, p["n_clusters"])
            refined = (p["k"], p["density_k"]) != requested
        out = dict(p=p, density=density, tree=tree, refined=refined, n_significant=0)
        if tested:
            # The band is what the automatic count needs: fits given a cut skip its cost.
            band = self._band(X, p, density, neighbours)
            out["band"] = band
            out["n_significant"] = tree.n_components + int(np.sum(tree.prominences
                                                                  > 2.0 * band))
        return out

    def _band(self, X, p, density, neighbours):
        """The bootstrap radius of the fitted diagram (see :mod:`._significance`)."""
        dist, idx = neighbours
        if p["graph"] == "knn":
            u, v = arcs_to_edges(X.shape[0], *knn_graph_arcs(idx[:, : p["k"]], X, dist))
        else:
            u, v = radius_graph_edges(X, p["radius"])
        rng = check_random_state(self.random_state, stage_tag("ToMATo significance"))
        return prominence_band(density, dist, idx, u, v, p["density_k"], p["dim"],
                               n_bootstrap=self.n_bootstrap, alpha=self.significance, rng=rng,
                               n_jobs=p["n_jobs"], verbose=bool(self.verbose),
                               desc=f"ToMATo bootstrap ({p['metric']})")

    def _apply_cut(self, n_clusters, merge_threshold):
        if n_clusters is None and merge_threshold is None:
            merge_threshold = getattr(self, "_auto_threshold", None)
        c, tau = resolve_cut(self._tree, n_clusters, merge_threshold)
        isolated = getattr(self, "isolated_", None)
        if isolated is not None and not isolated.any():
            isolated = None
        self.labels_ = with_isolated(self._tree.labels(c), isolated)
        self.n_clusters_ = c
        self.merge_threshold_ = tau
        return self.labels_

    def fit_predict(self, X, y=None):
        """Fit and return the cluster labels of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        return self.fit(X).labels_

    def recut(self, n_clusters=None, merge_threshold=None):
        """Cut the fitted merge tree again, without recomputing density or graph.

        With neither argument, the automatic (largest-gap) cut. Updates :attr:`labels_`,
        :attr:`n_clusters_` and :attr:`merge_threshold_` (not the constructor parameters, so a
        later :meth:`fit` or a clone still uses those). Costs O(n).

        Parameters
        ----------
        n_clusters : int or None
            Number of clusters to keep (clamped to the feasible range, with a warning).
        merge_threshold : float or None
            Prominence threshold: modes of prominence < merge_threshold are merged.

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "_tree")
        check_cut(n_clusters, merge_threshold)
        return self._apply_cut(n_clusters, merge_threshold).copy()

    @property
    def prominences_(self):
        """Prominence (birth - death) of each row of :attr:`diagram_`; inf for immortal modes."""
        check_is_fitted(self, "diagram_")
        return self.diagram_[:, 0] - self.diagram_[:, 1]

    def plot_prominence(self, ax=None, **kwargs):
        """Plot the fitted prominence diagram, the kept modes and the threshold.

        The kept modes are the first :attr:`n_clusters_` rows of :attr:`diagram_`, the modes
        :attr:`labels_` was cut from (ties at the threshold broken as the fit broke them).

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Axes to draw on; default a new figure's.
        **kwargs
            ``merge_threshold``, ``n_clusters`` or ``band`` of :func:`plot_prominence`.

        Returns
        -------
        ax : matplotlib Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import numpy as np
        >>> from tdadp.cluster import ToMATo
        >>> rng = np.random.default_rng(0)
        >>> X = np.concatenate([rng.normal(0, 0.3, (200, 2)), rng.normal(2, 0.3, (200, 2))])
        >>> ax = ToMATo(n_clusters=2).fit(X).plot_prominence()
        >>> [t.get_text() for t in ax.get_legend().get_texts()][0]
        'kept (2)'
        """
        check_is_fitted(self, "diagram_")
        return plot_prominence(self, ax, **kwargs)


def tomato(X, *, n_clusters=None, merge_threshold=None, k=None, density="logDTM", graph="knn",
           radius=None, bandwidth=None, density_k=None, dim=None, metric="auto",
           subspace="auto", significance=0.05, n_bootstrap=100, random_state=None, n_jobs=None,
           verbose=False, return_diagram=False):
    """ToMATo cluster labels of one point cloud or of each point cloud of a batch.

    The function twin of :class:`ToMATo`; see it for the parameters.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features), or a sequence of them
        One point cloud, or a batch (a 3-D array or a list of 2-D arrays, possibly of
        different sizes), each clustered independently.
    n_clusters, merge_threshold, k, density, graph, radius, bandwidth, density_k, dim, metric,\
    subspace, significance, n_bootstrap, verbose :
        As in :class:`ToMATo`.
    random_state : None, int, numpy Generator or SeedSequence, default=None
        Seeds the subsamples that choose the metric and scale (given ``n_clusters``). Each
        point cloud of a batch gets its own stream (spawned by batch position), so an int
        gives, for a single cloud, the estimator's result with the same int.
    n_jobs : int or None, default=None
        Threads: over the point clouds of a batch, else for the neighbour queries and the
        bootstrap replicates.
    return_diagram : bool, default=False
        Also return the prominence diagram.

    Returns
    -------
    labels : ndarray of shape (n_samples,), or a list of them for a batch
    diagram : ndarray of shape (n_modes, 2), or a list of them
        Only if ``return_diagram``.

    References
    ----------
    .. [1] F. Chazal, L. J. Guibas, S. Y. Oudot and P. Skraba, "Persistence-based clustering in
       Riemannian manifolds", Journal of the ACM 60(6), 41, 2013.
    .. [2] G. Biau, F. Chazal, D. Cohen-Steiner, L. Devroye and C. Rodriguez, "A weighted
       k-nearest neighbor density estimate for geometric inference", Electronic Journal of
       Statistics 5, 204-237, 2011.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.cluster import tomato
    >>> rng = np.random.default_rng(0)
    >>> X = np.concatenate([rng.normal(0, 0.3, (100, 2)), rng.normal(3, 0.3, (100, 2))])
    >>> np.unique(tomato(X)).tolist()
    [0, 1]
    >>> len(tomato([X, X[:150]]))
    2
    """
    items, single = split_batch(X, what="point cloud")
    inner_jobs = n_jobs if single else None
    streams = item_streams(random_state, range(len(items)), stage_tag("ToMATo"))

    def run(item, stream):
        est = ToMATo(n_clusters=n_clusters, merge_threshold=merge_threshold, k=k,
                     density=density, graph=graph, radius=radius, bandwidth=bandwidth,
                     density_k=density_k, dim=dim, metric=metric, subspace=subspace,
                     significance=significance,
                     n_bootstrap=n_bootstrap, random_state=stream,
                     n_jobs=inner_jobs, verbose=verbose).fit(item)
        return (est.labels_, est.diagram_) if return_diagram else est.labels_

    outputs = map_items(run, items, streams, n_jobs=None if single else n_jobs)
    if return_diagram:
        labels = join_batch([o[0] for o in outputs], single)
        diagrams = join_batch([o[1] for o in outputs], single)
        return labels, diagrams
    return join_batch(outputs, single)
