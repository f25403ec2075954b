"""The result of :func:`~tdadp.ergm.bayes_ergm`: posterior draws and their summaries.

:class:`ERGMPosterior` holds the kept draws of every chain with the run's acceptance rates and
settings, and summarises them: mean, sd, covariance, equal-tailed credible intervals, effective
sample size and split R-hat (:mod:`tdadp.ergm._diagnostics`), and a printable table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..utils._params import Interval, check_param
from ._diagnostics import effective_sample_size, split_rhat

__all__ = ["ERGMPosterior"]


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
