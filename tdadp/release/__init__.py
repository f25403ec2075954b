"""Stage 3, edge-DP graph releases: the mechanisms on graphs and the geometry of edgeFlip."""

from ._base import (
    GraphRelease,
    ReleaseMechanism,
)
from ._counts import (
    DegreeSequence,
    LaplaceEdgeCount,
    degree_sequence,
    degrees,
    laplace_edge_count,
)
from ._flip import (
    RATE_GRID,
    EdgeFlip,
    LaplaceFlip,
    edge_flip,
    flip_block,
    flip_probability,
    implemented_rate,
    laplace_flip,
    laplace_flip_probability,
    rate_epsilon,
)
from ._geometry import (
    inertia,
    private_latent_map,
    private_signature,
)
from ._projection import (
    PROJECTED_STATISTICS,
    ProjectedCount,
    graph_statistic,
    project_max_degree,
    projected_count,
    restricted_sensitivity,
)

__all__ = [
    "ReleaseMechanism",
    "GraphRelease",
    "RATE_GRID",
    "flip_block",
    "implemented_rate",
    "rate_epsilon",
    "flip_probability",
    "laplace_flip_probability",
    "edge_flip",
    "laplace_flip",
    "EdgeFlip",
    "LaplaceFlip",
    "inertia",
    "private_latent_map",
    "private_signature",
    "LaplaceEdgeCount",
    "DegreeSequence",
    "laplace_edge_count",
    "degree_sequence",
    "degrees",
    "PROJECTED_STATISTICS",
    "project_max_degree",
    "graph_statistic",
    "restricted_sensitivity",
    "ProjectedCount",
    "projected_count",
]
