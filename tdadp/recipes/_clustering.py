"""Node clustering of a private network in one pipeline, with ToMATo or a baseline."""

from __future__ import annotations

from sklearn.cluster import KMeans, SpectralClustering
from sklearn.pipeline import Pipeline

from ..cluster._gmm import BICGaussianMixture
from ..cluster._tomato import ToMATo
from ..embed._embedding import AdjacencySpectralEmbedding
from ..release._base import ACCOUNTANT_RULE
from ..release._flip import EdgeFlip
from ..utils._params import Options, check_param

__all__ = ["make_private_clustering"]

_CLUSTERERS = ("tomato", "kmeans", "gmm", "spectral")

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


def make_private_clustering(clusterer="tomato", *, epsilon, n_components=None, n_clusters=None,
                            random_state=None, accountant=None, **clusterer_params):
    """Pipeline edgeFlip -> privacy-adjusted spectral embedding -> clusterer.

    ``fit_predict(A)`` releases the graph under epsilon-edge DP, embeds the nodes with the
    privacy-adjusted adjacency spectral embedding and returns one cluster label per node. The
    three choices of ``clusterer`` give comparable pipelines: the same ``random_state`` gives
    the same private graph, hence the same embedding, so only the last step differs.

    The budget lives in one place, the mechanism: the embedding reads the flip rate from the
    released graph (``adjust=True``), so ``pipe.set_params(mechanism__epsilon=2.0)`` is all
    it takes to change it.

    Parameters
    ----------
    clusterer : {"tomato", "kmeans", "gmm", "spectral"}, default="tomato"
        :class:`ToMATo` (geometry and scale chosen from the data), scikit-learn's ``KMeans``
        (``n_init=10``), a Gaussian mixture chosen by BIC over the covariance types (and the
        number of components when ``n_clusters`` is None; :class:`BICGaussianMixture`), the
        standard for spectral clustering of random dot-product graphs [1]_ [2]_, or
        scikit-learn's ``SpectralClustering`` with ``affinity="nearest_neighbors"``.
    epsilon : float in (0, inf]
        Privacy budget of edgeFlip (the ``mechanism`` step's ``epsilon``).
    n_components : int >= 1 or None, default=None
        Embedding dimension; None chooses it from the scree plot of the release (Zhu and
        Ghodsi's profile likelihood, as :class:`AdjacencySpectralEmbedding` does).
    n_clusters : int >= 1 or None, default=None
        Number of clusters; None lets ToMATo or the Gaussian mixture choose it (k-means and
        spectral clustering need it).
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
        Steps ``"mechanism"``, ``"embedding"``, ``"cluster"``.

    Raises
    ------
    ValueError
        For an unknown ``clusterer``, an ``epsilon`` outside (0, inf], a bad
        ``n_components``, ``n_clusters``, ``random_state`` or ``accountant``, or k-means / spectral
        clustering without ``n_clusters``.

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
    seed = random_state if isinstance(random_state, int) else None
    if clusterer == "tomato":
        params = dict(random_state=seed)
        params.update(clusterer_params)
        last = ToMATo(n_clusters=n_clusters, **params)
    elif clusterer == "gmm":
        params = dict(random_state=seed)
        params.update(clusterer_params)
        last = BICGaussianMixture(n_clusters=n_clusters, **params)
    else:
        if n_clusters is None:
            raise ValueError(f"clusterer={clusterer!r} needs n_clusters.")
        if clusterer == "kmeans":
            params = dict(n_init=10, random_state=seed)
            params.update(clusterer_params)
            last = KMeans(n_clusters=n_clusters, **params)
        else:
            params = dict(affinity="nearest_neighbors", random_state=seed)
            params.update(clusterer_params)
            last = SpectralClustering(n_clusters=n_clusters, **params)
    return Pipeline([
        ("mechanism", EdgeFlip(epsilon, random_state=random_state, accountant=accountant)),
        ("embedding", AdjacencySpectralEmbedding(n_components=n_components, adjust=True)),
        ("cluster", last),
    ])
