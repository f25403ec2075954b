"""Clustering point clouds and private networks: ToMATo, baselines and agreement metrics."""

from ._baselines import make_private_clustering
from ._metrics import clustering_scores, misclassification_rate
from ._plotting import plot_prominence
from ._tomato import ToMATo, tomato

__all__ = [
    "ToMATo",
    "tomato",
    "plot_prominence",
    "make_private_clustering",
    "misclassification_rate",
    "clustering_scores",
]
