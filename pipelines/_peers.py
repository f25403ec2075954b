"""The clusterers analysts would run on a released network instead of tdadp's default.

Each peer is a plain function ``peer(A, n_clusters, seed) -> labels``: ``A`` is the release's
adjacency on the nodes clustered (a symmetric scipy CSR matrix with an empty diagonal, see
:func:`restrict`), ``n_clusters`` the true number of groups K (ignored by the peers that choose
their own count), ``seed`` a non-negative int from which the run is reproducible; ``labels``
is an int array of one label per row of ``A``. Every peer sees the same release and the same
nodes as the default, and none gets anything else (no node attributes, no labels).

=========================== ============================================================
peer                        what an analyst would run
=========================== ============================================================
:func:`leiden`              Leiden, modularity, its own count (leidenalg)
:func:`leiden_k`            Leiden, RB configuration model, resolution bisected to give K
:func:`louvain`             Louvain, its own count (python-igraph ``community_multilevel``)
:func:`louvain_k`           Louvain, resolution bisected to give K
:func:`sklearn_spectral`    scikit-learn ``SpectralClustering(affinity="precomputed")``
:func:`regularized_laplacian` regularised Laplacian embedding and k-means
:func:`ase_kmeans`          privacy-adjusted adjacency spectral embedding (d = K), k-means
:func:`ase_gmm`             the same embedding, a Gaussian mixture
=========================== ============================================================

leidenalg is the extra ``tdadp[peers]`` (python-igraph a dependency); both are imported when a peer
that needs them runs, so that the experiment list loads without them.
"""

from __future__ import annotations

import math
import random
from contextlib import contextmanager

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import eigsh
from sklearn.cluster import KMeans, SpectralClustering
from sklearn.mixture import GaussianMixture

from tdadp.embed import AdjacencySpectralEmbedding
from tdadp.graphs import PackedAdjacency, graph_guarantee, tag_graph

__all__ = ["PEERS", "restrict", "leiden", "leiden_k", "louvain", "louvain_k",
           "sklearn_spectral", "regularized_laplacian", "ase_kmeans", "ase_gmm"]

# The resolution search of the "_k" peers: bisection of log(resolution) between these bounds
# (modularity's resolution 1 in the middle, a thousandfold either way) for at most this many
# steps, each one run of the method: after 12 halvings the resolutions left differ by 0.3%.
RESOLUTION_RANGE = (1e-3, 1e3)
RESOLUTION_STEPS = 12
# scikit-learn's spectral clustering solves with ARPACK in shift-invert mode (its default),
# whose sparse LU fills in on a release (the flipped edges are random): on the 19,717 nodes of
# pubmed's release at eps = 8 it ran for minutes, LOBPCG (its other solver without an extra
# dependency) in a second. Above this many nodes the peer uses LOBPCG.
_LOBPCG_NODES = 2000
# Below this many nodes the eigenvectors come from a dense symmetric solver (LAPACK), above
# from ARPACK on the sparse matrix.
_DENSE_EIGEN_NODES = 1000
_N_INIT = 10


def restrict(release, nodes):
    """The release's adjacency on ``nodes``, as CSR, carrying the release's guarantee.

    edgeFlip flips each dyad independently at one rate, so the dyads among any set of nodes
    are a release of the induced subgraph at that rate: the subgraph keeps the guarantee, from
    which the privacy-adjusted embedding reads the rate (a plain slice would drop it).

    Parameters
    ----------
    release : ndarray, scipy sparse matrix or PackedAdjacency of shape (n, n)
        A release of a tdadp mechanism.
    nodes : int array
        The rows kept, in this order.

    Returns
    -------
    scipy.sparse.csr_matrix of shape (len(nodes), len(nodes)), float64
    """
    nodes = np.asarray(nodes)
    if isinstance(release, PackedAdjacency):  # one bit per dyad: large releases
        sub = release.tocsr().astype(np.float64)[nodes][:, nodes]
    elif sp.issparse(release):
        sub = sp.csr_matrix(release, dtype=np.float64)[nodes][:, nodes]
    else:
        sub = sp.csr_matrix(np.asarray(release)[np.ix_(nodes, nodes)], dtype=np.float64)
    sub.setdiag(0)
    sub.eliminate_zeros()
    return tag_graph(sub, guarantee=graph_guarantee(release))


# --- modularity: Leiden and Louvain ----------------------------------------------------------


def _igraph_graph(A):
    """The undirected igraph graph of the CSR adjacency ``A`` (one edge per nonzero of its
    upper triangle)."""
    import igraph

    upper = sp.triu(A, k=1, format="coo")
    edges = np.column_stack([upper.row, upper.col]).tolist()
    return igraph.Graph(n=A.shape[0], edges=edges, directed=False)


