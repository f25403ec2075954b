"""Sampling exponential random graph models: a Metropolis-Hastings chain on one graph.

:class:`ERGMChain` holds the state the compiled steps of :mod:`tdadp.ergm._kernels`
update in place (adjacency, degrees, neighbour and edge lists, shared partners), so a chain can
be advanced many times (the exchange algorithm draws an auxiliary graph at every iteration)
without rebuilding it. It can also weigh each graph by the likelihood of released data
(an :class:`Observation`): the latent-network step of private Bayesian inference.

:func:`sample_ergm` and :class:`ERGM` draw graphs from an ERGM for given parameters.

Memory: the chain keeps five n x n arrays (17 bytes a dyad: 17 MB at n = 1,000, 1.7 GB at
n = 10,000); it checks up front that they fit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin

from ..graphs._packed import PackedAdjacency
from ..io._input import graph_batch, one_graph
from ..utils._batch import join_batch, map_items
from ..utils._memory import check_memory
from ..utils._params import Interval, ParamsMixin
from ..utils._random import check_random_state, item_streams, stage_tag
from ..utils._validation import check_adjacency
from ._kernels import (
    OBS_CAUCHY,
    OBS_FLIP,
    OBS_LAPLACE,
    OBS_NONE,
    OBS_SMOOTH_CAUCHY,
    dyad_design,
    obs_loglik,
    run_chain,
    smooth_factor,
)
from ._terms import ERGMTerms, ergm_statistics, parse_terms

__all__ = [
    "Observation",
    "ERGMChain",
    "sample_ergm",
    "ERGM",
    "default_steps",
    "as_network",
]

_TAG = stage_tag("ERGM")
_BYTES_PER_DYAD = 17


def as_network(X, name="A"):
    """One graph under the package's input contract, as a dense array or a sparse matrix.

    Every container :func:`tdadp.io.graph_batch` takes (dense arrays and nested lists, scipy
    sparse matrices and arrays of any format, networkx graphs, edge lists read by
    :func:`tdadp.io.read_edgelist`, packed adjacencies, unpacked here to CSR), checked by
    the same rules (a simple graph: symmetric, binary, zero diagonal); a batch is refused
    (messages call the graph ``name``).
    """
    A = one_graph(X, name)
    return A.tocsr() if isinstance(A, PackedAdjacency) else A


@dataclass(frozen=True)
class Observation:
    """How released data depend on the (latent) graph: the likelihood an inference weighs by.

    Build one with :meth:`laplace`, :meth:`cauchy`, :meth:`smooth_cauchy` or :meth:`flip`.

    Attributes
    ----------
    kind : {"none", "laplace", "cauchy", "smooth_cauchy", "flip"}
    values : ndarray or None
        Released statistics (one per statistic of the terms).
    scales : ndarray or None
        Noise scale of each released statistic ("laplace", "cauchy"; 0 or inf: not released).
    sensitivities : ndarray or None
        "smooth_cauchy": the Cauchy scale of statistic t is ``sensitivities[t] * S(x)`` with
        ``S(x) = max_s e^(-beta s) (1 + s + #{w : deg_x(w) in [k - s, k + 1 + s]})`` (the
        smooth bound of naive degree truncation at ``k``), i.e. ``sensitivities`` already
        divided by the noise's alpha.
    max_degree, beta : int, float
        "smooth_cauchy": the truncation degree k and the smoothness beta.
    release : ndarray of uint8 or None
        "flip": the released adjacency matrix.
    flip_probability : float or None
        "flip": the rate at which each dyad was flipped.
    """

    kind: str = "none"
    values: np.ndarray | None = None
    scales: np.ndarray | None = None
    sensitivities: np.ndarray | None = None
    max_degree: int = -1
    beta: float = 0.0
    release: np.ndarray | None = None
    flip_probability: float | None = None

    @classmethod
    def laplace(cls, values, scales):
        """Statistics released with independent Laplace noise of the given scales."""
        v, s = _pair(values, scales, "scales")
        return cls("laplace", values=v, scales=s)

    @classmethod
    def cauchy(cls, values, scales):
        """Statistics released with independent Cauchy noise of fixed scales."""
        v, s = _pair(values, scales, "scales")
        return cls("cauchy", values=v, scales=s)

    @classmethod
    def smooth_cauchy(cls, values, sensitivities, max_degree, beta):
        """Statistics of the truncated graph plus Cauchy noise of data-dependent scale."""
        v, s = _pair(values, sensitivities, "sensitivities")
        if int(max_degree) < 0 or not beta > 0:
            raise ValueError("smooth_cauchy needs max_degree >= 0 and beta > 0.")
        return cls("smooth_cauchy", values=v, sensitivities=s, max_degree=int(max_degree),
                   beta=float(beta))

    @classmethod
    def flip(cls, release, flip_probability):
        """An edgeFlip (randomized response) release of the graph at the given flip rate."""
        Z = check_adjacency(release, "release")
        Z = Z.toarray() if sp.issparse(Z) else np.asarray(Z)
        pi = float(flip_probability)
        if not 0.0 < pi < 0.5:
            raise ValueError(f"flip_probability must be in (0, 1/2), got {pi!r}: at 0 the "
                             "release is the graph, at 1/2 it carries nothing.")
        return cls("flip", release=np.ascontiguousarray(Z, dtype=np.uint8),
                   flip_probability=pi)


def _pair(values, scales, name):
    v = np.asarray(values, dtype=np.float64).ravel()
    s = np.asarray(scales, dtype=np.float64).ravel()
    if v.shape != s.shape:
        raise ValueError(f"{v.size} released values but {s.size} {name}.")
    if not np.isfinite(v).all():
        raise ValueError("released values must be finite.")
    if np.isnan(s).any() or (s < 0).any():
        raise ValueError(f"{name} must be non-negative (0 or inf: statistic not released).")
    s = np.where(np.isinf(s), 0.0, s)
    return v, s


def default_steps(n_nodes):
    """Default number of MH steps of a draw: 20 per dyad (at least 10,000)."""
    return max(10_000, 10 * n_nodes * (n_nodes - 1))


def _powers(terms, n):
    """r^L for L = 0..n of each term (r = 1 - 1/decay; 1.0 rows for other terms)."""
    codes, decays, _ = terms.codes()
    out = np.ones((len(codes), n + 2))
    L = np.arange(n + 2, dtype=np.float64)
    for t, d in enumerate(decays):
        r = 1.0 - 1.0 / d
        out[t] = np.power(r, L) if r > 0 else (L == 0).astype(float)
    return out


class ERGMChain:
    """The state of one MH chain over graphs on a fixed node set, advanced in place.

    Parameters
    ----------
    A : graph on n nodes
        The starting graph: an adjacency matrix (dense or sparse, binary, symmetric, zero
        diagonal), a networkx graph or an edge list (see :func:`as_network`).
    terms : ERGMTerms or sequence of terms
        See :func:`tdadp.ergm.parse_terms`.
    labels : array-like of shape (n,), optional
        Node labels, when ``terms`` is not parsed yet and has labelled terms.
    max_degree : int, optional
        Restrict the chain to graphs of maximum degree at most ``max_degree`` (the starting
        graph must be in that class).
    observation : Observation, optional
        Released data whose likelihood given the graph multiplies the ERGM weight.

    Attributes
    ----------
    statistics : ndarray (p,)
        ``s(x)`` of the current graph (kept up to date incrementally).
    n_edges : int
    """

    def __init__(self, A, terms, labels=None, max_degree=None, observation=None):
        A = as_network(A)
        n = A.shape[0]
        if n < 2:
            raise ValueError("an ERGM chain needs at least 2 nodes.")
        check_memory(_BYTES_PER_DYAD * n * n, f"an ERGM chain on {n} nodes",
                     " (it keeps five n x n arrays, 17 bytes a dyad)")
        self.terms = terms if isinstance(terms, ERGMTerms) else \
            parse_terms(terms, labels, n_nodes=n)
        if self.terms.labels is not None and self.terms.labels.shape[0] != n:
            raise ValueError(f"the terms' labels cover {self.terms.labels.shape[0]} nodes, the "
                             f"graph has {n}.")
        dense = np.ascontiguousarray(A.toarray() if sp.issparse(A) else A, dtype=np.uint8)
        deg = dense.sum(axis=1, dtype=np.int64)
        self.max_degree = -1 if max_degree is None else int(max_degree)
        if max_degree is not None and deg.max(initial=0) > self.max_degree:
            raise ValueError(f"the starting graph has maximum degree {deg.max()}, above "
                             f"max_degree={max_degree}: start inside the class.")
        self._use_L = any(t in ("altktriangles", "altktwopaths") for t in self.terms.names)
        self.adj = dense.copy()
        self.deg = deg
        self.L = (np.rint(dense.astype(np.float64) @ dense).astype(np.int32) if self._use_L
                  else np.zeros((1, 1), dtype=np.int32))
        if self._use_L:
            np.fill_diagonal(self.L, 0)
        self.nbr = np.zeros((n, n), dtype=np.int32)
        self.pos = np.zeros((n, n), dtype=np.int32)
        for i in range(n):
            row = np.flatnonzero(dense[i]).astype(np.int32)
            self.nbr[i, :row.size] = row
            self.pos[i, row] = np.arange(row.size, dtype=np.int32)
        iu, ju = np.nonzero(np.triu(dense, 1))
        self.elist = np.zeros((n * (n - 1) // 2, 2), dtype=np.int32)
        self.elist[:iu.size, 0] = iu
        self.elist[:iu.size, 1] = ju
        self.eid = np.zeros((n, n), dtype=np.int32)
        self.eid[iu, ju] = np.arange(iu.size, dtype=np.int32)
        self.ne = np.array([iu.size], dtype=np.int64)
        self.hist = np.bincount(deg, minlength=n + 2).astype(np.int64)
        self.statistics = ergm_statistics(dense, self.terms)
        self._codes, self._decays, self._offsets = self.terms.codes()
        self._powers = _powers(self.terms, n)
        self._labels = (self.terms.labels if self.terms.labels is not None
                        else np.zeros(n, dtype=np.int64))
        self.set_observation(observation)

    @property
    def n_nodes(self):
        return self.adj.shape[0]

    @property
    def n_edges(self):
        return int(self.ne[0])

    @property
    def A(self):
        """A copy of the current adjacency matrix (uint8)."""
        return self.adj.copy()

    def set_observation(self, observation):
        """Weigh graphs by the likelihood of ``observation`` (None: plain ERGM)."""
        obs = Observation() if observation is None else observation
        p = self.terms.n_statistics
        empty = np.zeros(p)
        self._obs = obs
        self._obs_kind = {"none": OBS_NONE, "laplace": OBS_LAPLACE, "cauchy": OBS_CAUCHY,
                          "smooth_cauchy": OBS_SMOOTH_CAUCHY, "flip": OBS_FLIP}[obs.kind]
        for arr in (obs.values, obs.scales, obs.sensitivities):
            if arr is not None and arr.shape != (p,):
                raise ValueError(f"the observation has {arr.size} statistics, the terms {p}.")
        self._obs_values = empty if obs.values is None else obs.values
        self._obs_scales = empty if obs.scales is None else obs.scales
        self._obs_sens = empty if obs.sensitivities is None else obs.sensitivities
        if obs.kind == "smooth_cauchy" and self.max_degree < 0:
            raise ValueError("a smooth_cauchy observation is of the degree-truncated graph: the "
                             "chain must be restricted to max_degree (the truncation degree).")
        if obs.kind == "flip":
            if obs.release.shape != self.adj.shape:
                raise ValueError(f"the release has {obs.release.shape[0]} nodes, the chain "
                                 f"{self.n_nodes}.")
            self._flip_z = obs.release
            self._flip_logodds = math.log((1.0 - obs.flip_probability) / obs.flip_probability)
        else:
            self._flip_z = np.zeros((1, 1), dtype=np.uint8)
            self._flip_logodds = 0.0

    def log_observation(self, graph=None):
        """Log-likelihood of this chain's observation given a graph, up to a constant.

        Parameters
        ----------
        graph : ERGMChain, optional
            A chain on the same nodes and terms whose current graph is weighed (default: this
            chain's own graph). The private exchange algorithm weighs the auxiliary graph of
            a joint move by the release this way.

        Returns
        -------
        float
            ``log P(release | graph)`` up to a constant that depends on the release only
            (0.0 for no observation).
        """
        g = self if graph is None else graph
        if self._obs_kind == OBS_NONE:
            return 0.0
        if self._obs_kind == OBS_FLIP:
            upper = np.triu(g.adj != self._flip_z, 1)
            return -self._flip_logodds * float(np.count_nonzero(upper))
        smooth = (smooth_factor(g.hist, g.n_nodes, self._obs.max_degree, self._obs.beta)
                  if self._obs_kind == OBS_SMOOTH_CAUCHY else 0.0)
        return float(obs_loglik(self._obs_kind, g.statistics, self._obs_values,
                                 self._obs_scales, self._obs_sens, smooth))

    def dyad_design(self):
        """The change statistics of every dyad of the current graph, and its value.

        Returns
        -------
        X : ndarray of shape (n(n-1)/2, p)
            Row ``k`` is ``s(x + ij) - s(x - ij)`` for the k-th dyad i < j (lexicographic).
        y : ndarray of shape (n(n-1)/2,)
            1.0 where the dyad is an edge: with X, the design of the pseudo-likelihood's
            logistic regression (Strauss and Ikeda 1990).
        """
        return dyad_design(self.adj, self.deg, self.L, self.nbr, self._labels,
                           self.terms.n_levels, self._codes, self._offsets, self._powers,
                           self._decays, self.terms.n_statistics)

    def copy(self, observation="same"):
        """An independent chain in the same state (with another observation if given)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        for name in ("adj", "deg", "L", "nbr", "pos", "elist", "eid", "ne", "hist",
                     "statistics"):
            setattr(new, name, getattr(self, name).copy())
        if observation != "same":
            new.set_observation(observation)
        return new

    def copy_state_from(self, other):
        """Overwrite this chain's graph with ``other``'s (same node set and terms), in place.

        Spares the allocations of :meth:`copy` when a chain is restarted at every iteration
        (the exchange algorithm's auxiliary draws start at the current graph).
        """
        for name in ("adj", "deg", "L", "nbr", "pos", "eid", "ne", "hist", "statistics"):
            np.copyto(getattr(self, name), getattr(other, name))
        m = int(other.ne[0])
        self.elist[:m] = other.elist[:m]

    def run(self, theta, n_steps, rng, trace_every=0):
        """Advance the chain by ``n_steps`` MH steps targeting ``exp(theta . s(x)) obs(x)``.

        Parameters
        ----------
        theta : array-like of shape (p,)
        n_steps : int >= 0
        rng : numpy.random.Generator
            Seeds the compiled steps (one 63-bit draw a call).
        trace_every : int, default=0
            When positive, record the statistics every ``trace_every`` steps.

        Returns
        -------
        accepted : int
            Number of accepted toggles.
        trace : ndarray of shape (n_steps // trace_every, p) (only when ``trace_every > 0``)
        """
        theta = np.asarray(theta, dtype=np.float64).ravel()
        p = self.terms.n_statistics
        if theta.shape != (p,):
            raise ValueError(f"theta must have one value per statistic ({p}), got "
                             f"{theta.size}.")
        if not np.isfinite(theta).all():
            raise ValueError("theta must be finite.")
        n_steps = int(n_steps)
        if n_steps < 0:
            raise ValueError(f"n_steps must be >= 0, got {n_steps}.")
        thin = int(trace_every)
        trace = np.zeros((n_steps // thin if thin > 0 else 0, p))
        seed = int(rng.integers(0, 2**31 - 1))
        accepted = run_chain(
            self.adj, self.deg, self.L, self._use_L, self.nbr, self.pos, self.elist,
            self.eid, self.ne, self.hist, self.statistics, self._labels, self.terms.n_levels,
            self._codes, self._offsets, self._powers, self._decays, theta, n_steps, seed,
            self.max_degree, self._obs_kind, self._obs_values, self._obs_scales,
            self._obs_sens, self._obs.max_degree, self._obs.beta, self._flip_z,
            self._flip_logodds, thin, trace)
        return (int(accepted), trace) if thin > 0 else int(accepted)


def _start_graph(start, n_nodes):
    if start is None:
        if n_nodes is None:
            raise ValueError("give n_nodes or a starting graph.")
        return np.zeros((int(n_nodes), int(n_nodes)), dtype=np.uint8)
    return start


def _is_count(x):
    return isinstance(x, (int, np.integer))


def _starts(X):
    """``(items, single)`` of ERGM.transform's input: node counts as they are, graphs checked
    by the input contract."""
    if _is_count(X):
        return [X], True
    if isinstance(X, (list, tuple)) and any(_is_count(x) for x in X):
        return [x if _is_count(x) else as_network(x, f"graph {k}") for k, x in enumerate(X)], False
    return graph_batch(X)


def sample_ergm(statistics, theta, n_nodes=None, *, labels=None, start=None, n_steps=None,
                max_degree=None, random_state=None):
    """Draw one graph from an ERGM by Metropolis-Hastings (TNT proposals).

    Parameters
    ----------
    statistics : sequence of terms
        See :func:`tdadp.ergm.parse_terms`.
    theta : array-like of shape (p,)
        Natural parameters, one per statistic.
    n_nodes : int, optional
        Number of nodes (the chain starts at the empty graph), unless ``start`` is given.
    labels : array-like of shape (n,), optional
        Node labels for labelled terms.
    start : adjacency matrix, optional
        Starting graph of the chain.
    n_steps : int, optional
        MH steps; default :func:`default_steps` (20 per dyad).
    max_degree : int, optional
        Sample from the ERGM restricted to graphs of maximum degree at most ``max_degree``.
    random_state : None, int, numpy.random.Generator or SeedSequence

    Returns
    -------
    A : ndarray of uint8 of shape (n, n)

    Examples
    --------
    >>> from tdadp.ergm import sample_ergm
    >>> A = sample_ergm(["edges"], [-1.0], n_nodes=30, random_state=0)
    >>> A.shape, bool((A == A.T).all())
    ((30, 30), True)
    """
    A0 = _start_graph(start, n_nodes)
    chain = ERGMChain(A0, statistics, labels=labels, max_degree=max_degree)
    rng = check_random_state(random_state, _TAG)
    steps = default_steps(chain.n_nodes) if n_steps is None else n_steps
    chain.run(theta, steps, rng)
    return chain.A


class ERGM(ParamsMixin, TransformerMixin, BaseEstimator):
    """Exponential random graph model sampler: one draw per starting graph.

    ``transform(X)`` runs a Metropolis-Hastings chain (TNT proposals, compiled incremental
    change statistics) from each graph of ``X`` (or from the empty graph on ``X`` nodes when
    ``X`` is an int) and returns the graph it ends at.

    Parameters
    ----------
    statistics : sequence of terms, default=("edges",)
        See :func:`tdadp.ergm.parse_terms`.
    theta : array-like of shape (p,), default=(0.0,)
        Natural parameters.
    labels : array-like of shape (n,), optional
        Node labels for labelled terms.
    n_steps : int, optional
        MH steps per draw (default: 20 per dyad, at least 10,000).
    max_degree : int, optional
        Restrict the model to graphs of maximum degree at most ``max_degree``.
    random_state : None, int, numpy.random.Generator or SeedSequence
        Item ``k`` of a batch uses the stream with spawn key ``k``.
    n_jobs : int, optional
        Chains run in parallel (threads); results do not depend on it.

    See Also
    --------
    sample_ergm : the function twin.

    References
    ----------
    Snijders, Pattison, Robins, Handcock, "New specifications for exponential random graph
    models", Sociological Methodology 36 (2006).
    Hunter, Handcock, Butts, Goodreau, Morris, "ergm: a package to fit, simulate and
    diagnose exponential-family models for networks", J. Stat. Softw. 24 (2008).

    Examples
    --------
    >>> from tdadp.ergm import ERGM
    >>> graphs = ERGM(["edges", "altktriangles"], theta=[-3.0, 0.5], random_state=0
    ...               ).fit_transform([40, 40])
    >>> len(graphs), graphs[0].shape
    (2, (40, 40))
    """

    _parameter_constraints = {
        "statistics": [str, tuple, list],
        "theta": [tuple, list, np.ndarray],
        "labels": [None, tuple, list, np.ndarray],
        "n_steps": [None, Interval("int", 0, None, "left")],
        "max_degree": [None, Interval("int", 1, None, "left")],
        "random_state": ["random_state"],
        "n_jobs": ["n_jobs"],
    }

    def __init__(self, statistics=("edges",), theta=(0.0,), labels=None, n_steps=None,
                 max_degree=None, random_state=None, n_jobs=None):
        self.statistics = statistics
        self.theta = theta
        self.labels = labels
        self.n_steps = n_steps
        self.max_degree = max_degree
        self.random_state = random_state
        self.n_jobs = n_jobs

    def fit(self, X=None, y=None):
        """Validate the parameters (a sampler has nothing to learn)."""
        self._validate_params()
        return self

    def transform(self, X):
        """One draw per starting graph (or per node count) of ``X``.

        Parameters
        ----------
        X : int, graph, or a sequence of them
            A node count (the chain starts at the empty graph) or a starting graph in any
            container of the input contract (dense or sparse adjacency matrix, networkx graph,
            edge list; see :func:`as_network`).

        Returns
        -------
        A : ndarray of uint8, or list of them
        """
        self._validate_params()
        items, single = _starts(X)
        starts = [_start_graph(None, x) if _is_count(x) else x for x in items]
        streams = item_streams(self.random_state, range(len(starts)), _TAG)
        out = map_items(
            lambda A0, rng: sample_ergm(self.statistics, self.theta, labels=self.labels,
                                        start=A0, n_steps=self.n_steps,
                                        max_degree=self.max_degree, random_state=rng),
            starts, streams, self.n_jobs)
        return join_batch(out, single)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        tags.non_deterministic = not isinstance(self.random_state, (int, np.integer))
        return tags
