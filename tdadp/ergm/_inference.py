"""Bayesian inference for exponential random graph models, from a graph or a private release.

The posterior of an ERGM's parameters,
``p(theta | x) ∝ pi(theta) exp(theta . s(x)) / Z(theta)``, is doubly intractable: ``Z(theta)``
sums over all ``2^(n(n-1)/2)`` graphs. The exchange algorithm (Murray, Ghahramani and MacKay
2006) needs no ``Z``: it draws an auxiliary graph ``y'`` from the model at the proposed
``theta'`` and accepts with

    ``min(1, exp((theta' - theta) . (s(x) - s(y'))) pi(theta') / pi(theta))``,

in which the normalizing constants cancel. Caimo and Friel (2011) draw ``y'`` by a finite
Metropolis-Hastings run started at the observed graph (``aux_steps`` steps here; the algorithm
is exact in the limit of long runs), and move a population of chains by adaptive direction
sampling (:func:`population_exchange`).

Private inference (Goldberg 2018, Algorithm 2): when only a release ``y`` of the graph is
public (noisy statistics ``s(x) + noise``, or an edgeFlip release of its adjacency matrix), the
graph ``x`` becomes a latent variable and the sampler's state is ``(theta, x)``. Each iteration
(a) moves ``x`` by ``latent_steps`` MH steps targeting
``p(x | theta, y) ∝ exp(theta . s(x)) P(y | x)`` (an :class:`~tdadp.ergm.ERGMChain` carrying
the release's :class:`~tdadp.ergm.Observation`), then (b) moves ``theta`` by an exchange step
given the current ``x``. The same code serves Laplace releases of restricted-sensitivity or
local-sensitivity statistics, smooth-Cauchy releases of the degree-truncated graph (node-level
privacy, with the model restricted to maximum degree k) and edgeFlip releases (the
randomized-response likelihood of Karwa, Krivitsky and Slavković 2017). The auxiliary draw of
(b) starts at the current latent graph and stays in the model's class of graphs (maximum
degree ``max_degree`` when given). Each latent chain starts inside that class, at the empty
graph, or at an edgeFlip release that lies in it (the likeliest graph given the release
alone). Given released statistics, a matching stage (``latent_start="match"``) first moves
it to a graph with the released statistics and theta to the pseudo-posterior mode there;
from the empty graph alone a model with a triangle term can keep the latent graph
triangle-free for the whole run (Faux Mesa High: latent gwesp 0.6 against a released 140.6,
the triangle parameter at -4 against 1.4). Each chain then runs ``latent_burn_in`` steps
before the first iteration.

Alternating (a) and (b) alone mixes very slowly when the release is noisy: ``theta | x`` is
as narrow as a non-private posterior while ``theta | y`` is wide, so theta crawls (the
fraction of missing information is close to one). On thesis model 1 at n = 100 and eps = 0.25
per statistic the smallest effective sample size was 4 of 2,000 draws. Two moves fix most of
it (same setting: 59 to 136 of 2,000):

* (b) proposes ``theta'`` independently of ``theta``, from the normal approximation of the
  pseudo-posterior at the current ``x`` widened by 1.5 (``theta_proposal="pseudo"``), so
  ``theta`` lands near a fresh draw of ``theta | x`` at every iteration;
* (c) a joint move of ``(theta, x)`` (``joint_moves=True``): ``theta'`` by an adapted random
  walk, ``x'`` the auxiliary draw at ``theta'``, accepted by the prior ratio times the
  release's likelihood ratio ``P(y | x') / P(y | x)`` (the normalizing constants and the
  model's weights cancel: a pseudo-marginal step on ``p(theta | y)``). It moves far when the
  noise is wide against the model's spread of ``s(x)``, where (a)-(b) crawl.

Both rest on the auxiliary draws being (close to) draws from the model, as the exchange
algorithm itself does; the exact-posterior tests on 5 nodes check the whole sampler. An
edgeFlip release is the hard case: its likelihood varies over the whole graph, so (c) is
rarely accepted at realistic sizes.

Randomness: chain ``h`` draws everything (its start, latent burn-in, proposals, auxiliary
graphs) from its own stream (spawn key ``h`` of the seed), so a result depends on the seed and
the number of chains only, never on ``n_jobs``. The compiled MH steps release the GIL, so
independent exchange chains run in parallel on ``n_jobs`` threads; the population method
moves its chains one after another (each move reads the others), as Caimo and Friel do.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..utils._batch import map_items
from ..utils._memory import check_memory
from ..utils._params import Interval, Options, Rule, validate_params
from ..utils._random import OSRandom, item_streams, stage_tag
from ._formula import graph_attributes
from ._mcmc import run_exchange, run_population
from ._moves import PSEUDO_KAPPA, ChainConfig, ChainState, pseudo_posterior
from ._posterior import ERGMPosterior
from ._progress import Progress
from ._sampler import (
    BYTES_PER_DYAD,
    ERGMChain,
    Observation,
    as_network,
    check_chain_memory,
    default_steps,
    real_vector,
)
from ._terms import MAX_COUNT, MAX_DEGREE_RULE, ERGMTerms, int_rule, real_rule

__all__ = ["bayes_ergm", "exchange_algorithm", "population_exchange", "default_aux_steps",
           "METHODS", "THETA_PROPOSALS", "LATENT_STARTS"]

METHODS = ("exchange", "population")
THETA_PROPOSALS = ("auto", "walk", "pseudo")
LATENT_STARTS = ("match", "density")

_TAG = stage_tag("bayes_ergm")

#: Variance of the default prior N(0, 100 I) (Bergm's prior.sigma).
DEFAULT_PRIOR_VARIANCE = 100.0
#: Default covariance of the jitter of population proposals (Bergm's V.proposal = 0.0025).
DEFAULT_JITTER_VARIANCE = 0.0025


def default_aux_steps(n_nodes):
    """Default MH steps of an auxiliary draw: 5 per dyad, at least 1,000 (Bergm's aux.iters).

    Too short a run leaves ``s(y')`` near ``s(x)``, so the exchange ratio reads less of the
    data and the posterior comes out too wide. Measured on thesis model 1 at n = 100 (30,000
    kept draws each, Monte Carlo error of an sd 3 to 5%): against 10 steps per dyad, the
    posterior sds of (edges, altkstars, altktriangles, altktwopaths) were (11, 24, 22, 33)%
    too wide with Bergm's 1,000 steps (0.2 per dyad), (1, 8, 3, 14)% with 1 per dyad,
    (0, 7, 4, 11)% with 2 per dyad and (0, 2, 2, 1)% with 5 per dyad.
    """
    n = int(n_nodes)
    return max(1000, 5 * n * (n - 1) // 2)


# ------------------------------------------------------------------------- parameter rules
#
# bayes_ergm declares the rule of every parameter and checks them with validate_params, as
# the estimators check their _parameter_constraints: _CONSTRAINTS on entry, and the rules of
# the parameters given per statistic (_PER_STATISTIC), which depend on the model's number of
# statistics p, as soon as the model is built (_model_constraints(p)). A parameter declared in
# neither table is a KeyError on every call. Rules across parameters (exactly one of graph
# and observation, n_nodes only for private inference, gamma only for the population, ...)
# are checked after them, in bayes_ergm's own words (_model and bayes_ergm).


def _real_array(value):
    """``value`` as a float64 array when it holds real numbers only (no strings, booleans,
    complex numbers or other objects: never parsed or cast), else None."""
    if isinstance(value, (str, bytes)):
        return None
    try:
        return real_vector(value, "value").reshape(np.shape(value))
    except (ValueError, TypeError):
        return None


# The magnitudes the per-statistic parameters may take: beyond them the prior's quadratic
# form (and the exchange ratio) leave float range, and no ERGM parameter is that large.
_MAX_MAGNITUDE = 1e50


def _as_vector(value, p):
    """``value`` as p finite float64 values of magnitude at most 1e50 (a scalar for all of
    them), or None."""
    v = _real_array(value)
    if v is None:
        return None
    if v.ndim == 0:
        v = np.full(p, float(v))
    if v.shape != (p,) or not np.isfinite(v).all() or np.abs(v).max() > _MAX_MAGNITUDE:
        return None
    return v


def _as_cov(value, p):
    """A covariance given as a positive scalar (times I), a diagonal or a (p, p) matrix, as a
    symmetric positive definite (p, p) float64 matrix; None when ``value`` is none of them."""
    c = _real_array(value)
    if c is None:
        return None
    if c.ndim == 0:
        c = np.eye(p) * float(c)
    elif c.ndim == 1 and c.shape == (p,):
        c = np.diag(c)
    if c.shape != (p, p) or not np.isfinite(c).all():
        return None
    if not np.allclose(c, c.T, rtol=1e-10, atol=1e-12 * np.abs(c).max(initial=0)):
        return None
    c = (c + c.T) / 2
    try:
        np.linalg.cholesky(c)
    except np.linalg.LinAlgError:
        return None
    eig = np.linalg.eigvalsh(c)
    if eig.min() < 1 / _MAX_MAGNITUDE or eig.max() > _MAX_MAGNITUDE:
        return None
    return c


_OWNER = "bayes_ergm"

_CONSTRAINTS = {
    "statistics": "no_validation",  # parsed (and checked) by parse_terms
    "graph": "no_validation",       # checked by the input contract (tdadp.io.graph_batch)
    "observation": [None, Rule("an Observation (Observation.laplace, .cauchy, .smooth_cauchy "
                               "or .flip)", lambda v: isinstance(v, Observation))],
    "n_nodes": [None, int_rule(2)],
    "labels": "no_validation",      # checked by parse_terms
    "max_degree": [None, MAX_DEGREE_RULE],
    "method": [Options(*METHODS)],
    "n_iter": [int_rule(1, MAX_COUNT)],
    "burn_in": [int_rule(0, MAX_COUNT)],
    "n_chains": [None, int_rule(1, MAX_COUNT)],
    "aux_steps": [None, int_rule(1, MAX_COUNT)],
    "latent_steps": [None, int_rule(1, MAX_COUNT)],
    "latent_burn_in": [None, int_rule(0, MAX_COUNT)],
    "gamma": [None, real_rule(Interval("real", 0, 1e50, "right"))],
    "adapt": ["boolean"],
    "joint_moves": ["boolean"],
    "theta_proposal": [Options(*THETA_PROPOSALS)],
    "latent_start": [Options(*LATENT_STARTS)],
    "random_state": ["secure_random_state"],
    "n_jobs": ["n_jobs"],
    "verbose": ["boolean"],
}

#: method="population" moves each chain along the difference of two others.
_POPULATION_CONSTRAINTS = {"n_chains": [None, int_rule(3, MAX_COUNT)]}

#: The parameters given per statistic: their rules depend on the model (_model_constraints).
_PER_STATISTIC = ("prior_mean", "prior_cov", "proposal_cov", "theta0")


def _model_constraints(p):
    """The rules of the parameters given per statistic, for a model of p statistics."""
    vector = Rule(f"a number (the same for every statistic) or {p} numbers (one per "
                  "statistic), finite and of magnitude at most 1e50",
                  lambda v: _as_vector(v, p) is not None)
    cov = Rule(f"a positive number, {p} positive variances or a symmetric positive definite "
               f"({p}, {p}) matrix, with eigenvalues in [1e-50, 1e50]",
               lambda v: _as_cov(v, p) is not None)
    return {"prior_mean": [None, vector], "prior_cov": [None, cov],
            "proposal_cov": [None, cov], "theta0": [None, vector]}


# ------------------------------------------------------------------------------ set-up


def _density_guess(observation, terms, n):
    """A starting theta for the latent burn-in: the edges-only model at the released density."""
    theta = np.zeros(terms.n_statistics)
    if "edges" not in terms.names:
        return theta
    off = terms.offsets[terms.names.index("edges")]
    N = n * (n - 1) / 2.0
    obs = observation
    if obs.kind == "flip":
        z = np.triu(obs.release, 1).sum() / N
        pi = obs.flip_probability
        density = (z - pi) / (1.0 - 2.0 * pi)
    else:
        released = obs.scales if obs.kind in ("laplace", "cauchy") else obs.sensitivities
        if not released[off] > 0:
            return theta
        density = obs.values[off] / N
    density = min(max(density, 0.5 / N), 1.0 - 0.5 / N)
    theta[off] = math.log(density / (1.0 - density))
    return theta


#: Rounds of the matching stage (each moves the graph by ``2 latent_burn_in / MATCH_ROUNDS``
#: MH steps, then theta to the pseudo-posterior mode at the graph).
MATCH_ROUNDS = 5
#: Laplace scale that ties the graph to the released values during the matching stage: a
#: statistic missed by one unit costs one nat.
MATCH_SCALE = 1.0


def _match_release(chain, observation, theta, prior_mean, prior_prec, n_steps, rng, progress):
    """Where a latent chain starts: a graph with (about) the released statistics and theta the
    pseudo-posterior mode at it; returns that theta (the latent chain is moved in place).

    Why: the latent chain's burn-in at the edges-only ``theta`` leaves a graph of the right
    density and no triangles; the pseudo-posterior mode at that graph puts the triangle
    parameter far below zero, the model there keeps the latent graph triangle-free, and the
    release pulls too weakly (a few nats) to break the pair out: on Faux Mesa High the latent
    gwesp statistic averaged 0.6 against a released 140.6 for 600 iterations. Two simpler
    cures fail. A sharp likelihood of the released values alone freezes the graph (every
    toggle that breaks one statistic's match is refused: thesis model 2 stalled at a fifth
    of its released k-triangles at scale 0.3), or at scale 1 leaves Mesa at a third of its
    triangles (the edges-only model's entropy wins). Moving theta alone (stochastic
    approximation of "the model's mean statistics are the released ones") jumps into the
    degenerate region of the triangle model on its first Newton step and stays in the
    saturated graph. Here both move in turn: the graph by MH steps targeting
    ``exp(theta . s(x))`` times a Laplace likelihood of the released values at scale
    :data:`MATCH_SCALE` (statistics not released are free), then theta to the mode of the
    pseudo-posterior at the graph. The model does more of the work each round, the tie to
    the release keeps a degenerate theta from running away, and the pair settles where the
    graph has the released statistics and theta is its pseudo-posterior mode (Mesa at eps
    10: gwesp 1.5-1.6 against Table 5.3's 1.39 (0.06)). This stage only chooses where the
    chain starts; every kept draw targets the true posterior.
    """
    if observation.kind in ("laplace", "cauchy"):
        released = observation.scales > 0
    else:  # smooth_cauchy: every statistic is released
        released = np.ones(observation.values.shape, dtype=bool)
    chain.set_observation(Observation.laplace(observation.values,
                                              np.where(released, MATCH_SCALE, 0.0)))
    steps = max(1, 2 * n_steps // MATCH_ROUNDS)
    for _ in range(MATCH_ROUNDS):
        chain.run(theta, steps, rng, progress=progress)
        theta = pseudo_posterior(chain, prior_mean, prior_prec, start=theta)[0]
    chain.set_observation(observation)
    return theta


def _latent_start(observation, n, max_degree):
    """Where the latent chain starts: the edgeFlip release itself if it lies in the model's
    class of graphs (the most likely graph given the release alone), else the empty graph
    (inside every class H_k), allocated only once the chain's memory is known to fit."""
    if observation.kind == "flip":
        Z = observation.release
        if max_degree is None or Z.sum(axis=1).max(initial=0) <= max_degree:
            return Z
    check_chain_memory(n)
    return np.zeros((n, n), dtype=np.uint8)


def _streams(random_state, n_chains):
    """One Generator per chain. "secure": from 256 bits of the operating system's CSPRNG
    (never reproducible; the MCMC is post-processing, so its generators need no more)."""
    if isinstance(random_state, str):  # "secure", the only string the rule lets through
        entropy = int.from_bytes(OSRandom().bytes(32), "little")
        random_state = np.random.SeedSequence(entropy)
    return item_streams(random_state, range(n_chains), _TAG)


def _check_run_memory(n, p, n_chains, n_iter, private):
    """Refuse up front a run whose chains or draws would not fit in memory."""
    graphs = (2 * n_chains + 1) if private else (n_chains + 1)  # latent and auxiliary chains
    check_memory(BYTES_PER_DYAD * float(n) ** 2 * graphs,
                 f"{n_chains} ERGM chain(s) on {n} nodes",
                 " (each keeps its latent and auxiliary graphs, 17 bytes a dyad each)")
    check_memory(8.0 * n_chains * n_iter * p * (3 if private else 2),
                 f"{n_iter} draws of {p} statistics from {n_chains} chain(s)",
                 " (pass a smaller n_iter)")


def _model(statistics, graph, observation, n_nodes, labels, max_degree):
    """The chain of the observed graph, or the latent chain of a release, before any draw.

    Checks the rules across the data parameters; returns ``(chain, n, max_degree)``, the
    maximum degree being the smooth-Cauchy release's truncation degree when not given.
    """
    if (graph is None) == (observation is None):
        raise ValueError("give exactly one of graph= (the observed network) and observation= "
                         "(a private release of it).")
    if max_degree is not None:
        max_degree = int(max_degree)
    if observation is None:
        if n_nodes is not None:
            raise ValueError("n_nodes is for private inference; the graph gives its own.")
        chain = ERGMChain(as_network(graph, "graph"), statistics,
                          labels=graph_attributes(graph) if labels is None else labels,
                          max_degree=max_degree)
        return chain, chain.n_nodes, max_degree
    if observation.kind == "none":
        raise ValueError("the observation releases nothing: for a network you observed, "
                         "pass graph=.")
    if observation.kind == "flip":
        n = observation.release.shape[0]
        if n_nodes is not None and int(n_nodes) != n:
            raise ValueError(f"n_nodes={n_nodes} but the edgeFlip release has {n} nodes.")
    else:
        if n_nodes is None:
            raise ValueError("private inference from released statistics needs n_nodes "
                             "(the number of nodes of the latent graph).")
        n = int(n_nodes)
    if observation.kind == "smooth_cauchy":
        if max_degree is None:
            max_degree = observation.max_degree
        elif max_degree != observation.max_degree:
            raise ValueError(f"max_degree={max_degree} but the smooth-Cauchy release "
                             f"truncated degrees at {observation.max_degree}: the model "
                             "is the ERGM on graphs of that maximum degree.")
    chain = ERGMChain(_latent_start(observation, n, max_degree), statistics, labels=labels,
                      max_degree=max_degree, observation=observation)
    return chain, n, max_degree


# ---------------------------------------------------------------------------- entry points


def bayes_ergm(statistics, *, graph=None, observation=None, n_nodes=None, labels=None,
               max_degree=None, method="exchange", n_iter=4000, burn_in=2000, n_chains=None,
               aux_steps=None, latent_steps=None, latent_burn_in=None, prior_mean=None,
               prior_cov=None, proposal_cov=None, gamma=None, adapt=True, joint_moves=True,
               theta_proposal="auto", latent_start="match", theta0=None, random_state=None,
               n_jobs=None, verbose=False):
    """Posterior draws of an ERGM's parameters given a graph, or given a private release of it.

    Give exactly one of ``graph`` (the observed network: the exchange algorithm of Caimo and
    Friel 2011) or ``observation`` (a differentially private release: the graph is latent and
    sampled along, Goldberg 2018, Algorithm 2). See the module documentation for the
    algorithm.

    Parameters
    ----------
    statistics : sequence of terms, or ERGMTerms
        The model's terms (see :func:`tdadp.ergm.parse_terms`).
    graph : graph, optional
        The observed network (non-private inference): an adjacency matrix (dense or sparse),
        a networkx graph or an edge list, under the package's input contract
        (:func:`tdadp.io.graph_batch`).
    observation : Observation, optional
        The release the inference conditions on (private inference):
        ``Observation.laplace(y, scales)`` (restricted- or local-sensitivity Laplace releases),
        ``Observation.cauchy``, ``Observation.smooth_cauchy(y, sens / alpha, k, beta)``
        (node-level release of the degree-truncated graph; the model is then restricted to
        maximum degree ``k``) or ``Observation.flip(Z, pi)`` (edgeFlip).
    n_nodes : int, optional
        Number of nodes of the latent graph (private inference; read from the release for
        edgeFlip).
    labels : array-like of shape (n,), optional
        Node labels for labelled terms.
    max_degree : int, optional
        Restrict the model to graphs of maximum degree at most ``max_degree`` (the latent and
        auxiliary chains stay in that class). Defaults to the truncation degree of a
        smooth-Cauchy observation, and must equal it. Such classes have maximal graphs that
        local MH moves leave slowly (on 5 nodes with k = 2, a triangle and an edge must lose
        edges before becoming a 5-cycle), which biases short auxiliary runs when the
        posterior reaches large edge parameters: compare fits with a larger ``aux_steps``
        (on that example 300 steps biased the posterior mean by 3 Monte Carlo errors, 3,000
        did not).
    method : {"exchange", "population"}, default="exchange"
        "exchange": independent single exchange chains with a random-walk proposal, tuned
        during burn-in. "population": Caimo and Friel's population MCMC, in which chain h
        proposes ``theta_h + gamma (theta_a - theta_b) + N(0, proposal_cov)`` with a, b two
        other chains drawn at random (adaptive direction sampling / differential evolution,
        ter Braak 2006): the population's spread shapes the proposals, no tuning needed.
    n_iter : int, default=4000
        Kept iterations of each chain (after ``burn_in``).
    burn_in : int, default=2000
        Iterations of each chain discarded first (during which "exchange" tunes its proposal;
        a longer burn-in tunes it better).
    n_chains : int, optional
        "exchange": independent chains, default 1. "population": the population size, at
        least 3, default ``max(2 p, 4)`` (Bergm's 2 p, with room for the two other chains
        of a move when p = 1).
    aux_steps : int, optional
        MH steps (TNT proposals) of each auxiliary draw; default :func:`default_aux_steps`
        (5 per dyad, at least 1,000).
    latent_steps : int, optional
        MH steps of the latent graph per iteration (private inference); default
        ``aux_steps``.
    latent_burn_in : int, optional
        MH steps of each latent chain before the first iteration (and of its matching stage,
        see ``latent_start``); default :func:`tdadp.ergm.default_steps` (20 per dyad).
    latent_start : {"match", "density"}, default="match"
        Private inference from released statistics: where each latent chain starts.
        "match": five rounds, each of ``2 latent_burn_in / 5`` MH steps targeting the model
        at the current theta times a Laplace likelihood of the released values at scale 1
        (statistics not released are free), then theta moved to the pseudo-posterior mode
        at the graph; the graph ends with about the released statistics and theta at its
        pseudo-posterior mode, and the chain burns in ``latent_burn_in`` steps there under
        the release's own likelihood. "density": ``latent_burn_in`` steps from the empty
        graph at the edges-only model matching the released density (the earlier
        behaviour: with a triangle term the latent graph can stay triangle-free for the
        whole run; see the module documentation). Given ``theta0``, or for an edgeFlip
        release, the chain burns in at ``theta0`` (or the edges-only model) as "density"
        does.
    prior_mean : array-like of shape (p,), default zeros
    prior_cov : float, array-like of shape (p,) or (p, p), default 100 I
        The Gaussian prior N(prior_mean, prior_cov) (Bergm's default).
    proposal_cov : float, array-like of shape (p,) or (p, p), optional
        "exchange": the covariance of the random walks (of (b) and of the joint move; kept as
        given with ``adapt=False``, the start of the tuning otherwise); default
        ``2.38^2 / p`` times the inverse Hessian of the log pseudo-posterior at its mode.
        "population": the covariance of the jitter added to each move, default
        ``0.0025 I`` (Bergm's V.proposal).
    gamma : float, optional
        "population": the scale of the direction between the two other chains; default
        ter Braak's ``2.38 / sqrt(2 p)`` (optimal for normal posteriors), rather than Bergm's
        0.5: it gave 35% more effective draws on the 5-node test model (p = 2) and 50% more
        on thesis model 1 at n = 100, despite a lower acceptance rate (0.07 against 0.11).
    joint_moves : bool, default=True
        Private inference: add the joint ``(theta, x)`` move (c) of the module documentation
        at every iteration, with its own random walk tuned during burn-in ("exchange") or
        adaptive direction sampling ("population"). It costs one more auxiliary run an
        iteration.
    theta_proposal : {"auto", "walk", "pseudo"}, default="auto"
        "exchange": how (b) proposes ``theta'`` given the graph: "walk" the tuned random
        walk; "pseudo" an independence draw from the pseudo-posterior at the current graph
        (mode and inverse Hessian, sd widened by 1.5; one Newton solve an iteration).
        "auto": "pseudo" for private inference (where ``x`` moves and a walk lags behind
        it), "walk" for a fixed observed graph.
    adapt : bool, default=True
        "exchange": tune the proposal during burn-in (scale by Robbins-Monro towards a 0.234
        acceptance rate, shape from the burn-in draws' covariance); it stops at the end of the
        burn-in, so the kept draws are those of a fixed Markov kernel.
    theta0 : array-like of shape (p,), optional
        Starting parameter; default the mode of the pseudo-posterior (maximum pseudo-
        likelihood penalised by the prior) at the observed graph, or at the latent graph after
        its burn-in. With several chains each starts at ``theta0`` plus a draw from the
        pseudo-posterior's normal approximation.
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        Chain h draws from the stream with spawn key h. "secure": the streams come from 256
        bits of the operating system's CSPRNG (never reproducible).
    n_jobs : int, optional
        Threads running the independent chains of "exchange" (results do not depend on it).
    verbose : bool, default=False
        Show progress bars (tqdm, on stderr): the MH steps of the latent burn-in (private
        inference), then the iterations of all chains (burn-in and kept). They draw nothing:
        the posterior is the same either way.

    Returns
    -------
    ERGMPosterior

    References
    ----------
    Murray, Ghahramani, MacKay, "MCMC for doubly-intractable distributions", UAI (2006).
    Caimo, Friel, "Bayesian inference for exponential random graph models", Social Networks 33
    (2011).
    ter Braak, "A Markov chain Monte Carlo version of the genetic algorithm Differential
    Evolution", Statistics and Computing 16 (2006).
    Karwa, Krivitsky, Slavković, "Sharing social network data: differentially private
    estimation of exponential family random-graph models", JRSS C 66 (2017).
    Goldberg, "Towards differentially private inference on network data", Harvard thesis
    (2018), Algorithm 2.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import Observation, bayes_ergm
    >>> A = np.zeros((6, 6), dtype=np.uint8)
    >>> for i, j in [(0, 1), (1, 2), (0, 2), (3, 4)]:
    ...     A[i, j] = A[j, i] = 1
    >>> post = bayes_ergm(["edges"], graph=A, n_iter=300, burn_in=100, aux_steps=100,
    ...                   random_state=0)
    >>> post.draws.shape, bool(-3 < post.mean[0] < 0)
    ((300, 1), True)
    >>> private = bayes_ergm(["edges"], observation=Observation.laplace([4.3], [1.0]),
    ...                      n_nodes=6, n_iter=300, burn_in=100, aux_steps=100,
    ...                      random_state=0)
    >>> private.latent_statistics.shape
    (1, 300, 1)
    """
    params = dict(locals())  # the arguments, before any other name is bound
    start_time = time.perf_counter()
    validate_params(_CONSTRAINTS, {name: value for name, value in params.items()
                                   if name not in _PER_STATISTIC}, _OWNER)
    private = observation is not None
    base, n, max_degree = _model(statistics, graph, observation, n_nodes, labels, max_degree)
    terms: ERGMTerms = base.terms
    p = terms.n_statistics
    validate_params(_model_constraints(p), {name: params[name] for name in _PER_STATISTIC},
                    _OWNER)

    prior_mean = np.zeros(p) if prior_mean is None else _as_vector(prior_mean, p)
    prior_cov = _as_cov(DEFAULT_PRIOR_VARIANCE if prior_cov is None else prior_cov, p)
    prior_prec = np.linalg.inv(prior_cov)
    prior_prec = (prior_prec + prior_prec.T) / 2
    if theta0 is not None:
        theta0 = _as_vector(theta0, p)
    if proposal_cov is not None:
        proposal_cov = _as_cov(proposal_cov, p)
    n_iter = int(n_iter)
    burn_in = int(burn_in)
    aux_steps = default_aux_steps(n) if aux_steps is None else int(aux_steps)
    latent_steps = aux_steps if latent_steps is None else int(latent_steps)
    latent_burn_in = default_steps(n) if latent_burn_in is None else int(latent_burn_in)
    if theta_proposal == "auto":
        theta_proposal = "pseudo" if private and method == "exchange" else "walk"
    elif theta_proposal == "pseudo" and method != "exchange":
        raise ValueError("theta_proposal='pseudo' is a move of method='exchange'; the "
                         "population method proposes by adaptive direction sampling.")
    if method == "population":
        validate_params(_POPULATION_CONSTRAINTS, {"n_chains": n_chains},
                        f"{_OWNER} with method='population'")
        H = max(2 * p, 4) if n_chains is None else int(n_chains)
        gamma = 2.38 / math.sqrt(2 * p) if gamma is None else float(gamma)
    else:
        H = 1 if n_chains is None else int(n_chains)
        if gamma is not None:
            raise ValueError("gamma is the direction scale of method='population'.")
    _check_run_memory(n, p, H, n_iter, private)
    streams = _streams(random_state, H)

    cfg = ChainConfig(private, p, n_iter, burn_in, aux_steps, latent_steps, prior_mean,
                      prior_prec, bool(adapt), bool(joint_moves) and private,
                      PSEUDO_KAPPA if theta_proposal == "pseudo" else 0.0)
    # Latent graphs: each chain's own, burnt in from the start graph with its own stream.
    if private:
        theta_burn = _density_guess(observation, terms, n) if theta0 is None else theta0
        match = latent_start == "match" and observation.kind != "flip" and theta0 is None
        latents = []
        with Progress(verbose, H * latent_burn_in * (3 if match else 1),
                      "bayes_ergm latent burn-in", "step") as progress:
            for rng in streams:
                chain = base.copy()
                theta_h = theta_burn
                if match:
                    theta_h = _match_release(chain, observation, theta_burn, prior_mean,
                                             prior_prec, latent_burn_in, rng,
                                             progress if verbose else None)
                chain.run(theta_h, latent_burn_in, rng,
                          progress=progress if verbose else None)
                latents.append(chain)
    else:
        latents = [base] * H          # read only: every auxiliary draw starts from it
    mode, approx_cov = pseudo_posterior(latents[0], prior_mean, prior_prec)
    start = mode if theta0 is None else theta0
    approx_chol = np.linalg.cholesky(approx_cov)
    states = []
    for h, rng in enumerate(streams):
        theta = start.copy() if H == 1 else start + approx_chol @ rng.standard_normal(p)
        states.append(ChainState(cfg, rng, theta, latents[h], latents[h].copy(observation=None)))

    with Progress(verbose, H * (burn_in + n_iter), f"bayes_ergm {method}", "it") as progress:
        if method == "exchange":
            sigma, lam = (proposal_cov, 1.0) if proposal_cov is not None else \
                (approx_cov, 2.38 ** 2 / p)
            runs = map_items(lambda st: run_exchange(cfg, st, sigma, lam, progress), states,
                             None, n_jobs)
            chains = np.stack([r[0] for r in runs])
            latent_stats = np.stack([r[1] for r in runs]) if private else None
            used_cov = np.stack([r[2] for r in runs])
        else:
            jitter = (DEFAULT_JITTER_VARIANCE * np.eye(p) if proposal_cov is None
                      else proposal_cov)
            chains, latent_stats = run_population(cfg, states, gamma,
                                                  np.linalg.cholesky(jitter), progress)
            used_cov = np.repeat(jitter[None], H, axis=0)

    acceptance = np.array([st.accepted / n_iter for st in states])
    latent_acc = (np.array([st.latent_accepted / (n_iter * latent_steps) for st in states])
                  if private else None)
    joint_acc = (np.array([st.joint_accepted / n_iter for st in states]) if cfg.joint
                 else None)
    if private:
        observed = None if observation.kind == "flip" else observation.values.copy()
    else:
        observed = base.statistics.copy()
    settings = dict(n_iter=n_iter, burn_in=burn_in, n_chains=H, aux_steps=aux_steps,
                    latent_steps=latent_steps if private else None,
                    latent_burn_in=latent_burn_in if private else None,
                    prior_mean=prior_mean, prior_cov=prior_cov, theta0=start,
                    gamma=gamma if method == "population" else None,
                    adapt=bool(adapt) if method == "exchange" else None,
                    joint_moves=cfg.joint,
                    theta_proposal=theta_proposal if method == "exchange" else None,
                    latent_start=latent_start if private else None,
                    max_degree=max_degree)
    return ERGMPosterior(
        draws=chains.reshape(-1, p), chains=chains, acceptance=acceptance,
        statistic_names=tuple(terms.statistic_names), method=method, private=private,
        observed=observed, latent_statistics=latent_stats, latent_acceptance=latent_acc,
        proposal_cov=used_cov, settings=settings,
        elapsed=time.perf_counter() - start_time, joint_acceptance=joint_acc)


def exchange_algorithm(statistics, *, graph=None, observation=None, **options):
    """The single-chain exchange algorithm: :func:`bayes_ergm` with ``method="exchange"``.

    Each iteration proposes ``theta' = theta + N(0, proposal_cov)``, draws an auxiliary graph
    at ``theta'`` by ``aux_steps`` MH steps from the observed (or current latent) graph, and
    accepts with ``exp((theta' - theta) . (s(x) - s(y'))) pi(theta') / pi(theta)``.

    Parameters
    ----------
    statistics, graph, observation
        As in :func:`bayes_ergm`.
    **options
        Any other keyword of :func:`bayes_ergm` but ``method``.

    Returns
    -------
    ERGMPosterior

    References
    ----------
    Murray, Ghahramani, MacKay, "MCMC for doubly-intractable distributions", UAI (2006).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import exchange_algorithm
    >>> A = np.zeros((5, 5), dtype=np.uint8); A[0, 1] = A[1, 0] = 1
    >>> exchange_algorithm(["edges"], graph=A, n_iter=100, burn_in=50, aux_steps=50,
    ...                    random_state=0).chains.shape
    (1, 100, 1)
    """
    if "method" in options:
        raise ValueError("exchange_algorithm has no method parameter: use bayes_ergm.")
    return bayes_ergm(statistics, graph=graph, observation=observation, method="exchange",
                      **options)


def population_exchange(statistics, *, graph=None, observation=None, **options):
    """Caimo and Friel's population exchange: :func:`bayes_ergm` with ``method="population"``.

    ``n_chains`` chains (default ``max(2 p, 4)``) are updated in turn; chain h proposes
    ``theta_h + gamma (theta_a - theta_b) + N(0, proposal_cov)`` with a, b two other chains
    (default gamma ``2.38 / sqrt(2 p)`` as ter Braak 2006, proposal_cov 0.0025 I as Bergm) and
    accepts by its own exchange ratio.

    Parameters
    ----------
    statistics, graph, observation
        As in :func:`bayes_ergm`.
    **options
        Any other keyword of :func:`bayes_ergm` but ``method``.

    Returns
    -------
    ERGMPosterior

    References
    ----------
    Caimo, Friel, "Bayesian inference for exponential random graph models", Social Networks 33
    (2011).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import population_exchange
    >>> A = np.zeros((5, 5), dtype=np.uint8); A[0, 1] = A[1, 0] = 1
    >>> population_exchange(["edges"], graph=A, n_iter=100, burn_in=50, aux_steps=50,
    ...                     random_state=0).chains.shape
    (4, 100, 1)
    """
    if "method" in options:
        raise ValueError("population_exchange has no method parameter: use bayes_ergm.")
    return bayes_ergm(statistics, graph=graph, observation=observation, method="population",
                      **options)
