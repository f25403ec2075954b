"""Reading networks: edge-list files and networkx graphs to adjacency matrices."""

from ._edgelist import read_edgelist
from ._networkx import from_networkx, is_networkx_graph, to_networkx

__all__ = ["read_edgelist", "from_networkx", "to_networkx", "is_networkx_graph"]
