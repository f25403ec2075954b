"""Stage 6, clustering the nodes: ToMATo, its prominence diagram, the BIC Gaussian mixture,
the direction clusterers for degree-heterogeneous networks (spherical k-means, SCORE),
regularised spectral clustering and Leiden's modularity partitions of the graph, the choice
between them by the block-model likelihood of the network (BlockModelClustering), agreement
metrics and a pairplot of an embedding by cluster."""

from ._blockmodel import (
    DEFAULT_CANDIDATES,
    GRAPH_CLUSTERERS,
    BlockModelClustering,
    block_model_loglik,
)
from ._candidates import COUNTING_CLUSTERERS, EMBEDDING_CLUSTERERS, make_clusterer
from ._gmm import BICGaussianMixture
from ._laplacian import regularized_laplacian_embedding
from ._metrics import clustering_scores, misclassification_rate
from ._modularity import leiden_partition
from ._plotting import plot_embedding, plot_prominence
from ._spherical import SCOREClustering, SphericalKMeans
from ._tomato import ToMATo, default_k, tomato

__all__ = [
    "BlockModelClustering",
    "block_model_loglik",
    "DEFAULT_CANDIDATES",
    "EMBEDDING_CLUSTERERS",
    "GRAPH_CLUSTERERS",
    "regularized_laplacian_embedding",
    "leiden_partition",
    "COUNTING_CLUSTERERS",
    "make_clusterer",
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
