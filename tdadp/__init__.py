"""tdadp: topological inference on edge-differentially-private networks.

The pipeline: latent sampler -> gRDPG generator -> edge-DP mechanism -> adjacency spectral
embedding (plain or privacy-adjusted) -> persistence diagrams -> (shift-invariant) bottleneck
comparison, and ToMATo clustering of the embedded nodes. Every stage is a scikit-learn
estimator with a function twin, and maps one item or a batch of items.
"""

from . import datasets as datasets  # the loaders: tdadp.datasets.load_*
from .cluster import (
    BICGaussianMixture,
    BlockModelClustering,
    ToMATo,
    clustering_scores,
    misclassification_rate,
    plot_embedding,
    plot_prominence,
    tomato,
)
from .dp import (
    BudgetAccountant,
    BudgetError,
    PrivacyGuarantee,
    compose,
    posterior_bound,
    power_bound,
)
from .embed import (
    AdjacencySpectralEmbedding,
    adjacency_spectral_embedding,
    gram_error,
    procrustes_align,
    two_to_infinity_error,
)
from .ergm import (
    ERGM,
    ERGMStatisticsRelease,
    PrivateERGM,
    bayes_ergm,
    ergm_statistics,
    sample_ergm,
)
from .graphs import (
    GRDPG,
    PackedAdjacency,
    probability_matrix,
    sample_grdpg,
)
from .io import (
    from_networkx,
    load_packed,
    load_release,
    read_edgelist,
    read_nodes,
    save_packed,
    save_release,
    simple_graph,
    to_networkx,
)
from .latent import (
    LATENT_KINDS,
    LatentPositions,
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
from .privacy import (
    audit,
    edge_privacy_exact,
)
from .pufferfish import (
    MarkovQuiltMechanism,
    MQMApprox,
    MQMExact,
    WassersteinMechanism,
    infinity_wasserstein,
    mqm_approx_scale,
    mqm_exact_scale,
)
from .recipes import (
    PrivateClustering,
    make_private_clustering,
)
from .release import (
    DegreeSequence,
    EdgeFlip,
    LaplaceEdgeCount,
    LaplaceFlip,
    ProjectedCount,
    edge_flip,
    flip_probability,
    inertia,
    laplace_flip,
    laplace_flip_probability,
    private_latent_map,
    private_signature,
    project_max_degree,
)
from .topology import (
    PairwiseDistance,
    PersistenceDiagram,
    PersistentHomology,
    bottleneck_distance,
    dilation_invariant_bottleneck,
    log_diagram,
    persistence_diagram,
    plot_diagram,
    plot_matching,
    shift_invariant_bottleneck,
    wasserstein_distance,
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
    "PackedAdjacency",
    "ERGM",
    "sample_ergm",
    "ergm_statistics",
    "save_packed",
    "load_packed",
    "save_release",
    "load_release",
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
    "BudgetAccountant",
    "BudgetError",
    "edge_privacy_exact",
    "audit",
    "LaplaceEdgeCount",
    "DegreeSequence",
    "ProjectedCount",
    "project_max_degree",
    "WassersteinMechanism",
    "infinity_wasserstein",
    "MarkovQuiltMechanism",
    "MQMExact",
    "MQMApprox",
    "mqm_exact_scale",
    "mqm_approx_scale",
    "ERGMStatisticsRelease",
    "PrivateERGM",
    "bayes_ergm",
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
    "dilation_invariant_bottleneck",
    "PairwiseDistance",
    "plot_diagram",
    "plot_matching",
    # clustering
    "ToMATo",
    "tomato",
    "BICGaussianMixture",
    "BlockModelClustering",
    "plot_prominence",
    "plot_embedding",
    "make_private_clustering",
    "PrivateClustering",
    "misclassification_rate",
    "clustering_scores",
    # input/output
    "read_edgelist",
    "read_nodes",
    "from_networkx",
    "to_networkx",
    "simple_graph",
]
