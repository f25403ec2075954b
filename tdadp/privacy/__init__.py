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
- The Markov Quilt Mechanism (Pufferfish privacy for correlated records): any Bayesian
  network (:class:`MarkovQuiltMechanism`, :func:`quilt_max_influence`), Markov chains
  (:class:`MQMExact`, :class:`MQMApprox`, :func:`mqm_exact_scale`, :func:`mqm_approx_scale`,
  the baselines :class:`GroupDPHistogram` and :class:`GK16Histogram`), composition
  (:func:`compose_markov_quilt`) and an exact check (:func:`chain_histogram_privacy_exact`).
- Private ERGMs (Goldberg 2018): statistic releases :class:`ERGMStatisticsRelease`
  (restricted sensitivity on H_k at edge or node level, private local sensitivity), and
  :class:`PrivateERGM`, which releases and fits the posterior in one step.
- Bayesian ERGM inference from a graph or a private release of it: :func:`bayes_ergm`
  (:func:`exchange_algorithm`, :func:`population_exchange`; diagnostics
  :func:`effective_sample_size`, :func:`split_rhat`, :func:`plot_trace`).
"""

from ..release import (
    CHAIN_METHODS,
    PROJECTED_STATISTICS,
    THESIS_TABLE,
    BinaryIntervalFamily,
    ChainNoiseScale,
    DegreeSequence,
    ERGMRelease,
    ERGMStatisticsRelease,
    GK16Histogram,
    GroupDPHistogram,
    LaplaceEdgeCount,
    MarkovQuiltMechanism,
    MQMApprox,
    MQMExact,
    PrivacyGuarantee,
    ProjectedCount,
    QuiltChoice,
    WassersteinMechanism,
    chain_histogram_release,
    chain_mixing,
    compose_markov_quilt,
    degree_sequence,
    ergm_restricted_sensitivity,
    ergm_statistics_release,
    gk16_scale,
    graph_statistic,
    group_dp_scale,
    infinity_wasserstein,
    is_markov_quilt,
    laplace_edge_count,
    markov_quilt_mechanism,
    mqm_approx_scale,
    mqm_exact_scale,
    posterior_bound,
    power_bound,
    project_max_degree,
    projected_count,
    quilt_influence_tables,
    quilt_max_influence,
    restricted_sensitivity,
    secret_pair_distributions,
    stationary_distribution,
    truncate_max_degree,
    truncation_smooth_sensitivity,
    wasserstein_mechanism,
)
from ._audit import AuditResult, audit
from ._chain_exact import MAX_CHAIN_SEQUENCES, chain_histogram_privacy_exact
from ._composition import compose
from ._ergm import ERGM_MECHANISMS, PrivateERGM
from ._ergm_diagnostics import (
    acceptance_summary,
    effective_sample_size,
    plot_trace,
    split_rhat,
)
from ._ergm_inference import (
    ERGMPosterior,
    bayes_ergm,
    default_aux_steps,
    exchange_algorithm,
    population_exchange,
)
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
    "quilt_max_influence",
    "is_markov_quilt",
    "MarkovQuiltMechanism",
    "markov_quilt_mechanism",
    "BinaryIntervalFamily",
    "QuiltChoice",
    "ChainNoiseScale",
    "stationary_distribution",
    "chain_mixing",
    "quilt_influence_tables",
    "mqm_exact_scale",
    "mqm_approx_scale",
    "group_dp_scale",
    "gk16_scale",
    "CHAIN_METHODS",
    "MQMExact",
    "MQMApprox",
    "GroupDPHistogram",
    "GK16Histogram",
    "chain_histogram_release",
    "compose_markov_quilt",
    "chain_histogram_privacy_exact",
    "MAX_CHAIN_SEQUENCES",
    "bayes_ergm",
    "exchange_algorithm",
    "population_exchange",
    "ERGMPosterior",
    "default_aux_steps",
    "effective_sample_size",
    "split_rhat",
    "acceptance_summary",
    "plot_trace",
    "PrivateERGM",
    "ERGM_MECHANISMS",
]