@contextmanager
def _igraph_seeded(seed):
    """igraph's random numbers from ``random.Random(seed)`` inside the block; igraph's default
    generator (the ``random`` module) restored after it."""
    import igraph

    igraph.set_random_number_generator(random.Random(seed))
    try:
        yield
    finally:
        igraph.set_random_number_generator(random)


def _bisect_resolution(run, n_clusters):
    """Labels of ``run(resolution)`` whose count is ``n_clusters``, else the closest count.

    Bisection of log(resolution) over :data:`RESOLUTION_RANGE` for at most
    :data:`RESOLUTION_STEPS` runs: a higher resolution gives more communities, so a count
    below K moves the lower bound up, above K the upper bound down. The count is not strictly
    monotone in the resolution; the run closest to K (the earliest among equals) is kept.
    """
    low, high = (math.log(r) for r in RESOLUTION_RANGE)
    best, best_gap = None, math.inf
    for _ in range(RESOLUTION_STEPS):
        middle = (low + high) / 2
        labels = run(math.exp(middle))
        found = int(np.unique(labels).size)
        if abs(found - n_clusters) < best_gap:
            best, best_gap = labels, abs(found - n_clusters)
        if found == n_clusters:
            break
        if found < n_clusters:
            low = middle
        else:
            high = middle
    return best


def _leiden(A, partition, seed, **kwargs):
    import leidenalg

    found = leidenalg.find_partition(_igraph_graph(A), partition, seed=seed, **kwargs)
    return np.asarray(found.membership)


def leiden(A, n_clusters, seed):
    """Leiden on the release, maximising modularity: its own number of communities.

    ``leidenalg.find_partition(graph, ModularityVertexPartition, seed=seed)`` with the
    package's defaults (two iterations); ``n_clusters`` is not used.

    References
    ----------
    V. A. Traag, L. Waltman and N. J. van Eck, "From Louvain to Leiden: guaranteeing
    well-connected communities", Scientific Reports 9, 5233 (2019); the package leidenalg.
    """
    import leidenalg

    return _leiden(A, leidenalg.ModularityVertexPartition, seed)


def leiden_k(A, n_clusters, seed):
    """Leiden with the resolution that gives ``n_clusters`` communities.

    ``leidenalg.find_partition(graph, RBConfigurationVertexPartition,
    resolution_parameter=r, seed=seed)`` (modularity with resolution ``r``, Reichardt and
    Bornholdt's configuration null model), ``r`` bisected on a log scale in [1e-3, 1e3] for at
    most 12 runs until the count is K; if no run gives K, the run whose count is closest.

    References
    ----------
    V. A. Traag, L. Waltman and N. J. van Eck, Scientific Reports 9, 5233 (2019);
    J. Reichardt and S. Bornholdt, "Statistical mechanics of community detection", Physical
    Review E 74, 016110 (2006).
    """
    import leidenalg

    def run(resolution):
        return _leiden(A, leidenalg.RBConfigurationVertexPartition, seed,
                       resolution_parameter=resolution)

    return _bisect_resolution(run, n_clusters)


def _louvain(A, seed, resolution=1.0):
    graph = _igraph_graph(A)
    with _igraph_seeded(seed):
        found = graph.community_multilevel(resolution=resolution)
    return np.asarray(found.membership)


def louvain(A, n_clusters, seed):
    """Louvain on the release, maximising modularity: its own number of communities.

    python-igraph's ``Graph.community_multilevel()`` with its defaults (resolution 1, the
    last level); igraph's random numbers come from ``random.Random(seed)``.
    ``n_clusters`` is not used.

    References
    ----------
    V. D. Blondel, J.-L. Guillaume, R. Lambiotte and E. Lefebvre, "Fast unfolding of
    communities in large networks", J. Stat. Mech. P10008 (2008); the package python-igraph.
    """
    return _louvain(A, seed)


def louvain_k(A, n_clusters, seed):
    """Louvain with the resolution that gives ``n_clusters`` communities.

    ``Graph.community_multilevel(resolution=r)``, ``r`` bisected on a log scale in [1e-3, 1e3]
    for at most 12 runs until the count is K; if no run gives K, the run whose count is
    closest. Each run seeded with ``seed``.

    References
    ----------
    V. D. Blondel et al., J. Stat. Mech. P10008 (2008); resolution as in J. Reichardt and
    S. Bornholdt, Physical Review E 74, 016110 (2006).
    """
    return _bisect_resolution(lambda r: _louvain(A, seed, r), n_clusters)


# --- spectral: normalised and regularised Laplacians ----------------------------------------


