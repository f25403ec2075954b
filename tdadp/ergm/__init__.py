"""Private ERGM inference (Goldberg 2018): the model, its sampler, private releases, posteriors.

- The model: terms, written as ergm formulas (``"edges + nodematch('Sex', diff=TRUE) +
  gwesp(0.5, fixed=TRUE)"``, node attributes by name) or as lists
  (:func:`parse_terms`, :func:`ergm_statistics`), a compiled TNT sampler
  (:class:`ERGMChain`, :func:`sample_ergm`, :class:`ERGM`) and exact enumeration for tiny
  graphs (:func:`enumerate_graphs`, :func:`ergm_log_partition`, :func:`ergm_exact_mean`).
- Private releases of its statistics: :class:`ERGMStatisticsRelease` (restricted
  sensitivity on H_k at edge or node level, private local sensitivity).
- Bayesian inference from a graph or from a private release: :func:`bayes_ergm`
  (:func:`exchange_algorithm`, :func:`population_exchange`), diagnostics
  (:func:`effective_sample_size`, :func:`split_rhat`, :func:`plot_trace`), and
  :class:`PrivateERGM`, which releases and fits in one step.
"""

from ._diagnostics import (
    acceptance_summary,
    effective_sample_size,
    plot_trace,
    split_rhat,
)
from ._exact import (
    MAX_ENUMERATION_NODES,
    enumerate_graphs,
    ergm_exact_mean,
    ergm_log_partition,
)
from ._inference import (
    bayes_ergm,
    default_aux_steps,
    exchange_algorithm,
    population_exchange,
)
from ._lp_projection import (
    LP_TERMS,
    lp_sensitivity,
    lp_statistic,
)
from ._posterior import ERGMPosterior
from ._private import (
    ERGM_MECHANISMS,
    PrivateERGM,
)
from ._release import (
    ERGM_METHODS,
    ERGM_PROJECTIONS,
    ERGMRelease,
    ERGMStatisticsRelease,
    ergm_statistics_release,
)
from ._sampler import (
    ERGM,
    ERGMChain,
    Observation,
    default_steps,
    sample_ergm,
)
from ._sensitivity import (
    ERGM_LEVELS,
    THESIS_TABLE,
    ergm_restricted_sensitivity,
    truncate_max_degree,
    truncation_smooth_sensitivity,
)
from ._terms import (
    ALTERNATING_TERMS,
    DEFAULT_DECAY,
    ERGM_TERMS,
    LABELLED_TERMS,
    ERGMTerms,
    ergm_statistics,
    parse_terms,
)

__all__ = [
    "ERGM_TERMS",
    "ALTERNATING_TERMS",
    "LABELLED_TERMS",
    "DEFAULT_DECAY",
    "ERGMTerms",
    "parse_terms",
    "ergm_statistics",
    "ERGM",
    "ERGMChain",
    "Observation",
    "sample_ergm",
    "default_steps",
    "MAX_ENUMERATION_NODES",
    "enumerate_graphs",
    "ergm_log_partition",
    "ergm_exact_mean",
    "ERGM_LEVELS",
    "ERGM_METHODS",
    "ERGM_PROJECTIONS",
    "THESIS_TABLE",
    "ERGMRelease",
    "ERGMStatisticsRelease",
    "ergm_restricted_sensitivity",
    "ergm_statistics_release",
    "truncate_max_degree",
    "truncation_smooth_sensitivity",
    "LP_TERMS",
    "lp_statistic",
    "lp_sensitivity",
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
