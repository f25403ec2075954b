"""The moves of the exchange samplers: one chain's state, its updates and proposal tuning.

A chain's state (:class:`ChainState`) is its random stream, its parameter ``theta`` and the
latent (or observed) graph ``x`` with an auxiliary chain for the exchange draws. The moves of
the module documentation of :mod:`tdadp.ergm._inference`:

- (a) :func:`step_latent`: MH steps of the latent graph given ``theta`` and the release;
- (b) :func:`exchange_move` (a proposed ``theta'``, e.g. a random walk) and
  :func:`pseudo_move` (an independence proposal from the pseudo-posterior at ``x``,
  :func:`pseudo_posterior`);
- (c) :func:`joint_move`: ``theta'`` and ``x'`` together, ``x'`` the auxiliary draw.

:class:`ProposalAdapter` tunes a random walk during the burn-in. The runs that string these
moves together are in :mod:`tdadp.ergm._mcmc`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from ._diagnostics import effective_sample_size

__all__ = ["ChainConfig", "ChainState", "PSEUDO_KAPPA", "ProposalAdapter", "exchange_move",
           "joint_move", "pseudo_move", "pseudo_posterior", "step_latent"]

# Robbins-Monro gain (t + 10)^-0.6 of the burn-in scale adaptation (the offset damps the first
# steps), and the acceptance rates it aims at (Roberts and Rosenthal 2001).
_ADAPT_POWER = 0.6
_ADAPT_OFFSET = 10.0
_TARGET_ACCEPT = 0.234
_TARGET_ACCEPT_1D = 0.44
# The pseudo-posterior's sd understates the posterior's by a factor 1.2 to 1.8 on thesis model
# 1 (see pseudo_posterior); an independence proposal must not be lighter-tailed than its
# target, so it is widened by 1.5 (at thesis model 1, n = 100, eps = 2.5 per statistic, 2.5
# mixed no better: smallest ESS 9 against 17 of 2,000 draws).
PSEUDO_KAPPA = 1.5


def pseudo_posterior(chain, prior_mean, prior_prec, start=None):
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


@dataclass
class ChainConfig:
    """The settings of a run that every move reads (fixed for the whole run)."""

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


class ChainState:
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


def step_latent(cfg, st, keep):
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


def exchange_move(cfg, st, theta_new, log_q=0.0):
    """One exchange step to ``theta_new``; ``log_q = log q(theta) - log q(theta')`` for a
    proposal that is not symmetric."""
    _aux_draw(cfg, st, theta_new)
    lp_new = cfg.log_prior(theta_new)
    log_a = (float((theta_new - st.theta) @ (st.latent.statistics - st.aux.statistics))
             + lp_new - st.log_prior + log_q)
    return _accept(st, theta_new, lp_new, log_a)


def joint_move(cfg, st, theta_new):
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


def pseudo_move(cfg, st, kappa):
    """An exchange step with an independence proposal from the latent graph's pseudo-posterior.

    Given ``x`` the proposal ``N(m(x), kappa^2 C(x))`` (mode and inverse Hessian of the
    log pseudo-posterior at ``x``) does not depend on ``theta``, so a step lands near a fresh
    draw of ``theta | x`` wherever the chain is; the exchange ratio is multiplied by
    ``q(theta) / q(theta')``. It fixes the slow drift of a random walk along ``theta | x``
    when ``x`` moves: Goldberg's alternation then mixes at the rate the release's missing
    information allows.
    """
    mode, cov = pseudo_posterior(st.latent, cfg.prior_mean, cfg.prior_prec, start=st.theta)
    chol = kappa * np.linalg.cholesky(cov)
    z = st.rng.standard_normal(cfg.p)
    theta_new = mode + chol @ z
    z_old = np.linalg.solve(chol, st.theta - mode)
    return exchange_move(cfg, st, theta_new, log_q=0.5 * float(z @ z - z_old @ z_old))


class ProposalAdapter:
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
