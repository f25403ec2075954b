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

from ..io._input import graph_batch
from ..utils._batch import join_batch, map_items
from ..utils._memory import check_memory
from ..utils._params import Interval, ParamsMixin, check_param
from ..utils._random import OSRandom, check_random_state, item_streams, stage_tag
from ._formula import graph_attributes
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
from ._progress import Progress
from ._terms import (
    MAX_COUNT,
    MAX_DEGREE_RULE,
    ERGMTerms,
    as_network,
    int_rule,
    parse_terms,
    real_rule,
    rho_tables,
    term_statistics,
)

__all__ = [
    "Observation",
    "ERGMChain",
    "sample_ergm",
    "ERGM",
    "default_steps",
    "as_network",
]

_TAG = stage_tag("ERGM")
BYTES_PER_DYAD = 17
# MH steps a compiled call runs between two progress reports: a few milliseconds of work
# against a call's few microseconds.
_CHUNK_STEPS = 1 << 16


def check_chain_memory(n):
    """Refuse up front a chain on ``n`` nodes whose n x n arrays would not fit in memory.

    Called before anything of size n x n is allocated (the empty start graph of
    :func:`sample_ergm` or of a latent chain included).
    """
    nbytes = BYTES_PER_DYAD * float(n) ** 2 if n < 2 ** 500 else math.inf
    check_memory(nbytes, f"an ERGM chain on {n} nodes",
                 " (it keeps five n x n arrays, 17 bytes a dyad)")


def real_vector(value, name):
    """``value`` as a 1-D float64 array of real numbers; strings, booleans, complex numbers
    and other objects are refused (never parsed or cast)."""
    if isinstance(value, (str, bytes)):
        raise ValueError(f"{name} must be real numbers, got a string.")
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of real numbers.") from None
    if arr.dtype == object:
        if any(isinstance(v, (bool, np.bool_)) or not isinstance(
                v, (int, float, np.integer, np.floating)) for v in arr.ravel()):
            raise ValueError(f"{name} must be real numbers.")
    elif arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be real numbers, got dtype {arr.dtype}.")
    try:
        return arr.astype(np.float64).ravel()
    except OverflowError:  # an int float64 cannot hold, such as 10**400
        raise ValueError(f"{name} must be real numbers float64 can hold.") from None


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
        check_param(max_degree, [int_rule(0, 2 ** 53)], "max_degree")
        check_param(beta, [real_rule(Interval("real", 0, math.inf, "right"))], "beta")
        return cls("smooth_cauchy", values=v, sensitivities=s, max_degree=int(max_degree),
                   beta=float(beta))

    @classmethod
    def flip(cls, release, flip_probability):
        """An edgeFlip (randomized response) release of the graph at the given flip rate."""
        Z = as_network(release, "release")
        Z = Z.toarray() if sp.issparse(Z) else np.asarray(Z)
        if not real_rule(Interval("real", 0, 0.5, "neither"))(flip_probability):
            raise ValueError(f"flip_probability must be a real number in (0, 1/2), got "
                             f"{flip_probability!r}: at 0 the release is the graph, at 1/2 it "
                             "carries nothing.")
        pi = float(flip_probability)
        return cls("flip", release=np.ascontiguousarray(Z, dtype=np.uint8),
                   flip_probability=pi)


def _pair(values, scales, name):
    v = real_vector(values, "values")
    s = real_vector(scales, name)
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
    """``r^L`` and ``1 - r^L`` for L = 0..n+1 of each term (r = 1 - 1/decay; decay 1 for
    terms without one), see :func:`tdadp.ergm._terms.rho_tables`."""
    _, decays, _ = terms.codes()
    return rho_tables(decays, n + 2)


