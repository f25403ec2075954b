"""Stage 2, graphs: gRDPG sampling, dyad machinery, what a graph carries (nodes, release).

The dyad machinery (``_dyads``: row blocks, linear dyad indices, geometric skipping) is
shared by the sampler and the mechanisms and stays private.
"""

from ._ergm_exact import (
    MAX_ENUMERATION_NODES,
    enumerate_graphs,
    ergm_exact_mean,
    ergm_log_partition,
)
from ._ergm_sampler import ERGM, ERGMChain, Observation, default_steps, sample_ergm
from ._ergm_terms import (
    ALTERNATING_TERMS,
    DEFAULT_DECAY,
    ERGM_TERMS,
    LABELLED_TERMS,
    ERGMTerms,
    ergm_statistics,
    parse_terms,
)
from ._grdpg import GRDPG, probability_matrix, sample_grdpg
from ._info import GraphArray, graph_guarantee, graph_nodes, tag_graph
from ._packed import PackedAdjacency, packed_layout

__all__ = [
    "GRDPG",
    "sample_grdpg",
    "probability_matrix",
    "GraphArray",
    "tag_graph",
    "graph_nodes",
    "graph_guarantee",
    "PackedAdjacency",
    "packed_layout",
    "ERGM_TERMS",
    "ALTERNATING_TERMS",
    "LABELLED_TERMS",
    "DEFAULT_DECAY",
    "ERGMTerms",
    "parse_terms",
    "ergm_statistics",
    "ERGM",
    "ERGMChain",
    "Observation",
    "sample_ergm",
    "default_steps",
    "MAX_ENUMERATION_NODES",
    "enumerate_graphs",
    "ergm_log_partition",
    "ergm_exact_mean",
]
