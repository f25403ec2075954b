"""Stage 6, clustering embedded nodes: ToMATo, its prominence diagram, the BIC Gaussian
mixture baseline, the direction clusterers for degree-heterogeneous networks (spherical
k-means, SCORE), agreement metrics and a pairplot of an embedding by cluster."""

from ._gmm import BICGaussianMixture
from ._metrics import clustering_scores, misclassification_rate
from ._plotting import plot_embedding, plot_prominence
from ._spherical import SCOREClustering, SphericalKMeans
from ._tomato import ToMATo, default_k, tomato

__all__ = [
    "ToMATo",
    "tomato",
    "default_k",
    "BICGaussianMixture",
    "SphericalKMeans",
    "SCOREClustering",
    "plot_prominence",
    "plot_embedding",
    "misclassification_rate",
    "clustering_scores",
]
