"""Stage 3, privacy releases: every mechanism, its guarantee and the geometry of edgeFlip."""

from ._guarantee import (
    PrivacyGuarantee,
)
from ._bounds import (
    power_bound,
    posterior_bound,
)
from ._base import (
    ReleaseTagsMixin,
)
from ._noise import (
    NOISE_KINDS,
    add_noise,
    check_noise,
)
from ._flip import (
    flip_probability,
    laplace_flip_probability,
    edge_flip,
    laplace_flip,
    EdgeFlip,
    LaplaceFlip,
)
from ._geometry import (
    inertia,
    private_latent_map,
    private_signature,
)
from ._counts import (
    LaplaceEdgeCount,
    DegreeSequence,
    laplace_edge_count,
    degree_sequence,
    degrees,
)
from ._projection import (
    PROJECTED_STATISTICS,
    project_max_degree,
    graph_statistic,
    restricted_sensitivity,
    ProjectedCount,
    projected_count,
)
from ._wasserstein import (
    infinity_wasserstein,
    secret_pair_distributions,
    WassersteinMechanism,
    wasserstein_mechanism,
)

__all__ = [
    "PrivacyGuarantee",
    "power_bound",
    "posterior_bound",
    "ReleaseTagsMixin",
    "NOISE_KINDS",
    "add_noise",
    "check_noise",
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
    "infinity_wasserstein",
    "secret_pair_distributions",
    "WassersteinMechanism",
    "wasserstein_mechanism",
]
