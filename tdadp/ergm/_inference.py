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
``p(x | theta, y) ∝ exp(theta . s(x)) P(y | x)`` (an :class:`~tdadp.graphs.ERGMChain` carrying
the release's :class:`~tdadp.graphs.Observation`), then (b) moves ``theta`` by an exchange step
given the current ``x``. The same code serves Laplace releases of restricted-sensitivity or
local-sensitivity statistics, smooth-Cauchy releases of the degree-truncated graph (node-level
privacy, with the model restricted to maximum degree k) and edgeFlip releases (the
randomized-response likelihood of Karwa, Krivitsky and Slavković 2017). The auxiliary draw of
(b) starts at the current latent graph and stays in the model's class of graphs (maximum
degree ``max_degree`` when given). Each latent chain starts inside that class, at the empty
graph, or at an edgeFlip release that lies in it (the likeliest graph given the release
alone), and runs ``latent_burn_in`` steps before the first iteration.

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
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.special import expit

from ..io._input import graph_batch
from ..utils._batch import map_items
from ..utils._params import Interval, Options, check_param
from ..utils._random import item_streams, stage_tag
from ._diagnostics import effective_sample_size, split_rhat
from ._sampler import ERGMChain, Observation, default_steps
from ._terms import ERGMTerms

__all__ = ["ERGMPosterior", "bayes_ergm", "exchange_algorithm", "population_exchange",
           "default_aux_steps", "METHODS"]

METHODS = ("exchange", "population")

_TAG = stage_tag("bayes_ergm")

#: Variance of the default prior N(0, 100 I) (Bergm's prior.sigma).
DEFAULT_PRIOR_VARIANCE = 100.0
#: Default covariance of the jitter of population proposals (Bergm's V.proposal = 0.0025).
DEFAULT_JITTER_VARIANCE = 0.0025

# Robbins-Monro gain (t + 10)^-0.6 of the burn-in scale adaptation (the offset damps the first
# steps), and the acceptance rates it aims at (Roberts and Rosenthal 2001).
_ADAPT_POWER = 0.6
_ADAPT_OFFSET = 10.0
_TARGET_ACCEPT = 0.234
_TARGET_ACCEPT_1D = 0.44
# The pseudo-posterior's sd understates the posterior's by a factor 1.2 to 1.8 on thesis model
# 1 (see _pseudo_posterior); an independence proposal must not be lighter-tailed than its
# target, so it is widened by 1.5 (at thesis model 1, n = 100, eps = 2.5 per statistic, 2.5
# mixed no better: smallest ESS 9 against 17 of 2,000 draws).
_PSEUDO_KAPPA = 1.5
THETA_PROPOSALS = ("auto", "walk", "pseudo")