def sklearn_spectral(A, n_clusters, seed):
    """scikit-learn's spectral clustering with the release as the affinity matrix.

    ``SpectralClustering(n_clusters=K, affinity="precomputed",
    random_state=seed).fit_predict(A)``: the normalised Laplacian's K leading eigenvectors
    (ARPACK, scikit-learn's default; LOBPCG, ``eigen_solver="lobpcg"``, above 2,000 nodes,
    where ARPACK's shift-invert takes minutes on a release), then k-means.

    References
    ----------
    A. Y. Ng, M. I. Jordan and Y. Weiss, "On spectral clustering: analysis and an algorithm",
    NIPS 14 (2001); U. von Luxburg, "A tutorial on spectral clustering", Statistics and
    Computing 17, 395-416 (2007); scikit-learn.
    """
    solver = "lobpcg" if A.shape[0] > _LOBPCG_NODES else "arpack"
    model = SpectralClustering(n_clusters=n_clusters, affinity="precomputed",
                               random_state=seed, eigen_solver=solver)
    return model.fit_predict(A)


def _leading_eigenvectors(M, k, seed):
    """The ``k`` eigenvectors of the symmetric ``M`` with the largest (algebraic)
    eigenvalues."""
    n = M.shape[0]
    if n <= _DENSE_EIGEN_NODES or k >= n - 1:
        _, V = np.linalg.eigh(M.toarray())
        return V[:, -k:]
    v0 = np.random.default_rng(seed).uniform(-1.0, 1.0, n)
    _, V = eigsh(M, k=k, which="LA", v0=v0)
    return V


def regularized_laplacian(A, n_clusters, seed):
    """Regularised spectral clustering: k-means on the rows of the regularised Laplacian's
    leading eigenvectors.

    ``L_tau = D_tau^{-1/2} A D_tau^{-1/2}`` with ``D_tau = D + tau I``, ``D`` the degrees and
    ``tau`` the mean degree of the release; its K eigenvectors with the largest eigenvalues,
    each row scaled to unit length, then ``KMeans(K, n_init=10, random_state=seed)``.

    References
    ----------
    T. Qin and K. Rohe, "Regularized spectral clustering under the degree-corrected stochastic
    blockmodel", NIPS 26 (2013); A. A. Amini, A. Chen, P. J. Bickel and E. Levina,
    "Pseudo-likelihood methods for community detection in large sparse networks", Annals of
    Statistics 41, 2097-2122 (2013).
    """
    degrees = np.asarray(A.sum(axis=1)).ravel()
    tau = degrees.mean()
    scale = sp.diags(1.0 / np.sqrt(degrees + tau))
    V = _leading_eigenvectors(sp.csr_matrix(scale @ A @ scale), n_clusters, seed)
    norms = np.linalg.norm(V, axis=1, keepdims=True)
    V = V / np.where(norms > 0, norms, 1.0)
    return KMeans(n_clusters, n_init=_N_INIT, random_state=seed).fit_predict(V)


# --- adjacency spectral embedding ------------------------------------------------------------


def _ase(A, n_clusters):
    """tdadp's privacy-adjusted adjacency spectral embedding with d = K (the flip rate read
    from the release ``A`` carries)."""
    return np.asarray(AdjacencySpectralEmbedding(n_components=n_clusters, adjust=True)
                      .fit_transform(A))


def ase_kmeans(A, n_clusters, seed):
    """k-means on the privacy-adjusted adjacency spectral embedding with d = K.

    ``AdjacencySpectralEmbedding(n_components=K, adjust=True)`` (the embedding of
    ``(A - pi (11^T - I)) / (1 - 2 pi)``, ``pi`` the release's flip rate), then
    ``KMeans(K, n_init=10, random_state=seed)``. ``A`` must carry its release (see
    :func:`restrict`).

    References
    ----------
    D. L. Sussman, M. Tang, D. E. Fishkind and C. E. Priebe, "A consistent adjacency spectral
    embedding for stochastic blockmodel graphs", JASA 107, 1119-1128 (2012); the adjustment:
    Prop. 1 of the edgeFlip paper (tdadp's :class:`~tdadp.embed.AdjacencySpectralEmbedding`).
    """
    return KMeans(n_clusters, n_init=_N_INIT, random_state=seed).fit_predict(
        _ase(A, n_clusters))


def ase_gmm(A, n_clusters, seed):
    """A Gaussian mixture on the privacy-adjusted adjacency spectral embedding with d = K.

    The embedding of :func:`ase_kmeans`, then ``GaussianMixture(K, n_init=10,
    random_state=seed)`` (full covariances).

    References
    ----------
    A. Athreya, D. E. Fishkind, M. Tang, C. E. Priebe et al., "Statistical inference on
    random dot product graphs: a survey", JMLR 18(226), 1-92 (2018) (ASE followed by a
    Gaussian mixture); scikit-learn.
    """
    return GaussianMixture(n_clusters, n_init=_N_INIT, random_state=seed).fit_predict(
        _ase(A, n_clusters))


PEERS = {
    "leiden": leiden,
    "leiden_k": leiden_k,
    "louvain": louvain,
    "louvain_k": louvain_k,
    "sklearn_spectral": sklearn_spectral,
    "regularized_laplacian": regularized_laplacian,
    "ase_kmeans": ase_kmeans,
    "ase_gmm": ase_gmm,
}
