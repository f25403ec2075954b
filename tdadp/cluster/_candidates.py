"""The clusterers of an embedding that tdadp offers by name, built in one place.

The recipes (:func:`~tdadp.make_private_clustering`, :class:`~tdadp.PrivateClustering`) and
:class:`~tdadp.cluster.BlockModelClustering` (which fits several and keeps one) build them
here, so that one name and one seed give the same clusterer everywhere, hence the same labels
on the same embedding.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.cluster import KMeans, SpectralClustering
from sklearn.utils.validation import check_array

from ._gmm import BICGaussianMixture
from ._spherical import SCOREClustering, SphericalKMeans
from ._tomato import ToMATo

__all__ = ["EMBEDDING_CLUSTERERS", "COUNTING_CLUSTERERS", "make_clusterer",
           "SmallSampleSpectralClustering"]

# Clusterers of an embedding, by name.
EMBEDDING_CLUSTERERS = ("tomato", "kmeans", "gmm", "spectral", "spherical", "score")
# Those that can choose the number of clusters themselves.
COUNTING_CLUSTERERS = ("tomato", "gmm")


class SmallSampleSpectralClustering(SpectralClustering):
    """scikit-learn's ``SpectralClustering``, on as few points as there are clusters.

    scikit-learn's asks its nearest-neighbour affinity for ``n_neighbors`` (10) neighbours
    whatever the number of points, and its eigensolver for fewer clusters than points: on a
    released graph of 2 or 3 nodes both failed with scikit-learn's internal errors
    ("Expected n_neighbors <= n_samples_fit"). Here the neighbours are at most the points
    (the affinity counts each point among its own), ``n_clusters`` equal to the number of
    points puts each point in its own cluster (the only such partition), and more clusters
    than points is a ValueError naming both. The parameters are scikit-learn's; the
    neighbours used are in ``n_neighbors_``.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
    affinity_matrix_ : array-like of shape (n_samples, n_samples)
    n_neighbors_ : int
        Neighbours the affinity used: ``n_neighbors``, at most ``n_samples``.
    n_features_in_ : int
    """

    def fit(self, X, y=None):
        """Cluster ``X`` (see scikit-learn's ``SpectralClustering.fit``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        n = check_array(X, accept_sparse=["csr", "csc", "coo"], ensure_min_samples=2).shape[0]
        if self.n_clusters > n:
            raise ValueError(f"n_clusters={self.n_clusters} clusters need at least as many "
                             f"points, got n_samples={n}.")
        params = dict(self.get_params(), n_neighbors=min(self.n_neighbors, n))
        if self.n_clusters == n:
            params["n_clusters"] = 1  # the affinity, without the eigensolver's k < n
        fitted = SpectralClustering(**params)
        with warnings.catch_warnings():
            # Meant for an affinity passed as X; this X is points, square only by chance.
            warnings.filterwarnings("ignore", message="The spectral clustering API has changed")
            fitted.fit(X)
        vars(self).update({name: value for name, value in vars(fitted).items()
                           if name.endswith("_") and not name.startswith("_")})
        if self.n_clusters == n:
            self.labels_ = np.arange(n)
        self.n_neighbors_ = int(params["n_neighbors"])
        return self


def make_clusterer(name, n_clusters, random_state, params=None):
    """An unfitted clusterer of an embedding.

    Parameters
    ----------
    name : {"tomato", "kmeans", "gmm", "spectral", "spherical", "score"}
        :class:`ToMATo`, scikit-learn's ``KMeans`` (``n_init=10``), :class:`BICGaussianMixture`,
        scikit-learn's ``SpectralClustering`` (``affinity="nearest_neighbors"``; as
        ``SmallSampleSpectralClustering``, which takes 2 or 3 points too),
        :class:`SphericalKMeans` or :class:`SCOREClustering`.
    n_clusters : int or None
        None only for ToMATo and the Gaussian mixture, which then choose it.
    random_state : int or None
        Seed of the clusterer.
    params : dict or None
        Further parameters of the clusterer (they win over the defaults above).

    Returns
    -------
    estimator

    Raises
    ------
    ValueError
        For an unknown name, or ``n_clusters=None`` with a clusterer that needs it.
    """
    if name not in EMBEDDING_CLUSTERERS:
        raise ValueError(f"unknown clusterer {name!r}; expected one of "
                         f"{', '.join(EMBEDDING_CLUSTERERS)}.")
    if n_clusters is None and name not in COUNTING_CLUSTERERS:
        raise ValueError(f"clusterer={name!r} needs n_clusters.")
    kwargs = dict(random_state=random_state)
    if name == "kmeans":
        kwargs["n_init"] = 10
    elif name == "spectral":
        kwargs["affinity"] = "nearest_neighbors"
    kwargs.update(params or {})
    cls = {"tomato": ToMATo, "kmeans": KMeans, "gmm": BICGaussianMixture,
           "spectral": SmallSampleSpectralClustering, "spherical": SphericalKMeans,
           "score": SCOREClustering}[name]
    return cls(n_clusters=n_clusters, **kwargs)
