"""ERGM statistics: the terms an exponential random graph model is built from.

An ERGM gives an undirected simple graph x on n nodes the probability
``exp(theta . s(x)) / Z(theta)``. The terms of ``s`` offered here are the curved-family
statistics of Snijders, Pattison, Robins and Handcock (2006), in the closed forms that make
them computable from the degree and shared-partner distributions, and the usual statistics of
labelled networks (ergm's ``nodematch``, ``nodefactor``, ``nodemix``).

Notation: ``d_i`` is the degree of i, ``L_ij = sum_m x_im x_mj`` the number of shared partners
of the dyad ij, ``r = 1 - 1/lambda`` for a decay ``lambda >= 1``.

- ``"edges"``: ``sum_{i<j} x_ij``.
- ``"altkstars"`` (decay lambda): ``sum_{k>=2} (-1)^k S_k / lambda^(k-2)``, S_k the number of
  k-stars ``sum_i C(d_i, k)``; in degree-distribution form
  ``lambda^2 sum_i (r^(d_i) - 1 + d_i / lambda)``.
- ``"altktriangles"`` (decay gamma): ``sum_{k>=1} (-1)^(k+1) T_k / gamma^(k-1)``, T_k the
  number of k-triangles ``sum_{i<j} x_ij C(L_ij, k)`` (k triangles sharing the edge ij;
  T_1 is three times the number of triangles); in edgewise shared-partner form
  ``gamma sum_{i<j} x_ij (1 - r^(L_ij))`` (ergm's ``gwesp`` with decay ``log gamma``).
- ``"altktwopaths"`` (decay gamma): ``sum_{k>=1} (-1)^(k+1) P_k / gamma^(k-1)``, P_k the
  number of k-two-paths ``sum_{i<j} C(L_ij, k)``; in dyadwise shared-partner form
  ``gamma sum_{i<j} (1 - r^(L_ij))`` (ergm's ``gwdsp`` with decay ``log gamma``).
- ``"gwdegree"`` (decay lambda): ``lambda sum_i (1 - r^(d_i))``, ergm's ``gwdegree`` with decay
  ``log lambda`` (``2 edges - altkstars / lambda``: a different statistic, not an alias).
- ``"nodematch"``: edges between nodes of the same label (homophily).
- ``"nodefactor"``: for each label level but the first, the number of edge ends at nodes of
  that level (popularity); one statistic a level.
- ``"nodemix"``: for each unordered pair of levels (a, b), a <= b, but the first (0, 0), the
  number of edges between a node of level a and one of level b (mixing).

The first levels are left out because with ``"edges"`` in the model they would make the
statistics collinear (ergm does the same).

A model is written as an ergm formula (``"edges + nodematch('Sex', diff=TRUE) + gwesp(0.5,
fixed=TRUE)"``, see :mod:`tdadp.ergm._formula`: ergm's term names and options, labelled terms
reading node attributes by name, ergm's coefficient names), or as a list of terms, each a
string or a pair ``(name, decay)`` for the alternating ones (default decay 2, Snijders et al.'s
choice), the labelled ones reading one label vector given beside the graph.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..graphs._packed import PackedAdjacency
from ..io._input import one_graph
from ..utils._memory import check_memory
from ..utils._params import QUOTE_LIMIT, Rule, short_repr
from ._formula import (
    ATTRIBUTE_TERMS,
    attribute_table,
    graph_attributes,
    legacy_spec,
    parse_formula,
    select_levels,
)
from ._kernels import shared_partners

__all__ = [
    "ERGM_TERMS",
    "ALTERNATING_TERMS",
    "LABELLED_TERMS",
    "DEFAULT_DECAY",
    "ERGMTerms",
    "LabelTable",
    "parse_terms",
    "ergm_statistics",
    "check_labels",
    "as_network",
    "rho_tables",
    "MAX_DEGREE_RULE",
    "MAX_COUNT",
    "int_rule",
    "real_rule",
]

ALTERNATING_TERMS = ("altkstars", "altktriangles", "altktwopaths")
LABELLED_TERMS = ATTRIBUTE_TERMS
ERGM_TERMS = ("edges", *ALTERNATING_TERMS, *LABELLED_TERMS, "gwdegree")
DEFAULT_DECAY = 2.0


def int_rule(low, high=None):
    """The declared rule "an int in [low, high]" (``high`` None: unbounded), compared exactly.

    Unlike an ``Interval``, it never converts the value to float, so a huge int (10**400)
    is judged like any other instead of raising an OverflowError.
    """
    shown = {2 ** 53: "2^53", 2 ** 63 - 1: "2^63 - 1"}
    what = f"an int in [{low}, {'inf)' if high is None else f'{shown.get(high, high)}]'}"
    return Rule(what, lambda v: (isinstance(v, (numbers.Integral, np.integer))
                                 and not isinstance(v, (bool, np.bool_))
                                 and v >= low and (high is None or v <= high)))


def real_rule(interval):
    """An ``Interval`` of reals as a rule that also refuses a number float64 cannot hold,
    such as the int 10**400 (the code computes with the value as a float)."""
    def test(value):
        float(value)  # an OverflowError is a refusal (Rule catches it)
        return interval(value)
    return Rule(f"{interval} (a float64)", test)


#: Largest count (steps, iterations, chains) the compiled code takes: an int64.
MAX_COUNT = 2 ** 63 - 1
#: The rule of every ``max_degree`` of the ERGM part: an int in [1, 2^53]. A degree bound
#: beyond any graph's size restricts nothing, and 2^53 keeps every quantity derived from it
#: exact in float64 and int64 (the compiled chain's bounds, the smooth sensitivity's window).
MAX_DEGREE_RULE = int_rule(1, 2 ** 53)

# Integer codes of the terms in the compiled sampler (tdadp.ergm._sampler).
TERM_CODES = {name: code for code, name in enumerate(ERGM_TERMS)}


def _label_kind(value):
    """The type family of one label: labels of one graph must share it."""
    if isinstance(value, (bool, np.bool_)):
        return "booleans"
    if isinstance(value, (numbers.Real, np.integer, np.floating)):
        return "numbers"
    if isinstance(value, (str, np.str_)):
        return "strings"
    if isinstance(value, (bytes, np.bytes_)):
        return "bytes"
    return type(value).__name__


def check_labels(labels, n_nodes):
    """Node labels as level codes 0..L-1 (levels sorted), and the level values.

    Parameters
    ----------
    labels : array-like of shape (n_nodes,)
        Hashable, sortable values of one type family (all numbers, all strings or all
        booleans; a mix such as ``[0, "a"]`` is refused rather than turned into strings);
        no missing values.
    n_nodes : int

    Returns
    -------
    codes : ndarray of int64, shape (n_nodes,)
    levels : ndarray
        The distinct label values, in the order of their codes.
    """
    if labels is None:
        raise ValueError("the labelled ERGM terms (nodematch, nodefactor, nodemix) need node "
                         "labels: pass labels= (one per node).")
    if isinstance(labels, (str, bytes, dict, set, frozenset)):
        raise ValueError(f"labels must be a sequence of one label per node, got "
                         f"{type(labels).__name__}.")
    try:
        arr = np.asarray(labels) if isinstance(labels, np.ndarray) else \
            np.asarray(labels, dtype=object)
    except (TypeError, ValueError):
        raise ValueError("labels must be a flat sequence of one label per node.") from None
    if arr.ndim != 1 or arr.shape[0] != n_nodes:
        raise ValueError(f"labels must have one value per node ({n_nodes}), got shape "
                         f"{arr.shape}.")
    if arr.dtype == object:
        if any(v is None for v in arr):
            raise ValueError("labels contain None: every node needs a label.")
        kinds = {_label_kind(v) for v in arr}
        if len(kinds) > 1:
            raise ValueError(f"labels must be of one type, got a mix of {', '.join(sorted(kinds))}"
                             ": convert them to one type (e.g. all strings) first.")
        if kinds <= {"numbers", "booleans", "strings", "bytes"}:
            arr = np.asarray(arr.tolist())  # the dtype numpy gives a list of one type
        else:
            try:
                for v in arr:
                    hash(v)
            except TypeError:
                raise ValueError("labels must be hashable values (numbers, strings, booleans)"
                                 ".") from None
    if arr.dtype.kind == "c":
        raise ValueError("labels must be real numbers, strings or booleans, not complex.")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError("labels contain NaN: every node needs a label.")
    try:
        levels, codes = np.unique(arr, return_inverse=True)
    except TypeError:
        raise ValueError("labels must be sortable values of one type.") from None
    return codes.astype(np.int64).ravel(), levels


@dataclass(frozen=True)
class LabelTable:
    """How one labelled term counts an edge from its end nodes' levels.

    An edge between nodes of levels a and b adds 1 to statistic ``pair[a, b]`` of the term
    (when >= 0) and 1 to ``end[a]`` and to ``end[b]`` (when >= 0): ``nodematch`` and
    ``nodemix`` fill ``pair``, ``nodefactor`` fills ``end``.

    Attributes
    ----------
    values : ndarray
        The level values, sorted (the codes index them).
    pair : ndarray of int64, shape (L, L)
    end : ndarray of int64, shape (L,)
    """

    values: np.ndarray
    pair: np.ndarray
    end: np.ndarray


@dataclass(frozen=True, repr=False)
class ERGMTerms:
    """A parsed list of terms: what the sampler and the releases work from.

    Attributes
    ----------
    names : tuple of str
        tdadp's term of each entry (``gwesp`` is ``"altktriangles"``).
    decays : tuple of float
        Decay lambda of each entry (``nan`` for terms without one).
    sizes : tuple of int
        Number of statistics of each entry (labelled terms: one per level or level pair).
    labels : ndarray of int64 of shape (n_nodes, n_labelled) or None
        Column k: the level code of every node under the k-th labelled term's attribute.
    levels : tuple of LabelTable or None
        Entry k: the levels and counting tables of the k-th labelled term.
    statistic_names : tuple of str
        One name a statistic, in the order of the statistic vector (ergm's coefficient
        names for terms read from a formula, e.g. ``nodematch.Sex.F``).
    specs : tuple of TermSpec
        The terms as written; :attr:`formula` prints them back.
    """

    names: tuple
    decays: tuple
    sizes: tuple
    labels: np.ndarray | None
    levels: tuple | None
    statistic_names: tuple
    specs: tuple = ()

    @property
    def n_statistics(self):
        return int(sum(self.sizes))

    @property
    def offsets(self):
        return tuple(int(v) for v in np.concatenate([[0], np.cumsum(self.sizes)[:-1]]))

    @property
    def formula(self):
        """The terms as an ergm formula, e.g. ``"edges + nodematch('Sex', diff=TRUE)"``."""
        specs = self.specs or tuple(legacy_spec(n, d) for n, d in zip(self.names, self.decays))
        return " + ".join(str(s) for s in specs)

    def __str__(self):
        return self.formula

    def __repr__(self):
        return f"ERGMTerms({self.formula!r}, statistics={list(self.statistic_names)!r})"

    def codes(self):
        """(term codes, decays, offsets) as arrays, for the compiled sampler."""
        codes = np.array([TERM_CODES[n] for n in self.names], dtype=np.int64)
        decays = np.array([d if np.isfinite(d) else 1.0 for d in self.decays], dtype=np.float64)
        return codes, decays, np.array(self.offsets, dtype=np.int64)

    def label_arrays(self, n_nodes):
        """(codes, column, pair, end) of the labelled terms for the compiled kernels.

        ``codes`` (n_nodes, m) level codes (one column, zeros, when no term is labelled);
        ``column[t]`` the column of term t (-1 unlabelled); ``pair`` (m, L, L) and ``end``
        (m, L) the tables of :class:`LabelTable`, padded with -1 to the most levels L.
        """
        column = np.full(len(self.names), -1, dtype=np.int64)
        k = 0
        for t, name in enumerate(self.names):
            if name in LABELLED_TERMS:
                column[t] = k
                k += 1
        if self.labels is None or not self.levels:
            return (np.zeros((n_nodes, 1), dtype=np.int64), column,
                    np.full((1, 1, 1), -1, dtype=np.int64), np.full((1, 1), -1, dtype=np.int64))
        L = max(len(tab.values) for tab in self.levels)
        pair = np.full((len(self.levels), L, L), -1, dtype=np.int64)
        end = np.full((len(self.levels), L), -1, dtype=np.int64)
        for k, tab in enumerate(self.levels):
            size = len(tab.values)
            pair[k, :size, :size] = tab.pair
            end[k, :size] = tab.end
        return np.ascontiguousarray(self.labels, dtype=np.int64), column, pair, end


_DECAY_RULE = Rule("a finite number >= 1", lambda v: (
    isinstance(v, (numbers.Real, np.floating, np.integer))
    and not isinstance(v, (bool, np.bool_)) and math.isfinite(float(v)) and v >= 1))


def _entry(entry):
    if isinstance(entry, str):
        name, decay = entry, None
    elif isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[0], str):
        name, decay = entry
    else:
        raise ValueError(f"an ERGM term is a name or a pair (name, decay), got {entry!r}.")
    if name not in ERGM_TERMS:
        raise ValueError(f"unknown ERGM term {name!r}; known: {', '.join(ERGM_TERMS)} (or "
                         "write a formula string such as \"edges + gwesp(0.5, fixed=TRUE)\").")
    name = str(name)
    if name in ALTERNATING_TERMS or name == "gwdegree":
        decay = DEFAULT_DECAY if decay is None else decay
        if not _DECAY_RULE(decay):
            raise ValueError(f"the decay of {name!r} must be a finite number >= 1 (its "
                             f"alternating signs need 0 <= 1 - 1/decay < 1), got {decay!r}.")
        return name, float(decay)
    if decay is not None:
        raise ValueError(f"the term {name!r} takes no decay, got {decay!r}.")
    return name, float("nan")


def _specs(statistics):
    """The specs of a formula string or of a list of names / (name, decay) pairs."""
    if isinstance(statistics, str):
        return parse_formula(statistics)
    if not isinstance(statistics, (list, tuple, np.ndarray)):
        # a set or dict has no order to give the statistic vector
        raise ValueError(f"statistics must be a formula string, or a list or tuple of ERGM "
                         f"terms, got {type(statistics).__name__}.")
    items = np.asarray(statistics, dtype=object).ravel().tolist() \
        if isinstance(statistics, np.ndarray) else list(statistics)
    out = []
    for item in items:
        name, decay = _entry(item)
        out.append(legacy_spec(name, decay))
    return out


def _attribute(spec, table, labels, n_nodes, where):
    """Level codes and values of the attribute a labelled term reads."""
    if spec.attr is None:
        if table is not None:
            raise ValueError(f"{where} needs an attribute name, e.g. {spec.call}('Sex'): the "
                             "node attributes were given by name.")
        return check_labels(labels, n_nodes)
    attr = short_repr(spec.attr)  # a name from the user's formula: quoted capped
    if table is None:
        raise ValueError(f"{where} reads the node attribute {attr}: give the attributes "
                         "by name (a networkx graph's node attributes, a DataFrame or a dict "
                         "of arrays).")
    if spec.attr not in table:
        raise ValueError(f"{where}: no node attribute {attr} (the graph has "
                         f"{len(table)} attribute{'s' if len(table) != 1 else ''}: "
                         f"{_capped(', '.join(sorted(map(str, table))))}).")
    column = table[spec.attr]
    missing = sum(v is None for v in column) if not isinstance(column, np.ndarray) else 0
    if missing:
        raise ValueError(f"{where}: the attribute {attr} is missing on {missing} "
                         "node(s).")
    try:
        return check_labels(column, n_nodes)
    except ValueError as exc:
        raise ValueError(f"{where}: attribute {attr}: {exc}") from None


def _capped(text):
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT] + "..."


def _label_table(spec, values, where):
    """The counting table and statistic names of one labelled term."""
    L = len(values)
    shown = [str(v) for v in values]
    pair = np.full((L, L), -1, dtype=np.int64)
    end = np.full(L, -1, dtype=np.int64)
    named = spec.attr is not None
    if spec.kind == "nodematch":
        kept = select_levels(spec.levels, L, shown, where)
        if spec.diff:
            for idx, a in enumerate(kept):
                pair[a, a] = idx
            names = [f"nodematch.{spec.attr}.{shown[a]}" if named else f"nodematch[{shown[a]}]"
                     for a in kept]
        else:
            for a in kept:
                pair[a, a] = 0
            names = [f"nodematch.{spec.attr}" if named else "nodematch"] if kept else []
    elif spec.kind == "nodefactor":
        kept = select_levels(spec.levels, L, shown, where, default=-1)
        for idx, a in enumerate(kept):
            end[a] = idx
        names = [f"nodefactor.{spec.attr}.{shown[a]}" if named else f"nodefactor[{shown[a]}]"
                 for a in kept]
    else:  # nodemix: ergm orders the level pairs column by column, tdadp's list form by rows
        use = sorted(select_levels(spec.levels, L, shown, where))
        pairs = ([(a, b) for b in use for a in use if a <= b] if named else
                 [(a, b) for a in use for b in use if a <= b])
        chosen = select_levels(spec.levels2, len(pairs), [f"{shown[a]}.{shown[b]}"
                                                           for a, b in pairs], where, default=-1)
        names = []
        for idx, p in enumerate(chosen):
            a, b = pairs[p]
            pair[a, b] = pair[b, a] = idx
            names.append(f"mix.{spec.attr}.{shown[a]}.{shown[b]}" if named
                         else f"nodemix[{shown[a]},{shown[b]}]")
    return LabelTable(values, pair, end), names


def _statistic_name(spec):
    if spec.call in ("gwesp", "gwdsp", "gwdegree"):
        short = "gwdeg" if spec.call == "gwdegree" else spec.call
        return f"{short}.fixed.{spec.written_decay:g}"
    return spec.kind if np.isnan(spec.decay) else f"{spec.kind}({spec.decay:g})"


def parse_terms(statistics, labels=None, n_nodes=None):
    """Parse an ERGM formula or list of terms (and the node attributes labelled terms read).

    Parameters
    ----------
    statistics : str or sequence of (str or (str, float))
        A formula as statnet writes it, ``"edges + nodematch('Sex', diff=TRUE) +
        gwesp(0.5, fixed=TRUE)"`` (see :mod:`tdadp.ergm._formula` for the terms and their
        arguments), or a list of terms from :data:`ERGM_TERMS`, alternating terms with
        their decay, e.g. ``["edges", ("altktriangles", 1.5), "nodematch"]``.
    labels : array-like of shape (n_nodes,), DataFrame or dict of arrays, optional
        Node attributes: by name (a DataFrame, a dict of name -> values, or a networkx
        graph's node attributes where a graph is given) for terms that name one, or a single
        label vector for labelled terms written without an attribute.
    n_nodes : int, optional
        Number of nodes the labels must cover (their length when not given).

    Returns
    -------
    ERGMTerms

    Examples
    --------
    >>> from tdadp.ergm import parse_terms
    >>> t = parse_terms(["edges", ("altktriangles", 1.5), "nodefactor"], labels=[0, 1, 1, 2])
    >>> t.statistic_names
    ('edges', 'altktriangles(1.5)', 'nodefactor[1]', 'nodefactor[2]')
    >>> sex = {"Sex": ["F", "M", "F", "M"]}
    >>> t = parse_terms("edges + nodematch('Sex', diff=TRUE) + gwesp(0.5, fixed=TRUE)", sex)
    >>> t.statistic_names
    ('edges', 'nodematch.Sex.F', 'nodematch.Sex.M', 'gwesp.fixed.0.5')
    >>> t.formula
    "edges + nodematch('Sex', diff=TRUE) + gwesp(0.5, fixed=TRUE)"
    """
    specs = _specs(statistics)
    if not specs:
        raise ValueError("an ERGM needs at least one term.")
    seen = set()
    for s in specs:
        # gwesp(a) and altktriangles(e^a) are one term; options tell labelled terms apart
        key = (s.kind, s.attr, s.diff, repr(s.levels), repr(s.levels2)) if s.labelled else \
            (s.kind, None if np.isnan(s.decay) else s.decay)
        if key in seen:
            raise ValueError(f"the term {s.call!r} is given twice"
                             f"{' on one attribute' if s.labelled else ''}: its statistics "
                             "would be collinear.")
        seen.add(key)
    table, n = attribute_table(labels, n_nodes)
    if n is None and labels is not None and table is None:
        n = len(labels) if hasattr(labels, "__len__") else None
    sizes, stat_names, columns, tables = [], [], [], []
    for k, spec in enumerate(specs, 1):
        where = f"term {k} ({spec.call})"
        if spec.labelled:
            codes, values = _attribute(spec, table, labels, n, where)
            tab, names = _label_table(spec, values, where)
            if not names:
                raise ValueError(f"the term {spec.call!r} has no statistic: "
                                 + ("the labels have a single level, which 'edges' already "
                                    "counts." if len(values) == 1 else
                                    "its level specification keeps no level."))
            columns.append(codes)
            tables.append(tab)
        else:
            names = [_statistic_name(spec)]
        sizes.append(len(names))
        stat_names += names
    labels_arr = np.stack(columns, axis=1).astype(np.int64) if columns else None
    return ERGMTerms(tuple(s.kind for s in specs), tuple(s.decay for s in specs),
                     tuple(sizes), labels_arr, tuple(tables) if tables else None,
                     tuple(stat_names), tuple(specs))


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


# Alternating sums without cancellation.
#
# With x = 1/decay and r = 1 - x, the terms need ``1 - r^t`` and, for altkstars, the
# per-node value ``psi(d) = lambda (d - lambda (1 - r^d)) = sum_{k=2}^{d} (-1)^k C(d, k)
# lambda^(2-k)`` (the definition, a finite sum). Evaluated as written both lose everything for
# large decays: ``r = 1 - x`` rounds (at decay 1e17 to exactly 1), and ``d - lambda (1 - r^d)``
# cancels (``lambda (1 - r^d) = d - C(d, 2)/lambda + ...``). Here:
#
# - ``1 - r^t = -expm1(t log1p(-x))``: log1p and expm1 keep the relative precision of x for
#   every decay (x itself is 1/decay correctly rounded), so every table entry is accurate to a
#   few ulps;
# - ``psi(d)``: the closed form where ``2 d > lambda`` (there ``lambda (1 - r^d) <= (1 -
#   e^(-1/2)) 2 d``, so at most about 2.2 bits cancel), and the finite series elsewhere, whose
#   terms ``C(d, k) / lambda^(k-2)`` shrink at least 6-fold from one to the next (ratio
#   ``(d - k) / ((k + 1) lambda) <= 1/6``): a few terms give it to full precision, and no
#   power of lambda is formed (no overflow up to the largest float).
#
# The tests check both against exact rational arithmetic for decays 1 to 1e300.


def _one_minus_rho(decay, t):
    """``1 - r^t`` (t a float array), accurately for any decay >= 1 (r = 0 at decay 1)."""
    t = np.asarray(t, dtype=np.float64)
    if decay == 1.0:
        return (t > 0).astype(np.float64)
    return -np.expm1(t * np.log1p(-1.0 / decay))


def rho_tables(decays, size):
    """``r^t`` and ``1 - r^t`` for t = 0..size-1, one row per decay (the sampler's tables).

    ``r^t`` is ``r ** t`` (its absolute error is a few ulps whatever the decay); ``1 - r^t``
    comes from :func:`_one_minus_rho`, never from ``1 - r ** t``, which cancels.
    """
    t = np.arange(size, dtype=np.float64)
    rho = np.ones((len(decays), size))
    omr = np.zeros((len(decays), size))
    for row, decay in enumerate(decays):
        r = 1.0 - 1.0 / decay
        rho[row] = np.power(r, t) if r > 0 else (t == 0).astype(float)
        omr[row] = _one_minus_rho(decay, t)
    return rho, omr


def _kstar_values(decay, dmax):
    """``psi(d) = lambda (d - lambda (1 - r^d))`` for d = 0..dmax (see the notes above)."""
    d = np.arange(dmax + 1, dtype=np.float64)
    out = np.zeros(dmax + 1)
    closed = 2.0 * d > decay
    out[closed] = decay * (d[closed] - decay * _one_minus_rho(decay, d[closed]))
    series = ~closed & (d >= 2)
    if series.any():
        ds = d[series]
        term = ds * (ds - 1.0) / 2.0  # C(d, 2)
        total = term.copy()
        k = 2
        while True:
            term = term * (ds - k) / ((k + 1) * decay)  # C(d, k+1) / lambda^(k-1)
            k += 1
            total += term if k % 2 == 0 else -term
            if not np.any(term > 2.0 ** -60 * total):
                break
        out[series] = total
    return out


def _weighted_sum(counts, values):
    """``sum_t counts[t] values[t]``, the products rounded once each, summed exactly."""
    nz = np.flatnonzero(counts)
    return math.fsum((counts[nz] * values[nz]).tolist())


def edge_arrays(A):
    """The CSR arrays of a checked graph, indices sorted (the shared-partner kernel's input)."""
    B = A if sp.isspmatrix_csr(A) else sp.csr_matrix(A)
    if not B.has_sorted_indices:
        B = B.sorted_indices()
    return B.indptr, B.indices


def term_statistics(A, terms):
    """``s(x)`` of a checked graph (uint8/int ndarray or sparse) for parsed terms."""
    n = A.shape[0]
    if terms.labels is not None and terms.labels.shape[0] != n:
        raise ValueError(f"the terms' labels cover {terms.labels.shape[0]} nodes, the graph has "
                         f"{n}.")
    deg = np.asarray(A.sum(axis=1)).ravel().astype(np.int64)
    n_edges = int(deg.sum()) // 2
    edge_L = hist_L = None
    if any(t in ("altktriangles", "altktwopaths") for t in terms.names):
        # CSR copy (indices and data), the kernel's counters, the per-edge counts
        check_memory(12 * 2 * n_edges + 8 * (4 * n + 2 * n_edges),
                     f"the shared partners of a graph on {n} nodes and {n_edges} edges",
                     " (they are counted edge by edge, in memory linear in the graph)")
        indptr, indices = edge_arrays(A)
        edge_L, hist_L = shared_partners(indptr, indices, n_edges)
    if terms.labels is not None:
        Au = sp.triu(sp.csr_matrix(A), k=1).tocoo()
        rows, cols = Au.row, Au.col
    out = np.zeros(terms.n_statistics)
    k = 0
    for name, decay, off, size in zip(terms.names, terms.decays, terms.offsets, terms.sizes):
        if name == "edges":
            out[off] = n_edges
        elif name == "altkstars":
            hist = np.bincount(deg)
            out[off] = _weighted_sum(hist, _kstar_values(decay, hist.size - 1))
        elif name == "gwdegree":
            # decay sum_i (1 - r^(d_i)), from the degree histogram
            hist = np.bincount(deg)
            out[off] = decay * _weighted_sum(hist, _one_minus_rho(decay, np.arange(hist.size)))
        elif name == "altktriangles":
            # decay sum_{ij in E} (1 - r^(L_ij)), edges in row-major order
            out[off] = float(decay * np.sum(_one_minus_rho(decay, edge_L)))
        elif name == "altktwopaths":
            # decay sum_{i<j} (1 - r^(L_ij)): the dyads without a shared partner add 0
            out[off] = decay * _weighted_sum(hist_L, _one_minus_rho(decay, np.arange(n)))
        else:  # a labelled term: its table says which statistic an edge's levels feed
            tab = terms.levels[k]
            ci, cj = terms.labels[rows, k], terms.labels[cols, k]
            idx = np.concatenate([tab.pair[ci, cj], tab.end[ci], tab.end[cj]])
            out[off:off + size] = np.bincount(idx[idx >= 0], minlength=size)[:size]
            k += 1
    return out


def ergm_statistics(A, statistics, labels=None):
    """The statistic vector ``s(x)`` of a graph for the given ERGM terms.

    Parameters
    ----------
    A : graph on n nodes
        A simple graph under the package's input contract (:func:`tdadp.io.graph_batch`):
        a binary, symmetric adjacency matrix with zero diagonal (dense, nested lists or scipy
        sparse), a networkx graph, an edge list or a packed adjacency. Anything else
        (directed, weighted, self-loops, NaN, a batch) is refused with a ValueError.
    statistics : formula, terms, or a parsed :class:`ERGMTerms`
        See :func:`parse_terms`.
    labels : array-like of shape (n,), DataFrame or dict of arrays, optional
        Node attributes for the labelled terms (default: a networkx graph's own node
        attributes).

    Returns
    -------
    ndarray of float64, shape (n_statistics,)

    Notes
    -----
    Shared partners are counted edge by edge from the sparse adjacency (memory linear in the
    graph, time the sum of squared degrees), never as an n x n matrix; the alternating sums
    are evaluated without cancellation for every decay (see the notes above
    ``rho_tables`` in the source).

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import ergm_statistics
    >>> K4 = np.ones((4, 4), dtype=np.uint8) - np.eye(4, dtype=np.uint8)
    >>> # 6 edges, each in a triangle (decay 1 counts the edges with a shared partner)
    >>> ergm_statistics(K4, ["edges", ("altktriangles", 1.0)]).tolist()
    [6.0, 6.0]
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1), (1, 2)])
    >>> nx.set_node_attributes(G, {0: "F", 1: "F", 2: "M"}, "Sex")
    >>> ergm_statistics(G, "edges + nodematch('Sex', diff=TRUE)").tolist()
    [2.0, 1.0, 0.0]
    """
    if labels is None:
        labels = graph_attributes(A)
    A = as_network(A)
    n = A.shape[0]
    terms = statistics if isinstance(statistics, ERGMTerms) else \
        parse_terms(statistics, labels, n_nodes=n)
    return term_statistics(A, terms)
