"""The clusterers of an embedding that tdadp offers by name, built in one place.

The recipes (:func:`~tdadp.make_private_clustering`, :class:`~tdadp.PrivateClustering`) and
:class:`~tdadp.cluster.BlockModelClustering` (which fits several and keeps one) build them
here, so that one name and one seed give the same clusterer everywhere, hence the same labels
on the same embedding.
"""

from __future__ import annotations

from sklearn.cluster import KMeans, SpectralClustering

from ._gmm import BICGaussianMixture
from ._spherical import SCOREClustering, SphericalKMeans
from ._tomato import ToMATo

__all__ = ["EMBEDDING_CLUSTERERS", "COUNTING_CLUSTERERS", "make_clusterer"]

# Clusterers of an embedding, by name.
EMBEDDING_CLUSTERERS = ("tomato", "kmeans", "gmm", "spectral", "spherical", "score")
# Those that can choose the number of clusters themselves.
COUNTING_CLUSTERERS = ("tomato", "gmm")


def make_clusterer(name, n_clusters, random_state, params=None):
    """An unfitted clusterer of an embedding.

    Parameters
    ----------
    name : {"tomato", "kmeans", "gmm", "spectral", "spherical", "score"}
        :class:`ToMATo`, scikit-learn's ``KMeans`` (``n_init=10``), :class:`BICGaussianMixture`,
        scikit-learn's ``SpectralClustering`` (``affinity="nearest_neighbors"``),
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
           "spectral": SpectralClustering, "spherical": SphericalKMeans,
           "score": SCOREClustering}[name]
    return cls(n_clusters=n_clusters, **kwargs)
