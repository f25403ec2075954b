"""Stage 6, clustering embedded nodes: ToMATo, its prominence diagram, the BIC Gaussian
mixture baseline and agreement metrics."""

from ._gmm import BICGaussianMixture
from ._metrics import clustering_scores, misclassification_rate
from ._plotting import plot_prominence
from ._tomato import ToMATo, default_k, tomato

__all__ = [
    "ToMATo",
    "tomato",
    "default_k",
    "BICGaussianMixture",
    "plot_prominence",
    "misclassification_rate",
    "clustering_scores",
]