def default_aux_steps(n_nodes):
    """Default MH steps of an auxiliary draw: 5 per dyad, at least 1,000 (Bergm's aux.iters).

    Too short a run leaves ``s(y')`` near ``s(x)``, so the exchange ratio reads less of the
    data and the posterior comes out too wide. Measured on thesis model 1 at n = 100 (30,000
    kept draws each, Monte Carlo error of an sd 3 to 5%): against 10 steps per dyad, the
    posterior sds of (edges, altkstars, altktriangles, altktwopaths) were (11, 24, 22, 33)%
    too wide with Bergm's 1,000 steps (0.2 per dyad), (1, 8, 3, 14)% with 1 per dyad,
    (0, 7, 4, 11)% with 2 per dyad and (0, 2, 2, 1)% with 5 per dyad. Cost: a step takes
    about 0.2 us at n = 100, so 5 per dyad is 5 ms an iteration.
    """
    n = int(n_nodes)
    return max(1000, 5 * n * (n - 1) // 2)


@dataclass(frozen=True, eq=False)
class ERGMPosterior:
    """Posterior draws of an ERGM's parameters (from :func:`bayes_ergm`).

    Attributes
    ----------
    draws : ndarray of shape (n_chains * n_iter, p)
        The kept draws, the chains one after the other.
    chains : ndarray of shape (n_chains, n_iter, p)
        The kept draws of each chain.
    acceptance : ndarray of shape (n_chains,)
        Fraction of accepted parameter moves of each chain (kept iterations).
    statistic_names : tuple of str
    method : {"exchange", "population"}
    private : bool
        Whether the data were a private release (latent graph) rather than the graph.
    observed : ndarray of shape (p,) or None
        ``s(x)`` of the graph, or the released statistics (None for an edgeFlip release).
    latent_statistics : ndarray of shape (n_chains, n_iter, p) or None
        ``s(x)`` of the latent graph at each kept iteration (private inference).
    latent_acceptance : ndarray of shape (n_chains,) or None
        Fraction of accepted toggles of each latent chain (private inference).
    joint_acceptance : ndarray of shape (n_chains,) or None
        Fraction of accepted joint moves of ``(theta, x)`` of each chain (private inference
        with ``joint_moves=True``).
    proposal_cov : ndarray of shape (n_chains, p, p)
        The random-walk covariance used for the kept draws (after the burn-in adaptation of
        ``method="exchange"``: of (b), or of the joint move when (b) proposes from the
        pseudo-posterior; the jitter of ``method="population"``).
    settings : dict
        The run's settings: n_iter, burn_in, aux_steps, latent_steps, latent_burn_in,
        prior_mean, prior_cov, theta0, gamma (population), adapt (exchange), joint_moves,
        theta_proposal (exchange), max_degree.
    elapsed : float
        Wall-clock seconds of the run.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import bayes_ergm
    >>> A = np.zeros((5, 5), dtype=np.uint8); A[0, 1] = A[1, 0] = A[1, 2] = A[2, 1] = 1
    >>> post = bayes_ergm(["edges"], graph=A, n_iter=200, burn_in=50, aux_steps=50,
    ...                   random_state=0)
    >>> post.credible_interval(0.9).shape, post.ess().shape
    ((1, 2), (1,))
    >>> print(post.summary().splitlines()[0])
    term           mean       sd      2.5%     97.5%     ESS  R-hat
    """

    draws: np.ndarray
    chains: np.ndarray
    acceptance: np.ndarray
    statistic_names: tuple
    method: str
    private: bool
    observed: np.ndarray | None
    latent_statistics: np.ndarray | None
    latent_acceptance: np.ndarray | None
    proposal_cov: np.ndarray
    settings: dict = field(default_factory=dict)
    elapsed: float = 0.0
    joint_acceptance: np.ndarray | None = None

    @property
    def n_parameters(self):
        return self.draws.shape[1]

    @property
    def mean(self):
        """Posterior mean of each parameter, shape (p,)."""
        return self.draws.mean(axis=0)

    @property
    def sd(self):
        """Posterior standard deviation of each parameter, shape (p,)."""
        return self.draws.std(axis=0, ddof=1)

    @property
    def cov(self):
        """Posterior covariance, shape (p, p)."""
        return np.atleast_2d(np.cov(self.draws, rowvar=False))

    def credible_interval(self, level=0.95):
        """Equal-tailed credible intervals, shape (p, 2) (lower, upper)."""
        level = check_param(level, [Interval("real", 0, 1, "neither")], "level")
        a = (1.0 - level) / 2.0
        return np.quantile(self.draws, [a, 1.0 - a], axis=0).T

    def ess(self):
        """Effective sample size of each parameter (all chains), shape (p,)."""
        return effective_sample_size(self.chains)

    def rhat(self):
        """Split R-hat of each parameter (all chains), shape (p,)."""
        return split_rhat(self.chains)

    def summary(self, level=0.95):
        """A table of the posterior: mean, sd, credible interval, ESS, R-hat, acceptance."""
        ci = self.credible_interval(level)
        ess, rhat, mean, sd = self.ess(), self.rhat(), self.mean, self.sd
        lo, hi = f"{50 * (1 - level):g}%", f"{100 - 50 * (1 - level):g}%"
        width = max(9, *(len(s) for s in self.statistic_names))
        head = (f"{'term':<{width}} {'mean':>9} {'sd':>8} {lo:>9} {hi:>9} {'ESS':>7} "
                f"{'R-hat':>6}")
        rows = [head, "-" * len(head)]
        for k, name in enumerate(self.statistic_names):
            rows.append(f"{name:<{width}} {mean[k]:9.4f} {sd[k]:8.4f} {ci[k, 0]:9.4f} "
                        f"{ci[k, 1]:9.4f} {ess[k]:7.0f} {rhat[k]:6.3f}")
        H, n = self.chains.shape[:2]
        s = self.settings
        rows.append("")
        rows.append(f"{'private ' if self.private else ''}{self.method} sampler: {H} chain(s) x "
                    f"{n} draws after {s.get('burn_in', 0)} burn-in, auxiliary runs of "
                    f"{s.get('aux_steps')} steps; {self.elapsed:.1f} s.")
        rows.append("parameter acceptance: " + _rates(self.acceptance))
        if self.latent_acceptance is not None:
            rows.append(f"latent toggle acceptance ({s.get('latent_steps')} steps an "
                        "iteration): " + _rates(self.latent_acceptance))
        if self.joint_acceptance is not None:
            rows.append("joint (theta, x) acceptance: " + _rates(self.joint_acceptance))
        return "\n".join(rows)

    def __repr__(self):
        H, n, p = self.chains.shape
        return (f"ERGMPosterior(method={self.method!r}, private={self.private}, "
                f"n_chains={H}, n_iter={n}, statistics={list(self.statistic_names)})")


def _rates(values):
    v = np.asarray(values, dtype=float)
    return f"{v[0]:.3f}" if v.size == 1 else \
        f"mean {v.mean():.3f} (min {v.min():.3f}, max {v.max():.3f})"


# --------------------------------------------------------------------------- input checks


def _check_vector(value, p, name):
    v = np.asarray(value, dtype=np.float64)
    if v.ndim == 0:
        v = np.full(p, float(v))
    v = v.ravel() if v.ndim == 1 else v
    if v.shape != (p,):
        raise ValueError(f"{name} must have one value per statistic ({p}), got shape "
                         f"{np.shape(value)}.")
    if not np.isfinite(v).all():
        raise ValueError(f"{name} must be finite.")
    return v


def _check_cov(value, p, name):
    """A covariance given as a positive scalar (times I), a diagonal or a (p, p) matrix."""
    try:
        c = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive number, a vector of {p} variances or a "
                         f"({p}, {p}) matrix, got {value!r}.") from None
    if c.ndim == 0:
        c = np.eye(p) * float(c)
    elif c.ndim == 1 and c.shape == (p,):
        c = np.diag(c)
    if c.shape != (p, p):
        raise ValueError(f"{name} must be a positive number, a vector of {p} variances or a "
                         f"({p}, {p}) matrix, got shape {np.shape(value)}.")
    if not np.isfinite(c).all():
        raise ValueError(f"{name} must be finite.")
    if not np.allclose(c, c.T, rtol=1e-10, atol=1e-12 * np.abs(c).max(initial=0)):
        raise ValueError(f"{name} must be symmetric.")
    c = (c + c.T) / 2
    try:
        np.linalg.cholesky(c)
    except np.linalg.LinAlgError:
        raise ValueError(f"{name} must be positive definite (a variance of each parameter, "
                         "no degenerate direction).") from None
    return c


