"""Stage 2, graphs: gRDPG sampling, dyad machinery and what a graph carries (node names, release)."""

from ._dyads import (
    row_blocks,
    write_upper_block,
    n_dyads,
    dyad_pairs,
    dyad_index,
    bernoulli_positions,
    symmetric_csr,
)
from ._info import (
    GraphArray,
    graph_guarantee,
    graph_nodes,
    tag_graph,
)
from ._grdpg import (
    sample_grdpg,
    GRDPG,
    probability_matrix,
)

__all__ = [
    "row_blocks",
    "write_upper_block",
    "n_dyads",
    "dyad_pairs",
    "dyad_index",
    "bernoulli_positions",
    "symmetric_csr",
    "GraphArray",
    "tag_graph",
    "graph_nodes",
    "graph_guarantee",
    "sample_grdpg",
    "GRDPG",
    "probability_matrix",
]
