"""Privacy you can read and test: what edge DP promises, an audit, and other mechanisms.

- Reading a guarantee: :class:`PrivacyGuarantee` (stated by every fitted mechanism as
  ``guarantee_``), :func:`power_bound`, :func:`posterior_bound`, :func:`compose`.
- Edge-level privacy under dependent edges, exactly: :func:`edge_privacy_exact`,
  :func:`latent_dependence_bound`.
- Empirical audit: :func:`audit`; the queens example: :func:`queens_example`.
- Other mechanisms: :class:`LaplaceEdgeCount`, :class:`DegreeSequence`,
  :func:`project_max_degree` and :class:`ProjectedCount` (restricted sensitivity), and the
  Pufferfish :class:`WassersteinMechanism` with :func:`infinity_wasserstein`.
"""

from ._audit import AuditResult, audit
from ._bounds import posterior_bound, power_bound
from ._composition import compose
from ._counts import DegreeSequence, LaplaceEdgeCount, degree_sequence, laplace_edge_count
from ._exact import (
    MAX_EXACT_NODES,
    EdgePrivacyLevel,
    edge_privacy_exact,
    latent_dependence_bound,
)
from ._guarantee import PrivacyGuarantee
from ._projection import (
    PROJECTED_STATISTICS,
    ProjectedCount,
    graph_statistic,
    project_max_degree,
    projected_count,
    restricted_sensitivity,
)
from ._queens import QueensResult, queens_example, sample_queens
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
