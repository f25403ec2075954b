"""Pufferfish privacy for correlated records (Song, Wang, Chaudhuri 2017).

- Query-value releases: the :class:`WassersteinMechanism` (:func:`infinity_wasserstein`,
  :func:`secret_pair_distributions`).
- The Markov Quilt Mechanism for any Bayesian network (:class:`MarkovQuiltMechanism`,
  :func:`quilt_max_influence`, :func:`is_markov_quilt`).
- Markov chains: classes Theta (:class:`BinaryIntervalFamily`), mixing
  (:func:`stationary_distribution`, :func:`chain_mixing`), noise scales
  (:func:`mqm_exact_scale`, :func:`mqm_approx_scale`, :func:`group_dp_scale`,
  :func:`gk16_scale`) and histogram releases (:class:`MQMExact`, :class:`MQMApprox`,
  :class:`GroupDPHistogram`, :class:`GK16Histogram`), composition
  (:func:`compose_markov_quilt`) and an exact check (:func:`chain_histogram_privacy_exact`).
"""

from ._approx_scale import mqm_approx_scale
from ._baselines import gk16_scale, group_dp_scale
from ._chain_release import (
    CHAIN_METHODS,
    GK16Histogram,
    GroupDPHistogram,
    MQMApprox,
    MQMExact,
    chain_histogram_release,
    compose_markov_quilt,
)
from ._exact_check import (
    MAX_CHAIN_SEQUENCES,
    chain_histogram_privacy_exact,
)
from ._exact_scale import mqm_exact_scale, quilt_influence_tables
from ._mixing import chain_mixing
from ._quilt_mechanism import (
    MarkovQuiltMechanism,
    is_markov_quilt,
    markov_quilt_mechanism,
    quilt_max_influence,
)
from ._scale import ChainNoiseScale, QuiltChoice
from ._theta import BinaryIntervalFamily, stationary_distribution
from ._wasserstein import (
    WassersteinMechanism,
    infinity_wasserstein,
    secret_pair_distributions,
    wasserstein_mechanism,
)

__all__ = [
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
]
