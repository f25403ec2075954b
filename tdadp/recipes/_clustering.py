"""Node clustering of a private network in one pipeline, with ToMATo or a baseline."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import check_is_fitted

from ..cluster._blockmodel import BlockModelClustering
from ..cluster._candidates import EMBEDDING_CLUSTERERS, make_clusterer
from ..embed._embedding import AdjacencySpectralEmbedding
from ..graphs import graph_nodes, isolated_nodes
from ..io import one_graph
from ..release._base import ACCOUNTANT_RULE
from ..release._flip import EdgeFlip
from ..utils._output import TableOutputMixin
from ..utils._params import Options, ParamsMixin, check_param

__all__ = ["make_private_clustering", "PrivateClustering"]

_CLUSTERERS = ("auto",) + EMBEDDING_CLUSTERERS

# The recipe's own arguments, checked when it builds (the steps check theirs again in fit).
# epsilon = 0 is refused: pure noise leaves the adjusted embedding nothing to recover.
_ARGUMENTS = {
    "clusterer": [Options(*_CLUSTERERS)],
    "epsilon": ["positive_epsilon"],
    "n_components": [None, "positive_int"],
    "n_clusters": [None, "positive_int"],
    "random_state": ["secure_random_state"],
    "accountant": ACCOUNTANT_RULE,
}


def make_private_clustering(clusterer="auto", *, epsilon, n_components=None, n_clusters=None,
                            random_state=None, accountant=None, **clusterer_params):
    """Pipeline edgeFlip -> privacy-adjusted spectral embedding -> clusterer.

    ``fit_predict(A)`` releases the graph under epsilon-edge DP, embeds the nodes with the
    privacy-adjusted adjacency spectral embedding and returns one cluster label per node. The
    choices of ``clusterer`` give comparable pipelines: the same ``random_state`` gives the
    same private graph, hence the same embedding, so only the clustering differs.

    The budget lives in one place, the mechanism: the embedding reads the flip rate from the
    released graph (``adjust=True``), so ``pipe.set_params(mechanism__epsilon=2.0)`` is all
    it takes to change it.

    Parameters
    ----------
    clusterer : {"auto", "tomato", "kmeans", "gmm", "spectral", "spherical", "score"}, \
