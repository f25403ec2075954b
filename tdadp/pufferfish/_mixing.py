"""How fast a chain forgets its start: the pi_min and eigengap of MQMApprox's bound."""

from __future__ import annotations

import numpy as np

from ._theta import check_transition, is_irreducible, stationary_distribution

__all__ = ["chain_mixing"]


def chain_mixing(P, gap="singular"):
    """(pi_min, eigengap) of an irreducible chain, as Lemma 4.8 uses them.

    ``gap="singular"`` (tdadp's): ``g = 1 - s_2``, with ``s_2`` the second singular value of
    ``P`` on L2(pi) (of ``D^(1/2) P D^(-1/2)``, ``D = diag(pi)``): for a reversible chain,
    ``max |lambda|`` over the eigenvalues other than 1, the absolute spectral gap. Then
    ``|P^t(x, y) / pi(y) - 1| <= s_2^t / pi_min <= exp(-g t) / pi_min`` for every chain,
    reversible or not.

    ``gap="paper"`` (Song, Wang, Chaudhuri's): ``g = 1 - lambda_2(P P*)``, the eigengap of
    the multiplicative reversiblization (``P*`` the time reversal), ``= 1 - s_2^2``, used
    with ``exp(-g t / 2)``: ``s_2^t <= exp(-(1 - s_2^2) t / 2) <= exp(-(1 - s_2) t)`` is the
    same bound, loosened twice. The running example's chain: 0.75 against 0.5, the rate
    0.375 against 0.5 per step.

    Examples
    --------
    >>> from tdadp.pufferfish import chain_mixing
    >>> [round(v, 6) for v in chain_mixing([[0.9, 0.1], [0.4, 0.6]])]
    [0.2, 0.5]
    >>> [round(v, 6) for v in chain_mixing([[0.9, 0.1], [0.4, 0.6]], gap="paper")]
    [0.2, 0.75]
    """
    if gap not in ("singular", "paper"):
        raise ValueError(f"gap must be 'singular' or 'paper', got {gap!r}.")
    P = check_transition(P, "chain_mixing")
    if not is_irreducible(P):
        raise ValueError("MQMApprox needs irreducible chains (a unique stationary distribution "
                         "with pi_min > 0); use MQMExact for this chain.")
    pi = stationary_distribution(P)
    d = np.sqrt(pi)
    S = d[:, None] * P / d[None, :]
    sv = np.linalg.svd(S, compute_uv=False)
    s2 = float(sv[1]) if sv.size > 1 else 0.0
    if gap == "paper":
        return float(pi.min()), float(max(0.0, 1.0 - s2 * s2))
    return float(pi.min()), float(max(0.0, 1.0 - s2))
