"""Clusterers for degree-heterogeneous networks: the direction of a node's embedding, not its
length.

Under a degree-corrected block model a node's latent position is its block's position scaled
by its own degree parameter, so the nodes of one block lie along a ray from the origin, not
around a point; k-means and Gaussian mixtures then split the blocks by degree. Two standard
fixes, both here as scikit-learn clusterers of an embedding:

- :class:`SphericalKMeans`: k-means of the row-normalised embedding (each node's direction,
  a point on the unit sphere), as in spherical spectral clustering [1]_ [2]_;
- :class:`SCOREClustering`: Jin's SCORE [3]_, k-means of the entrywise ratios of the
  eigenvectors to the leading one, which cancels the degree parameter exactly.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.cluster import KMeans

from ..utils._params import ParamsMixin
from ..utils._random import check_random_state, stage_tag
from ._input import NOISE, check_node_embedding, with_isolated, without_direction

__all__ = ["SphericalKMeans", "SCOREClustering"]

_CONSTRAINTS = {
    "n_clusters": ["positive_int"],
    "n_init": ["positive_int"],
    "random_state": ["random_state"],
}


def _kmeans_seed(random_state, name):
    """An int seed for scikit-learn's KMeans from any tdadp random_state (None stays None)."""
    if random_state is None:
        return None
    rng = check_random_state(random_state, stage_tag(name))
    return int(rng.integers(2**31 - 1))


