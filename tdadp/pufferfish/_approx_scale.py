"""MQMApprox's noise scale: the max-influence bounded from the chain's mixing (Lemma 4.8).

* :func:`mqm_approx_scale` (MQMApprox, Algorithm 4): the bound of Lemma 4.8 from the class's
  smallest stationary probability pi_min and eigengap g, with the faster search of Lemma 4.9.
"""

from __future__ import annotations

import numpy as np

from ._mixing import chain_mixing
from ._quilt_search import InfluenceTables, quilt_choice, score_objective, search_built
from ._scale import ChainNoiseScale, check_scale_args, check_work_memory
from ._theta import check_secret_pairs, parse_thetas

__all__ = ["mqm_approx_scale", "approx_tables"]


def approx_tables(pi_min, rate, T, L, k):
    """Lemma 4.8's bounds of the influences for quilt distances up to L (k states), with
    ``Delta_t = exp(-rate t) / pi_min``."""
    check_work_memory(8 * 4 * (L + 1) ** 2, f"MQMApprox's influence tables (quilt length {L})")
    t = np.arange(L + 1, dtype=float)
    with np.errstate(over="ignore"):
        Delta = np.exp(-rate * t) / pi_min
    with np.errstate(divide="ignore", invalid="ignore"):
        delta = np.where(Delta < 1.0, np.log1p(Delta) - np.log1p(-Delta), np.inf)
    if k < 2:                       # a single state: no secret pair
        delta = np.full(L + 1, -np.inf)
    delta[0] = -np.inf
    EF = delta.copy()
    EB = 2.0 * delta
    E2 = np.full((L + 1, L + 1), -np.inf)
    E2[1:, 1:] = EB[1:, None] + EF[None, 1:]
    return InfluenceTables(T, L, E2, EF, EB)


def mqm_approx_scale(thetas, T, epsilon, lipschitz=1.0, max_quilt=None, gap="singular"):
    """The Laplace scale of MQMApprox (Algorithm 4) for a Markov chain of length T.

    The max-influence is bounded by Lemma 4.8 from the class's smallest stationary probability
    ``pi_min`` and eigengap ``g``: with ``Delta_t = exp(-g t) / pi_min < 1``,

        e({X_{i-a}, X_{i+b}} | X_i) <= 2 log((1 + Delta_a)/(1 - Delta_a))
                                       + log((1 + Delta_b)/(1 - Delta_b)),

    the first term for the quilt node before X_i (twice: it also bounds the marginal of X_i,
    whatever the initial distribution), the second for the one after (one-sided quilts keep
    one term). The bound does not depend on the node, so the search is Lemma 4.9's: the node
    with the fewest quilts (the middle) is the worst; here every node's best quilt comes from
    one prefix-minimum table, O(l^2 + T l) in all.

    Two conventions for the mixing (see :func:`chain_mixing`):

    - ``gap="singular"`` (tdadp's default): ``Delta_t = exp(-g t) / pi_min`` with
      ``g = 1 - s_2`` (s_2: P's second singular value on L2(pi); for a reversible chain, the
      absolute spectral gap). For the interval family ``g = 2 alpha`` (the eigenvalues of a
      binary chain are 1 and ``p + q - 1``).
    - ``gap="paper"`` (Song, Wang and Chaudhuri's): ``Delta_t = exp(-g t / 2) / pi_min`` with
      ``g = 1 - lambda_2(P P*)``, the eigengap of the multiplicative reversiblization. A valid
      but looser bound (``1 - s_2^2 <= 2 (1 - s_2)``, so the decay per step is slower); for
      the interval family ``g = 1 - (1 - 2 alpha)^2``. On the paper's running example chain
      g is 0.75 against 0.5, a decay of 0.375 per step against 0.5.

    ``pi_min = alpha`` for the interval family in both.

    Parameters
    ----------
    thetas : (initial, transition) pair, sequence of them, or BinaryIntervalFamily
        Every transition matrix must be irreducible (initial distributions do not matter).
    T : int >= 1
    epsilon : float in (0, inf]
    lipschitz : float > 0, default=1.0
    max_quilt : int or None, default=None
    gap : {"singular", "paper"}, default="singular"
        The mixing convention above.

    Returns
    -------
    ChainNoiseScale
        ``per_theta`` holds one entry, for the class.

    Raises
    ------
    ValueError
        For a reducible transition matrix; at a finite epsilon, for a class without a possible
        secret pair (see :func:`mqm_exact_scale`); before any work, for more memory than left.

    References
    ----------
    Song, Wang, Chaudhuri (2017), Section 4.4, Lemmas 4.8 and 4.9, Algorithm 4.

    Examples
    --------
    >>> from tdadp.pufferfish import mqm_approx_scale
    >>> res = mqm_approx_scale(("stationary", [[0.9, 0.1], [0.4, 0.6]]), 100, 1.0)
    >>> c = res.per_theta[0]
    >>> round(res.score, 4), c.node, c.quilt
    (23.506, 50, (39, 60))
    >>> round(mqm_approx_scale(("stationary", [[0.9, 0.1], [0.4, 0.6]]), 100, 1.0,
    ...                        gap="paper").score, 4)
    31.7098
    """
    if gap not in ("singular", "paper"):
        raise ValueError(f"gap must be 'singular' or 'paper', got {gap!r}.")
    kind, chains = parse_thetas(thetas)
    T, eps, lip, L = check_scale_args(T, epsilon, lipschitz, max_quilt)
    if kind == "family":
        pi_min, k = chains.pi_min, 2
        g = chains.gap if gap == "singular" else 1.0 - (1.0 - chains.gap) ** 2
    else:
        mix = [chain_mixing(c.P, gap) for c in chains]
        pi_min = min(m[0] for m in mix)
        g = min(m[1] for m in mix)
        k = chains[0].P.shape[0]
    if np.isfinite(eps):
        check_secret_pairs(kind, chains, T)
    rate = g if gap == "singular" else g / 2.0
    found = search_built(lambda W: approx_tables(pi_min, rate, T, W, k), L,
                         score_objective(eps), T=T)
    choice = quilt_choice(found)
    reason = (f"Lemma 4.8 bound with pi_min = {pi_min:.6g}, eigengap g = {g:.6g} ("
              + ("exp(-g t), g = 1 - s_2)" if gap == "singular" else
                 "the paper's exp(-g t / 2), g = 1 - lambda_2(P P*))"))
    return ChainNoiseScale("MQMApprox", lip * choice.score, choice.score, eps, lip, T,
                           (choice,), True, reason)