def _check_int(value, name, minimum):
    return int(check_param(value, [Interval("int", minimum, None, "left")], name))


def _single_graph(graph):
    items, single = graph_batch(graph)
    if not single:
        raise ValueError("graph must be one graph (the observed network), not a batch.")
    A = items[0]
    if not (sp.issparse(A) or isinstance(A, np.ndarray)):
        A = A.toarray()  # a packed adjacency
    return A


# ------------------------------------------------------------------ pseudo-likelihood start


def _pseudo_posterior(chain, prior_mean, prior_prec, start=None):
    """Mode and covariance of the pseudo-posterior at the chain's graph.

    The pseudo-likelihood (Strauss and Ikeda 1990) treats each dyad as a logistic regression on
    its change statistics; times the Gaussian prior its log is strictly concave, so Newton's
    method finds the mode even when the plain MPLE does not exist (separable tiny graphs).
    The mode starts the chains (Bergm starts at the MPLE too); the inverse Hessian shapes the
    first proposals and spreads the chains' starting points. It understates the posterior
    spread of dependent models (by a factor 1.2 to 1.8 in sd on thesis model 1 at n = 100)
    but gets the correlations roughly right, which matters more to a random walk: the burn-in
    adaptation fixes the scale. (The inverse Fisher information at the mode, estimated by
    simulation, got the correlations' signs wrong there and mixed three times slower.)
    """
    X, y = chain.dyad_design()
    m, P = prior_mean, prior_prec

    def objective(t):
        eta = X @ t
        d = t - m
        return float(y @ eta - np.logaddexp(0.0, eta).sum() - 0.5 * d @ P @ d)

    def hessian(t):
        mu = expit(X @ t)
        return (X * (mu * (1.0 - mu))[:, None]).T @ X + P

    theta = m.copy() if start is None else start.copy()
    value = objective(theta)
    for _ in range(200):
        grad = X.T @ (y - expit(X @ theta)) - P @ (theta - m)
        step = np.linalg.solve(hessian(theta), grad)
        scale = 1.0
        while scale > 1e-10:
            new_value = objective(theta + scale * step)
            if new_value >= value - 1e-12 * abs(value):
                break
            scale /= 2.0
        theta = theta + scale * step
        value = new_value
        if np.abs(scale * step).max() < 1e-9:
            break
    cov = np.linalg.inv(hessian(theta))
    return theta, (cov + cov.T) / 2


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


