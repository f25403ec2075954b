"""Stage 3, privacy releases: every mechanism, its guarantee and the geometry of edgeFlip."""

from ._base import (
    GraphRelease,
    ReleaseMechanism,
)
from ._bounds import (
    posterior_bound,
    power_bound,
)
from ._counts import (
    DegreeSequence,
    LaplaceEdgeCount,
    degree_sequence,
    degrees,
    laplace_edge_count,
)
from ._ergm_release import (
    ERGM_LEVELS,
    ERGM_METHODS,
    THESIS_TABLE,
    ERGMRelease,
    ERGMStatisticsRelease,
    ergm_restricted_sensitivity,
    ergm_statistics_release,
    truncate_max_degree,
    truncation_smooth_sensitivity,
)
from ._flip import (
    OUTPUT_KINDS,
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
from ._guarantee import (
    PrivacyGuarantee,
)
from ._noise import (
    NOISE_KINDS,
    NoiseCalibration,
    add_noise,
    calibrate_noise,
)
from ._packed_file import (
    PACKED_FORMAT,
    load_packed,
    save_packed,
)
from ._projection import (
    PROJECTED_STATISTICS,
    ProjectedCount,
    graph_statistic,
    project_max_degree,
    projected_count,
    restricted_sensitivity,
)
from ._wasserstein import (
    WassersteinMechanism,
    infinity_wasserstein,
    secret_pair_distributions,
    wasserstein_mechanism,
)

__all__ = [
    "PrivacyGuarantee",
    "power_bound",
    "posterior_bound",
    "ReleaseMechanism",
    "GraphRelease",
    "NOISE_KINDS",
    "NoiseCalibration",
    "calibrate_noise",
    "add_noise",
    "PACKED_FORMAT",
    "save_packed",
    "load_packed",
    "RATE_GRID",
    "OUTPUT_KINDS",
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
    "ERGM_LEVELS",
    "ERGM_METHODS",
    "THESIS_TABLE",
    "ERGMRelease",
    "ERGMStatisticsRelease",
    "ergm_restricted_sensitivity",
    "ergm_statistics_release",
    "truncate_max_degree",
    "truncation_smooth_sensitivity",
    "infinity_wasserstein",
    "secret_pair_distributions",
    "WassersteinMechanism",
    "wasserstein_mechanism",
]