class ERGMChain:
    """The state of one MH chain over graphs on a fixed node set, advanced in place.

    Parameters
    ----------
    A : graph on n nodes
        The starting graph: an adjacency matrix (dense or sparse, binary, symmetric, zero
        diagonal), a networkx graph or an edge list (see ``as_network``).
    terms : ERGMTerms, formula string or sequence of terms
        See :func:`tdadp.ergm.parse_terms`.
    labels : array-like of shape (n,), DataFrame or dict of arrays, optional
        Node attributes, when ``terms`` is not parsed yet and has labelled terms (default: a
        networkx graph's own node attributes).
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
        # 0 (only the empty graph) is allowed here: a smooth_cauchy observation may carry it
        check_param(max_degree, [None, int_rule(0, 2 ** 53)], "max_degree")
        if observation is not None and not isinstance(observation, Observation):
            raise TypeError(f"observation must be an Observation, got "
                            f"{type(observation).__name__}.")
        if labels is None:
            labels = graph_attributes(A)
        A = as_network(A)
        n = A.shape[0]
        if n < 2:
            raise ValueError("an ERGM chain needs at least 2 nodes.")
        check_chain_memory(n)
        self.terms = terms if isinstance(terms, ERGMTerms) else \
            parse_terms(terms, labels, n_nodes=n)
        if self.terms.labels is not None and self.terms.labels.shape[0] != n:
            raise ValueError(f"the terms' labels cover {self.terms.labels.shape[0]} nodes, the "
                             f"graph has {n}.")
        dense = np.ascontiguousarray(A.toarray() if sp.issparse(A) else A, dtype=np.uint8)
        deg = dense.sum(axis=1, dtype=np.int64)
        self.max_degree = -1 if max_degree is None else int(max_degree)
        if max_degree is not None and deg.max(initial=0) > self.max_degree:
            # a count, never the degrees themselves: the graph may be private
            over = int(np.count_nonzero(deg > self.max_degree))
            raise ValueError(f"the starting graph has {over} node{'s' if over > 1 else ''} of "
                             f"degree above max_degree={max_degree}: start inside the class "
                             f"of maximum degree at most {max_degree} (the empty graph is in "
                             "every class).")
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
        self.statistics = term_statistics(dense, self.terms)
        self._codes, self._decays, self._offsets = self.terms.codes()
        self._powers, self._omr = _powers(self.terms, n)
        self._labels, self._lcol, self._ptab, self._etab = self.terms.label_arrays(n)
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
        return dyad_design(self.adj, self.deg, self.L, self.nbr, self._labels, self._lcol,
                           self._ptab, self._etab, self._codes, self._offsets, self._powers,
                           self._omr, self._decays, self.terms.n_statistics)

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

    def run(self, theta, n_steps, rng, trace_every=0, progress=None):
        """Advance the chain by ``n_steps`` MH steps targeting ``exp(theta . s(x)) obs(x)``.

        Parameters
        ----------
        theta : array-like of shape (p,)
        n_steps : int >= 0
        rng : numpy.random.Generator or OSRandom
            Seeds the compiled steps (one 31-bit draw a call).
        trace_every : int, default=0
            When positive, record the statistics every ``trace_every`` steps.
        progress : callable, optional
            Called with the number of steps done after each chunk of 65,536 steps (a
            :class:`~tdadp.ergm._progress.Progress`). The chunks run one after another on
            this thread and continue its compiled generator, seeded once: the chain is the
            same as in one call.

        Returns
        -------
        accepted : int
            Number of accepted toggles.
        trace : ndarray of shape (n_steps // trace_every, p) (only when ``trace_every > 0``)
        """
        theta = real_vector(theta, "theta")
        p = self.terms.n_statistics
        if theta.shape != (p,):
            raise ValueError(f"theta must have one value per statistic ({p}), got "
                             f"{theta.size}.")
        if not np.isfinite(theta).all():
            raise ValueError("theta must be finite.")
        check_param(n_steps, [int_rule(0, MAX_COUNT)], "n_steps")
        check_param(trace_every, [int_rule(0, MAX_COUNT)], "trace_every")
        if not isinstance(rng, (np.random.Generator, OSRandom)):
            raise TypeError(f"rng must be a numpy Generator or OSRandom, got "
                            f"{type(rng).__name__}.")
        n_steps, thin = int(n_steps), int(trace_every)
        trace = np.zeros((n_steps // thin if thin > 0 else 0, p))
        seed = int(rng.integers(0, 2**31 - 1))
        if progress is None:
            accepted = self._steps(theta, n_steps, seed, thin, trace)
        else:
            # Chunks of whole trace intervals, so that each chunk's rows follow the last's.
            chunk = _CHUNK_STEPS if thin == 0 else max(thin, _CHUNK_STEPS - _CHUNK_STEPS % thin)
            accepted, row = 0, 0
            for start in range(0, n_steps, chunk):
                k = min(chunk, n_steps - start)
                accepted += self._steps(theta, k, seed if start == 0 else -1, thin,
                                        trace[row:])
                row += k // thin if thin > 0 else 0
                progress(k)
        return (int(accepted), trace) if thin > 0 else int(accepted)

    def _steps(self, theta, n_steps, seed, thin, trace):
        """One compiled run (``seed < 0``: continue this thread's compiled generator)."""
        return run_chain(
            self.adj, self.deg, self.L, self._use_L, self.nbr, self.pos, self.elist,
            self.eid, self.ne, self.hist, self.statistics, self._labels, self._lcol, self._ptab,
            self._etab, self._codes, self._offsets, self._powers, self._omr, self._decays, theta,
            n_steps, seed,
            self.max_degree, self._obs_kind, self._obs_values, self._obs_scales,
            self._obs_sens, self._obs.max_degree, self._obs.beta, self._flip_z,
            self._flip_logodds, thin, trace)


def _start_graph(start, n_nodes):
    """The chain's starting graph: ``start`` (checked by the input contract) or the empty graph
    on ``n_nodes`` nodes (its memory checked before it is allocated); both must agree."""
    check_param(n_nodes, [None, int_rule(2)], "n_nodes")
    if start is None:
        if n_nodes is None:
            raise ValueError("give n_nodes or a starting graph.")
        check_chain_memory(n_nodes)
        return np.zeros((int(n_nodes), int(n_nodes)), dtype=np.uint8)
    A = as_network(start, "start")
    if n_nodes is not None and A.shape[0] != n_nodes:
        raise ValueError(f"n_nodes={n_nodes} but the starting graph has {A.shape[0]} nodes: give "
                         "one of them (or equal ones).")
    return A


def _is_count(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _starts(X):
    """``(items, single)`` of ERGM.transform's input: node counts as they are, graphs checked
    by the input contract."""
    if _is_count(X):
        return [X], True
    if isinstance(X, (list, tuple)) and any(_is_count(x) for x in X):
        return [x if _is_count(x) else as_network(x, f"graph {k}") for k, x in enumerate(X)], False
    return graph_batch(X)


def _chain(statistics, n_nodes, labels, start, n_steps, max_degree):
    """The chain of one draw and its number of steps (the parameters checked)."""
    check_param(n_steps, [None, int_rule(0, MAX_COUNT)], "n_steps")
    check_param(max_degree, [None, MAX_DEGREE_RULE], "max_degree")
    if labels is None:
        labels = graph_attributes(start)
    A0 = _start_graph(start, n_nodes)
    chain = ERGMChain(A0, statistics, labels=labels, max_degree=max_degree)
    return chain, default_steps(chain.n_nodes) if n_steps is None else int(n_steps)


def sample_ergm(statistics, theta, n_nodes=None, *, labels=None, start=None, n_steps=None,
                max_degree=None, random_state=None, verbose=False):
    """Draw one graph from an ERGM by Metropolis-Hastings (TNT proposals).

    Parameters
    ----------
    statistics : formula string or sequence of terms
        See :func:`tdadp.ergm.parse_terms`, e.g. ``"edges + nodematch('Sex') + gwesp(0.5,
        fixed=TRUE)"``.
    theta : array-like of shape (p,)
        Natural parameters, one per statistic.
    n_nodes : int >= 2, optional
        Number of nodes (the chain starts at the empty graph). With ``start``, it must be
        the starting graph's number of nodes.
    labels : array-like of shape (n,), DataFrame or dict of arrays, optional
        Node attributes for labelled terms (default: those of a networkx ``start``).
    start : graph, optional
        Starting graph of the chain, in any container of the input contract (see
        ``as_network``).
    n_steps : int >= 0, optional
        MH steps; default :func:`default_steps` (20 per dyad).
    max_degree : int in [1, 2^53], optional
        Sample from the ERGM restricted to graphs of maximum degree at most ``max_degree``.
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        "secure": the compiled chain is seeded from the operating system's CSPRNG (never
        reproducible).
    verbose : bool, default=False
        Show a progress bar of the MH steps (tqdm, on stderr). The draw is the same either
        way.

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
    rng = check_random_state(random_state, _TAG, allow_secure=True)
    check_param(verbose, ["boolean"], "verbose")
    chain, steps = _chain(statistics, n_nodes, labels, start, n_steps, max_degree)
    with Progress(verbose, steps, "sample_ergm", "step") as progress:
        chain.run(theta, steps, rng, progress=progress if verbose else None)
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
    max_degree : int in [1, 2^53], optional
        Restrict the model to graphs of maximum degree at most ``max_degree``.
    random_state : None, int, numpy.random.Generator, SeedSequence or "secure"
        Item ``k`` of a batch uses the stream with spawn key ``k``; "secure" seeds each
        chain from the operating system's CSPRNG.
    n_jobs : int, optional
        Chains run in parallel (threads); results do not depend on it.
    verbose : bool, default=False
        Show one progress bar of the MH steps of the whole batch (tqdm, on stderr). The
        draws are the same either way.

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
        "n_steps": [None, int_rule(0, MAX_COUNT)],
        "max_degree": [None, MAX_DEGREE_RULE],
        "random_state": ["secure_random_state"],
        "n_jobs": ["n_jobs"],
        "verbose": ["boolean"],
    }

    def __init__(self, statistics=("edges",), theta=(0.0,), labels=None, n_steps=None,
                 max_degree=None, random_state=None, n_jobs=None, verbose=False):
        self.statistics = statistics
        self.theta = theta
        self.labels = labels
        self.n_steps = n_steps
        self.max_degree = max_degree
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

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
            edge list; see ``as_network``). A networkx graph is one graph (its node labels
            are never node counts).

        Returns
        -------
        A : ndarray of uint8, or list of them
        """
        self._validate_params()
        items, single = _starts(X)
        streams = item_streams(self.random_state, range(len(items)), _TAG,
                               allow_secure=True)
        total = sum(default_steps(max(int(x) if _is_count(x) else x.shape[0], 0))
                    if self.n_steps is None else self.n_steps for x in items)
        with Progress(self.verbose, total, "ERGM", "step") as progress:
            out = map_items(lambda x, rng: self._draw(x, rng, progress), items, streams,
                            self.n_jobs)
        return join_batch(out, single)

    def _draw(self, x, rng, progress):
        """The draw from one item of transform's batch: sample_ergm's, sharing the bar."""
        chain, steps = _chain(self.statistics, x if _is_count(x) else None, self.labels,
                              None if _is_count(x) else x, self.n_steps, self.max_degree)
        chain.run(self.theta, steps, rng, progress=progress if self.verbose else None)
        return chain.A

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        tags.non_deterministic = not isinstance(self.random_state, (int, np.integer))
        return tags
