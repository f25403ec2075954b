"""Empirical privacy audit: a statistical lower bound on a mechanism's privacy loss.

Run the mechanism many times on two neighbouring networks G0 and G1, attack each release with
a threshold test on a statistic, and turn the test's error rates into a lower confidence
bound on epsilon: eps-DP forces P1(R) <= e^eps P0(R) for every rejection region R (and the
same with G0 and G1 swapped), so log(lower(P1(R)) / upper(P0(R))) with Clopper–Pearson
bounds is a lower bound on any epsilon the mechanism can truly satisfy (Jagielski, Ullman,
Oprea 2020; Nasr, Song, Thakurta, Papernot, Carlini 2021). A correct mechanism gives a bound
at or below its claim (above it with probability at most 1 - confidence); a broken one is
caught when the bound exceeds the claim.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.stats import beta
from sklearn.base import clone

from ..utils._params import Interval, Options, check_param
from ..utils._random import item_streams, stage_tag
from ..utils._validation import check_adjacency

__all__ = ["AuditResult", "audit"]

_CHUNK_TRIALS = 256       # graphs per transform call (bounded memory)
_COPIES_PER_GRAPH = 512   # copies of the dyad per auxiliary graph in the fast path


@dataclass(frozen=True)
class AuditResult:
    """Outcome of :func:`audit`.

    Attributes
    ----------
    epsilon_lower : float
        Lower confidence bound on the privacy loss (at level ``confidence``).
    epsilon_claimed : float or None
        The mechanism's stated epsilon (``guarantee_.epsilon``), when it states one.
    epsilon_estimate : float
        The point estimate log(P1(R) / P0(R)) of the chosen test (no confidence margin).
    n_trials : int
        Releases per network.
    confidence : float
    n_tests : int
        Number of (region, direction) tests the bound is Bonferroni-corrected over.
    threshold : float
    region : str
        The chosen rejection region, e.g. "statistic >= 1".
    rates : tuple of float
        Empirical probabilities of the region under G0 and under G1.
    method : str
        "dyad copies" (fast path for dyad-independent mechanisms) or "full mechanism".
    """

    epsilon_lower: float
    epsilon_claimed: float | None
    epsilon_estimate: float
    n_trials: int
    confidence: float
    n_tests: int
    threshold: float
    region: str
    rates: tuple
    method: str

    @property
    def violation(self) -> bool:
        """True when the audit proves (at ``confidence``) that the claim is false."""
        return self.epsilon_claimed is not None and self.epsilon_lower > self.epsilon_claimed

    def describe(self) -> str:
        text = (f"With {self.n_trials} releases of each network, the best threshold test "
                f"({self.region}: rates {self.rates[0]:.4g} under G0, {self.rates[1]:.4g} "
                f"under G1) shows epsilon >= {self.epsilon_lower:.4g} at confidence "
                f"{self.confidence:g} (point estimate {self.epsilon_estimate:.4g}).")
        if self.epsilon_claimed is None:
            return text
        text += f" Claimed epsilon: {self.epsilon_claimed:g}."
        if self.violation:
            text += " The claim is violated: the mechanism leaks more than it promises."
        else:
            text += (" Consistent with the claim (an audit can refute a claim, never prove "
                     "it).")
        return text


def _differing_dyad(G0, G1):
    if G0.shape != G1.shape:
        raise ValueError(f"G0 and G1 must have the same number of nodes, got shapes "
                         f"{G0.shape} and {G1.shape}.")
    if sp.issparse(G0) or sp.issparse(G1):
        diff = sp.triu(sp.csr_matrix(G0) != sp.csr_matrix(G1), k=1).tocoo()
        rows, cols = diff.row, diff.col
    else:
        rows, cols = np.nonzero(np.triu(G0 != G1, k=1))
    if rows.size != 1:
        raise ValueError(
            f"G0 and G1 must be neighbouring networks (differ in exactly one dyad); they "
            f"differ in {rows.size} dyads."
        )
    return int(rows[0]), int(cols[0])


def _stated_guarantee(mechanism):
    """The guarantee a clone of ``mechanism`` states when fitted, or None if it states none."""
    try:
        return clone(mechanism).fit().guarantee_
    except (AttributeError, TypeError):
        return None


def _with_seed(mechanism, seed):
    m = clone(mechanism)
    if "random_state" in m.get_params():
        m.set_params(random_state=seed)
    return m


def _seeds(random_state, n_chunks):
    if isinstance(random_state, str):
        return [[random_state] * n_chunks for _ in range(2)]
    streams = item_streams(random_state, [0, 1], stage_tag("audit"))
    return [[int(s) for s in rng.integers(0, 2**63 - 1, size=n_chunks)] for rng in streams]


def _default_statistic(i, j):
    def statistic(release):
        if sp.issparse(release) or (isinstance(release, np.ndarray) and release.ndim == 2):
            return float(release[i, j])
        if np.ndim(release) == 0:
            return float(release)
        raise ValueError("the mechanism's release is neither a graph nor a number: pass a "
                         "statistic mapping a release to a number.")
    return statistic


def _run_full(mechanism, G, n_trials, statistic, seeds):
    scores = []
    for c, seed in enumerate(seeds):
        size = min(_CHUNK_TRIALS, n_trials - c * _CHUNK_TRIALS)
        releases = _with_seed(mechanism, seed).fit_transform([G] * size)
        scores.extend(float(statistic(r)) for r in releases)
    return np.asarray(scores)


def _run_dyad_copies(mechanism, value, n_trials, seeds):
    # A dyad-independent mechanism releases each dyad with a law depending on that dyad only,
    # so m disjoint copies of the dyad in one auxiliary graph are m independent releases of
    # it, produced by the mechanism's own code.
    scores = []
    for c, seed in enumerate(seeds):
        m = min(_COPIES_PER_GRAPH, n_trials - c * _COPIES_PER_GRAPH)
        H = np.zeros((2 * m, 2 * m), dtype=np.uint8)
        idx = np.arange(m)
        H[2 * idx, 2 * idx + 1] = H[2 * idx + 1, 2 * idx] = value
        released = _with_seed(mechanism, seed).fit_transform(H)
        if sp.issparse(released):
            released = released.toarray()
        scores.append(np.asarray(released)[2 * idx, 2 * idx + 1].astype(float))
    return np.concatenate(scores)


def _regions(values):
    for t in values:
        yield t, ">="
        yield t, "<="


def _in_region(scores, t, side):
    return scores >= t if side == ">=" else scores <= t


def _cp_bounds(k, n, a):
    """One-sided Clopper–Pearson lower and upper bounds, each failing with probability a."""
    k = np.asarray(k, dtype=float)
    lower = np.where(k > 0, beta.ppf(a, np.maximum(k, 1), n - k + 1), 0.0)
    upper = np.where(k < n, beta.ppf(1 - a, k + 1, np.maximum(n - k, 1)), 1.0)
    return lower, upper


def _log_ratio(num, den):
    with np.errstate(divide="ignore"):
        return np.where(den > 0, np.log(np.maximum(num, 0) / np.where(den > 0, den, 1)),
                        np.where(num > 0, np.inf, -np.inf))


def _evaluate(s0, s1, candidates, delta):
    """Best Bonferroni-corrected lower bound over the candidate regions, both directions."""
    regions = list(_regions(candidates))
    K = 2 * len(regions)  # each region is tested as G1-vs-G0 and G0-vs-G1
    a = delta / (2 * K)   # two bounds per test
    best = (-np.inf, regions[0][0], regions[0][1], 0.0, 0.0, -np.inf)
    for t, side in regions:
        k0 = int(_in_region(s0, t, side).sum())
        k1 = int(_in_region(s1, t, side).sum())
        lo0, up0 = _cp_bounds(k0, s0.size, a)
        lo1, up1 = _cp_bounds(k1, s1.size, a)
        r0, r1 = k0 / s0.size, k1 / s1.size
        for lower, estimate in ((_log_ratio(lo1, up0), _log_ratio(r1, r0)),
                                (_log_ratio(lo0, up1), _log_ratio(r0, r1))):
            if float(lower) > best[0]:
                best = (float(lower), t, side, r0, r1, float(estimate))
    return best, K


def audit(mechanism, G0, G1, n_trials=2000, statistic=None, confidence=0.95,
          random_state=None, *, n_thresholds=16, dyad_independent="auto"):
    """Lower-bound a mechanism's privacy loss by attacking it on two neighbouring networks.

    The mechanism releases ``G0`` and ``G1`` ``n_trials`` times each; a threshold test on
    ``statistic(release)`` tries to tell them apart. For every candidate rejection region R
    (``statistic >= t`` or ``statistic <= t``) and both directions, Clopper–Pearson bounds on
    P0(R) and P1(R) give a lower bound log(lower P1(R) / upper P0(R)) on epsilon; the bounds
    are Bonferroni-corrected over the regions searched, so ``epsilon_lower`` exceeds the true
    privacy loss with probability at most ``1 - confidence``.

    Candidate thresholds: when the statistic takes at most ``n_thresholds`` distinct values
    (the default statistic, the differing dyad, takes two), every observed value is a
    candidate and all trials are used. Otherwise the first half of the trials of each network
    selects the best region and the second half evaluates it alone (corrected over its two
    directions only).

    Parameters
    ----------
    mechanism : estimator
        A mechanism whose ``fit_transform`` accepts a list of graphs (EdgeFlip,
        LaplaceFlip, LaplaceEdgeCount, ...), with a ``random_state`` parameter; the
        ``guarantee_`` it states when fitted gives the claimed epsilon and whether it is
        randomized response on each dyad. It is cloned, never modified.
    G0, G1 : adjacency matrices differing in exactly one dyad
    n_trials : int, default=2000
    statistic : callable, optional
        Maps a release to a number. Default: the released value of the differing dyad for
        graph releases, the release itself for scalar releases.
    confidence : float in (0, 1), default=0.95
    random_state : None, int, Generator, SeedSequence or "secure"
    n_thresholds : int, default=16
    dyad_independent : "auto" or bool, default="auto"
        Fast path, only with ``statistic=None``: a mechanism that releases every dyad
        independently with a law depending on that dyad alone is run on auxiliary graphs
        made of many disjoint copies of the differing dyad (its own code, on
        ``2 * 512``-node graphs), so the cost does not grow with the network. "auto" takes
        it when the mechanism's fitted guarantee declares ``dyad_independent=True`` (as
        :class:`tdadp.EdgeFlip` and :class:`tdadp.LaplaceFlip` do); pass False to run the
        mechanism on G0 and G1 in full whatever it declares.

    Returns
    -------
    AuditResult
        ``epsilon_lower``, ``epsilon_claimed``, ``n_trials``, ``confidence``, the chosen
        test, and :meth:`~AuditResult.describe`.

    References
    ----------
    Jagielski, Ullman, Oprea, "Auditing differentially private machine learning: how private
    is private SGD?", NeurIPS (2020).
    Nasr, Song, Thakurta, Papernot, Carlini, "Adversary instantiation: lower bounds for
    differentially private machine learning", IEEE S&P (2021).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp import EdgeFlip
    >>> from tdadp.privacy import audit
    >>> G0 = np.zeros((5, 5), dtype=np.uint8)
    >>> G1 = G0.copy(); G1[0, 1] = G1[1, 0] = 1
    >>> result = audit(EdgeFlip(1.0), G0, G1, n_trials=4000, random_state=0)
    >>> bool(0.7 < result.epsilon_lower <= 1.0), result.violation
    (True, False)
    """
    for name, value, rules in (
            ("n_trials", n_trials, [Interval("int", 2, None, "left")]),
            ("confidence", confidence, [Interval("real", 0, 1, "neither")]),
            ("n_thresholds", n_thresholds, ["positive_int"]),
            ("dyad_independent", dyad_independent, [Options("auto"), "boolean"])):
        check_param(value, rules, name, "audit")
    n_trials, n_thresholds = int(n_trials), int(n_thresholds)
    if not hasattr(mechanism, "fit_transform") or not hasattr(mechanism, "get_params"):
        raise ValueError("mechanism must be an estimator with get_params and fit_transform.")
    G0 = check_adjacency(G0, "G0")
    G1 = check_adjacency(G1, "G1")
    i, j = _differing_dyad(G0, G1)
    stated = _stated_guarantee(mechanism)
    claimed = None if stated is None else stated.epsilon
    if dyad_independent == "auto":
        # Declared data, not a type check: the mechanism says what its release is.
        dyad_independent = bool(getattr(stated, "dyad_independent", False))
    fast = statistic is None and dyad_independent
    per_chunk = _COPIES_PER_GRAPH if fast else _CHUNK_TRIALS
    n_chunks = -(-n_trials // per_chunk)
    seeds = _seeds(random_state, n_chunks)
    if fast:
        s0 = _run_dyad_copies(mechanism, int(G0[i, j]), n_trials, seeds[0])
        s1 = _run_dyad_copies(mechanism, int(G1[i, j]), n_trials, seeds[1])
        method = "dyad copies"
    else:
        stat = statistic if statistic is not None else _default_statistic(i, j)
        s0 = _run_full(mechanism, G0, n_trials, stat, seeds[0])
        s1 = _run_full(mechanism, G1, n_trials, stat, seeds[1])
        method = "full mechanism"
    if not (np.isfinite(s0).all() and np.isfinite(s1).all()):
        raise ValueError("the statistic returned NaN or infinite values.")

    delta = 1.0 - confidence
    values = np.unique(np.concatenate([s0, s1]))
    if values.size <= n_thresholds:
        (lower, t, side, r0, r1, estimate), K = _evaluate(s0, s1, values, delta)
    else:
        h = n_trials // 2
        pooled = np.concatenate([s0[:h], s1[:h]])
        candidates = np.unique(np.quantile(pooled, np.linspace(0, 1, n_thresholds + 2)[1:-1]))
        (_, t, side, _, _, _), _ = _evaluate(s0[:h], s1[:h], candidates, delta)
        (lower, t, side, r0, r1, estimate), K = _evaluate(s0[h:], s1[h:], [t], delta)
    return AuditResult(
        epsilon_lower=max(0.0, lower),
        epsilon_claimed=claimed,
        epsilon_estimate=estimate,
        n_trials=n_trials,
        confidence=float(confidence),
        n_tests=K,
        threshold=float(t),
        region=f"statistic {side} {t:g}",
        rates=(r0, r1),
        method=method,
    )
