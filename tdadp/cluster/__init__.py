"""Stage 6, clustering embedded nodes: ToMATo, its prominence diagram, the BIC Gaussian
mixture baseline, the direction clusterers for degree-heterogeneous networks (spherical
k-means, SCORE), the choice between them by the block-model likelihood of the network
(BlockModelClustering), agreement metrics and a pairplot of an embedding by cluster."""

from ._blockmodel import DEFAULT_CANDIDATES, BlockModelClustering, block_model_loglik
from ._candidates import COUNTING_CLUSTERERS, EMBEDDING_CLUSTERERS, make_clusterer
from ._gmm import BICGaussianMixture
from ._metrics import clustering_scores, misclassification_rate
from ._plotting import plot_embedding, plot_prominence
from ._spherical import SCOREClustering, SphericalKMeans
from ._tomato import ToMATo, default_k, tomato

__all__ = [
    "BlockModelClustering",
    "block_model_loglik",
    "DEFAULT_CANDIDATES",
    "EMBEDDING_CLUSTERERS",
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
