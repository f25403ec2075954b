"""Private releases of ERGM statistics: restricted, smooth and private local sensitivity.

Three mechanisms release the statistics of an exponential random graph model (Goldberg 2018,
ch. 4; Lu and Miklau 2014; Kasiviswanathan, Nissim, Raskhodnikova, Smith 2013; Nissim,
Raskhodnikova, Smith 2007), calibrated to the bounds of :mod:`tdadp.ergm._sensitivity`:

- ``level="edge", method="restricted"``: project the graph onto H_k (maximum degree <= k)
  with :func:`~tdadp.release.project_max_degree`, add Laplace noise calibrated to the
  sensitivity over H_k (Goldberg's Table 4.1, corrected where it is loose);
- ``level="node", method="restricted"``: truncate the graph into H_k (isolate every node of
  degree > k, :func:`~tdadp.ergm.truncate_max_degree`), add Cauchy noise scaled to a smooth
  upper bound of the local sensitivity of the truncated statistic: eps-node-DP on *every*
  graph;
- ``level="node", projection="lp"``: the flow or LP extension of edges, altktriangles and
  altktwopaths (:func:`~tdadp.ergm.lp_statistic`, node sensitivity Delta on every graph)
  plus Laplace noise of scale Delta/eps; other terms by truncation as above;
- ``level="edge", method="local"``: no projection; release a private upper bound of a
  quantity of edge sensitivity 1 that bounds the local sensitivity (maximum shared partners,
  maximum degree), then the statistic with Laplace noise calibrated to that bound:
  (eps, delta)-edge-DP on every graph (Lu and Miklau's private local sensitivity).

Each proof sits with the code it justifies: the sensitivities in :mod:`tdadp.ergm._sensitivity`;
here the projection (above ``_PROJECTION_SAFE``), the Cauchy noise
(:meth:`ERGMStatisticsRelease._release_node`), the private local sensitivity
(``_private_local_sensitivity``) and the budget (:meth:`ERGMStatisticsRelease._guarantee`).

References
----------
Goldberg, "Towards differentially private inference on network data", Harvard (2018).
Lu, Miklau, "Exponential random graph estimation under differential privacy", KDD (2014).
Kasiviswanathan, Nissim, Raskhodnikova, Smith, "Analyzing graphs with node differential
privacy", TCC (2013).
Nissim, Raskhodnikova, Smith, "Smooth sensitivity and sampling in private data analysis",
STOC (2007).
Mironov, "On significance of the least significant bits for differential privacy", CCS (2012).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..dp._guarantee import PrivacyGuarantee
from ..dp._noise import add_noise, calibrate_noise
from ..dp._sampling import discrete_laplace
from ..graphs._packed import PackedAdjacency
from ..io._input import graph_batch
from ..release._base import GraphRelease
from ..release._counts import degrees
from ..release._projection import project_max_degree
from ..utils._params import RULES, Interval, Options
from ..utils._random import OSRandom
from ._formula import graph_attributes
from ._lp_projection import LP_TERMS, lp_sensitivity, lp_statistic
from ._sensitivity import (
    COUNT_TERMS,
    ERGM_LEVELS,
    bound_quantity,
    exact_statistics,
    global_bound,
    local_bound,
    restricted_bound,
    round_up,
    truncate_max_degree,
    truncation_smooth_factor,
)
from ._terms import MAX_DEGREE_RULE, parse_terms, real_rule

__all__ = [
    "ERGM_METHODS",
    "ERGM_NOISES",
    "ERGM_PROJECTIONS",
    "ERGMRelease",
    "ERGMStatisticsRelease",
    "ergm_statistics_release",
]

ERGM_METHODS = ("restricted", "local")
#: Calibrations of the edge-level restricted release: tdadp's RS(H_k)/eps, or Goldberg's
#: 3 RS(H_k)/eps (the thesis takes the projection onto H_k to move a neighbouring pair's
#: statistic by at most 3 RS).
ERGM_NOISES = ("restricted", "thesis")
_THESIS_FACTOR = 3
#: Node-level maps onto H_k: naive truncation (every term) or the flow / LP extension
#: (:data:`~tdadp.ergm.LP_TERMS`; the other terms are still truncated).
ERGM_PROJECTIONS = ("truncation", "lp")

# Edge level: the statistic of the projection, on all graphs.
#
# The projection is not 1-Lipschitz (see :mod:`tdadp.release._projection`), but between
# neighbouring inputs the projected degrees differ by at most 2 in L1, with every projected
# degree <= k. Statistics of the degrees therefore keep their H_k sensitivity on all graphs:
# edges (half the L1 change), altkstars (``sum_x |psi(d_x) - psi(d'_x)| <= 2 max_{t<=k-1}
# lambda (1 - rho_t)``), nodefactor (the ends at each level are sums of degrees). For the
# others the release is eps-edge DP only for neighbours both in H_k, and ``guarantee_``
# states that restriction: exhaustive search over all graphs on 5 and 6 nodes finds the change
# of the projected statistic up to 2x the H_k bound for altktriangles and altktwopaths (n = 6,
# k = 2), 3x for nodematch and 5x for nodemix (labels 0, 0, 1, 1, 2, 2).
#
# Terms whose statistic of the edge projection keeps its H_k sensitivity on all graphs:
_PROJECTION_SAFE = ("edges", "altkstars", "nodefactor")
# Terms whose local sensitivity is data-dependent (method="local").
_LOCAL_TERMS = ("altktriangles", "altktwopaths")
# Node level: the Cauchy scale of a block is ``Delta S*(x) / alpha`` with ``S*(x) <= n +
# max(1, e^(beta - 1) / beta)`` (the count is at most n, and ``e^(-beta s) (1 + s)`` peaks at
# ``s = 1/beta - 1``). fit refuses a budget whose data-independent part ``Delta max(1,
# e^(beta - 1) / beta) / alpha`` exceeds 2^_MAX_SCALE_LOG2: below it the scale stays finite
# for every graph of up to 2^23 nodes, and a release on a larger graph whose scale would not
# be finite is refused then, before any data-dependent step (the bound depends on n only,
# which is public).
_MAX_SCALE_LOG2 = 1000.0
# The release's exact tables of r^t (tdadp.ergm._sensitivity._rho_units: fl(r^t) on a 2^-64
# grid) resolve the k-star increments ``lambda (1 - r^t)`` to a relative 2^-24 or better up to
# this decay (r = 1 - 1/decay rounds to a relative 2^-54); beyond it they lose the statistic
# (at 1e17 it comes out 0), so the release refuses altkstars with a larger decay.
_MAX_KSTAR_DECAY = 2.0 ** 30


def _log2_scale_bound(sensitivity, alpha, beta, n=0):
    """``log2(sensitivity (n + max(1, e^(beta - 1) / beta)) / alpha)``, without overflow:
    an upper bound of the log2 Cauchy scale on graphs of n nodes."""
    peak = 0.0 if beta >= 1 else max(0.0, (beta - 1.0) * math.log2(math.e) - math.log2(beta))
    count = math.log2(n) if n > 0 else -math.inf
    hi, lo = max(peak, count), min(peak, count)
    return (math.log2(sensitivity) - math.log2(alpha) + hi
            + math.log2(1.0 + 2.0 ** (lo - hi)))


@dataclass(frozen=True, eq=False)
class ERGMRelease:
    """What :class:`ERGMStatisticsRelease` releases for one graph.

    ``np.asarray(release)`` gives ``values``.

    Attributes
    ----------
    values : ndarray of float64, shape (n_statistics,)
        The noisy statistics, in the order of ``meta["statistic_names"]``.
    scales : ndarray of float64 or None
        Scale of the noise of each statistic when it is public: the fixed Laplace scales of
        the restricted edge-level release; with ``method="local"``, the scales computed from
        the released bounds (``meta["bounds"]``). None for the node-level release, whose
        Cauchy scale ``S*(x)/alpha`` depends on the data and is not released; recompute it
        for a latent x from ``meta["alpha"]``, ``meta["beta"]``, ``meta["sensitivity"]`` and
        ``meta["max_degree"]`` with :func:`~tdadp.ergm.truncation_smooth_sensitivity`.
        With ``projection="lp"`` the LP terms' fixed Laplace scales, NaN for the others.
    kind : {"laplace", "cauchy", "mixed"}
        The noise's law (Laplace on a grid of ``2^-30`` scales, or standard Cauchy times the
        scale; "mixed": a node-level release with ``projection="lp"`` whose LP terms have
        Laplace noise, the others Cauchy).
    meta : dict
        ``method``, ``level``, ``max_degree``, ``statistic_names``, ``epsilon`` (the share of
        each statistic) and, per method: ``sensitivity``; ``alpha``, ``beta`` (node level);
        ``bounds`` (released upper bounds theta_hat, NaN where none is needed) and ``delta``
        (method="local").
    """

    values: np.ndarray
    scales: np.ndarray | None
    kind: str
    meta: dict

    def __array__(self, dtype=None, copy=None):
        return np.array(self.values, dtype=dtype, copy=True)

    def __repr__(self):
        return f"ERGMRelease(values={self.values!r}, kind={self.kind!r})"


def _laplace_exact(value, calibration, rng):
    """``value`` (exact) plus the calibration's Laplace noise, as a float.

    The same exact sampler as :func:`~tdadp.dp.add_noise` (discrete Laplace in grid
    units), fed the statistic in exact arithmetic: a real-valued alternating statistic is
    rounded to the grid exactly, whatever its size, and only the final sum is rounded to a
    float (post-processing).
    """
    c = calibration
    if c.t == 0:
        return float(value)
    grid = Fraction(2) ** c.grid_log2
    units = round(Fraction(value) / grid)
    z = int(discrete_laplace(rng, c.t, c.s, 1)[0])
    return float((units + z) * grid)


def _standard_cauchy(rng, size):
    if isinstance(rng, OSRandom):
        # OSRandom offers uniforms only: the inverse CDF (a floating-point draw, see
        # ERGMStatisticsRelease._release_node).
        return np.tan(np.pi * (rng.random(size) - 0.5))
    return rng.standard_cauchy(size)


def _private_local_sensitivity(block, A, value, n, rng):
    """One data-dependent statistic by private local sensitivity (Lu and Miklau).

    Returns ``(noisy value, its Laplace scale, theta_hat)``, from the exact ``value`` of the
    statistic of ``A`` (n nodes) and the block's fitted calibration. ``theta(x)`` and its
    local sensitivity bound ``g`` are those of :func:`~tdadp.ergm._sensitivity.bound_quantity`
    and :func:`~tdadp.ergm._sensitivity.local_bound` (where ``LS(x) <= g(theta(x))`` is
    proven).

    Both g are nondecreasing and ``LS <= g(n - 2)``. The release draws
    ``theta_hat = theta(x) + Lap(1/eps1) + log(1/(2 delta))/eps1``, uses ``g(clip(floor(theta_hat),
    0, n - 2))`` and releases the statistic plus ``Lap(g/eps2)``. Proof of (eps1 + eps2,
    delta)-DP: for neighbours x, x' the law of theta_hat changes by at most e^eps1; whenever
    ``theta_hat >= theta(x)``, ``g >= LS(x) >= |f(x) - f(x')|`` and the second draw changes by at
    most e^eps2; the event ``theta_hat < theta(x)`` has probability at most delta under x. The
    offset is computed for the exact sampler: noise of scale t/s grid units, offset m =
    ``ceil(log(1/(2 delta)) t/s) + 1`` units, ``P(Z <= -(m+1)) = q^(m+1)/(1+q) <= 2 delta q/(1+q)
    <= delta`` with ``q = e^(-s/t)``. theta_hat is part of the release (``ERGMRelease.meta``), so
    the Laplace scales computed from it are public.
    """
    # Private local sensitivity: an upper bound on theta(x) except with prob. delta.
    c = block.bound_calibration
    theta = bound_quantity(A, block.name)
    shift = -c.grid_log2
    units = theta << shift
    if c.t:
        units += int(discrete_laplace(rng, c.t, c.s, 1)[0]) + block.bound_offset
    bound = float(Fraction(units, 1 << shift))
    theta_used = min(max(units >> shift, 0), max(n - 2, 0))  # floor, then clip
    sens = round_up(local_bound(block.name, block.decay, theta_used))
    cal = calibrate_noise(sens, block.epsilon_statistic, "laplace", integer=False)
    return _laplace_exact(value, cal, rng), cal.scale, bound


@dataclass(frozen=True)
class _Block:
    """How one term's statistics are released (fixed at fit)."""

    name: str
    decay: float
    start: int
    size: int
    epsilon: float
    sensitivity: float          # nan for a data-dependent bound (method="local")
    calibration: object = None  # NoiseCalibration of a fixed-scale Laplace release
    alpha: float = math.nan     # Cauchy (node level)
    bound_calibration: object = None  # theta_hat's noise (method="local")
    bound_offset: int = 0       # theta_hat's offset, in grid units
    epsilon_statistic: float = math.nan
    delta: float = 0.0
    lp: bool = False            # node level: the flow / LP extension, Laplace noise

    @property
    def stop(self):
        return self.start + self.size


class ERGMStatisticsRelease(GraphRelease):
    """Private release of a vector of ERGM statistics (restricted, smooth or local sensitivity).

    Three mechanisms (every sensitivity is proven where :mod:`tdadp.ergm._sensitivity`
    computes it, every release where this class makes it):

    - ``level="edge", method="restricted"``: the statistics of the edge projection onto
      H_k (:func:`~tdadp.release.project_max_degree`) plus Laplace noise calibrated to the
      sensitivity over H_k (:func:`~tdadp.ergm.ergm_restricted_sensitivity`). eps-edge DP on
      all graphs for edges, altkstars and nodefactor; for the other terms only for
      neighbours both of maximum degree <= k (``guarantee_.restriction`` says so).
    - ``level="node", method="restricted"``: the statistics of the truncation
      (:func:`~tdadp.ergm.truncate_max_degree`) plus Cauchy noise of scale
      ``S*(x)/alpha``, S* the smooth bound of
      :func:`~tdadp.ergm.truncation_smooth_sensitivity`: eps-node DP on all graphs
      (neighbours: one graph is the other with one node's edges removed). With
      ``projection="lp"``, edges, altktriangles and altktwopaths are instead their flow / LP
      extension (:func:`~tdadp.ergm.lp_statistic`) plus Laplace noise at its global node
      sensitivity.
    - ``level="edge", method="local"``: the statistics themselves; altktriangles and
      altktwopaths with Laplace noise calibrated to a released upper bound of their local
      sensitivity, the others to their global sensitivity: (eps, delta)-edge DP on all
      graphs.

    ``epsilon`` is the total budget, shared equally by the statistics (a nodefactor or
    nodemix block of size s gets s shares and is calibrated jointly to its L1 sensitivity).

    Parameters
    ----------
    statistics : str or sequence of (str or (str, float)), default=("edges",)
        ERGM terms, see :func:`~tdadp.ergm.parse_terms` (the decay of altkstars at most
        2^30: the exact tables the release computes from resolve no larger one).
    epsilon : float in (0, inf], default=1.0
        Total privacy budget.
    level : {"edge", "node"}, default="edge"
    max_degree : int in [1, 2^53] or None, default=None
        k, required by ``method="restricted"`` (unused by "local").
    method : {"restricted", "local"}, default="restricted"
        "local" is edge level only.
    delta : float in (0, 1), default=1e-6
        Total delta of ``method="local"`` (split over its data-dependent statistics; the
        release is pure eps-DP when there are none).
    noise : {"restricted", "thesis"}, default="restricted"
        Edge level, ``method="restricted"``: the Laplace noise is calibrated to RS(H_k)
        ("restricted", tdadp's calibration) or to 3 RS(H_k) ("thesis": Goldberg 2018, who
        gives the projection onto H_k a global sensitivity of 3 and releases
        ``f(mu(x)) + Lap(3 RS / eps)``). The thesis's noise is three times larger; its
        ``guarantee_`` states no more than tdadp's (the same restriction for the terms whose
        projected statistic is not proven here to keep its H_k sensitivity on all graphs),
        since the factor 3 is the thesis's claim, not proven here for this projection.
        Other levels and methods take "restricted" only.
    projection : {"truncation", "lp"}, default="truncation"
        Node level: how a graph is mapped onto H_k. "truncation" isolates the nodes of degree
        > k and adds Cauchy noise at a smooth bound (above); "lp" releases edges,
        altktriangles and altktwopaths as their flow / LP extension
        (:func:`~tdadp.ergm.lp_statistic`: node sensitivity
        :func:`~tdadp.ergm.lp_sensitivity` on every graph, so Laplace noise of fixed scale;
        eps-node-DP on all graphs) and the other terms (altkstars, labelled terms, which have
        no LP extension) by truncation. Edge level takes "truncation" only (ignored there).
    bound_share : float in (0, 1), default=0.5
        With ``method="local"``, the part of a data-dependent statistic's budget spent on its
        sensitivity bound.
    labels : array-like of shape (n_nodes,), DataFrame or dict, optional
        Node labels (public) for the labelled terms, or attributes by name. None: the node
        attributes of the networkx graph given to :meth:`fit`, if it is one.
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
    n_jobs : int, optional
        Graphs of a batch released in parallel (threads); results do not depend on it.
    accountant : BudgetAccountant, optional
        Charged the fitted guarantee once per released graph, before any coin is drawn; a
        release past its budget raises ``BudgetError``. None tracks nothing.

    Attributes
    ----------
    guarantee_ : PrivacyGuarantee
        Unit "edge" or "node"; its ``components`` are the guarantees of each term's block.
        With ``method="local"`` and a data-dependent statistic, its ``delta`` is the total
        delta ((eps, delta)-DP; the components carry their shares).
    terms_ : ERGMTerms
    statistic_epsilon_ : ndarray of float64
        Each statistic's share of epsilon (``epsilon / p``).
    sensitivity_ : ndarray of float64
        Per statistic (a block's L1 for vector terms): the H_k sensitivity (restricted; three
        times it with ``noise="thesis"``), the global one (local; NaN where the bound is
        data-dependent).
    noise_scale_ : ndarray of float64
        Per statistic, the Laplace scale when it is fixed; NaN where it depends on the data
        (node level; local data-dependent terms).
    delta_ : float
        The total delta spent (0 for pure eps-DP releases).
    alpha_ : ndarray of float64 or None
        Node level: the Cauchy scale divisor of each statistic (``eps_block / 2``).
    beta_ : float or None
        Node level: the smoothness of S* (``epsilon / (2p)``).
    blocks_ : tuple
        The calibration of each term's block (budget, sensitivity, noise parameters), which
        ``transform`` releases with; ``fitted_params_`` holds level, method and k as fitted.

    See Also
    --------
    ergm_statistics_release : the function twin.
    tdadp.ergm.ergm_restricted_sensitivity, tdadp.ergm.truncate_max_degree
    tdadp.ergm.truncation_smooth_sensitivity

    References
    ----------
    Goldberg, "Towards differentially private inference on network data", Harvard (2018).
    Lu, Miklau, "Exponential random graph estimation under differential privacy", KDD (2014).
    Kasiviswanathan, Nissim, Raskhodnikova, Smith, "Analyzing graphs with node differential
    privacy", TCC (2013).
    Nissim, Raskhodnikova, Smith, "Smooth sensitivity and sampling in private data
    analysis", STOC (2007).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import ERGMStatisticsRelease
    >>> mech = ERGMStatisticsRelease(["edges", "altkstars"], epsilon=2.0, max_degree=3,
    ...                              random_state=0).fit()
    >>> mech.sensitivity_.tolist()                  # each statistic gets epsilon 1
    [1.0, 3.0]
    >>> np.round(mech.noise_scale_, 6).tolist()   # (a real statistic: one grid unit more)
    [1.0, 3.0]
    >>> mech.guarantee_.restriction is None          # proven on all graphs for these terms
    True
    >>> K4 = np.ones((4, 4), dtype=np.uint8) - np.eye(4, dtype=np.uint8)
    >>> release = mech.transform(K4)
    >>> release.kind, release.values.shape
    ('laplace', (2,))
    >>> node = ERGMStatisticsRelease("altktwopaths", level="node", max_degree=3).fit()
    >>> node.sensitivity_.tolist(), node.guarantee_.unit
    ([9.0], 'node')
    """

    _parameter_constraints = {
        **GraphRelease._parameter_constraints,
        "statistics": "no_validation",  # parsed (and checked) by parse_terms in fit
        "epsilon": [real_rule(RULES["positive_epsilon"])],
        "level": [Options(*ERGM_LEVELS)],
        "max_degree": [None, MAX_DEGREE_RULE],
        "method": [Options(*ERGM_METHODS)],
        "delta": [real_rule(Interval("real", 0, 1, "neither"))],
        "noise": [Options(*ERGM_NOISES)],
        "bound_share": [real_rule(Interval("real", 0, 1, "neither"))],
        "projection": [Options(*ERGM_PROJECTIONS)],
        "labels": "no_validation",  # checked by parse_terms in fit
    }

    def __init__(self, statistics=("edges",), epsilon=1.0, level="edge", max_degree=None,
                 method="restricted", delta=1e-6, noise="restricted", bound_share=0.5,
                 labels=None, random_state=None, n_jobs=None, accountant=None,
                 projection="truncation"):
        super().__init__(epsilon=epsilon, random_state=random_state, n_jobs=n_jobs,
                         accountant=accountant)
        self.statistics = statistics
        self.level = level
        self.max_degree = max_degree
        self.method = method
        self.delta = delta
        self.noise = noise
        self.bound_share = bound_share
        self.labels = labels
        self.projection = projection

    def _calibrate(self, X):
        if self.noise == "thesis" and (self.level, self.method) != ("edge", "restricted"):
            raise ValueError(f"noise='thesis' (3 RS(H_k) / eps) is the edge-level restricted "
                             f"release's; level={self.level!r}, method={self.method!r} take "
                             "noise='restricted'.")
        if self.projection == "lp" and self.level != "node":
            raise ValueError("projection='lp' is the node-level release's (the flow / LP "
                             "extension onto H_k); use level='node'.")
        if self.method == "local" and self.level == "node":
            raise ValueError("method='local' (private local sensitivity) is edge level only; "
                             "use level='node' with method='restricted' (truncation and "
                             "smooth sensitivity).")
        if self.method == "restricted" and self.max_degree is None:
            raise ValueError("method='restricted' needs max_degree (k: the sensitivities "
                             "hold on graphs of maximum degree at most k).")
        if self.method == "local" and self.max_degree is not None:
            raise ValueError("method='local' projects nothing: max_degree must be None.")
        # A networkx graph carries its public node attributes, as PrivateERGM reads them.
        labels = self.labels if self.labels is not None else graph_attributes(X)
        self.terms_ = parse_terms(self.statistics, labels)
        if "gwdegree" in self.terms_.names:
            raise ValueError("gwdegree has no sensitivity bound in tdadp yet: it cannot be "
                             "released (it is offered for sampling and non-private fits).")
        for name, decay in zip(self.terms_.names, self.terms_.decays):
            if name == "altkstars" and decay > _MAX_KSTAR_DECAY:
                raise ValueError(
                    f"the decay of 'altkstars' must be at most 2^30 for a release, got "
                    f"{decay!r}: the release computes it exactly from tables of r^t on a 2^-64 "
                    "grid, which cannot resolve 1 - r^t = t/decay for larger decays (the "
                    "statistic would come out 0). tdadp.ergm.ergm_statistics evaluates any "
                    "decay.")
        if X is not None:
            items, _ = graph_batch(X)  # validated, then dropped
            if self.terms_.labels is not None:
                for A in items:
                    if A.shape[0] != self.terms_.labels.shape[0]:
                        raise ValueError(f"labels cover {self.terms_.labels.shape[0]} nodes, "
                                         f"a graph has {A.shape[0]}.")
        return self._guarantee()

    def fit_transform(self, X, y=None):
        """Fit, then release ``X``; with ``labels=None`` a networkx graph's node attributes
        serve the labelled terms (read at fit, as :meth:`fit` given the graph does).

        Returns
        -------
        The same as :meth:`transform`.
        """
        if self.labels is None and graph_attributes(X) is not None:
            return self.fit(X).transform(X)
        return super().fit_transform(X, y)

    def _guarantee(self):
        """Calibrate every term's block to its share of the budget; return the guarantee.

        Budget:
        ``epsilon`` is the total. The p statistics share it equally (basic composition): a term with
        ``size`` statistics (one for scalar terms, one per level or level pair for nodefactor and
        nodemix) gets ``epsilon * size / p`` and is released as one block calibrated to its L1
        sensitivity (the vector Laplace mechanism; for Cauchy noise alpha = eps_block/2 and beta =
        eps_block/(2 size) = epsilon/(2p)). With ``method="local"`` a data-dependent statistic
        spends ``bound_share`` of its share on theta_hat and the rest on the statistic, and the
        total ``delta`` is split equally over those statistics.
        """
        terms = self.terms_
        p = terms.n_statistics
        eps = float(self.epsilon)
        k = self.max_degree
        self.statistic_epsilon_ = np.full(p, eps / p)
        self.sensitivity_ = np.full(p, np.nan)
        self.noise_scale_ = np.full(p, np.nan)
        self.alpha_ = self.beta_ = None
        n_local = sum(1 for n in terms.names if n in _LOCAL_TERMS) \
            if self.method == "local" else 0
        delta_each = float(self.delta) / n_local if n_local else 0.0
        self.delta_ = float(self.delta) if n_local else 0.0
        if self.level == "node":
            self.alpha_ = np.full(p, np.nan)
            self.beta_ = eps / (2 * p)
        blocks, components = [], []
        for name, decay, off, size in zip(terms.names, terms.decays, terms.offsets,
                                          terms.sizes):
            eps_b = eps * size / p
            label = terms.statistic_names[off] if size == 1 else name
            restriction = None
            if self.method == "restricted":
                sens = round_up(restricted_bound(name, decay, k, self.level))
                if self.noise == "thesis":
                    sens = _THESIS_FACTOR * sens
                self.sensitivity_[off:off + size] = sens
                if self.level == "edge":
                    cal = calibrate_noise(sens, eps_b, "laplace", integer=name in COUNT_TERMS)
                    self.noise_scale_[off:off + size] = cal.scale
                    if name not in _PROJECTION_SAFE:
                        restriction = f"graphs of maximum degree at most {k}"
                    block = _Block(name, decay, off, size, eps_b, sens, calibration=cal)
                    components.append(PrivacyGuarantee(
                        mechanism=f"ERGMStatisticsRelease[{label}]", epsilon=eps_b,
                        unit="edge", sensitivity=sens, noise_scale=cal.scale,
                        restriction=restriction, effective_epsilon=min(eps_b, cal.epsilon)))
                elif self.projection == "lp" and name in LP_TERMS:
                    sens = lp_sensitivity(name, decay, k)
                    self.sensitivity_[off:off + size] = sens
                    cal = calibrate_noise(sens, eps_b, "laplace", integer=False)
                    self.noise_scale_[off:off + size] = cal.scale
                    block = _Block(name, decay, off, size, eps_b, sens, calibration=cal,
                                   lp=True)
                    components.append(PrivacyGuarantee(
                        mechanism=f"ERGMStatisticsRelease[{label}, lp]", epsilon=eps_b,
                        unit="node", sensitivity=sens, noise_scale=cal.scale,
                        effective_epsilon=min(eps_b, cal.epsilon)))
                else:
                    alpha = eps_b / 2
                    self._check_node_scale(sens, alpha, label)
                    self.alpha_[off:off + size] = alpha
                    block = _Block(name, decay, off, size, eps_b, sens, alpha=alpha)
                    components.append(PrivacyGuarantee(
                        mechanism=f"ERGMStatisticsRelease[{label}]", epsilon=eps_b,
                        unit="node", sensitivity=sens))
            elif name in _LOCAL_TERMS:
                # Products, not a difference: at eps = inf, inf - inf would be nan.
                eps1 = eps_b * float(self.bound_share)
                eps2 = eps_b * (1.0 - float(self.bound_share))
                bcal = calibrate_noise(1.0, eps1, "laplace", integer=True)
                # theta_hat's offset in grid units (see _private_local_sensitivity)
                offset = 0
                if bcal.t:
                    offset = max(0, math.ceil(math.log(1 / (2 * delta_each)) * bcal.t / bcal.s)
                                 + 1)
                block = _Block(name, decay, off, size, eps_b, math.nan, bound_calibration=bcal,
                               bound_offset=offset, epsilon_statistic=eps2, delta=delta_each)
                components.append(PrivacyGuarantee(
                    mechanism=f"ERGMStatisticsRelease[{label}]", epsilon=eps_b, unit="edge",
                    delta=delta_each))
            else:
                sens = round_up(global_bound(name, decay))
                cal = calibrate_noise(sens, eps_b, "laplace", integer=name in COUNT_TERMS)
                self.sensitivity_[off:off + size] = sens
                self.noise_scale_[off:off + size] = cal.scale
                block = _Block(name, decay, off, size, eps_b, sens, calibration=cal)
                components.append(PrivacyGuarantee(
                    mechanism=f"ERGMStatisticsRelease[{label}]", epsilon=eps_b, unit="edge",
                    sensitivity=sens, noise_scale=cal.scale,
                    effective_epsilon=min(eps_b, cal.epsilon)))
            blocks.append(block)
        self.blocks_ = tuple(blocks)
        self.fitted_params_ = {"level": self.level, "method": self.method, "max_degree": k,
                               "noise": self.noise,
                               "projection": self.projection if self.level == "node"
                               else "truncation"}
        restriction = next((c.restriction for c in components if c.restriction), None)
        single = components[0] if len(components) == 1 else None
        return PrivacyGuarantee(
            mechanism=type(self).__name__, epsilon=eps,
            unit="node" if self.level == "node" else "edge",
            sensitivity=None if single is None else single.sensitivity,
            noise_scale=None if single is None else single.noise_scale,
            restriction=restriction,
            delta=self.delta_,
            effective_epsilon=(min(eps, sum(c.effective_epsilon for c in components))
                               if all(c.effective_epsilon is not None for c in components)
                               else None),
            components=tuple(components) if len(components) > 1 else ())

    def _check_node_scale(self, sens, alpha, label):
        """Refuse a node-level budget whose Cauchy scale could leave float range (see
        ``_MAX_SCALE_LOG2``)."""
        beta = self.beta_
        if math.isinf(alpha) or sens == 0:
            return
        bound = _log2_scale_bound(sens, alpha, beta) if alpha > 0 and beta > 0 else math.inf
        if bound > _MAX_SCALE_LOG2:
            raise ValueError(
                f"epsilon={self.epsilon!r} is too small for the node-level release with "
                f"max_degree={self.max_degree}: the Cauchy scale of {label} (sensitivity "
                f"{sens:.3g}) would reach about 2^{min(bound, 1e9):.0f}, beyond float range. "
                "Use a larger epsilon or a smaller max_degree.")

    def _plan(self, items, pandas):
        # The LP extensions have no randomness, but they can fail (too many wedges, an
        # optimum that cannot be certified): computed here, before the charge, so that such
        # a refusal costs no budget. It still depends on the graph, which the docstring of
        # lp_statistic states.
        if self.fitted_params_["level"] != "node" or not any(b.lp for b in self.blocks_):
            return [(A, None) for A in items]
        k = self.fitted_params_["max_degree"]
        planned = []
        for A in items:
            S = A.tocsr() if isinstance(A, PackedAdjacency) else A
            planned.append((S, {b.start: lp_statistic(S, b.name if b.name == "edges" else
                                                      (b.name, b.decay), k)
                                for b in self.blocks_ if b.lp}))
        return planned

    def _release(self, item, rng):
        A, lp_values = item if isinstance(item, tuple) else (item, None)
        if isinstance(A, PackedAdjacency):
            A = A.tocsr()
        fitted = self.fitted_params_
        level, method, k = fitted["level"], fitted["method"], fitted["max_degree"]
        terms = self.terms_
        p = terms.n_statistics
        n = A.shape[0]
        if terms.labels is not None and terms.labels.shape[0] != n:
            raise ValueError(f"labels cover {terms.labels.shape[0]} nodes, the graph has {n}.")
        meta = {"method": method, "level": level, "max_degree": k, "noise": fitted["noise"],
                "statistic_names": terms.statistic_names,
                "epsilon": self.statistic_epsilon_.copy(),
                "sensitivity": self.sensitivity_.copy()}
        if level == "node":
            values = self._release_node(A, k, rng, lp_values)
            meta.update(alpha=self.alpha_.copy(), beta=self.beta_,
                        projection=fitted["projection"])
            n_lp = sum(b.lp for b in self.blocks_)
            if n_lp:
                # the LP blocks' Laplace scales are fixed (public); NaN for the Cauchy ones
                kind = "laplace" if n_lp == len(self.blocks_) else "mixed"
                return ERGMRelease(values, self.noise_scale_.copy(), kind, meta)
            return ERGMRelease(values, None, "cauchy", meta)
        if method == "restricted":
            exact = exact_statistics(project_max_degree(A, k), terms)
        else:
            exact = exact_statistics(A, terms)
        values = np.empty(p)
        scales = self.noise_scale_.copy()
        bounds = np.full(p, np.nan)
        for b in self.blocks_:
            if b.calibration is not None:
                if b.name in COUNT_TERMS:
                    values[b.start:b.stop] = add_noise(
                        np.asarray(exact[b.start:b.stop], dtype=np.int64), b.calibration, rng)
                else:
                    values[b.start] = _laplace_exact(exact[b.start], b.calibration, rng)
                continue
            values[b.start], scales[b.start], bounds[b.start] = _private_local_sensitivity(
                b, A, exact[b.start], n, rng)
        if method == "local":
            meta.update(bounds=bounds, delta=np.array([b.delta for b in self.blocks_
                                                       for _ in range(b.size)]))
        return ERGMRelease(values, scales, "laplace", meta)

    def _release_node(self, A, k, rng, lp_values=None):
        """The node-level release: statistics of the truncation ``T_k A`` plus Cauchy noise.

        A block of an LP term with ``projection="lp"`` gets its flow / LP extension plus
        Laplace noise of its fixed scale (global node sensitivity: no smoothing). Each other
        block gets ``f(T_k x) + (S*_beta(x) / alpha) Z``, S* the smooth bound of
        :func:`~tdadp.ergm.truncation_smooth_sensitivity` (its Notes prove it smooth), Z
        standard Cauchy.

        *Cauchy noise.* For the standard Cauchy density h, ``|d/dz log h(z)| = |2z / (1 + z^2)| <=
        1``, so a slide by Delta changes the log-density by at most |Delta|; a dilation by e^lam
        multiplies ``h(u) / (e^lam h(e^lam u)) = (1 + e^(2 lam) u^2) / (e^lam (1 + u^2))``, which
        lies in [e^-|lam|, e^|lam|]. For d independent coordinates the slide costs the L1 norm and
        the dilation d |lam|. So h^d is (alpha, beta) = (eps/2, eps/(2d))-admissible and
        ``f(T_k x) + (S*_beta(x) / alpha) Z`` is eps-node-DP on all graphs (Nissim et al. 2007,
        admissible noise: from x to a neighbour x' the release is the slide by
        ``alpha (f(x) - f(x')) / S*(x)``, of L1 norm <= alpha since ``S*(x) >= LS(x)``, then the
        dilation by ``S*(x) / S*(x')`` in [e^-beta, e^beta]: eps/2 each). The scale
        ``S*(x)/alpha`` depends on the data and is never released (:class:`ERGMRelease` records
        alpha, beta and Delta instead).

        The Cauchy variate is drawn in floating point (numpy's ``standard_cauchy``, or
        ``tan(pi (U - 1/2))`` from a 53-bit uniform with ``random_state="secure"``): unlike
        the exact Laplace sampler of :mod:`tdadp.dp._noise`, it has the Mironov (2012) caveats
        (a finite set of outputs whose spacing depends on the scale and the statistic).
        """
        n = A.shape[0]
        for b in self.blocks_:
            # data-independent (n is public): refused before anything depends on the graph
            if not b.lp and not math.isinf(b.alpha) and b.sensitivity > 0 and _log2_scale_bound(
                    b.sensitivity, b.alpha, self.beta_, n) > 1023.0:
                raise ValueError(f"the fitted epsilon is too small for a node-level release on "
                                 f"{n} nodes: the Cauchy scale would leave float range. Fit "
                                 "with a larger epsilon or a smaller max_degree.")
        values = np.empty(self.terms_.n_statistics)
        exact = exact_statistics(truncate_max_degree(A, k), self.terms_)
        factor = truncation_smooth_factor(degrees(A), k, self.beta_)
        for b in self.blocks_:
            if b.lp:
                term = b.name if b.name == "edges" else (b.name, b.decay)
                value = lp_values[b.start] if lp_values else lp_statistic(A, term, k)
                values[b.start] = _laplace_exact(value, b.calibration, rng)
                continue
            value = np.array([float(v) for v in exact[b.start:b.stop]])
            if math.isinf(b.alpha):
                values[b.start:b.stop] = value
                continue
            # The scale S*(x)/alpha is data-dependent: used here, never returned.
            scale = b.sensitivity * factor / b.alpha
            values[b.start:b.stop] = value + scale * _standard_cauchy(rng, b.size)
        return values

    def _join(self, outputs, single):
        return outputs[0] if single else list(outputs)

    def transform(self, X):
        """Release the noisy statistics of each graph.

        Parameters
        ----------
        X : adjacency matrix (dense or scipy sparse), networkx graph, or a sequence of them

        Returns
        -------
        ERGMRelease for one graph; a list of them for a batch.
        """
        return super().transform(X)


def ergm_statistics_release(A, statistics, epsilon, level="edge", max_degree=None,
                            method="restricted", delta=1e-6, bound_share=0.5, labels=None,
                            random_state=None, noise="restricted", projection="truncation"):
    """Release noisy ERGM statistics of a graph (see :class:`ERGMStatisticsRelease`).

    Returns
    -------
    ERGMRelease (a list of them for a batch of graphs)

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import ergm_statistics_release
    >>> K4 = np.ones((4, 4), dtype=np.uint8) - np.eye(4, dtype=np.uint8)
    >>> r = ergm_statistics_release(K4, ["edges", ("altktriangles", 1.0)], np.inf,
    ...                             max_degree=3)
    >>> r.values.tolist()                               # K4 is in H_3: nothing projected
    [6.0, 6.0]
    """
    return ERGMStatisticsRelease(
        statistics=statistics, epsilon=epsilon, level=level, max_degree=max_degree,
        method=method, delta=delta, noise=noise, bound_share=bound_share, labels=labels,
        random_state=random_state, projection=projection).fit_transform(A)