# ------------------------------------------------------------------------------ samplers


@dataclass
class _Config:
    private: bool
    p: int
    n_iter: int
    burn_in: int
    aux_steps: int
    latent_steps: int
    prior_mean: np.ndarray
    prior_prec: np.ndarray
    adapt: bool
    joint: bool
    kappa: float      # > 0: theta | x moves by the pseudo-posterior independence proposal

    def log_prior(self, theta):
        d = theta - self.prior_mean
        return -0.5 * float(d @ self.prior_prec @ d)


class _State:
    """One chain: its stream, parameter, latent (or observed) graph and auxiliary chain."""

    def __init__(self, cfg, rng, theta, latent, aux):
        self.rng = rng
        self.theta = theta
        self.log_prior = cfg.log_prior(theta)
        self.latent = latent
        self.aux = aux
        self.accepted = 0
        self.latent_accepted = 0
        self.joint_accepted = 0


def _step_latent(cfg, st, keep):
    """(a) of Algorithm 2: move the latent graph given theta and the release."""
    if cfg.private:
        moved = st.latent.run(st.theta, cfg.latent_steps, st.rng)
        if keep:
            st.latent_accepted += moved


def _aux_draw(cfg, st, theta_new):
    """The auxiliary graph at ``theta_new``, started at the current (latent) graph."""
    st.aux.copy_state_from(st.latent)
    st.aux.run(theta_new, cfg.aux_steps, st.rng)


def _accept(st, theta_new, lp_new, log_a):
    """The Metropolis-Hastings decision; moves theta (and its log prior) when accepted."""
    alpha = math.exp(min(log_a, 0.0))
    if st.rng.random() < alpha:
        st.theta = theta_new
        st.log_prior = lp_new
        return True, alpha
    return False, alpha


def _exchange_move(cfg, st, theta_new, log_q=0.0):
    """One exchange step to ``theta_new``; ``log_q = log q(theta) - log q(theta')`` for a
    proposal that is not symmetric."""
    _aux_draw(cfg, st, theta_new)
    lp_new = cfg.log_prior(theta_new)
    log_a = (float((theta_new - st.theta) @ (st.latent.statistics - st.aux.statistics))
             + lp_new - st.log_prior + log_q)
    return _accept(st, theta_new, lp_new, log_a)


