"""Exact edge-level privacy of edgeFlip under a dependent-edge model, by enumeration.

Edge DP protects tests between whole neighbouring networks. Whether it protects the secret
"edge ij is present" against "edge ij is absent" depends on the adversary's model of the
network: this is Pufferfish privacy (Kifer and Machanavajjhala 2014) with the secret pairs
{ij present, ij absent} and the model as the data distribution. For edgeFlip the level of
that guarantee is computed here exactly, by enumerating every graph on n <= 6 nodes.

Speed: the release distribution given a prior q on graphs is ``K^{(x)N} q`` with K the 2x2
flip kernel, applied one dyad axis at a time (O(N 2^N), in the log domain so that large
epsilons do not underflow), instead of the 2^N x 2^N channel matrix.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import logit

from ..graphs._dyads import dyad_pairs, n_dyads
from ..utils._validation import check_epsilon, check_positive_int

__all__ = ["EdgePrivacyLevel", "edge_privacy_exact", "latent_dependence_bound",
           "MAX_EXACT_NODES"]

#: Largest graph size enumerated exactly (n = 6: 2^15 = 32768 graphs).
MAX_EXACT_NODES = 6


@dataclass(frozen=True)
class EdgePrivacyLevel:
    """Exact edge-level privacy of edgeFlip under one network model.

    Attributes
    ----------
    level : float
        The exact Pufferfish level: sup over dyads ij (with 0 < P(ij) < 1) and over releases
        y of |log P(y | ij present) / P(y | ij absent)|.
    dependence : float
        Lemma 10's a = sup over dyads and over configurations of the other dyads (with
        positive probability) of |logit P(ij | rest) - logit P(ij)|; 0 for independent edges.
    epsilon : float
        edgeFlip's budget (the level for independent edges).
    bound : float
        ``epsilon + dependence``, Lemma 10's bound on ``level``.
    worst_dyad : tuple of int
        A dyad (i, j) attaining ``level``.
    dyad_levels : ndarray of shape (n, n)
        The level of each dyad's secret (symmetric; NaN on the diagonal and for dyads whose
        presence is certain or impossible under the model, which are not secrets).
    n_nodes : int
    """

    level: float
    dependence: float
    epsilon: float
    bound: float
    worst_dyad: tuple
    dyad_levels: np.ndarray
    n_nodes: int

    def describe(self) -> str:
        i, j = self.worst_dyad
        text = (f"edgeFlip at epsilon = {self.epsilon:g} on {self.n_nodes} nodes protects "
                f"single edges at level {self.level:.6g} under this model (worst dyad "
                f"({i}, {j})). Edge dependence a = {self.dependence:.6g}; Lemma 10 bound "
                f"epsilon + a = {self.bound:.6g}.")
        if self.level > self.epsilon * (1 + 1e-9) + 1e-12:
            text += (" The edge-level guarantee is weaker than epsilon: edges are dependent "
                     "under the model, so the release carries information about an edge "
                     "through the other edges.")
        return text


def _all_graphs(n):
    N = n_dyads(n)
    codes = np.arange(1 << N, dtype=np.int64)
    bits = ((codes[:, None] >> np.arange(N)) & 1).astype(np.uint8)  # bit d = dyad d
    i, j = dyad_pairs(np.arange(N), n)
    A = np.zeros((codes.size, n, n), dtype=np.uint8)
    A[:, i, j] = bits
    A[:, j, i] = bits
    return codes, A


def _weights(graph_probability, A, vectorized):
    if vectorized:
        w = np.asarray(graph_probability(A), dtype=float)
        if w.shape != (A.shape[0],):
            raise ValueError(
                f"graph_probability called on a stack of {A.shape[0]} graphs must return "
                f"{A.shape[0]} values, got shape {w.shape}."
            )
    else:
        w = np.array([graph_probability(a.copy()) for a in A], dtype=float)
        if w.ndim != 1:
            raise ValueError("graph_probability must return one number per graph.")
    if np.isnan(w).any() or np.isinf(w).any():
        raise ValueError("graph_probability returned NaN or infinite values.")
    if (w < 0).any():
        raise ValueError("graph_probability returned negative values.")
    total = w.sum()
    if total <= 0:
        raise ValueError("graph_probability gives every graph probability 0.")
    return w / total


def _release_log_distribution(log_q, N, log_kernel):
    """log of K^{(x)N} q, one dyad axis at a time."""
    out = log_q
    M = out.size
    for axis in range(N):
        v = out.reshape(1 << axis, 2, M >> (axis + 1))
        new = np.empty_like(v)
        for y in (0, 1):
            new[:, y, :] = np.logaddexp(log_kernel[y, 0] + v[:, 0, :],
                                        log_kernel[y, 1] + v[:, 1, :])
        out = new.reshape(M)
    return out


def _max_abs_log_ratio(log_a, log_b):
    both = np.isfinite(log_a) & np.isfinite(log_b)
    one = np.isfinite(log_a) ^ np.isfinite(log_b)
    if one.any():
        return np.inf
    return float(np.max(np.abs(log_a[both] - log_b[both]))) if both.any() else 0.0


def edge_privacy_exact(n, graph_probability, epsilon, *, vectorized=False):
    """Exact edge-level privacy of edgeFlip under a network model, by enumeration.

    Every graph on ``n`` nodes is enumerated; for each dyad ij the distribution of the
    edgeFlip release given "ij present" and given "ij absent" (the other dyads drawn from the
    model) is computed exactly, and their largest log-ratio is the level of the secret. The
    level equals ``epsilon`` when edges are independent; with dependent edges it can exceed
    it, up to Lemma 10's bound ``epsilon + a``.

    Parameters
    ----------
    n : int, 2 <= n <= 6
        Number of nodes (2^(n(n-1)/2) graphs: 32768 at n = 6).
    graph_probability : callable
        Takes an n x n symmetric 0/1 adjacency matrix (uint8) and returns its probability
        under the adversary's model, up to a constant factor. With ``vectorized=True`` it
        takes a stack of shape (m, n, n) and returns m values.
    epsilon : float in [0, inf]
        edgeFlip's budget.
    vectorized : bool, default=False

    Returns
    -------
    EdgePrivacyLevel
        ``level``, ``dependence``, ``epsilon``, ``bound``, ``worst_dyad``, ``dyad_levels``.

    Notes
    -----
    Dyads whose presence is certain or impossible under the model (P(ij) in {0, 1}) are not
    secrets (one side of the pair has probability 0) and are skipped. A configuration of the
    other dyads that forces ij (P(ij | rest) in {0, 1} while 0 < P(ij) < 1) makes
    ``dependence`` infinite.

    References
    ----------
    Hehir, Niu, Slavković, "Interpreting network differential privacy" (2025), Lemma 10.
    Kifer, Machanavajjhala, "Pufferfish: a framework for mathematical privacy definitions",
    ACM TODS 39 (2014).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.privacy import edge_privacy_exact
    >>> er = lambda A: 0.3 ** A.sum() * 0.7 ** (A.size - 3 - A.sum())   # 3 nodes, ER(0.3)
    >>> r = edge_privacy_exact(3, er, 1.0)
    >>> round(r.level, 9), r.dependence
    (1.0, 0.0)
    >>> triangle_lover = lambda A: np.exp(2.0 * (A[0, 1] * A[0, 2] * A[1, 2]))
    >>> r = edge_privacy_exact(3, triangle_lover, 1.0)
    >>> bool(1.0 < r.level <= r.bound)
    True
    """
    n = check_positive_int(n, "n", minimum=2)
    if n > MAX_EXACT_NODES:
        raise ValueError(
            f"n = {n} is too large for exact enumeration (2^{n_dyads(n)} graphs); "
            f"n must be at most {MAX_EXACT_NODES}."
        )
    eps = check_epsilon(epsilon)
    if not callable(graph_probability):
        raise ValueError("graph_probability must be a callable taking an adjacency matrix.")
    N = n_dyads(n)
    codes, A = _all_graphs(n)
    w = _weights(graph_probability, A, vectorized)
    with np.errstate(divide="ignore"):
        log_w = np.log(w)
        pi = 1.0 / (1.0 + np.exp(eps)) if np.isfinite(eps) else 0.0
        log_kernel = np.log(np.array([[1 - pi, pi], [pi, 1 - pi]]))
    # Axis a of the (2,)*N reshape is bit N-1-a of the code; the kernel is the same on every
    # axis, so only the conditioning below needs the bit of each dyad.
    levels = np.full((n, n), np.nan)
    dependence = 0.0
    rows, cols = dyad_pairs(np.arange(N), n)
    for d in range(N):
        present = ((codes >> d) & 1).astype(bool)
        p1 = w[present].sum()
        if p1 <= 0 or p1 >= 1:
            continue
        with np.errstate(divide="ignore"):
            log_q1 = np.where(present, log_w - np.log(p1), -np.inf)
            log_q0 = np.where(present, -np.inf, log_w - np.log1p(-p1))
        level = _max_abs_log_ratio(_release_log_distribution(log_q1, N, log_kernel),
                                   _release_log_distribution(log_q0, N, log_kernel))
        levels[rows[d], cols[d]] = levels[cols[d], rows[d]] = level
        # Lemma 10: conditional against marginal log-odds over every configuration of the
        # other dyads that has positive probability.
        w0 = w[~present]
        w1 = w[codes[~present] | (1 << d)]
        seen = (w0 + w1) > 0
        with np.errstate(divide="ignore"):
            cond = logit(w1[seen] / (w0[seen] + w1[seen]))
        dependence = max(dependence, float(np.max(np.abs(cond - logit(p1)))))
    finite = ~np.isnan(levels)
    if not finite.any():
        raise ValueError("no dyad is uncertain under graph_probability: every edge is "
                         "certainly present or certainly absent, so nothing is secret.")
    worst = np.unravel_index(np.nanargmax(np.where(finite, levels, -np.inf)), levels.shape)
    worst = (int(min(worst)), int(max(worst)))
    level = float(levels[worst])
    return EdgePrivacyLevel(level=level, dependence=dependence, epsilon=eps,
                            bound=eps + dependence, worst_dyad=worst, dyad_levels=levels,
                            n_nodes=n)


def latent_dependence_bound(probabilities):
    """Bound on Lemma 10's edge dependence ``a`` for a latent-position model.

    In a latent-position model (RDPG, gRDPG, SBM with random memberships, graphon) edges are
    independent given the latent positions, so P(ij | rest) is a posterior average of
    P_ij = <X_i, I_pq X_j> and P(ij) a prior average of the same values. Both lie between the
    smallest and largest edge probability the model can produce, hence
    ``a <= logit(p_max) - logit(p_min)``, and edgeFlip at budget eps protects single edges
    at level at most ``eps + logit(p_max) - logit(p_min)``.

    The bound is **infinite when p_min = 0 or p_max = 1**: an SBM with an empty block pair,
    an RDPG with two orthogonal latent positions, or any model that can force an edge on or
    off. Then Lemma 10 gives no edge-level guarantee at all (which does not mean the level is
    infinite: compute it with :func:`edge_privacy_exact` on small graphs). It is 0 exactly
    for Erdős–Rényi (p_min = p_max).

    Parameters
    ----------
    probabilities : array-like of floats in [0, 1]
        Every edge probability the model can produce: an SBM's block matrix B, or the
        probability matrix of the latent positions' support. Diagonals are included as they
        are (for B they are within-block probabilities, which are genuine edge probabilities).

    Returns
    -------
    a_bound : float in [0, inf]

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.privacy import latent_dependence_bound
    >>> round(latent_dependence_bound([[0.5, 0.2], [0.2, 0.5]]), 4)
    1.3863
    >>> latent_dependence_bound([[0.5, 0.0], [0.0, 0.5]])
    inf
    """
    P = np.asarray(probabilities, dtype=float)
    if P.size == 0:
        raise ValueError("probabilities is empty.")
    if np.isnan(P).any() or (P < 0).any() or (P > 1).any():
        raise ValueError("probabilities must lie in [0, 1] (no NaN).")
    p_min, p_max = float(P.min()), float(P.max())
    if p_min == p_max:
        return 0.0
    if p_min == 0.0 or p_max == 1.0:
        return float("inf")
    return float(logit(p_max) - logit(p_min))
