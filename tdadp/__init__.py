"""tdadp: topological inference on edge-differentially-private networks.

The pipeline: latent sampler -> gRDPG generator -> edge-DP mechanism -> adjacency spectral
embedding (plain or privacy-adjusted) -> persistence diagrams -> (shift-invariant) bottleneck
comparison, and ToMATo clustering of the embedded nodes. Every stage is a scikit-learn
estimator with a function twin, and maps one item or a batch of items.
"""

from ._embedding import AdjacencySpectralEmbedding, adjacency_spectral_embedding
from ._grdpg import GRDPG, probability_matrix, sample_grdpg
from ._latent import (
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
from ._latent_positions import LatentPositions
from ._mechanisms import (
    EdgeFlip,
    LaplaceFlip,
    edge_flip,
    flip_probability,
    laplace_flip,
    laplace_flip_probability,
)
from ._theory import (
    gram_error,
    inertia,
    private_latent_map,
    private_signature,
    procrustes_align,
    two_to_infinity_error,
)
from .cluster import (
    ToMATo,
    clustering_scores,
    make_private_clustering,
    misclassification_rate,
    plot_prominence,
    tomato,
)
from .io import from_networkx, read_edgelist, to_networkx
from .topology import (
    PairwiseDistance,
    PersistenceDiagram,
    PersistentHomology,
    bottleneck_distance,
    log_diagram,
    persistence_diagram,
    plot_diagram,
    plot_matching,
    shift_invariant_bottleneck,
    wasserstein_distance,
)
from .privacy import (
    DegreeSequence,
    LaplaceEdgeCount,
    PrivacyGuarantee,
    ProjectedCount,
    WassersteinMechanism,
    audit,
    compose,
    edge_privacy_exact,
    infinity_wasserstein,
    posterior_bound,
    power_bound,
    project_max_degree,
)

__version__ = "0.1.0"

__all__ = [
    # latent positions
    "LatentPositions",
    "LatentSampler",
    "LATENT_KINDS",
    "circle",
    "two_circles",
    "lemniscate",
    "sphere",
    "torus",
    "erdos_renyi",
    "sbm",
    "mixed_membership_sbm",
    "degree_corrected_sbm",
    # graphs
    "GRDPG",
    "sample_grdpg",
    "probability_matrix",
    # mechanisms
    "EdgeFlip",
    "LaplaceFlip",
    "edge_flip",
    "laplace_flip",
    "flip_probability",
    "laplace_flip_probability",
    "PrivacyGuarantee",
    "power_bound",
    "posterior_bound",
    "compose",
    "edge_privacy_exact",
    "audit",
    "LaplaceEdgeCount",
    "DegreeSequence",
    "ProjectedCount",
    "project_max_degree",
    "WassersteinMechanism",
    "infinity_wasserstein",
    # embedding
    "AdjacencySpectralEmbedding",
    "adjacency_spectral_embedding",
    # theory
    "private_latent_map",
    "private_signature",
    "inertia",
    "procrustes_align",
    "gram_error",
    "two_to_infinity_error",
    # topology
    "PersistenceDiagram",
    "PersistentHomology",
    "persistence_diagram",
    "log_diagram",
    "bottleneck_distance",
    "wasserstein_distance",
    "shift_invariant_bottleneck",
    "PairwiseDistance",
    "plot_diagram",
    "plot_matching",
    # clustering
    "ToMATo",
    "tomato",
    "plot_prominence",
    "make_private_clustering",
    "misclassification_rate",
    "clustering_scores",
    # input/output
    "read_edgelist",
    "from_networkx",
    "to_networkx",
]