def _joint_move(cfg, st, theta_new):
    """A joint move of ``(theta, x)``: ``x'`` is the auxiliary draw at ``theta_new``.

    With ``x'`` drawn from the model at ``theta'`` the proposal's ``f(x' | theta')`` cancels
    the target's, and so do the normalizing constants: the acceptance is the prior ratio
    times the release's likelihood ratio ``P(y | x') / P(y | x)``. This is a pseudo-marginal
    step on ``p(theta | y)`` (Andrieu and Roberts 2009) with a one-draw estimate of
    ``P(y | theta)``: it mixes well exactly where the alternation of (a) and (b) crawls, when
    the release's noise is wide against the model's spread of ``s(x)``.
    """
    _aux_draw(cfg, st, theta_new)
    lp_new = cfg.log_prior(theta_new)
    log_a = (lp_new - st.log_prior + st.latent.log_observation(st.aux)
             - st.latent.log_observation())
    accepted, alpha = _accept(st, theta_new, lp_new, log_a)
    if accepted:
        st.latent.copy_state_from(st.aux)
    return accepted, alpha


def _pseudo_move(cfg, st, kappa):
    """An exchange step with an independence proposal from the latent graph's pseudo-posterior.

    Given ``x`` the proposal ``N(m(x), kappa^2 C(x))`` (mode and inverse Hessian of the
    log pseudo-posterior at ``x``) does not depend on ``theta``, so a step lands near a fresh
    draw of ``theta | x`` wherever the chain is; the exchange ratio is multiplied by
    ``q(theta) / q(theta')``. It fixes the slow drift of a random walk along ``theta | x``
    when ``x`` moves: Goldberg's alternation then mixes at the rate the release's missing
    information allows.
    """
    mode, cov = _pseudo_posterior(st.latent, cfg.prior_mean, cfg.prior_prec, start=st.theta)
    chol = kappa * np.linalg.cholesky(cov)
    z = st.rng.standard_normal(cfg.p)
    theta_new = mode + chol @ z
    z_old = np.linalg.solve(chol, st.theta - mode)
    return _exchange_move(cfg, st, theta_new, log_q=0.5 * float(z @ z - z_old @ z_old))


