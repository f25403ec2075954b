"""Stage 2, graphs: graph containers and the gRDPG sampler.

The dyad machinery (``_dyads``: row blocks, linear dyad indices, geometric skipping) is
shared by the sampler and the mechanisms and stays private.
"""

from ._grdpg import (
    GRDPG,
    probability_matrix,
    sample_grdpg,
)
from ._info import (
    EdgeListedNodes,
    GraphArray,
    graph_guarantee,
    graph_nodes,
    tag_graph,
)
from ._isolated import (
    isolated_nodes,
)
from ._packed import (
    PackedAdjacency,
    packed_layout,
)

__all__ = [
    "GRDPG",
    "sample_grdpg",
    "probability_matrix",
    "GraphArray",
    "tag_graph",
    "EdgeListedNodes",
    "graph_nodes",
    "graph_guarantee",
    "isolated_nodes",
    "PackedAdjacency",
    "packed_layout",
]
