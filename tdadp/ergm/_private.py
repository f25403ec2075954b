"""PrivateERGM: Bayesian ERGM inference from a graph or from its private release, in one step.

The estimator joins the two halves of Goldberg's system: a private release of the model's
statistics (restricted sensitivity on the bounded-degree class H_k, edge or node level, or
Lu & Miklau's private local sensitivity; :class:`tdadp.ergm.ERGMStatisticsRelease`), or an
edgeFlip release of the whole graph (Karwa, Krivitsky & Slavković), and the exchange
algorithm on the posterior given that release only (:func:`tdadp.ergm.bayes_ergm`: the
latent network and the parameters updated in turn). ``epsilon=None`` fits the non-private
posterior of the graph itself.

Whoever holds the graph calls :meth:`PrivateERGM.fit`; an analyst who only has a release
calls :meth:`PrivateERGM.fit_release`. Either way nothing of the graph is kept: the fitted
estimator holds the release (public by design), the posterior and the guarantee.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator

from ..release._base import ACCOUNTANT_RULE
from ..release._flip import EdgeFlip, flip_probability, implemented_rate
from ..utils._output import is_dataframe
from ..utils._params import RULES, Interval, Options, ParamsMixin, Rule, check_param
from ..utils._random import item_streams, stage_tag
from ._formula import graph_attributes
from ._inference import LATENT_STARTS, bayes_ergm
from ._release import ERGM_NOISES, ERGMRelease, ERGMStatisticsRelease
from ._sampler import Observation, as_network
from ._terms import MAX_COUNT, MAX_DEGREE_RULE, int_rule, parse_terms, real_rule

__all__ = ["PrivateERGM", "ERGM_MECHANISMS"]

ERGM_MECHANISMS = ("restricted", "local", "flip")
_TAG = stage_tag("PrivateERGM")


def _dense_graph(A):
    """A released graph as the dense uint8 matrix the latent chain compares against."""
    return np.ascontiguousarray(A.toarray() if sp.issparse(A) else A, dtype=np.uint8)


def _observation(release):
    """The likelihood of a statistic release given the latent graph."""
    if isinstance(release, ERGMRelease):
        meta = release.meta
        if release.kind == "laplace":
            return Observation.laplace(release.values, release.scales)
        if release.kind == "mixed":
            # No observation model mixes fixed-scale Laplace and smooth-Cauchy blocks yet.
            raise ValueError("this node-level release mixes Laplace noise (its flow / LP "
                             "terms) with smooth-Cauchy noise (its truncated terms); "
                             "inference from such a release is not offered: release only "
                             "LP terms (edges, altktriangles, altktwopaths) with "
                             "projection='lp', or every term with projection='truncation'.")
        sens = np.broadcast_to(np.asarray(meta["sensitivity"], dtype=float),
                               release.values.shape)
        alpha = np.broadcast_to(np.asarray(meta["alpha"], dtype=float), release.values.shape)
        beta = float(np.max(meta["beta"]))
        return Observation.smooth_cauchy(release.values, sens / alpha,
                                         max_degree=meta["max_degree"], beta=beta)
    raise ValueError("fit_release takes an ERGMRelease (from ERGMStatisticsRelease) or, with "
                     "epsilon, an edgeFlip release (an adjacency matrix).")


class PrivateERGM(ParamsMixin, BaseEstimator):
    """Bayesian inference for an exponential random graph model, private or not.

    Parameters
    ----------
    statistics : formula string or sequence of terms, default=("edges",)
        An ergm formula, e.g. ``"edges + nodematch('Sex', diff=TRUE) + gwesp(0.5,
        fixed=TRUE)"``, or a list of ERGM terms (:func:`tdadp.ergm.parse_terms`): "edges",
        "altkstars", "altktriangles", "altktwopaths" (with a decay, e.g.
        ``("altktriangles", 2.0)``), "nodematch", "nodefactor", "nodemix".
    epsilon : float > 0 or None, default=None
        Total privacy budget. None: non-private inference from the graph itself.
    level : {"edge", "node"}, default="edge"
        Neighbouring networks differ in one dyad ("edge") or in one node and its edges
        ("node": only with ``mechanism="restricted"``).
    max_degree : int or None, default=None
        k of the bounded-degree hypothesis H_k: required by ``mechanism="restricted"``; the
        latent network of the inference is restricted to H_k (the model is the ERGM on H_k).
        Optional for "flip".
    mechanism : {"restricted", "local", "flip"}, default="restricted"
        "restricted": the statistics projected onto H_k (edge level) or truncated (node level)
        with noise calibrated to the restricted sensitivity (Laplace; Cauchy with smooth
        sensitivity at node level), epsilon split equally over the statistics. "local": Lu &
        Miklau's private local sensitivity ((epsilon, delta)-edge DP). "flip": the whole graph
        released by edgeFlip at ``epsilon`` (randomized response, Karwa et al.).
    labels : array-like of shape (n,), DataFrame or dict of arrays, optional
        Node attributes for the labelled terms (``y`` of :meth:`fit` also sets them; default:
        a networkx graph's own node attributes).
    delta : float in (0, 1), default=1e-6
        For ``mechanism="local"``.
    noise : {"restricted", "thesis"}, default="restricted"
        Edge-level ``mechanism="restricted"``: Laplace noise at RS(H_k)/eps per statistic
        (tdadp) or at 3 RS(H_k)/eps (Goldberg's thesis); see
        :class:`~tdadp.ergm.ERGMStatisticsRelease`. The inference reads the scale from the
        release either way.
    method : {"exchange", "population"}, default="exchange"
        One adaptive exchange chain, or Caimo & Friel's population MCMC (adaptive direction
        sampling).
    n_iter, burn_in : int, optional
        Kept and discarded iterations per chain (defaults of :func:`bayes_ergm`).
    aux_steps, latent_steps : int, optional
        MH steps of each auxiliary draw and of each latent-network update.
    n_chains : int, optional
        Chains of ``method="population"``.
    joint_moves : bool, default=True
        Private inference: besides Goldberg's alternation of latent-network and exchange
        updates, move ``(theta, x)`` jointly each iteration (see :func:`bayes_ergm`).
    latent_start : {"match", "density"}, default="match"
        Private inference from released statistics: start each latent network at a graph
        with the released statistics and theta at its pseudo-posterior mode ("match"), or
        from the empty graph at the edges-only model ("density", which can leave a model
        with a triangle term triangle-free; see :func:`bayes_ergm`).
    prior_mean, prior_cov : array-like, optional
        Gaussian prior (default N(0, 100 I), Bergm's).
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        "secure" draws the release's noise from the operating system's CSPRNG (every
        mechanism), and the MCMC, post-processing of the release, seeds its chains from it.
    n_jobs : int, optional
        Chains in parallel (threads); results do not depend on it.
    accountant : BudgetAccountant or None, default=None
        Charged by :meth:`fit`, once, with the release's guarantee (``guarantee_``), before
        any random number is drawn; BudgetError past its budget, and nothing is released.
        With ``epsilon=None`` the graph itself is used: the charge is epsilon = inf.
        :meth:`fit_release` (post-processing of a release) charges nothing. None: nothing
        is tracked.
    verbose : bool, default=False
        Show the progress bars of the fit (tqdm, on stderr; see :func:`bayes_ergm`), and of
        an edgeFlip release. They draw nothing: the fit is the same either way.

    Attributes
    ----------
    statistic_names_ : tuple of str
    posterior_ : ndarray of shape (n_draws, p)
        Posterior draws, one column per statistic.
    coef_ : ndarray of shape (p,)
        Posterior mean.
    credible_interval_ : ndarray of shape (p, 2)
        Central 95% credible intervals.
    posterior_result_ : ERGMPosterior
        Draws per chain, acceptance rates, latent statistics, settings, ``ess()``.
    release_ : ERGMRelease, ndarray or None
        What the inference saw (None when non-private).
    guarantee_ : PrivacyGuarantee or None
    n_nodes_ : int

    See Also
    --------
    tdadp.ergm.ERGMStatisticsRelease, tdadp.ergm.bayes_ergm, tdadp.ergm.sample_ergm

    References
    ----------
    Goldberg, "Towards differentially private inference on network data", Harvard (2018).
    Caimo & Friel, "Bayesian inference for exponential random graph models", Social
    Networks 33 (2011).
    Karwa, Krivitsky & Slavković, "Sharing social network data: differentially private
    estimation of exponential family random-graph models", JRSS-C 66 (2017).
    Lu & Miklau, "Exponential random graph estimation under differential privacy", KDD (2014).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import PrivateERGM, sample_ergm
    >>> A = sample_ergm(["edges"], [-1.5], n_nodes=30, random_state=0)
    >>> fit = PrivateERGM(["edges"], n_iter=300, burn_in=100, random_state=1).fit(A)
    >>> bool(fit.credible_interval_[0, 0] < -1.5 < fit.credible_interval_[0, 1])
    True
    """

    _parameter_constraints = {
        "statistics": [str, tuple, list],
        "epsilon": [None, real_rule(RULES["positive_epsilon"])],
        "level": [Options("edge", "node")],
        "max_degree": [None, MAX_DEGREE_RULE],
        "mechanism": [Options(*ERGM_MECHANISMS)],
        "labels": [None, tuple, list, np.ndarray, dict, Rule(
            "a pandas DataFrame", is_dataframe)],
        "delta": [real_rule(Interval("real", 0, 1, "neither"))],
        "noise": [Options(*ERGM_NOISES)],
        "method": [Options("exchange", "population")],
        "n_iter": [None, int_rule(1, MAX_COUNT)],
        "burn_in": [None, int_rule(0, MAX_COUNT)],
        "aux_steps": [None, int_rule(1, MAX_COUNT)],
        "latent_steps": [None, int_rule(1, MAX_COUNT)],
        "n_chains": [None, int_rule(1, MAX_COUNT)],
        "joint_moves": ["boolean"],
        "latent_start": [Options(*LATENT_STARTS)],
        "prior_mean": [None, tuple, list, np.ndarray],
        "prior_cov": [None, tuple, list, np.ndarray],
        "random_state": ["secure_random_state"],
        "n_jobs": ["n_jobs"],
        "accountant": ACCOUNTANT_RULE,
        "verbose": ["boolean"],
    }

    def __init__(self, statistics=("edges",), epsilon=None, level="edge", max_degree=None,
                 mechanism="restricted", labels=None, delta=1e-6, noise="restricted",
                 method="exchange", n_iter=None, burn_in=None, aux_steps=None,
                 latent_steps=None, n_chains=None,
                 joint_moves=True, latent_start="match", prior_mean=None, prior_cov=None,
                 random_state=None, n_jobs=None, accountant=None, verbose=False):
        self.statistics = statistics
        self.epsilon = epsilon
        self.level = level
        self.max_degree = max_degree
        self.mechanism = mechanism
        self.labels = labels
        self.delta = delta
        self.noise = noise
        self.method = method
        self.n_iter = n_iter
        self.burn_in = burn_in
        self.aux_steps = aux_steps
        self.latent_steps = latent_steps
        self.n_chains = n_chains
        self.joint_moves = joint_moves
        self.latent_start = latent_start
        self.prior_mean = prior_mean
        self.prior_cov = prior_cov
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.accountant = accountant
        self.verbose = verbose

    def _check(self):
        self._validate_params()
        if self.noise == "thesis" and (self.level, self.mechanism) != ("edge", "restricted"):
            raise ValueError(f"noise='thesis' (3 RS(H_k) / eps) is the edge-level restricted "
                             f"release's; level={self.level!r}, mechanism="
                             f"{self.mechanism!r} take noise='restricted'.")
        if self.epsilon is None:
            return
        if self.mechanism == "restricted" and self.max_degree is None:
            raise ValueError("mechanism='restricted' calibrates to the bounded-degree class "
                             "H_k: give max_degree (k).")
        if self.level == "node" and self.mechanism != "restricted":
            raise ValueError(f"level='node' is offered with mechanism='restricted' only (node "
                             f"truncation with smooth sensitivity), got {self.mechanism!r}.")

    def _streams(self):
        """(release stream, inference seed): independent, from the one random_state.

        "secure" is passed on as it is: the release mechanism then draws its noise from the
        operating system's CSPRNG, and the inference seeds its chains from it.
        """
        if isinstance(self.random_state, str):  # "secure", the only string the rule allows
            return self.random_state, self.random_state
        release, inference = item_streams(self.random_state, [0, 1], _TAG)
        return release, inference

    def _infer(self, terms_input, n, labels, graph=None, observation=None, max_degree=None,
               seed=None):
        # Settings left at None take bayes_ergm's own defaults.
        options = {name: getattr(self, name) for name in (
            "n_iter", "burn_in", "aux_steps", "latent_steps", "n_chains", "prior_mean",
            "prior_cov") if getattr(self, name) is not None}
        return bayes_ergm(
            terms_input, graph=graph, observation=observation,
            n_nodes=None if graph is not None else n, labels=labels, max_degree=max_degree,
            method=self.method, joint_moves=self.joint_moves,
            latent_start=self.latent_start, random_state=seed,
            n_jobs=self.n_jobs, verbose=self.verbose, **options)

    def _store(self, posterior, release, guarantee, n):
        self.posterior_result_ = posterior
        self.posterior_ = posterior.draws
        self.coef_ = posterior.mean
        self.credible_interval_ = posterior.credible_interval(0.95)
        self.statistic_names_ = tuple(posterior.statistic_names)
        self.release_ = release
        self.guarantee_ = guarantee
        self.n_nodes_ = int(n)
        return self

    def _fit_release(self, release, n, labels, seed, guarantee):
        """The posterior given a release (the one path of fit and fit_release)."""
        terms = parse_terms(self.statistics, labels, n_nodes=n)
        if self.mechanism == "flip":
            # The rate EdgeFlip realizes at this epsilon (rounded toward more noise).
            pi = implemented_rate(flip_probability(self.epsilon), self.epsilon)
            obs, k = Observation.flip(release, pi), self.max_degree
        else:
            if tuple(release.meta.get("statistic_names", ())) != terms.statistic_names:
                raise ValueError(f"the release is of {release.meta.get('statistic_names')}, "
                                 f"this estimator's statistics are {terms.statistic_names}.")
            obs = _observation(release)
            k = release.meta.get("max_degree") if release.meta.get("method") == \
                "restricted" else None
        post = self._infer(terms, n, labels, observation=obs, max_degree=k, seed=seed)
        return self._store(post, release, guarantee, n)

    def _mechanism(self, labels):
        """The release mechanism (unfitted; seeded when it releases)."""
        if self.mechanism == "flip":
            return EdgeFlip(epsilon=self.epsilon, verbose=self.verbose)
        return ERGMStatisticsRelease(
            statistics=self.statistics, epsilon=self.epsilon, level=self.level,
            max_degree=self.max_degree if self.mechanism == "restricted" else None,
            method=self.mechanism, delta=self.delta,
            noise=self.noise if self.mechanism == "restricted" else "restricted",
            labels=labels)

    def fit(self, A, y=None):
        """Release (when ``epsilon`` is set) and fit the posterior from what was released.

        Parameters
        ----------
        A : graph on n nodes
            The private network: an adjacency matrix (dense or sparse; binary, symmetric, zero
            diagonal), a networkx graph or an edge list, under the package's input contract
            (:func:`tdadp.io.graph_batch`). Only the release is used by the inference; nothing
            of ``A`` is kept.
        y : array-like of shape (n,), optional
            Node labels for labelled terms (overrides ``labels``).

        Returns
        -------
        self
        """
        self._check()
        labels = self.labels if y is None else y
        if labels is None:
            labels = graph_attributes(A)
        A = as_network(A)
        n = A.shape[0]
        parse_terms(self.statistics, labels, n_nodes=n)  # bad terms or labels: before release
        mech = None if self.epsilon is None else self._mechanism(labels).fit()
        # The charge comes before any random number is drawn (the streams included).
        if self.accountant is not None:
            self.accountant.spend(math.inf if mech is None else mech.guarantee_)
        release_rng, seed = self._streams()
        if mech is None:
            post = self._infer(self.statistics, n, labels, graph=A, seed=seed)
            return self._store(post, None, None, n)
        release = mech.set_params(random_state=release_rng).transform(A)
        if self.mechanism == "flip":
            release = _dense_graph(release)
        del A
        return self._fit_release(release, n, labels, seed, mech.guarantee_)

    def fit_release(self, release, n_nodes=None, y=None):
        """Fit the posterior from a release made elsewhere (the graph is never seen).

        Parameters
        ----------
        release : ERGMRelease or adjacency matrix
            An :class:`~tdadp.ergm.ERGMRelease` of this estimator's statistics, or, with
            ``mechanism="flip"``, the edgeFlip release of the network at ``epsilon``.
        n_nodes : int, optional
            Number of nodes of the network (required for statistic releases).
        y : array-like of shape (n,), optional
            Node labels for labelled terms.

        Returns
        -------
        self
        """
        self._check()
        if self.epsilon is None:
            raise ValueError("fit_release needs the release's epsilon: set epsilon.")
        labels = self.labels if y is None else y
        check_param(n_nodes, [None, int_rule(2)], "n_nodes")
        _, seed = self._streams()
        if self.mechanism == "flip":
            release = _dense_graph(as_network(release, "release"))
            if n_nodes is not None and n_nodes != release.shape[0]:
                raise ValueError(f"n_nodes={n_nodes} but the edgeFlip release has "
                                 f"{release.shape[0]} nodes.")
            return self._fit_release(release, release.shape[0], labels, seed, None)
        if n_nodes is None:
            raise ValueError("a statistic release does not say how many nodes the network "
                             "has: give n_nodes.")
        if not isinstance(release, ERGMRelease):
            raise ValueError("release must be an ERGMRelease (from ERGMStatisticsRelease).")
        return self._fit_release(release, int(n_nodes), labels, seed, None)
