"""Stage 3b, reading and testing privacy: what edge DP promises, an audit, exact levels.

It sits above the release stage, whose mechanisms it re-exports for convenience.

- Reading a guarantee: :class:`PrivacyGuarantee` (stated by every fitted mechanism as
  ``guarantee_``), :func:`power_bound`, :func:`posterior_bound`, :func:`compose`.
- Edge-level privacy under dependent edges, exactly: :func:`edge_privacy_exact`,
  :func:`latent_dependence_bound`.
- Empirical audit: :func:`audit`; the queens example: :func:`queens_example`.
- Other mechanisms: :class:`LaplaceEdgeCount`, :class:`DegreeSequence`,
  :func:`project_max_degree` and :class:`ProjectedCount` (restricted sensitivity), and the
  Pufferfish :class:`WassersteinMechanism` with :func:`infinity_wasserstein`.
"""

from ..release import (
    PROJECTED_STATISTICS,
    DegreeSequence,
    LaplaceEdgeCount,
    PrivacyGuarantee,
    ProjectedCount,
    WassersteinMechanism,
    degree_sequence,
    graph_statistic,
    infinity_wasserstein,
    laplace_edge_count,
    posterior_bound,
    power_bound,
    project_max_degree,
    projected_count,
    restricted_sensitivity,
    secret_pair_distributions,
    wasserstein_mechanism,
)
from ._audit import AuditResult, audit
from ._composition import compose
from ._exact import (
    MAX_EXACT_NODES,
    EdgePrivacyLevel,
    edge_privacy_exact,
    latent_dependence_bound,
)
from ._queens import QueensResult, queens_example, sample_queens

__all__ = [
    "PrivacyGuarantee",
    "power_bound",
    "posterior_bound",
    "compose",
    "edge_privacy_exact",
    "EdgePrivacyLevel",
    "latent_dependence_bound",
    "MAX_EXACT_NODES",
    "audit",
    "AuditResult",
    "queens_example",
    "sample_queens",
    "QueensResult",
    "LaplaceEdgeCount",
    "laplace_edge_count",
    "DegreeSequence",
    "degree_sequence",
    "project_max_degree",
    "graph_statistic",
    "restricted_sensitivity",
    "PROJECTED_STATISTICS",
    "ProjectedCount",
    "projected_count",
    "infinity_wasserstein",
    "secret_pair_distributions",
    "WassersteinMechanism",
    "wasserstein_mechanism",
]