class _Adapter:
    """Burn-in tuning of the random-walk proposal ``lambda * Sigma`` of one exchange chain.

    The scale ``lambda`` follows a Robbins-Monro recursion towards the target acceptance (0.234,
    0.44 for one parameter) at every burn-in iteration. The shape ``Sigma`` starts as a normal
    approximation of the posterior and is refined at the end of windows of doubling length
    (1, 2, 4, 8) between the first fifth and the last tenth of the burn-in: it becomes the
    average of the pooled estimate so far and the window's sample covariance, weighted by
    their effective sample sizes (an exchange chain mixes slowly, so one window's covariance
    alone is noisy; the starting shape counts for ``p + 2``). The last tenth tunes the scale
    alone, as Stan's windowed adaptation does. Nothing changes after the burn-in: the kept
    draws come from one fixed Markov kernel.
    """

    def __init__(self, sigma, lam, burn_in, p):
        self.p = p
        self.sigma = sigma
        self.weight = p + 2.0   # the effective sample size the starting shape counts for
        self.log_lam = math.log(lam)
        self.target = _TARGET_ACCEPT_1D if p == 1 else _TARGET_ACCEPT
        first, last = burn_in // 5, burn_in - burn_in // 10
        cuts = [first + ((last - first) * c) // 15 for c in (0, 1, 3, 7, 15)]
        self.windows = [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if b > a]
        self.gain_t = 0
        self.window = []
        self._factor()

    def _factor(self):
        self.chol = np.linalg.cholesky(math.exp(self.log_lam) * self.sigma)

    def update(self, t, theta, alpha):
        self.gain_t += 1
        g = (self.gain_t + _ADAPT_OFFSET) ** -_ADAPT_POWER
        self.log_lam = min(max(self.log_lam + g * (alpha - self.target), -20.0), 20.0)
        for start, stop in self.windows:
            if start <= t < stop:
                self.window.append(theta)
                if t + 1 == stop:
                    self._close_window()
        self._factor()

    def _close_window(self):
        W, p, self.window = np.array(self.window), self.p, []
        if W.shape[0] < 2 * p + 10 or (W.std(axis=0) == 0).any():
            return  # too short, or a parameter never moved: keep the current shape
        ess = float(np.nanmin(effective_sample_size(W)))
        C = np.atleast_2d(np.cov(W, rowvar=False))
        cand = (ess * C + self.weight * self.sigma) / (ess + self.weight)
        try:
            np.linalg.cholesky(cand)
        except np.linalg.LinAlgError:
            return
        self.sigma = (cand + cand.T) / 2
        self.weight += ess
        self.gain_t = 0

    @property
    def covariance(self):
        return math.exp(self.log_lam) * self.sigma


def _record(cfg, st, k, draws, latent):
    draws[k] = st.theta
    if latent is not None:
        latent[k] = st.latent.statistics


def _run_exchange(cfg, st, sigma, lam):
    """A single exchange chain (Algorithm 2 when private); returns its draws."""
    p = cfg.p
    walk = cfg.kappa == 0
    adapter = _Adapter(sigma, lam, cfg.burn_in, p) if walk else None
    joint = _Adapter(sigma, lam, cfg.burn_in, p) if cfg.joint else None
    draws = np.empty((cfg.n_iter, p))
    latent = np.empty((cfg.n_iter, p)) if cfg.private else None
    for t in range(cfg.burn_in + cfg.n_iter):
        keep = t >= cfg.burn_in
        _step_latent(cfg, st, keep)
        if walk:
            theta_new = st.theta + adapter.chol @ st.rng.standard_normal(p)
            accepted, alpha = _exchange_move(cfg, st, theta_new)
            if not keep and cfg.adapt:
                adapter.update(t, st.theta, alpha)
        else:
            accepted, _ = _pseudo_move(cfg, st, cfg.kappa)
        if joint is not None:
            theta_new = st.theta + joint.chol @ st.rng.standard_normal(p)
            moved, alpha = _joint_move(cfg, st, theta_new)
            if keep:
                st.joint_accepted += moved
            elif cfg.adapt:
                joint.update(t, st.theta, alpha)
        if keep:
            st.accepted += accepted
            _record(cfg, st, t - cfg.burn_in, draws, latent)
    # the covariance of (b)'s random walk, else of the joint move's, else the untuned start
    tuned = adapter or joint
    return draws, latent, lam * sigma if tuned is None else tuned.covariance


def _two_others(rng, H, h):
    """Two distinct chains other than h, uniformly."""
    a = int(rng.integers(H - 1))
    a += a >= h
    b = int(rng.integers(H - 2))
    for excluded in sorted((h, a)):
        b += b >= excluded
    return a, b


def _run_population(cfg, states, gamma, jitter_chol):
    """Caimo and Friel's population exchange: chains updated in turn, each by ADS."""
    H, p = len(states), cfg.p
    draws = np.empty((H, cfg.n_iter, p))
    latent = np.empty((H, cfg.n_iter, p)) if cfg.private else None
    for t in range(cfg.burn_in + cfg.n_iter):
        keep = t >= cfg.burn_in
        for h, st in enumerate(states):
            _step_latent(cfg, st, keep)
            a, b = _two_others(st.rng, H, h)
            theta_new = (st.theta + gamma * (states[a].theta - states[b].theta)
                         + jitter_chol @ st.rng.standard_normal(p))
            accepted, _ = _exchange_move(cfg, st, theta_new)
            if cfg.joint:
                a, b = _two_others(st.rng, H, h)
                theta_new = (st.theta + gamma * (states[a].theta - states[b].theta)
                             + jitter_chol @ st.rng.standard_normal(p))
                moved, _ = _joint_move(cfg, st, theta_new)
                if keep:
                    st.joint_accepted += moved
            if keep:
                st.accepted += accepted
                _record(cfg, st, t - cfg.burn_in, draws[h],
                        None if latent is None else latent[h])
    return draws, latent


# ---------------------------------------------------------------------------- entry points


def _latent_start(observation, n, max_degree):
    """Where the latent chain starts: the edgeFlip release itself if it lies in the model's
    class of graphs (the most likely graph given the release alone), else the empty graph
    (inside every class H_k)."""
    if observation.kind == "flip":
        Z = observation.release
        if max_degree is None or Z.sum(axis=1).max(initial=0) <= max_degree:
            return Z
    return np.zeros((n, n), dtype=np.uint8)


def bayes_ergm(statistics, *, graph=None, observation=None, n_nodes=None, labels=None,
               max_degree=None, method="exchange", n_iter=4000, burn_in=2000, n_chains=None,
               aux_steps=None, latent_steps=None, latent_burn_in=None, prior_mean=None,
               prior_cov=None, proposal_cov=None, gamma=None, adapt=True, joint_moves=True,
               theta_proposal="auto", theta0=None, random_state=None, n_jobs=None):
    """Posterior draws of an ERGM's parameters given a graph, or given a private release of it.

    Give exactly one of ``graph`` (the observed network: the exchange algorithm of Caimo and
    Friel 2011) or ``observation`` (a differentially private release: the graph is latent and
    sampled along, Goldberg 2018, Algorithm 2). See the module documentation for the
    algorithm.

    Parameters
    ----------
    statistics : sequence of terms, or ERGMTerms
        The model's terms (see :func:`tdadp.graphs.parse_terms`).
    graph : adjacency matrix or networkx graph, optional
        The observed network (non-private inference).
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
        MH steps of each latent chain before the first iteration, at ``theta0`` if given, else
        at the edges-only model matching the released density; default
        :func:`tdadp.graphs.default_steps` (20 per dyad).
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
    random_state : None, int, numpy.random.Generator or SeedSequence
        Chain h draws from the stream with spawn key h.
    n_jobs : int, optional
        Threads running the independent chains of "exchange" (results do not depend on it).

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
    >>> from tdadp.ergm import Observation
    >>> from tdadp.ergm import bayes_ergm
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
    start_time = time.perf_counter()
    check_param(method, [Options(*METHODS)], "method")
    if (graph is None) == (observation is None):
        raise ValueError("give exactly one of graph= (the observed network) and observation= "
                         "(a private release of it).")
    if max_degree is not None:
        max_degree = _check_int(max_degree, "max_degree", 1)
    private = observation is not None
    if private:
        if not isinstance(observation, Observation):
            raise ValueError("observation must be an Observation (Observation.laplace, "
                             ".cauchy, .smooth_cauchy or .flip), got "
                             f"{type(observation).__name__}.")
        if observation.kind == "none":
            raise ValueError("the observation releases nothing: for a network you observed, "
                             "pass graph=.")
        if observation.kind == "flip":
            n = observation.release.shape[0]
            if n_nodes is not None and _check_int(n_nodes, "n_nodes", 2) != n:
                raise ValueError(f"n_nodes={n_nodes} but the edgeFlip release has {n} nodes.")
        else:
            if n_nodes is None:
                raise ValueError("private inference from released statistics needs n_nodes "
                                 "(the number of nodes of the latent graph).")
            n = _check_int(n_nodes, "n_nodes", 2)
        if observation.kind == "smooth_cauchy":
            if max_degree is None:
                max_degree = observation.max_degree
            elif max_degree != observation.max_degree:
                raise ValueError(f"max_degree={max_degree} but the smooth-Cauchy release "
                                 f"truncated degrees at {observation.max_degree}: the model "
                                 "is the ERGM on graphs of that maximum degree.")
        base = ERGMChain(_latent_start(observation, n, max_degree), statistics, labels=labels,
                         max_degree=max_degree, observation=observation)
    else:
        if n_nodes is not None:
            raise ValueError("n_nodes is for private inference; the graph gives its own.")
        base = ERGMChain(_single_graph(graph), statistics, labels=labels,
                         max_degree=max_degree)
        n = base.n_nodes
    terms: ERGMTerms = base.terms
    p = terms.n_statistics

    prior_mean = np.zeros(p) if prior_mean is None else _check_vector(prior_mean, p,
                                                                       "prior_mean")
    prior_cov = _check_cov(DEFAULT_PRIOR_VARIANCE if prior_cov is None else prior_cov, p,
                           "prior_cov")
    prior_prec = np.linalg.inv(prior_cov)
    prior_prec = (prior_prec + prior_prec.T) / 2
    if theta0 is not None:
        theta0 = _check_vector(theta0, p, "theta0")
    if proposal_cov is not None:
        proposal_cov = _check_cov(proposal_cov, p, "proposal_cov")
    n_iter = _check_int(n_iter, "n_iter", 1)
    burn_in = _check_int(burn_in, "burn_in", 0)
    aux_steps = default_aux_steps(n) if aux_steps is None else _check_int(aux_steps,
                                                                           "aux_steps", 1)
    latent_steps = aux_steps if latent_steps is None else _check_int(latent_steps,
                                                                      "latent_steps", 1)
    latent_burn_in = default_steps(n) if latent_burn_in is None else \
        _check_int(latent_burn_in, "latent_burn_in", 0)
    check_param(adapt, ["boolean"], "adapt")
    check_param(joint_moves, ["boolean"], "joint_moves")
    check_param(theta_proposal, [Options(*THETA_PROPOSALS)], "theta_proposal")
    if theta_proposal == "auto":
        theta_proposal = "pseudo" if private and method == "exchange" else "walk"
    elif theta_proposal == "pseudo" and method != "exchange":
        raise ValueError("theta_proposal='pseudo' is a move of method='exchange'; the "
                         "population method proposes by adaptive direction sampling.")
    check_param(n_jobs, ["n_jobs"], "n_jobs")
    if method == "population":
        H = max(2 * p, 4) if n_chains is None else _check_int(n_chains, "n_chains", 3)
        gamma = 2.38 / math.sqrt(2 * p) if gamma is None else float(check_param(
            gamma, [Interval("real", 0, None, "neither")], "gamma"))
    else:
        H = 1 if n_chains is None else _check_int(n_chains, "n_chains", 1)
        if gamma is not None:
            raise ValueError("gamma is the direction scale of method='population'.")
    streams = item_streams(random_state, range(H), _TAG)

    cfg = _Config(private, p, n_iter, burn_in, aux_steps, latent_steps, prior_mean,
                  prior_prec, bool(adapt), bool(joint_moves) and private,
                  _PSEUDO_KAPPA if theta_proposal == "pseudo" else 0.0)
    # Latent graphs: each chain's own, burnt in from the start graph with its own stream.
    if private:
        theta_burn = _density_guess(observation, terms, n) if theta0 is None else theta0
        latents = []
        for rng in streams:
            chain = base.copy()
            chain.run(theta_burn, latent_burn_in, rng)
            latents.append(chain)
    else:
        latents = [base] * H          # read only: every auxiliary draw starts from it
    mode, approx_cov = _pseudo_posterior(latents[0], prior_mean, prior_prec)
    start = mode if theta0 is None else theta0
    approx_chol = np.linalg.cholesky(approx_cov)
    states = []
    for h, rng in enumerate(streams):
        theta = start.copy() if H == 1 else start + approx_chol @ rng.standard_normal(p)
        states.append(_State(cfg, rng, theta, latents[h], latents[h].copy(observation=None)))

    if method == "exchange":
        sigma, lam = (proposal_cov, 1.0) if proposal_cov is not None else \
            (approx_cov, 2.38 ** 2 / p)
        runs = map_items(lambda st: _run_exchange(cfg, st, sigma, lam), states, None, n_jobs)
        chains = np.stack([r[0] for r in runs])
        latent_stats = np.stack([r[1] for r in runs]) if private else None
        used_cov = np.stack([r[2] for r in runs])
    else:
        jitter = DEFAULT_JITTER_VARIANCE * np.eye(p) if proposal_cov is None else proposal_cov
        chains, latent_stats = _run_population(cfg, states, gamma, np.linalg.cholesky(jitter))
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