default="auto"
        ``"auto"``: :class:`~tdadp.cluster.BlockModelClustering`, which fits ToMATo, k-means,
        the Gaussian mixture, spectral clustering and spherical k-means and keeps the
        partition under which the release is most likely as a degree-corrected block model
        (the default: on real networks no single clusterer is best, see its Notes). Or one
        clusterer: :class:`ToMATo` (geometry and scale chosen from the data), scikit-learn's
        ``KMeans`` (``n_init=10``), a Gaussian mixture chosen by BIC over the covariance
        types (and the number of components when ``n_clusters`` is None;
        :class:`BICGaussianMixture`), the
        standard for spectral clustering of random dot-product graphs [1]_ [2]_,
        scikit-learn's ``SpectralClustering`` with ``affinity="nearest_neighbors"``, or, for
        degree-heterogeneous networks, :class:`~tdadp.cluster.SphericalKMeans` (k-means of
        the row-normalised embedding) or :class:`~tdadp.cluster.SCOREClustering` (Jin's
        ratios to the leading eigenvector).
    epsilon : float in (0, inf]
        Privacy budget of edgeFlip (the ``mechanism`` step's ``epsilon``).
    n_components : int >= 1 or None, default=None
        Embedding dimension; None chooses it from the scree plot of the release (Zhu and
        Ghodsi's profile likelihood, as :class:`AdjacencySpectralEmbedding` does).
    n_clusters : int >= 1 or None, default=None
        Number of clusters; None lets ``"auto"`` (the spectrum's count), ToMATo or the
        Gaussian mixture choose it (the others need it).
    random_state : None, int, numpy Generator, SeedSequence or "secure"
        Seeds edgeFlip (and the clusterer, when an int); "secure" for a real release.
    accountant : BudgetAccountant or None, default=None
        The ``mechanism`` step's accountant: each ``fit``/``fit_predict`` of the pipeline
        releases the graph once, charged epsilon before it is drawn (BudgetError past the
        budget). None: nothing is tracked.
    **clusterer_params
        Further parameters of the clusterer.

    Returns
    -------
    sklearn.pipeline.Pipeline
        Steps ``"mechanism"``, ``"embedding"``, ``"cluster"``; with ``"auto"``,
        ``"mechanism"`` and ``"cluster"`` (which embeds the release itself: its choice reads
        the release, and its ``embedding_`` is the embedding).

    Raises
    ------
    ValueError
        For an unknown ``clusterer``, an ``epsilon`` outside (0, inf], a bad
        ``n_components``, ``n_clusters``, ``random_state`` or ``accountant``, or a clusterer
        other than ``"auto"``, ToMATo and the Gaussian mixture without ``n_clusters``.

    References
    ----------
    .. [1] P. Rubin-Delanchy, J. Cape, M. Tang and C. E. Priebe, "A statistical
       interpretation of spectral embedding: the generalised random dot product graph",
       JRSS B 84(4), 1446-1473, 2022.
    .. [2] A. Athreya, D. E. Fishkind, M. Tang, C. E. Priebe, Y. Park, J. T. Vogelstein,
       K. Levin, V. Lyzinski, Y. Qin and D. L. Sussman, "Statistical inference on random dot
       product graphs: a survey", JMLR 18(226), 1-92, 2018.

    Examples
    --------
    >>> from tdadp import sbm, sample_grdpg
    >>> from tdadp import make_private_clustering
    >>> X = sbm([100, 100], [[0.6, 0.1], [0.1, 0.6]], random_state=0)
    >>> A = sample_grdpg(X, random_state=1)
    >>> pipe = make_private_clustering("kmeans", epsilon=2.0, n_components=2, n_clusters=2,
    ...                                random_state=0)
    >>> pipe.fit_predict(A).shape
    (200,)
    >>> pipe.set_params(mechanism__epsilon=5.0).fit_predict(A).shape
    (200,)
    >>> round(pipe.named_steps["embedding"].flip_probability_, 4)   # pi(5), read from the release
    0.0067
    """
    arguments = dict(clusterer=clusterer, epsilon=epsilon, n_components=n_components,
                     n_clusters=n_clusters, random_state=random_state, accountant=accountant)
    for name, value in arguments.items():
        check_param(value, _ARGUMENTS[name], name, "make_private_clustering")
    steps = _steps(clusterer, epsilon, n_components, n_clusters, random_state, accountant,
                   clusterer_params)
    names = ("mechanism", "embedding", "cluster") if len(steps) == 3 else ("mechanism",
                                                                            "cluster")
    return Pipeline(list(zip(names, steps)))


def _steps(clusterer, epsilon, n_components, n_clusters, random_state, accountant,
           clusterer_params):
    """The unfitted steps of the recipe: the one place both of its forms build them.

    ``(mechanism, embedding, clusterer)``, or ``(mechanism, BlockModelClustering)`` for
    ``"auto"``, which embeds the release itself (its score reads the release).
    """
    seed = random_state if isinstance(random_state, int) else None
    mechanism = EdgeFlip(epsilon, random_state=random_state, accountant=accountant)
    if clusterer == "auto":
        return (mechanism, BlockModelClustering(n_clusters=n_clusters,
                                                n_components=n_components, random_state=seed,
                                                **clusterer_params))
    return (mechanism, AdjacencySpectralEmbedding(n_components=n_components, adjust=True),
            make_clusterer(clusterer, n_clusters, seed, clusterer_params))


class PrivateClustering(TableOutputMixin, ParamsMixin, ClusterMixin, BaseEstimator):
    """Cluster the nodes of a private network, keeping the release the clusters came from.

    ``fit(G)`` releases ``G`` once under epsilon-edge DP with edgeFlip (charging
    ``accountant``, if given, before any randomness is drawn), embeds the release with the
    privacy-adjusted adjacency spectral embedding and clusters the embedded nodes. What it
    keeps is all public: the release (with its guarantee, ready for
    :func:`tdadp.io.save_release`), the embedding and the labels; nothing of ``G``. So the
    release behind published clusters can be published too, at no further cost in budget.

    It is :func:`make_private_clustering` as one estimator: the same steps, built by the same
    code, give the same labels for the same ``random_state``. Nodes with no edge in the
    release carry no signal for the embedding: they are labelled -1 (noise), with a warning
    naming how many, and the clusterer sees only the others, whichever it is (in the Pipeline
    form only ToMATo and the Gaussian mixture read the embedding's mark of them).

    Parameters
    ----------
    epsilon : float in (0, inf], default=1.0
        Privacy budget of the release (edgeFlip's ``epsilon``); inf releases the graph
        unchanged (no privacy: for comparisons only).
    n_clusters : int >= 1 or None, default=None
        Number of clusters; None lets ``"auto"`` (the eigenvalues of the release above its
        noise), ToMATo (bootstrap-tested count) or the Gaussian mixture (BIC) choose it; the
        other clusterers need it.
    clusterer : {"auto", "tomato", "kmeans", "gmm", "spectral", "spherical", "score"}, \
default="auto"
        As in :func:`make_private_clustering`: ``"auto"`` keeps, of several clusterers, the
        partition under which the release is most likely
        (:class:`~tdadp.cluster.BlockModelClustering`).
    n_components : int >= 1 or None, default=None
        Embedding dimension; None chooses it from the scree plot of the release (with
        ``"auto"``: K, the number of clusters).
    random_state : None, int, numpy Generator, SeedSequence or "secure", default=None
        Seeds the release (and the clusterer, when an int); "secure" for a real release.
    accountant : BudgetAccountant or None, default=None
        Charged epsilon by each ``fit`` (one release), before the release is drawn;
        :class:`~tdadp.dp.BudgetError` past its budget. None: nothing is tracked.
    clusterer_params : dict or None, default=None
        Further parameters of the clusterer (e.g. ``{"n_init": 20}`` for k-means).

    Attributes
    ----------
    release_ : ndarray, scipy sparse matrix or PackedAdjacency
        The released graph, carrying its guarantee and the node names of ``G``
        (:func:`tdadp.graphs.graph_guarantee`, :func:`tdadp.graphs.graph_nodes`).
    guarantee_ : PrivacyGuarantee
        The release's guarantee.
    embedding_ : LatentPositions of shape (n_nodes, d)
        The adjusted embedding of every node (d = ``n_components_``); a DataFrame indexed by
        the node names with ``set_output(transform="pandas")``.
    n_components_ : int
        Embedding dimension used.
    isolated_ : ndarray of bool of shape (n_nodes,)
        Nodes with no edge in the release (labelled -1).
    clusterer_ : estimator
        The fitted clusterer (fitted on the nodes that are not isolated); with ``"auto"`` a
        :class:`~tdadp.cluster.BlockModelClustering` fitted on the release, whose
        ``selected_``, ``scores_`` and ``candidate_labels_`` say which clusterer was kept
        and why.
    labels_ : ndarray of int of shape (n_nodes,)
        Cluster of each node, -1 for an isolated one.
    n_clusters_ : int
        Number of clusters found.

    See Also
    --------
    make_private_clustering : the same recipe as a scikit-learn Pipeline.
    tdadp.io.save_release : publish ``release_`` as an edge list with its guarantee.

    References
    ----------
    .. [1] R. Vishwanath and J. Hehir, "Signal recovery from random dot-product graphs
       under local differential privacy", AISTATS 2025.
    .. [2] F. Chazal, L. J. Guibas, S. Y. Oudot and P. Skraba, "Persistence-based clustering
       in Riemannian manifolds", J. ACM 60(6), 2013.

    Examples
    --------
    >>> from tdadp import BudgetAccountant, PrivateClustering, sample_grdpg, sbm
    >>> A = sample_grdpg(sbm([100, 100], [[0.6, 0.1], [0.1, 0.6]], random_state=0),
    ...                  random_state=1)
    >>> acc = BudgetAccountant(epsilon=3.0)
    >>> model = PrivateClustering(epsilon=2.0, n_clusters=2, clusterer="kmeans",
    ...                           n_components=2, random_state=0, accountant=acc).fit(A)
    >>> model.labels_.shape, model.guarantee_.epsilon, acc.remaining()
    ((200,), 2.0, (1.0, 0.0))
    """

    _parameter_constraints = {
        "epsilon": ["positive_epsilon"],
        "n_clusters": [None, "positive_int"],
        "clusterer": [Options(*_CLUSTERERS)],
        "n_components": [None, "positive_int"],
        "random_state": ["secure_random_state"],
        "accountant": ACCOUNTANT_RULE,
        "clusterer_params": [None, dict],
    }

    def __init__(self, epsilon=1.0, n_clusters=None, clusterer="auto", n_components=None,
                 random_state=None, accountant=None, clusterer_params=None):
        self.epsilon = epsilon
        self.n_clusters = n_clusters
        self.clusterer = clusterer
        self.n_components = n_components
        self.random_state = random_state
        self.accountant = accountant
        self.clusterer_params = clusterer_params

    def fit(self, X, y=None):
        """Release ``X`` once, embed the release and cluster its nodes.

        Parameters
        ----------
        X : graph
            One graph: a dense or sparse adjacency matrix, a networkx graph or a
            :class:`~tdadp.graphs.PackedAdjacency` (a batch is refused: the labels are
            per node of one graph).
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        # The steps are built (and k-means without n_clusters refused) before the release.
        steps = _steps(self.clusterer, self.epsilon, self.n_components, self.n_clusters,
                       self.random_state, self.accountant, dict(self.clusterer_params or {}))
        mechanism, clusterer = steps[0], steps[-1]
        embedder = steps[1] if len(steps) == 3 else None
        G = one_graph(X, "G")
        # What the number of nodes (public) already rules out is refused before the
        # release, so that it costs no budget.
        n = G.shape[0]
        if self.n_clusters is not None and self.n_clusters > n:
            raise ValueError(f"n_clusters={self.n_clusters} is more than the graph's {n} "
                             "nodes; ask for fewer clusters.")
        if self.n_components is not None and self.n_components >= n:
            raise ValueError(f"n_components={self.n_components} must be below the graph's "
                             f"{n} nodes.")
        # release_ stays a graph (ready for save_release) and the embedding is wrapped once,
        # here, whatever scikit-learn's global output setting says.
        mechanism.set_output(transform="default")
        release = mechanism.fit_transform(G)
        isolated = isolated_nodes(release)
        active = np.flatnonzero(~isolated)
        if self.n_clusters is not None and self.n_clusters > active.size:
            raise ValueError(f"n_clusters={self.n_clusters} is more than the {active.size} "
                             "node(s) with an edge in the release; ask for fewer clusters.")
        if active.size < 2:
            raise ValueError(f"the release has {active.size} node(s) with an edge: nothing "
                             "to cluster (a larger epsilon or a denser graph is needed).")
        if isolated.any():
            warnings.warn(f"{int(isolated.sum())} node(s) have no edge in the release: they "
                          "are labelled -1 (noise) and not clustered.", UserWarning,
                          stacklevel=2)
        labels = np.full(isolated.size, -1, dtype=np.int64)
        if embedder is None:
            with warnings.catch_warnings():  # the isolated nodes were reported above
                warnings.filterwarnings("ignore", message=".*have no edge", category=UserWarning)
                clusterer.fit(release)
            embedding, n_components = clusterer.embedding_, clusterer.n_components_
            signature = embedding.signature
            labels[active] = clusterer.labels_[active]
        else:
            embedder.set_output(transform="default")
            embedding = embedder.fit_transform(release)
            n_components, signature = embedder.n_components_, embedder.signature_
            points = embedding[active] if isolated.any() else embedding
            clusterer.fit(points)
            labels[active] = clusterer.labels_
        self.release_ = release
        self.guarantee_ = mechanism.guarantee_
        self.n_components_ = n_components
        self.embedding_ = self._wrap_table(embedding, index=graph_nodes(release),
                                           attrs={"signature": signature},
                                           columns=self._names(self.n_components_))
        self.isolated_ = isolated
        self.clusterer_ = clusterer
        self.labels_ = labels
        found = labels[labels >= 0]
        self.n_clusters_ = int(getattr(clusterer, "n_clusters_", np.unique(found).size))
        return self

    def fit_predict(self, X, y=None):
        """Fit on ``X`` and return the label of each node (-1 for isolated nodes).

        Parameters
        ----------
        X : graph
        y : ignored

        Returns
        -------
        labels : ndarray of int of shape (n_nodes,)
        """
        return self.fit(X).labels_

    def get_feature_names_out(self, input_features=None):
        """Column names of ``embedding_`` under pandas output.

        Parameters
        ----------
        input_features : ignored

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self, "n_components_")
        return self._names(self.n_components_)
