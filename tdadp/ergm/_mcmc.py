"""The runs :func:`~tdadp.ergm.bayes_ergm` dispatches to: exchange chains and a population.

:func:`run_exchange` is one exchange chain (Algorithm 2 of Goldberg 2018 when the graph is
latent): at each iteration the latent graph moves (a), then ``theta`` by a tuned random walk
or a pseudo-posterior independence proposal (b), then, with joint moves, ``(theta, x)``
together (c). :func:`run_population` is Caimo and Friel's population exchange: the chains are
updated in turn, each proposing along the difference of two others (adaptive direction
sampling). The moves themselves are in :mod:`tdadp.ergm._moves`. Both report each chain's
iteration to ``progress`` (a :class:`~tdadp.ergm._progress.Progress`, which draws nothing).
"""

from __future__ import annotations

import numpy as np

from ._moves import ProposalAdapter, exchange_move, joint_move, pseudo_move, step_latent

__all__ = ["run_exchange", "run_population"]


def _record(cfg, st, k, draws, latent):
    draws[k] = st.theta
    if latent is not None:
        latent[k] = st.latent.statistics


def run_exchange(cfg, st, sigma, lam, progress):
    """A single exchange chain (Algorithm 2 when private); returns its draws."""
    p = cfg.p
    walk = cfg.kappa == 0
    adapter = ProposalAdapter(sigma, lam, cfg.burn_in, p) if walk else None
    joint = ProposalAdapter(sigma, lam, cfg.burn_in, p) if cfg.joint else None
    draws = np.empty((cfg.n_iter, p))
    latent = np.empty((cfg.n_iter, p)) if cfg.private else None
    for t in range(cfg.burn_in + cfg.n_iter):
        keep = t >= cfg.burn_in
        step_latent(cfg, st, keep)
        if walk:
            theta_new = st.theta + adapter.chol @ st.rng.standard_normal(p)
            accepted, alpha = exchange_move(cfg, st, theta_new)
            if not keep and cfg.adapt:
                adapter.update(t, st.theta, alpha)
        else:
            accepted, _ = pseudo_move(cfg, st, cfg.kappa)
        if joint is not None:
            theta_new = st.theta + joint.chol @ st.rng.standard_normal(p)
            moved, alpha = joint_move(cfg, st, theta_new)
            if keep:
                st.joint_accepted += moved
            elif cfg.adapt:
                joint.update(t, st.theta, alpha)
        if keep:
            st.accepted += accepted
            _record(cfg, st, t - cfg.burn_in, draws, latent)
        progress(1)
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


def run_population(cfg, states, gamma, jitter_chol, progress):
    """Caimo and Friel's population exchange: chains updated in turn, each by ADS."""
    H, p = len(states), cfg.p
    draws = np.empty((H, cfg.n_iter, p))
    latent = np.empty((H, cfg.n_iter, p)) if cfg.private else None
    for t in range(cfg.burn_in + cfg.n_iter):
        keep = t >= cfg.burn_in
        for h, st in enumerate(states):
            step_latent(cfg, st, keep)
            a, b = _two_others(st.rng, H, h)
            theta_new = (st.theta + gamma * (states[a].theta - states[b].theta)
                         + jitter_chol @ st.rng.standard_normal(p))
            accepted, _ = exchange_move(cfg, st, theta_new)
            if cfg.joint:
                a, b = _two_others(st.rng, H, h)
                theta_new = (st.theta + gamma * (states[a].theta - states[b].theta)
                             + jitter_chol @ st.rng.standard_normal(p))
                moved, _ = joint_move(cfg, st, theta_new)
                if keep:
                    st.joint_accepted += moved
            if keep:
                st.accepted += accepted
                _record(cfg, st, t - cfg.burn_in, draws[h],
                        None if latent is None else latent[h])
            progress(1)
    return draws, latent
