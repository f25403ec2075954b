"""Exact edge-level privacy of edgeFlip under a dependent-edge model, by enumeration.

Edge DP protects tests between whole neighbouring networks. Whether it protects the secret
"edge ij is present" against "edge ij is absent" depends on the adversary's model of the
network: this is Pufferfish privacy (Kifer and Machanavajjhala 2014) with the secret pairs
{ij present, ij absent} and the model as the data distribution. For edgeFlip the level of
that guarantee is computed here exactly, by enumerating every graph on n <= 6 nodes.

Speed: the release distribution given a prior q on graphs is ``K^{(x)N} q`` with K the 2x2
flip kernel, applied one dyad axis at a time (O(N 2^N)), instead of the 2^N x 2^N channel
matrix.

Range: every quantity is computed in the log domain (model weights normalized by logsumexp,
the flip kernel as ``log(pi / (1 - pi)) = -eps`` without forming ``pi``), so no weight a model
can return as a finite double and no epsilon in [0, inf] overflows or underflows: weights
near 1e308 (whose sum overflows) or near 1e-320, and eps beyond 745 (where ``pi`` underflows to
0) give the exact level. Beyond eps = 1e300 the level is eps times an integer (a difference
of Hamming distances), computed as such.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import logit, logsumexp

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
        y of ``|log P(y | ij present) / P(y | ij absent)|``.
    dependence : float
        Lemma 10's a = sup over dyads and over configurations of the other dyads (with
        positive probability) of ``|logit P(ij | rest) - logit P(ij)|``; 0 for independent edges.
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


def _log_weights(graph_probability, A, vectorized):
    """log of the (unnormalized) model weights of the graphs ``A``, checked one by one.

    The weights are kept in the log domain: a model may give every graph a weight near the
    largest double (their sum overflows) or below the smallest (it underflows), and the
    conditional probabilities below are ratios of sums of them.
    """
    if vectorized:
        raw = graph_probability(A)
        expected = f"called on a stack of {A.shape[0]} graphs must return {A.shape[0]} values"
    else:
        raw = [graph_probability(a.copy()) for a in A]
        expected = "must return one number per graph"
    try:
        w = np.asarray(raw)
    except ValueError:  # ragged sequences
        raise ValueError(f"graph_probability {expected}.") from None
    if w.dtype.kind not in "biuf":
        raise ValueError(f"graph_probability must return real numbers, got values of type "
                         f"{w.dtype if w.dtype.kind != 'O' else 'object'}.")
    w = w.astype(float)
    if w.shape != (A.shape[0],):
        raise ValueError(f"graph_probability {expected}, got shape {w.shape}.")
    bad = ~np.isfinite(w)
    if bad.any():
        k = int(np.argmax(bad))
        raise ValueError(f"graph_probability returned {w[k]} for graph {k}: probabilities "
                         "must be finite (NaN and infinite values cannot be normalized).")
    if (w < 0).any():
        raise ValueError("graph_probability returned negative values.")
    if not (w > 0).any():
        raise ValueError("graph_probability gives every graph probability 0.")
    with np.errstate(divide="ignore"):
        return np.log(w)


def _flip_log_kernel(eps):
    """log of the flip kernel up to the common factor ``1 / (1 + e^-eps)`` per dyad.

    ``[[0, -eps], [-eps, 0]]``: keep with log-probability 0, flip with ``-eps`` (exactly
    ``log(pi / (1 - pi))``). The factor is the same for every release and cancels in the
    likelihood ratios; leaving it out keeps every quantity finite where ``pi = 1/(1 + e^eps)``
    itself underflows (eps > 745).
    """
    return np.array([[0.0, -eps], [-eps, 0.0]])


def _release_log_distribution(log_q, N, log_kernel, combine=np.logaddexp):
    """log of K^{(x)N} q, one dyad axis at a time.

    With ``combine=np.maximum`` and the kernel ``[[0, -1], [-1, 0]]`` the same sweep gives
    minus the Hamming distance from each release to the support of ``q`` (the max-plus
    limit of ``log K^{(x)N} q / eps`` as eps grows).
    """
    out = log_q
    M = out.size
    for axis in range(N):
        v = out.reshape(1 << axis, 2, M >> (axis + 1))
        new = np.empty_like(v)
        for y in (0, 1):
            new[:, y, :] = combine(log_kernel[y, 0] + v[:, 0, :],
                                   log_kernel[y, 1] + v[:, 1, :])
        out = new.reshape(M)
    return out


def _max_abs_log_ratio(log_a, log_b):
    both = np.isfinite(log_a) & np.isfinite(log_b)
    one = np.isfinite(log_a) ^ np.isfinite(log_b)
    if one.any():
        return np.inf
    return float(np.max(np.abs(log_a[both] - log_b[both]))) if both.any() else 0.0


#: Beyond this epsilon the log-likelihoods of the releases (sums of up to N = 15 terms of
#: size eps) could overflow, and the level is computed as eps times the largest difference
#: of Hamming distances: the model's own log-ratios (at most about 1,500 for double weights)
#: are then below half an ulp of the level, so the result is the same double.
_TROPICAL_EPSILON = 1e300


def _secret_level(log_q1, log_q0, N, eps):
    """sup over releases of |log P(y | secret 1) - log P(y | secret 0)| under edgeFlip."""
    if eps <= _TROPICAL_EPSILON:
        kernel = _flip_log_kernel(eps)
        return _max_abs_log_ratio(_release_log_distribution(log_q1, N, kernel),
                                  _release_log_distribution(log_q0, N, kernel))
    # Every release is at some Hamming distance of each support; log P(y | s) is
    # -eps * distance up to terms far below eps's resolution.
    unit = _flip_log_kernel(1.0)
    support = [np.where(np.isfinite(q), 0.0, -np.inf) for q in (log_q1, log_q0)]
    d1, d0 = (_release_log_distribution(q, N, unit, np.maximum) for q in support)
    # A level beyond the largest double (k * eps with k >= 2 distance units, which only a
    # forcing dependence gives) rounds to inf, the conservative side.
    with np.errstate(over="ignore"):
        return float(eps * np.max(np.abs(d1 - d0)))


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

    Weights and epsilon are handled in the log domain over their whole range (any finite
    non-negative double as a weight, any epsilon in [0, inf]): the level is never lost to
    an overflow of the weights' sum or of ``e^eps``. Levels and dependences are differences
    of log-probabilities, accurate to a few ulps of the largest of them (about 1e-15 for
    probabilities of order one): a level far below that (eps = 1e-20 with independent edges)
    comes out as a rounding error of that size, not relative to eps. A level beyond the
    largest double (eps above 9e307 with a forcing dependence) is reported as inf.

    Raises
    ------
    ValueError
        For n outside [2, MAX_EXACT_NODES], an epsilon outside [0, inf], a non-callable
        ``graph_probability``, or weights it cannot normalize: non-real, NaN, infinite,
        negative, all zero, or not one per graph; and when no dyad is uncertain.

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
    >>> round(r.level, 9), round(r.dependence, 9)
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
    log_w = _log_weights(graph_probability, A, vectorized)
    log_w = log_w - logsumexp(log_w)
    # Axis a of the (2,)*N reshape is bit N-1-a of the code; the kernel is the same on every
    # axis, so only the conditioning below needs the bit of each dyad.
    levels = np.full((n, n), np.nan)
    dependence = 0.0
    rows, cols = dyad_pairs(np.arange(N), n)
    for d in range(N):
        present = ((codes >> d) & 1).astype(bool)
        # log P(ij) and log P(not ij) separately: 1 - P(ij) computed from P(ij) would round
        # to 0 when the absent side is lighter than 2^-53, and skip an uncertain dyad.
        log_p1 = logsumexp(log_w[present])
        log_p0 = logsumexp(log_w[~present])
        if not (np.isfinite(log_p1) and np.isfinite(log_p0)):
            continue
        log_q1 = np.where(present, log_w - log_p1, -np.inf)
        log_q0 = np.where(present, -np.inf, log_w - log_p0)
        level = _secret_level(log_q1, log_q0, N, eps)
        levels[rows[d], cols[d]] = levels[cols[d], rows[d]] = level
        # Lemma 10: conditional against marginal log-odds over every configuration of the
        # other dyads that has positive probability (+-inf where the configuration forces ij).
        lw0 = log_w[~present]
        lw1 = log_w[codes[~present] | (1 << d)]
        seen = np.isfinite(lw0) | np.isfinite(lw1)
        with np.errstate(invalid="ignore"):
            cond = lw1[seen] - lw0[seen]
        dependence = max(dependence, float(np.max(np.abs(cond - (log_p1 - log_p0)))))
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
