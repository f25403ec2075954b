"""Empirical privacy audit: a statistical lower bound on a mechanism's privacy loss.

Run the mechanism many times on two neighbouring networks G0 and G1, attack the releases
with a threshold test, and turn the test's error rates into a lower confidence bound on
epsilon: eps-DP forces P1(R) <= e^eps P0(R) for every rejection region R (and the same with G0
and G1 swapped), so log(lower(P1(R)) / upper(P0(R))) with Clopper–Pearson bounds is a lower
bound on any epsilon the mechanism can truly satisfy (Jagielski, Ullman, Oprea 2020; Nasr,
Song, Thakurta, Papernot, Carlini 2021). A correct mechanism gives a bound at or below its
claim (above it with probability at most 1 - confidence); a broken one is caught when the
bound exceeds the claim.

How the audit avoids being fooled
---------------------------------
- **Each trial is one release**: one ``transform`` call on the one graph, by a clone of the
  mechanism fitted once per network. Trials are independent exactly when the mechanism's
  releases are; coins shared across a batch can neither fake a violation nor hide one, since
  no batch is ever released.
- **The coins are the mechanism's own**: a mechanism with a fixed seed (an int, a Generator
  or a SeedSequence as ``random_state``, at any depth of its parameters) is refused. Its
  releases are a deterministic function of the input: the same coins for G0 and G1, so two
  releases differ exactly where the inputs do, and re-seeding it would audit another
  mechanism. ``random_state=None`` (fresh coins for every release) is audited as it is, or,
  when the audit itself is given a seed, with fresh coins from the audit's own stream (the
  same law, and an audit that can be reproduced); ``"secure"`` is kept.
- **The attack sees the whole release**, learned on held-out trials: the first quarter of the
  trials of each network screens every entry of the release (both triangles and the
  diagonal of a graph, every coordinate of a vector), the next three eighths choose the best
  test among the candidates below, and only the last three eighths, untouched by those
  choices, give the bound (one test: no multiple-comparison loss). Candidates: the joint outcome of
  the two mirror entries (i, j) and (j, i) of the differing dyad, ordered by their likelihood
  ratio; each of those entries; the entries whose law differs most between G0 and G1
  (a copy of the input anywhere in the release is one); a linear score over all entries
  (a leak spread thinly over many entries); and, for a graph release, whether the release
  *is* G0 or G1 (a mechanism that sometimes returns its input) and where each node stands in
  the release's node order (a leak through the order of the node names, which the matrix
  alone cannot show on a background symmetric under the reordering). Thresholds ``>= t``
  and ``<= t`` on each.
- **No declaration is trusted by default**: the fast path that releases auxiliary graphs of
  many copies of the dyad runs only when asked (``dyad_independent=True``), and says so.

What it cannot detect
---------------------
An audit refutes a claim, it never proves one. It tests the one pair (G0, G1) given: a leak of
another dyad, or on graphs of another kind, needs another pair. It sees the law of each
entry, of the secret dyad's pair and of linear combinations of entries: a leak hidden in the
joint law of several entries only (the secret XOR-ed into two entries that are each uniform)
needs a ``statistic`` that computes it. Events rarer than about 1 / n_trials (a small
failure probability delta) go unseen. It audits single releases, not the joint law of a
batch, and cannot rule out a mechanism that behaves differently when it is audited. A leak
a little above the claim needs many trials (more at a large epsilon): each result states the
smallest leak its audit catches with probability 0.9, ``detectable_epsilon``.
"""

from __future__ import annotations

import functools
import numbers
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.special import betaincinv, expit
from scipy.stats import binom
from sklearn.base import clone

from ..graphs._info import graph_nodes
from ..graphs._packed import PackedAdjacency
from ..io._input import one_graph
from ..utils._params import Interval, check_param, short_repr
from ..utils._random import item_streams, stage_tag

__all__ = ["AuditResult", "audit", "audit_power"]

