"""Stage 1, latent positions: samplers of the paper's latent shapes and block models."""

from ._positions import (
    LatentPositions,
    as_latent_matrix,
    get_isolated,
    get_signature,
)
from ._samplers import (
    LATENT_KINDS,
    LatentSampler,
    circle,
    degree_corrected_sbm,
    erdos_renyi,
    lemniscate,
    mixed_membership_sbm,
    sbm,
    sphere,
    torus,
    two_circles,
)

__all__ = [
    "LatentPositions",
    "get_signature",
    "get_isolated",
    "as_latent_matrix",
    "circle",
    "two_circles",
    "lemniscate",
    "sphere",
    "torus",
    "erdos_renyi",
    "sbm",
    "mixed_membership_sbm",
    "degree_corrected_sbm",
    "LatentSampler",
    "LATENT_KINDS",
]
