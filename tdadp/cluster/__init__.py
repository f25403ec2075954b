"""Stage 6, clustering embedded nodes: ToMATo, its prominence diagram and agreement metrics."""

from ._metrics import clustering_scores, misclassification_rate
from ._plotting import plot_prominence
from ._tomato import ToMATo, tomato

__all__ = [
    "ToMATo",
    "tomato",
    "plot_prominence",
    "misclassification_rate",
    "clustering_scores",
]