class _DirectionClusterer(ParamsMixin, ClusterMixin, BaseEstimator):
    """k-means of a degree-free transform of the embedding; subclasses define ``_features``."""

    _parameter_constraints = _CONSTRAINTS

    def __init__(self, n_clusters=2, n_init=10, random_state=None):
        self.n_clusters = n_clusters
        self.n_init = n_init
        self.random_state = random_state

    def fit(self, X, y=None):
        """Cluster the nodes of the embedding ``X``.

        Parameters
        ----------
        X : array-like of shape (n_nodes, n_components)
            An embedding of the nodes (a graph is refused); rows it marks as isolated nodes
            are left out and labelled -1.
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        points, isolated = check_node_embedding(self, X)
        if self.n_clusters > points.shape[0]:
            raise ValueError(f"n_clusters={self.n_clusters} is more than the "
                             f"{points.shape[0]} nodes to cluster.")
        undefined = self._undefined(points)
        if undefined.any():
            # Besides isolated nodes, nodes outside the components the leading eigenvectors
            # describe: their rows are rounding noise, their direction meaningless.
            warnings.warn(f"{int(undefined.sum())} row(s) of the embedding are zero (or "
                          "shorter than 1.5e-8 times the longest) and have no direction: "
                          f"they are labelled {NOISE} (noise).", UserWarning, stacklevel=2)
            if points.shape[0] - int(undefined.sum()) < self.n_clusters:
                raise ValueError(f"n_clusters={self.n_clusters} is more than the "
                                 f"{points.shape[0] - int(undefined.sum())} rows with a "
                                 "direction.")
        features = self._features(points[~undefined])
        seed = _kmeans_seed(self.random_state, type(self).__name__)
        self.kmeans_ = KMeans(self.n_clusters, n_init=self.n_init, random_state=seed)
        labels = with_isolated(self.kmeans_.fit_predict(features),
                               undefined if undefined.any() else None)
        self.labels_ = with_isolated(labels, isolated)
        self.n_clusters_ = int(np.unique(labels[labels != NOISE]).size)
        self.isolated_ = (np.zeros(self.labels_.shape[0], dtype=bool) if isolated is None
                          else isolated)
        return self

    def _undefined(self, X):
        """Rows the transform cannot place (none by default)."""
        return np.zeros(X.shape[0], dtype=bool)

    def fit_predict(self, X, y=None):
        """Fit and return the label of each node (-1 for an isolated one).

        Parameters
        ----------
        X : array-like of shape (n_nodes, n_components)
        y : ignored

        Returns
        -------
        labels : ndarray of shape (n_nodes,)
        """
        return self.fit(X).labels_


class SphericalKMeans(_DirectionClusterer):
    """k-means of the row-normalised embedding: nodes clustered by direction.

    Each row is divided by its Euclidean norm and k-means (``n_init`` restarts, k-means++)
    clusters the resulting points of the unit sphere. A row of norm zero has no direction:
    it is labelled -1 (noise) with a warning, as the isolated nodes an embedding marks are.

    Parameters
    ----------
    n_clusters : int >= 1, default=2
        Number of clusters.
    n_init : int >= 1, default=10
        k-means restarts.
    random_state : None, int or numpy Generator, default=None
        Seeds the k-means initialisations.

    Attributes
    ----------
    labels_ : ndarray of int of shape (n_nodes,)
        Cluster of each node, -1 for an isolated one.
    n_clusters_ : int
        Number of clusters found.
    kmeans_ : sklearn.cluster.KMeans
        The k-means fitted on the directions.
    isolated_ : ndarray of bool of shape (n_nodes,)
        The isolated nodes ``X`` marked.
    n_features_in_ : int

    References
    ----------
    .. [1] K. Rohe, S. Chatterjee and B. Yu, "Spectral clustering and the high-dimensional
       stochastic blockmodel", Ann. Statist. 39(4), 1878-1915, 2011.
    .. [2] T. Qin and K. Rohe, "Regularized spectral clustering under the degree-corrected
       stochastic blockmodel", NeurIPS 2013.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.1], [5.0, 0.4], [0.2, 1.0], [0.5, 3.0]])
    >>> SphericalKMeans(n_clusters=2, random_state=0).fit_predict(X).tolist()
    [0, 0, 1, 1]
    """

    def _undefined(self, X):
        return without_direction(X)

    def _features(self, X):
        return X / np.linalg.norm(X, axis=1)[:, None]  # rows with a direction only


class SCOREClustering(_DirectionClusterer):
    """Jin's SCORE: k-means of the ratios of the eigenvectors to the leading one.

    The embedding's columns are scaled to unit norm (the eigenvectors, up to sign), the first
    column (the leading eigenvector, whose entries share one sign on a connected graph) is
    made positive on the whole, and each other column is divided by it entrywise; the ratios
    are truncated at ``+-log(n)`` (Jin's threshold, against entries of the leading
    eigenvector near zero) and clustered by k-means. Under a degree-corrected block model
    the degree parameters cancel in the ratios. The embedding should have the leading
    eigenvalue's column first (as :class:`~tdadp.AdjacencySpectralEmbedding` orders it) and
    at least two columns.

    Parameters
    ----------
    n_clusters : int >= 1, default=2
        Number of clusters.
    n_init : int >= 1, default=10
        k-means restarts.
    random_state : None, int or numpy Generator, default=None
        Seeds the k-means initialisations.

    Attributes
    ----------
    labels_ : ndarray of int of shape (n_nodes,)
        Cluster of each node, -1 for an isolated one.
    n_clusters_ : int
        Number of clusters found.
    kmeans_ : sklearn.cluster.KMeans
        The k-means fitted on the ratios.
    isolated_ : ndarray of bool of shape (n_nodes,)
        The isolated nodes ``X`` marked.
    n_features_in_ : int

    References
    ----------
    .. [3] J. Jin, "Fast community detection by SCORE", Ann. Statist. 43(1), 57-89, 2015.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.5], [3.0, 1.4], [1.0, -0.5], [2.0, -1.1]])
    >>> SCOREClustering(n_clusters=2, random_state=0).fit_predict(X).tolist()
    [1, 1, 0, 0]
    """

    def _features(self, X):
        if X.shape[1] < 2:
            raise ValueError("SCORE needs an embedding of at least 2 columns (the ratios of "
                             f"the others to the first), got n_features = {X.shape[1]}.")
        norms = np.linalg.norm(X, axis=0)
        norms[norms == 0] = 1.0
        U = X / norms
        lead = U[:, 0] if U[:, 0].sum() >= 0 else -U[:, 0]
        bound = np.log(X.shape[0])
        with np.errstate(divide="ignore", invalid="ignore"):
            ratios = U[:, 1:] / lead[:, None]
        # 0/0 (a node with nothing in any eigenvector) carries no information: ratio 0.
        ratios = np.nan_to_num(ratios, nan=0.0, posinf=bound, neginf=-bound)
        return np.clip(ratios, -bound, bound)
