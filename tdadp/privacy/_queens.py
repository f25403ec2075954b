"""The "queens" example: an edge-DP release that gives away a single edge.

Hehir, Niu and Slavković illustrate that edge DP protects tests between neighbouring whole
networks, not the presence of one edge, with a model in which one edge drives many others.
This module implements such a model (our parametrization, in the spirit of their example):

- nodes 0 and 1 are the queens; the queen edge Q = A_01 is the secret;
- each of the other n - 2 nodes (courtiers) links to each queen independently, with
  probability ``p_allied`` when the queens are allied (Q = 1) and ``p_rival`` when not;
- courtiers do not link to each other.

The release is the edge count plus Laplace(1/eps) noise, which is eps-edge DP. Yet under
this model the edge count is 1 + Bin(2(n-2), p_allied) or Bin(2(n-2), p_rival): its mean
gap grows like n while its spread grows like sqrt(n), so a level-alpha test of the queen
edge has power tending to 1, far beyond the bound e^eps * alpha that the "edge" in edge DP
seems to promise.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.stats import binom

from ..dp._bounds import power_bound
from ..release._counts import LaplaceEdgeCount
from ..utils._random import check_random_state, stage_tag
from ..utils._validation import check_epsilon, check_positive_int, check_probability

__all__ = ["QueensResult", "queens_example", "sample_queens"]


@dataclass(frozen=True)
class QueensResult:
    """Outcome of :func:`queens_example`.

    Attributes
    ----------
    n_nodes, epsilon, alpha : as given
    power : float
        Exact power of the level-``alpha`` test "reject 'no queen edge' when the released
        edge count exceeds ``threshold``".
    power_bound : float
        ``min(e^eps alpha, 1 - e^-eps (1 - alpha))``, the bound edge DP puts on tests of
        neighbouring networks.
    threshold : float
    edge_level : float
        Exact privacy loss of the queen edge under the model: sup over releases r of
        ``|log f(r | Q = 1) / f(r | Q = 0)|``, which grows with n.
    simulated_power, simulated_level : float or None
        Rejection rates in ``n_trials`` simulated releases (graphs sampled from the model,
        released by :class:`LaplaceEdgeCount`), when ``n_trials > 0``.
    n_trials : int
    """

    n_nodes: int
    epsilon: float
    alpha: float
    power: float
    power_bound: float
    threshold: float
    edge_level: float
    simulated_power: float | None
    simulated_level: float | None
    n_trials: int

    def describe(self) -> str:
        return (f"Queens model, n = {self.n_nodes}, edge count + Laplace(1/{self.epsilon:g}) "
                f"({self.epsilon:g}-edge DP). A level-{self.alpha:g} test of the queen edge "
                f"has power {self.power:.4f}, against the edge-DP bound "
                f"{self.power_bound:.4f}; the queen edge's privacy loss is "
                f"{self.edge_level:.4g}, not {self.epsilon:g}.")


def _count_pmfs(n, p_allied, p_rival):
    m = 2 * (n - 2)
    k = np.arange(m + 2)
    pmf0 = binom.pmf(k, m, p_rival)              # Q = 0: the count is the courtier links
    pmf1 = np.concatenate([[0.0], binom.pmf(k[:-1], m, p_allied)])   # plus the queen edge
    return k, pmf0, pmf1


def _laplace_sf(x, eps):
    return np.where(x >= 0, 0.5 * np.exp(-eps * np.abs(x)), 1 - 0.5 * np.exp(-eps * np.abs(x)))


def _log_mixture_density(r, k, pmf, eps):
    # log sum_k pmf_k (eps/2) e^{-eps |r - k|}, stably.
    with np.errstate(divide="ignore"):
        terms = np.log(pmf)[None, :] - eps * np.abs(np.asarray(r)[:, None] - k[None, :])
    top = terms.max(axis=1, keepdims=True)
    return (top + np.log(np.exp(terms - top).sum(axis=1, keepdims=True))).ravel()


def _edge_level(k, pmf0, pmf1, eps):
    # Between integers each density is a e^{-eps r} + b e^{eps r}, so the log-ratio is
    # monotone there: its supremum is at an integer or in a tail (r -> -inf, r -> +inf).
    levels = np.abs(_log_mixture_density(k.astype(float), k, pmf1, eps)
                    - _log_mixture_density(k.astype(float), k, pmf0, eps))
    with np.errstate(divide="ignore"):
        lp0, lp1 = np.log(pmf0), np.log(pmf1)
    tails = []
    for sign in (1.0, -1.0):
        a = lp1 + sign * eps * k
        b = lp0 + sign * eps * k
        tails.append(abs(np.logaddexp.reduce(a) - np.logaddexp.reduce(b)))
    return float(max(levels.max(), *tails))


def sample_queens(n_nodes, queen_edge, p_allied=0.6, p_rival=0.4, random_state=None):
    """One graph of the queens model with the queen edge set to ``queen_edge`` (0 or 1).

    Examples
    --------
    >>> from tdadp.privacy import sample_queens
    >>> A = sample_queens(6, 1, random_state=0)
    >>> int(A[0, 1]), int(A[2:, 2:].sum())
    (1, 0)
    """
    n = check_positive_int(n_nodes, "n_nodes", minimum=3)
    if queen_edge not in (0, 1):
        raise ValueError(f"queen_edge must be 0 or 1, got {queen_edge!r}.")
    p = check_probability(p_allied if queen_edge else p_rival,
                          "p_allied" if queen_edge else "p_rival")
    rng = check_random_state(random_state, stage_tag("sample_queens"))
    A = np.zeros((n, n), dtype=np.uint8)
    links = (rng.random((2, n - 2)) < p).astype(np.uint8)
    A[:2, 2:] = links
    A[2:, :2] = links.T
    A[0, 1] = A[1, 0] = queen_edge
    return A


def queens_example(n_nodes, epsilon, alpha=0.05, *, p_allied=0.6, p_rival=0.4, n_trials=0,
                   random_state=None):
    """Power of a test of the queen edge from an eps-edge-DP edge count (see module notes).

    Parameters
    ----------
    n_nodes : int >= 3
    epsilon : float in (0, inf)
    alpha : float in (0, 1), default=0.05
        Level of the test of H0 "the queens are not linked".
    p_allied, p_rival : float in [0, 1], defaults 0.6 and 0.4
        Probability of each queen–courtier link when the queens are / are not linked.
    n_trials : int, default=0
        If positive, also simulate that many releases under each hypothesis (sampling graphs
        from the model and releasing them with :class:`LaplaceEdgeCount`).
    random_state : None, int, Generator or SeedSequence

    Returns
    -------
    QueensResult

    References
    ----------
    Hehir, Niu, Slavković, "Interpreting network differential privacy" (2025).

    Examples
    --------
    >>> from tdadp.privacy import queens_example
    >>> small, large = queens_example(4, 1.0), queens_example(60, 1.0)
    >>> round(small.power_bound, 4)
    0.1359
    >>> bool(small.power < large.power), bool(large.power > 0.9)
    (True, True)
    """
    n = check_positive_int(n_nodes, "n_nodes", minimum=3)
    eps = check_epsilon(epsilon, allow_zero=False, allow_inf=False)
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}.")
    p_allied = check_probability(p_allied, "p_allied")
    p_rival = check_probability(p_rival, "p_rival")
    n_trials = check_positive_int(n_trials, "n_trials", minimum=0)
    k, pmf0, pmf1 = _count_pmfs(n, p_allied, p_rival)

    def size(t):
        return float(np.dot(pmf0, _laplace_sf(t - k, eps))) - alpha

    # The rejection rate falls from 1 to 0 as t grows: bracket and solve size(t) = 0.
    lo, hi = -1.0, k[-1] + 1.0
    while size(lo) < 0:
        lo -= 10.0 / eps
    while size(hi) > 0:
        hi += 10.0 / eps
    t = brentq(size, lo, hi, xtol=1e-12)
    power = float(np.dot(pmf1, _laplace_sf(t - k, eps)))
    sim_power = sim_level = None
    if n_trials:
        rng = check_random_state(random_state, stage_tag("queens_example"))
        seeds = rng.integers(0, 2**63 - 1, size=4)
        rates = []
        for q, (s_graph, s_noise) in zip((0, 1), (seeds[:2], seeds[2:])):
            graph_rng = np.random.default_rng(int(s_graph))
            graphs = [sample_queens(n, q, p_allied, p_rival, graph_rng)
                      for _ in range(n_trials)]
            released = LaplaceEdgeCount(eps, random_state=int(s_noise)).fit_transform(graphs)
            rates.append(float(np.mean(released > t)))
        sim_level, sim_power = rates
    return QueensResult(n_nodes=n, epsilon=eps, alpha=float(alpha), power=power,
                        power_bound=float(power_bound(eps, alpha)), threshold=float(t),
                        edge_level=_edge_level(k, pmf0, pmf1, eps),
                        simulated_power=sim_power, simulated_level=sim_level,
                        n_trials=n_trials)