_COPIES_PER_GRAPH = 512   # copies of the dyad per auxiliary graph in the trusted fast path
_SCREENED = 4             # entries kept by each screening score
_POWER = 0.9              # the detection probability detectable_epsilon is stated at


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
        The point estimate log(P1(R) / P0(R)) of the chosen test on the evaluation trials
        (no confidence margin).
    n_trials : int
        Releases per network (a quarter screens, three eighths choose the test, three eighths
        evaluate it).
    confidence : float
    n_tests : int
        Number of tests the bound is corrected over: 1, the test chosen on other trials.
    threshold : float
    region : str
        The chosen rejection region, e.g. "release[1, 0] >= 1".
    rates : tuple of float
        Probabilities of the region under G0 and under G1 on the evaluation trials.
    method : str
        "full mechanism" (each trial one release of G0 or G1), or "dyad copies (trusted)"
        (the fast path that trusts the mechanism's dyad independence).
    statistic : str
        The statistic of the chosen test, e.g. "release[1, 0]" or "linear score".
    deterministic : tuple of str
        Release entries that took one value in all ``n_trials`` releases of G0 and another in
        all of G1: a copy of the input (a leak, at a finite epsilon), or a rate of change too
        small to show in ``n_trials`` releases (edgeFlip at a large epsilon).
    detectable_epsilon : float or None
        The audit's power (``audit_power``): the true epsilon from which a leak of
        randomized response's kind on the secret dyad is reported as a violation with
        probability 0.9 by an audit of this size; a smaller leak usually passes. inf when
        even a copy of the dyad would pass; None without a claim.
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
    statistic: str
    deterministic: tuple
    detectable_epsilon: float | None = None

    @property
    def violation(self) -> bool:
        """True when the audit proves (at ``confidence``) that the claim is false."""
        return self.epsilon_claimed is not None and self.epsilon_lower > self.epsilon_claimed

    def describe(self) -> str:
        text = (f"With {self.n_trials} releases of each network, the best threshold test "
                f"({self.region}: rates {self.rates[0]:.4g} under G0, {self.rates[1]:.4g} "
                f"under G1) shows epsilon >= {self.epsilon_lower:.4g} at confidence "
                f"{self.confidence:g} (point estimate {self.epsilon_estimate:.4g}).")
        if self.deterministic:
            shown = ", ".join(self.deterministic[:4])
            more = (f" and {len(self.deterministic) - 4} more"
                    if len(self.deterministic) > 4 else "")
            text += (f" Never varied: {shown}{more} took one value in all {self.n_trials} "
                     "releases of G0 and another in all of G1 (a copy of the input, or a "
                     f"rate of change below about 1/{self.n_trials}).")
        if self.epsilon_claimed is None:
            return text
        text += f" Claimed epsilon: {self.epsilon_claimed:g}."
        if self.violation:
            return text + " The claim is violated: the mechanism leaks more than it promises."
        text += " Consistent with the claim (an audit can refute a claim, never prove it)"
        if self.detectable_epsilon in (None, np.inf):
            return text + "."
        return text + (f"; this audit catches a leak with probability {_POWER:g} only from a "
                       f"true epsilon of {self.detectable_epsilon:.3g} (more trials catch "
                       "smaller leaks).")


def _matrix(G):
    # A packed graph is compared and released as the sparse matrix it stores.
    return G.tocsr() if isinstance(G, PackedAdjacency) else G


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


# ----------------------------------------------------------------------------- the coins

def _is_fixed_seed(value):
    if isinstance(value, (bool, np.bool_)):
        return False
    return isinstance(value, (numbers.Integral, np.random.Generator, np.random.SeedSequence,
                              np.random.BitGenerator, np.random.RandomState))


def _coin_parameters(mechanism):
    """The ``random_state`` parameters of ``mechanism`` (at any depth) that are None.

    Raises the audit's ValueError for a fixed seed.
    """
    params = mechanism.get_params(deep=True)
    keys = [k for k in params if k == "random_state" or k.endswith("__random_state")]
    for key in keys:
        value = params[key]
        if _is_fixed_seed(value):
            shown = (short_repr(value) if isinstance(value, numbers.Integral)
                     else f"a {type(value).__name__}")
            raise ValueError(
                f"audit: the mechanism has a fixed seed ({key}={shown}): its releases of G0 "
                "and G1 use the same coins (with edgeFlip they differ exactly at the secret "
                "dyad), so it is not the randomized mechanism its guarantee describes, and "
                "re-seeding it would audit another one; audit it with random_state=None "
                "(the audit then supplies fresh coins to every release, reproducibly from "
                "its own random_state) or 'secure'."
            )
    return [k for k in keys if params[k] is None]


def _fitted_per_network(mechanism, graphs, random_state):
    """One fitted clone per network, each drawing fresh coins on every transform call.

    A mechanism whose ``random_state`` is None draws fresh coins on every call. With the
    audit's ``random_state`` None it is run exactly so; with "secure" it draws from the
    operating system; with a seed, each clone gets a Generator of the audit's own stream,
    from which a tdadp mechanism draws a new seed on every call: releases with the same law,
    and an audit that can be reproduced.
    """
    keys = _coin_parameters(mechanism)
    if random_state is None or isinstance(random_state, str):
        check_param(random_state, [None, "secure_random_state"], "random_state", "audit")
        sources = [random_state, random_state]
    else:
        sources = item_streams(random_state, [0, 1], stage_tag("audit"))
    fitted = []
    for G, source in zip(graphs, sources):
        m = clone(mechanism)
        if keys:
            m.set_params(**dict.fromkeys(keys, source))
        fitted.append(m.fit(G))
    return fitted


# ------------------------------------------------------------------------------ releases

def _as_features(release, what):
    if sp.issparse(release):
        release = release.toarray()
    try:
        x = np.asarray(release, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{what} is not numeric ({type(release).__name__}): pass a "
                         "statistic mapping a release to a number.") from None
    if not np.isfinite(x).all():
        raise ValueError(f"{what} has NaN or infinite values.")
    return x


class _NodeOrder:
    """Where each node stands in a graph release's node order, as n more features.

    The reference order is the first release's (of G0: its trials start first), so a
    mechanism that names the nodes of its releases differently from its input is read as it
    names them. A release without node names lists its nodes in the default order.
    """

    def __init__(self, n_nodes):
        self.n_nodes = n_nodes
        self.reference = None

    def positions(self, release):
        nodes = graph_nodes(release)
        nodes = list(range(self.n_nodes)) if nodes is None else list(nodes)
        if self.reference is None:
            self.reference = nodes
        try:
            where = {name: p for p, name in enumerate(nodes)}
        except TypeError:  # unhashable names: compare by position only
            where = {}
        return np.array([where.get(name, -1) if len(nodes) == self.n_nodes else -1
                         for name in self.reference], dtype=float)


def _full_trials(mechanism, G, n_trials, statistic, shapes, order):
    """Blocks of feature rows: one release of ``G`` per transform call, one row each.

    The shape of the first release is appended to ``shapes``. A graph release (n x n) is
    followed by the n positions of its node order (see :class:`_NodeOrder`).
    """
    shape = None
    graph = (order.n_nodes, order.n_nodes)
    for _ in range(n_trials):
        release = mechanism.transform(G)
        if statistic is not None:
            x = _as_features(statistic(release), "the statistic's value")
            if x.size != 1:
                raise ValueError(f"the statistic must return one number per release, got "
                                 f"shape {x.shape}.")
        else:
            x = _as_features(release, "the mechanism's release")
        if shape is None:
            shape = x.shape
            shapes.append(shape)
        elif x.shape != shape:
            raise ValueError(f"the mechanism's releases change shape ({shape} then "
                             f"{x.shape}): pass a statistic mapping a release to a number.")
        row = x.reshape(1, -1)
        if statistic is None and shape == graph:
            row = np.concatenate([row, order.positions(release)[None]], axis=1)
        yield row


def _copy_trials(mechanism, value, n_trials):
    """Blocks of (upper, lower) rows of the dyad's copies in auxiliary graphs (fast path)."""
    done = 0
    while done < n_trials:
        m = min(_COPIES_PER_GRAPH, n_trials - done)
        H = np.zeros((2 * m, 2 * m), dtype=np.uint8)
        idx = np.arange(m)
        H[2 * idx, 2 * idx + 1] = H[2 * idx + 1, 2 * idx] = value
        released = _as_features(mechanism.transform(H), "the mechanism's release")
        yield np.stack([released[2 * idx, 2 * idx + 1], released[2 * idx + 1, 2 * idx]],
                       axis=1)
        done += m


class _Trials:
    """A stream of feature rows, consumed phase by phase in blocks.

    Keeps the smallest and largest value each feature took over every row consumed.
    """

    def __init__(self, blocks):
        self._blocks = blocks
        self._rest = np.empty((0, 0))
        self.low = self.high = None

    def first(self):
        """The first row (consumed), as a block of one row."""
        return np.concatenate(list(self.take(1)))

    def take(self, k):
        while k > 0:
            if self._rest.shape[0] == 0:
                self._rest = next(self._blocks)
            block, self._rest = self._rest[:k], self._rest[k:]
            k -= block.shape[0]
            low, high = block.min(axis=0), block.max(axis=0)
            if self.low is not None:
                low, high = np.minimum(self.low, low), np.maximum(self.high, high)
            self.low, self.high = low, high
            yield block


# ------------------------------------------------------------------------- the statistics

def _feature_names(shape, n_nodes, dyad, copies):
    if copies:
        i, j = dyad
        return [f"release[{i}, {j}]", f"release[{j}, {i}]"]
    if len(shape) == 0 or (len(shape) == 1 and shape[0] == 1):
        return ["release"]
    if shape == (n_nodes, n_nodes):
        return ([f"release[{u}, {v}]" for u in range(n_nodes) for v in range(n_nodes)]
                + [f"position of node {u} in the release's node order"
                   for u in range(n_nodes)])
    return [f"release[{', '.join(map(str, np.unravel_index(f, shape)))}]"
            for f in range(int(np.prod(shape)))]


class _Screen:
    """Per-entry moments and the mirror pair's outcomes, accumulated over screening rows."""

    def __init__(self, n_features, pair):
        self.pair = pair
        self.count = np.zeros(2)
        self.total = np.zeros((2, n_features))
        self.squares = np.zeros((2, n_features))
        self.low = np.full((2, n_features), np.inf)
        self.high = np.full((2, n_features), -np.inf)
        self.outcomes = {}

    def add(self, s, rows):
        self.count[s] += rows.shape[0]
        with np.errstate(over="ignore"):
            self.total[s] += rows.sum(axis=0)
            self.squares[s] += (rows ** 2).sum(axis=0)
        self.low[s] = np.minimum(self.low[s], rows.min(axis=0))
        self.high[s] = np.maximum(self.high[s], rows.max(axis=0))
        if self.pair is not None:
            for key in map(tuple, rows[:, list(self.pair)]):
                self.outcomes.setdefault(key, [0, 0])[s] += 1

    def candidates(self, names, delta):
        """(name, function of rows) for every statistic worth testing, most natural first."""
        out = []
        if self.pair is not None:
            out.append(self._pair_candidate(names))
            out += [(names[f], _entry(f)) for f in self.pair]
        if len(names) == 1:
            return out or [(names[0], _entry(0))]
        h0, h1 = self.count
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            mean = self.total / self.count[:, None]
            var = np.maximum(self.squares / self.count[:, None] - mean ** 2, 0.0)
            diff = mean[1] - mean[0]
            se = np.sqrt(var[0] / h0 + var[1] / h1)
            z = np.where(se > 0, np.abs(diff) / np.where(se > 0, se, 1),
                         np.where(diff != 0, np.inf, 0.0))
            weights = diff / (var[0] + var[1] + 1.0 / min(h0, h1))
        z = np.nan_to_num(z, nan=0.0)  # moments of entries beyond 1e154 overflow
        # Entries with 0/1 values only: their counts are their whole law, so rank them by the
        # bound the screening trials themselves give (rare but one-sided events rank high).
        binary = (self.low >= 0).all(axis=0) & (self.high <= 1).all(axis=0) & (
            self.squares == self.total).all(axis=0)
        score = np.full(len(names), -np.inf)
        if binary.any():
            k0, k1 = self.total[0, binary], self.total[1, binary]
            score[binary] = np.max([_bound(k0, h0, k1, h1, delta),
                                    _bound(k1, h1, k0, h0, delta),
                                    _bound(h0 - k0, h0, h1 - k1, h1, delta),
                                    _bound(h1 - k1, h1, h0 - k0, h0, delta)], axis=0)
        chosen = set(self.pair) if self.pair is not None else set()
        for ranking, floor in ((score, -np.inf), (z, 0.0)):
            for f in np.argsort(-ranking, kind="stable")[:_SCREENED]:
                if ranking[f] > floor and int(f) not in chosen:
                    chosen.add(int(f))
                    out.append((names[f], _entry(int(f))))
        if np.isfinite(weights).all() and np.count_nonzero(weights) > 1:
            out.append(("linear score", lambda rows, w=weights: rows @ w))
        return out

    def _pair_candidate(self, names):
        # The joint outcome of the two mirror entries, scored by its (smoothed) log-likelihood
        # ratio on the screening trials: thresholds on the score are the Neyman–Pearson
        # regions of the pair, e.g. "(i, j) and (j, i) both 1" for a copied lower triangle.
        h0, h1 = self.count
        ratio = {key: float(np.log((c1 + 0.5) / (h1 + 1)) - np.log((c0 + 0.5) / (h0 + 1)))
                 for key, (c0, c1) in self.outcomes.items()}
        a, b = self.pair

        def score(rows):
            return np.array([ratio.get((x, y), 0.0) for x, y in rows[:, [a, b]]])
        return (f"likelihood ratio of ({names[a]}, {names[b]})", score)


def _never_varied(trials):
    """Features constant over every release of each network, with different constants."""
    t0, t1 = trials
    constant = (t0.low == t0.high) & (t1.low == t1.high)
    return np.flatnonzero(constant & (t0.low != t1.low))


def _entry(f):
    return lambda rows: rows[:, f]


def _equals(G, n_nodes):
    """The statistic "the release is G", as 0 or 1 (read from the matrix entries only)."""
    flat = (G.toarray() if sp.issparse(G) else np.asarray(G)).astype(float).ravel()
    return lambda rows: (rows[:, :n_nodes * n_nodes] == flat).all(axis=1).astype(float)


def _apply(candidates, rows):
    return np.column_stack([function(rows) for _, function in candidates])


# ------------------------------------------------------------------------------ the tests

# One-sided Clopper–Pearson bounds failing with probability a: the beta quantiles of
# scipy.stats.beta.ppf, from its special function (without per-call checks: the power's
# search calls them often).

def _cp_lower(k, n, a):
    k = np.asarray(k, dtype=float)
    return np.where(k > 0, betaincinv(np.maximum(k, 1), n - k + 1, a), 0.0)


def _cp_upper(k, n, a):
    k = np.asarray(k, dtype=float)
    return np.where(k < n, betaincinv(k + 1, np.maximum(n - k, 1), 1 - a), 1.0)


def _log_ratio(num, den):
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(den > 0, np.log(np.maximum(num, 0) / np.where(den > 0, den, 1)),
                        np.where(num > 0, np.inf, -np.inf))


def _bound(k_num, n_num, k_den, n_den, delta, share=0.5):
    """log(lower P_num(R) / upper P_den(R)): a lower bound on epsilon failing w.p. <= delta,
    ``share`` of ``delta`` spent on the lower bound and the rest on the upper one."""
    return _log_ratio(_cp_lower(k_num, n_num, delta * share),
                      _cp_upper(k_den, n_den, delta * (1 - share)))


# Splits of the test's failure probability between its two bounds, the even one first (it
# wins ties). A large epsilon is bounded by a rare event on one side: giving its bound 98%
# of delta adds about 0.2 (eps 10 claiming 5 is caught in 500 evaluated releases).
_SHARES = (0.5, 0.02, 0.98, 0.2, 0.8)


def _thresholds(values, n_thresholds):
    distinct = np.unique(values)
    if distinct.size <= n_thresholds:
        return distinct
    return np.unique(np.quantile(values, np.linspace(0, 1, n_thresholds)))


def _select(v0, v1, n_thresholds, delta, n_eval):
    """The (column, threshold, side, direction) whose bound, projected to ``n_eval``
    evaluation trials at the rates seen here, is the largest, and the share of ``delta`` its
    lower bound gets.

    Projecting matters for rare events: 9 copies of the input in 9,000 releases of G0 and
    none of G1 bound little on 9,000 trials but enough on 18,000, while a common event's
    bound barely moves. Ties go to the earliest column (the candidates come most natural
    first). The test is chosen at the even split, then its split, so that the splits add
    no noisy candidates to the choice (a maximum over more of them overfits).
    """
    columns = []
    for c in range(v0.shape[1]):
        ts = _thresholds(np.concatenate([v0[:, c], v1[:, c]]), n_thresholds)
        columns.append(np.pad(ts, (0, n_thresholds - ts.size), mode="edge"))
    T = np.array(columns)                                   # (columns, thresholds)

    def counts(v):
        above = (v[:, :, None] >= T[None]).sum(axis=0)
        below = (v[:, :, None] <= T[None]).sum(axis=0)
        return np.stack([above, below], axis=1)             # (columns, sides, thresholds)
    k0, k1 = counts(v0) * (n_eval / v0.shape[0]), counts(v1) * (n_eval / v1.shape[0])
    bounds = np.stack([_bound(k0, n_eval, k1, n_eval, delta),
                       _bound(k1, n_eval, k0, n_eval, delta)],
                      axis=2)                               # (columns, sides, dirs, thr.)
    c, side, direction, t = np.unravel_index(int(np.argmax(bounds)), bounds.shape)
    num, den = (k0, k1)[direction][c, side, t], (k1, k0)[direction][c, side, t]
    share = _SHARES[int(np.argmax([_bound(num, n_eval, den, n_eval, delta, a)
                                   for a in _SHARES]))]
    return int(c), float(T[c, t]), (">=", "<=")[side], int(direction), share


def _in_region(values, t, side):
    return values >= t if side == ">=" else values <= t


# ------------------------------------------------------------------------------ the power

def _phases(n_trials, n_features):
    """Releases of each network that screen, select and evaluate: a quarter, then halves of
    the rest (a single number, with nothing to screen: one, then halves). With a quarter
    only to select, a seeded audit of eps 2 claiming 1 chose a poor test and passed."""
    screened = 1 if n_features == 1 else max(1, n_trials // 4)
    selected = (n_trials - screened) // 2
    return screened, selected, n_trials - screened - selected


def _binomial_window(n, p):
    """The counts of Binomial(n, p) holding all but about 1e-12 of its mass, and their pmf."""
    spread = 8 * np.sqrt(n * p * (1 - p)) + 12
    k = np.arange(max(0, int(n * p - spread)), min(n, int(n * p + spread)) + 1)
    return k, binom.pmf(k, n, p)


def audit_power(epsilon, epsilon_claimed, n_trials, confidence=0.95):
    """Probability that :func:`audit` reports a violation of ``epsilon_claimed`` by a leak of
    ``epsilon`` on the secret dyad: each release shows it truthfully with probability
    ``e^epsilon / (1 + e^epsilon)`` (edgeFlip at ``epsilon``).

    Exact (binomial sums) for the audit's best test, which reads the dyad on the evaluated
    three eighths of the trials and splits its failure probability as its selection would
    at the expected rates; seeded audits agree (see :func:`audit`).

    Parameters
    ----------
    epsilon : float in [0, inf]
        The true privacy loss of the leak.
    epsilon_claimed : float in [0, inf)
    n_trials : int >= 4
        Releases per network, as given to :func:`audit`.
    confidence : float in (0, 1), default=0.95

    Returns
    -------
    float

    Examples
    --------
    >>> from tdadp.privacy._audit import audit_power
    >>> round(audit_power(5.7, 5.0, 2000), 2), round(audit_power(5.7, 5.0, 16_000), 2)
    (0.29, 0.98)
    """
    for name, value, rules in (
            ("epsilon", epsilon, ["epsilon"]),
            ("epsilon_claimed", epsilon_claimed, [Interval("real", 0, np.inf, "left")]),
            ("n_trials", n_trials, [Interval("int", 4, None, "left")]),
            ("confidence", confidence, [Interval("real", 0, 1, "neither")])):
        check_param(value, rules, name, "audit_power")
    return _power(float(epsilon), float(epsilon_claimed), _phases(int(n_trials), 2)[2],
                  float(confidence))


def _power(epsilon, epsilon_claimed, n, confidence):
    """``audit_power`` of a test evaluated on ``n`` releases of each network."""
    delta = 1.0 - confidence
    q = float(expit(-float(epsilon)))  # the rate at which the release lies about the dyad
    share = _SHARES[int(np.argmax([_bound(n * (1 - q), n, n * q, n, delta, a)
                                   for a in _SHARES]))]
    k0, pmf0 = _binomial_window(n, q)           # releases of G0 showing G1's dyad
    k1, pmf1 = _binomial_window(n, 1 - q)       # releases of G1 showing it
    lower, upper = _cp_lower(k1, n, delta * share), _cp_upper(k0, n, delta * (1 - share))
    # The bound exceeds the claim when lower(k1) > upper(k0) e^claim; lower grows with k1.
    first = np.searchsorted(lower, upper * np.exp(epsilon_claimed), side="right")
    tail = np.concatenate([np.cumsum(pmf1[::-1])[::-1], [0.0]])
    return float(min(1.0, pmf0 @ tail[first]))


@functools.lru_cache(maxsize=64)  # audits of one size and claim share it
def _detectable_epsilon(claimed, n, confidence):
    """The true epsilon from which the power of a test evaluated on ``n`` releases reaches
    _POWER, within 0.01 above it (inf: never; None: no finite claim)."""
    if claimed is None or claimed == np.inf:
        return None
    if _power(np.inf, claimed, n, confidence) < _POWER:
        return float(np.inf)
    low, high = claimed, claimed + 1.0
    while _power(high, claimed, n, confidence) < _POWER:
        low, high = high, high + 2 * (high - low)
    while high - low > 0.01:
        mid = (low + high) / 2
        low, high = (low, mid) if _power(mid, claimed, n, confidence) >= _POWER else (mid, high)
    return high


# ---------------------------------------------------------------------------------- audit

def audit(mechanism, G0, G1, n_trials=2000, statistic=None, confidence=0.95,
          random_state=None, *, n_thresholds=16, dyad_independent=False):
    """Lower-bound a mechanism's privacy loss by attacking it on two neighbouring networks.

    The mechanism releases ``G0`` and ``G1`` ``n_trials`` times each, every release by its
    own ``transform`` call. A threshold test on a statistic of the release tries to tell them
    apart; Clopper–Pearson bounds on the test's rates give a lower bound
    log(lower P1(R) / upper P0(R)) on epsilon that exceeds the true privacy loss with
    probability at most ``1 - confidence``.

    The attack (``statistic=None``) sees the whole release and is learned on held-out
    trials: a quarter screens every entry, three eighths pick the best of the candidate
    tests, and the last three eighths evaluate that one test. The module documentation lists the
    candidates and what the audit can and cannot detect.

    **How many trials.** A leak that changes an entry's law a lot shows in a few hundred
    releases (a copied mirror entry, a node order that depends on the secret: 400). A rare
    event needs enough releases for it to happen: a mechanism that returns its input with
    probability p is caught once about 10 / p releases of each network are evaluated, that is
    ``n_trials`` of about 100 / p in all. Measured on 12-node graphs at eps = 1 (an honest
    release equals its input with probability 1e-9 there): p = 1e-2 was caught in 10 of 10
    seeded audits at ``n_trials=10_000`` (7 of 10 at 6,000); p = 1e-3 in 3 of 3 at
    ``n_trials=100_000``. On tiny graphs an honest release often equals its input, and such
    a copy changes the privacy loss too little to show.

    **A small excess over the claim** needs more trials, the more at a large epsilon (the
    release rarely lies about the dyad); ``detectable_epsilon`` in the result says from which
    true epsilon a leak is caught with probability 0.9 (``audit_power``). edgeFlip at
    half its claimed rate (true epsilon ``log(1 + 2 e^eps)``), seeded audits (dyad copies):
    claiming 1 (true 1.86), caught in 20 of 20 at ``n_trials=400`` (power 1.00); claiming 3
    (3.72), 19 of 20 at 2,000 (0.96); claiming 5 (5.70), 7 of 20 at 2,000, 28 of 60 at
    4,000, 16 of 20 at 10,000 and 19 of 20 at 16,000 (power 0.29, 0.44, 0.87, 0.98). The
    default 2,000 trials catch a claim of 5 with probability 0.9 only from a true 7.3.

    Parameters
    ----------
    mechanism : estimator
        A mechanism with ``fit`` and ``transform`` (EdgeFlip, LaplaceFlip, LaplaceEdgeCount,
        ...) whose ``random_state`` is None or "secure"; the ``guarantee_`` it states when
        fitted gives the claimed epsilon. It is cloned, never modified.
    G0, G1 : adjacency matrices differing in exactly one dyad
    n_trials : int >= 4, default=2000
        Releases per network.
    statistic : callable, optional
        Maps a release to a number; then the first half of the trials chooses its threshold
        and the second half evaluates it. Default: the whole-release attack above (a scalar
        release is its own statistic).
    confidence : float in (0, 1), default=0.95
    random_state : None, int, Generator, SeedSequence or "secure"
        The audit's coins. A mechanism whose ``random_state`` is None runs as it is with
        None, draws every coin from the operating system with "secure", and with a seed
        draws fresh coins for every release from the audit's stream, which makes the audit
        reproducible. A mechanism whose ``random_state`` is "secure" keeps it.
    n_thresholds : int, default=16
        Thresholds tried per statistic: every value it takes when it takes at most this
        many, else that many quantiles (the extremes included).
    dyad_independent : bool, default=False
        True takes the fast path for a mechanism whose ``guarantee_`` declares
        ``dyad_independent=True``: it releases auxiliary graphs of ``512`` disjoint copies
        of the differing dyad and reads both mirror entries of each copy, so the cost does
        not grow with the network. It **trusts** the declaration, which it cannot check:
        that copies in one graph are independent trials and that nothing outside a dyad's two
        entries depends on it. The default runs the mechanism on G0 and G1 themselves.

    Returns
    -------
    AuditResult
        ``epsilon_lower``, ``epsilon_claimed``, ``n_trials``, ``confidence``, the chosen
        test, the entries found deterministic in the input, and
        :meth:`~AuditResult.describe`.

    Raises
    ------
    ValueError
        For a mechanism with a fixed seed (see the module documentation), parameters out of
        range, graphs that are not neighbours, releases or statistic values that are not
        finite numbers, or ``dyad_independent=True`` for a mechanism that does not declare it
        or with a ``statistic``.

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

    A fixed seed is refused: it would release G0 and G1 with the same coins.

    >>> audit(EdgeFlip(1.0, random_state=0), G0, G1)
    Traceback (most recent call last):
    ...
    ValueError: audit: the mechanism has a fixed seed (random_state=0): ...
    """
    for name, value, rules in (
            ("n_trials", n_trials, [Interval("int", 4, None, "left")]),
            ("confidence", confidence, [Interval("real", 0, 1, "neither")]),
            ("n_thresholds", n_thresholds, [Interval("int", 2, None, "left")]),
            ("dyad_independent", dyad_independent, ["boolean"]),
            ("statistic", statistic, [None, "callable"])):
        check_param(value, rules, name, "audit")
    n_trials, n_thresholds = int(n_trials), int(n_thresholds)
    if not all(hasattr(mechanism, a) for a in ("fit", "transform", "get_params")):
        raise ValueError("mechanism must be an estimator with get_params, fit and transform.")
    G0 = _matrix(one_graph(G0, "G0"))
    G1 = _matrix(one_graph(G1, "G1"))
    i, j = _differing_dyad(G0, G1)
    stated = _stated_guarantee(mechanism)
    claimed = None if stated is None else stated.epsilon
    delta = 1.0 - float(confidence)

    if dyad_independent:
        if statistic is not None:
            raise ValueError("dyad_independent=True releases auxiliary graphs, not G0 and "
                             "G1: it takes no statistic.")
        if not getattr(stated, "dyad_independent", False):
            raise ValueError("dyad_independent=True trusts the mechanism's declaration, but "
                             "its guarantee_ does not declare dyad_independent=True.")
        H = np.zeros((2, 2), dtype=np.uint8)
        fitted = _fitted_per_network(mechanism, [H, H], random_state)
        trials = [_Trials(_copy_trials(m, int(G[i, j]), n_trials))
                  for m, G in zip(fitted, (G0, G1))]
        method = "dyad copies (trusted)"
    else:
        fitted = _fitted_per_network(mechanism, [G0, G1], random_state)
        shapes = [[], []]
        order = _NodeOrder(G0.shape[0])
        trials = [_Trials(_full_trials(m, G, n_trials, statistic, shape, order))
                  for m, G, shape in zip(fitted, (G0, G1), shapes)]
        method = "full mechanism"
    first = [t.first() for t in trials]
    if first[0].shape != first[1].shape:
        raise ValueError(f"the releases of G0 and G1 differ in size ({first[0].shape[1]} "
                         f"and {first[1].shape[1]} numbers): pass a statistic mapping a "
                         "release to a number.")

    n_nodes = G0.shape[0]
    n_features = first[0].shape[1]
    graph = False
    if statistic is not None:
        names, pair = ["statistic"], None
    elif dyad_independent:
        names, pair = _feature_names((2,), n_nodes, (i, j), copies=True), (0, 1)
    else:
        names = _feature_names(shapes[0][0], n_nodes, (i, j), copies=False)
        graph = shapes[0][0] == (n_nodes, n_nodes)
        pair = (i * n_nodes + j, j * n_nodes + i) if graph else None

    # Screening: a quarter of the trials (one, for a single number: nothing to screen).
    screened, selected, evaluated = _phases(n_trials, n_features)
    screen = _Screen(n_features, pair)
    for s, t in enumerate(trials):
        screen.add(s, first[s])
        for block in t.take(screened - 1):
            screen.add(s, block)
    candidates = screen.candidates(names, delta)
    if statistic is None and not dyad_independent and graph:
        # Rare copies of the input: too rare to rank high in screening, certain when tested.
        candidates += [("release == G0", _equals(G0, n_nodes)),
                       ("release == G1", _equals(G1, n_nodes))]

    # Selection: half of the rest (three eighths of the trials) picks the test.
    values = [np.concatenate([_apply(candidates, block) for block in t.take(selected)])
              for t in trials]
    c, threshold, side, direction, share = _select(values[0], values[1], n_thresholds,
                                                   delta, evaluated)
    name, function = candidates[c]

    # Evaluation: the rest, one test.
    hits = [sum(int(_in_region(function(block), threshold, side).sum())
                for block in t.take(evaluated)) for t in trials]
    num, den = (1, 0) if direction == 1 else (0, 1)
    lower = float(_bound(hits[num], evaluated, hits[den], evaluated, delta, share))
    rates = (hits[0] / evaluated, hits[1] / evaluated)
    estimate = float(_log_ratio(rates[num], rates[den]))
    return AuditResult(
        epsilon_lower=max(0.0, lower),
        epsilon_claimed=claimed,
        epsilon_estimate=estimate,
        n_trials=n_trials,
        confidence=float(confidence),
        n_tests=1,
        threshold=float(threshold),
        region=f"{name} {side} {threshold:g}",
        rates=rates,
        method=method,
        statistic=name,
        deterministic=tuple(names[f] for f in _never_varied(trials)),
        detectable_epsilon=_detectable_epsilon(claimed, evaluated, float(confidence)),
    )
