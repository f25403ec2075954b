"""Recipes that span stages: whole pipelines built from the stages below."""

from ._clustering import (
    PrivateClustering,
    make_private_clustering,
)
from ._distributed import (
    DistributedPackedGraph,
    distributed_embedding,
    distributed_private_grdpg,
)

__all__ = [
    "make_private_clustering",
    "PrivateClustering",
    "DistributedPackedGraph",
    "distributed_private_grdpg",
    "distributed_embedding",
]
