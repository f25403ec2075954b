"""Stage 1, latent positions: samplers of the paper's latent shapes and block models."""

from ._positions import (
    LatentPositions,
    get_signature,
    as_latent_matrix,
)
from ._samplers import (
    circle,
    two_circles,
    lemniscate,
    sphere,
    torus,
    erdos_renyi,
    sbm,
    mixed_membership_sbm,
    degree_corrected_sbm,
    LatentSampler,
    LATENT_KINDS,
)

__all__ = [
    "LatentPositions",
    "get_signature",
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
