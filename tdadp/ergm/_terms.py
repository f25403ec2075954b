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
- ``"nodematch"``: edges between nodes of the same label (homophily).
- ``"nodefactor"``: for each label level but the first, the number of edge ends at nodes of
  that level (popularity); one statistic a level.
- ``"nodemix"``: for each unordered pair of levels (a, b), a <= b, but the first (0, 0), the
  number of edges between a node of level a and one of level b (mixing).

The first levels are left out because with ``"edges"`` in the model they would make the
statistics collinear (ergm does the same).

A term is named by a string, or by a pair ``(name, decay)`` for the alternating ones (default
decay 2, Snijders et al.'s choice). Labelled terms read the node labels given beside the graph.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

__all__ = [
    "ERGM_TERMS",
    "ALTERNATING_TERMS",
    "LABELLED_TERMS",
    "DEFAULT_DECAY",
    "ERGMTerms",
    "parse_terms",
    "ergm_statistics",
    "check_labels",
]

ALTERNATING_TERMS = ("altkstars", "altktriangles", "altktwopaths")
LABELLED_TERMS = ("nodematch", "nodefactor", "nodemix")
ERGM_TERMS = ("edges", *ALTERNATING_TERMS, *LABELLED_TERMS)
DEFAULT_DECAY = 2.0

# Integer codes of the terms in the compiled sampler (tdadp.ergm._sampler).
TERM_CODES = {name: code for code, name in enumerate(ERGM_TERMS)}


def check_labels(labels, n_nodes):
    """Node labels as level codes 0..L-1 (levels sorted), and the level values.

    Parameters
    ----------
    labels : array-like of shape (n_nodes,)
        Any hashable, sortable values (ints, strings); no missing values.
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
    arr = np.asarray(labels)
    if arr.ndim != 1 or arr.shape[0] != n_nodes:
        raise ValueError(f"labels must have one value per node ({n_nodes}), got shape "
                         f"{arr.shape}.")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError("labels contain NaN: every node needs a label.")
    if arr.dtype == object and any(v is None for v in arr):
        raise ValueError("labels contain None: every node needs a label.")
    try:
        levels, codes = np.unique(arr, return_inverse=True)
    except TypeError as exc:
        raise ValueError(f"labels must be sortable values of one type: {exc}") from None
    return codes.astype(np.int64).ravel(), levels


@dataclass(frozen=True)
class ERGMTerms:
    """A parsed list of terms: what the sampler and the releases work from.

    Attributes
    ----------
    names : tuple of str
        The term of each entry, as given.
    decays : tuple of float
        Decay of each entry (``nan`` for terms without one).
    sizes : tuple of int
        Number of statistics of each entry (labelled terms: one per level or level pair).
    labels : ndarray of int64 or None
        Level code of every node, for labelled terms.
    levels : ndarray or None
        The label values of the codes.
    statistic_names : tuple of str
        One name a statistic, in the order of the statistic vector.
    """

    names: tuple
    decays: tuple
    sizes: tuple
    labels: np.ndarray | None
    levels: np.ndarray | None
    statistic_names: tuple

    @property
    def n_statistics(self):
        return int(sum(self.sizes))

    @property
    def n_levels(self):
        return 0 if self.levels is None else len(self.levels)

    @property
    def offsets(self):
        return tuple(int(v) for v in np.concatenate([[0], np.cumsum(self.sizes)[:-1]]))

    def codes(self):
        """(term codes, decays, offsets) as arrays, for the compiled sampler."""
        codes = np.array([TERM_CODES[n] for n in self.names], dtype=np.int64)
        decays = np.array([d if np.isfinite(d) else 1.0 for d in self.decays], dtype=np.float64)
        return codes, decays, np.array(self.offsets, dtype=np.int64)

    def mix_pairs(self):
        """The level pairs (a, b), a <= b, of ``nodemix``, in statistic order ((0, 0) left out)."""
        L = self.n_levels
        return [(a, b) for a in range(L) for b in range(a, L) if (a, b) != (0, 0)]


def _entry(entry):
    if isinstance(entry, str):
        name, decay = entry, None
    elif isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[0], str):
        name, decay = entry
    else:
        raise ValueError(f"an ERGM term is a name or a pair (name, decay), got {entry!r}.")
    if name not in ERGM_TERMS:
        raise ValueError(f"unknown ERGM term {name!r}; known: {', '.join(ERGM_TERMS)}.")
    if name in ALTERNATING_TERMS:
        decay = DEFAULT_DECAY if decay is None else decay
        if (not isinstance(decay, (numbers.Real, np.floating, np.integer))
                or isinstance(decay, bool) or not np.isfinite(decay) or decay < 1):
            raise ValueError(f"the decay of {name!r} must be a finite number >= 1 (its "
                             f"alternating signs need 0 <= 1 - 1/decay < 1), got {decay!r}.")
        return name, float(decay)
    if decay is not None:
        raise ValueError(f"the term {name!r} takes no decay, got {decay!r}.")
    return name, float("nan")


def parse_terms(statistics, labels=None, n_nodes=None):
    """Parse a list of ERGM terms (and the node labels the labelled ones need).

    Parameters
    ----------
    statistics : str or sequence of (str or (str, float))
        Terms from :data:`ERGM_TERMS`; alternating terms may carry their decay.
    labels : array-like of shape (n_nodes,), optional
        Node labels, needed by (and only used by) the labelled terms.
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
    """
    if isinstance(statistics, str):
        statistics = (statistics,)
    try:
        entries = [_entry(e) for e in statistics]
    except TypeError:
        raise ValueError(f"statistics must be a sequence of ERGM terms, got "
                         f"{type(statistics).__name__}.") from None
    if not entries:
        raise ValueError("an ERGM needs at least one term.")
    seen = set()
    for e in entries:
        if e in seen or (e[0] not in ALTERNATING_TERMS and e[0] in {s[0] for s in seen}):
            raise ValueError(f"the term {e[0]!r} is given twice: its statistics would be "
                             "collinear.")
        seen.add(e)
    names = tuple(e[0] for e in entries)
    decays = tuple(e[1] for e in entries)
    codes = levels = None
    if any(n in LABELLED_TERMS for n in names):
        n = len(labels) if (n_nodes is None and labels is not None) else n_nodes
        codes, levels = check_labels(labels, n)
    L = 0 if levels is None else len(levels)
    sizes, stat_names = [], []
    for name, decay in entries:
        if name == "nodefactor":
            sizes.append(L - 1)
            stat_names += [f"nodefactor[{levels[a]}]" for a in range(1, L)]
        elif name == "nodemix":
            pairs = [(a, b) for a in range(L) for b in range(a, L) if (a, b) != (0, 0)]
            sizes.append(len(pairs))
            stat_names += [f"nodemix[{levels[a]},{levels[b]}]" for a, b in pairs]
        else:
            sizes.append(1)
            stat_names.append(name if np.isnan(decay) else f"{name}({decay:g})")
    for name, size in zip(names, sizes):
        if size == 0:
            raise ValueError(f"the term {name!r} has no statistic: the labels have a single "
                             "level, which 'edges' already counts.")
    return ERGMTerms(names, decays, tuple(sizes), codes, levels, tuple(stat_names))


def mix_index(a, b, n_levels):
    """Position of the level pair (a, b) among nodemix's statistics (-1 for the base (0, 0)).

    Pairs lo <= hi in row-major order of the upper triangle of levels, (0, 0) left out; works
    on ints and on integer arrays. (The compiled sampler repeats this formula inline.)
    """
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    return lo * n_levels - lo * (lo - 1) // 2 + (hi - lo) - 1


def _dense(A):
    return A.toarray() if sp.issparse(A) else np.asarray(A)


def _shared_partners(A):
    """L = A @ A as int64 (dense), zero diagonal."""
    if sp.issparse(A):
        B = sp.csr_matrix(A, dtype=np.int64)
        L = (B @ B).toarray()
    else:
        B = np.asarray(A, dtype=np.float64)
        L = np.rint(B @ B).astype(np.int64)
    np.fill_diagonal(L, 0)
    return L


def _alt_sum(counts, decay):
    """``decay * sum(1 - r^counts)``, r = 1 - 1/decay, stable for counts up to n."""
    r = 1.0 - 1.0 / decay
    return float(decay * np.sum(-np.expm1(counts * np.log(r)))) if r > 0 else \
        float(decay * np.count_nonzero(counts))


def ergm_statistics(A, statistics, labels=None):
    """The statistic vector ``s(x)`` of a graph for the given ERGM terms.

    Parameters
    ----------
    A : adjacency matrix of shape (n, n)
        Binary, symmetric, zero diagonal (dense or scipy sparse).
    statistics : terms, or a parsed :class:`ERGMTerms`
        See :func:`parse_terms`.
    labels : array-like of shape (n,), optional
        Node labels for the labelled terms.

    Returns
    -------
    ndarray of float64, shape (n_statistics,)

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.ergm import ergm_statistics
    >>> K4 = np.ones((4, 4), dtype=np.uint8) - np.eye(4, dtype=np.uint8)
    >>> # 6 edges, each in a triangle (decay 1 counts the edges with a shared partner)
    >>> ergm_statistics(K4, ["edges", ("altktriangles", 1.0)]).tolist()
    [6.0, 6.0]
    """
    n = A.shape[0]
    terms = statistics if isinstance(statistics, ERGMTerms) else \
        parse_terms(statistics, labels, n_nodes=n)
    if terms.labels is not None and terms.labels.shape[0] != n:
        raise ValueError(f"the terms' labels cover {terms.labels.shape[0]} nodes, the graph has "
                         f"{n}.")
    deg = np.asarray(A.sum(axis=1)).ravel().astype(np.int64)
    n_edges = int(deg.sum()) // 2
    need_L = any(t in ("altktriangles", "altktwopaths") for t in terms.names)
    L = _shared_partners(A) if need_L else None
    if terms.labels is not None:
        Au = sp.triu(sp.csr_matrix(A), k=1).tocoo()
        ci, cj = terms.labels[Au.row], terms.labels[Au.col]
    out = np.zeros(terms.n_statistics)
    for name, decay, off in zip(terms.names, terms.decays, terms.offsets):
        if name == "edges":
            out[off] = n_edges
        elif name == "altkstars":
            # lambda^2 sum_i (r^d - 1 + d/lambda) = lambda sum_i (d - lambda (1 - r^d))
            out[off] = decay * (2 * n_edges - _alt_sum(deg.astype(float), decay))
        elif name == "altktriangles":
            iu = np.triu_indices(n, 1)
            on = _dense(A)[iu] != 0
            out[off] = _alt_sum(L[iu][on].astype(float), decay)
        elif name == "altktwopaths":
            iu = np.triu_indices(n, 1)
            out[off] = _alt_sum(L[iu].astype(float), decay)
        elif name == "nodematch":
            out[off] = np.count_nonzero(ci == cj)
        elif name == "nodefactor":
            ends = np.bincount(np.concatenate([ci, cj]), minlength=terms.n_levels)
            out[off:off + terms.n_levels - 1] = ends[1:]
        elif name == "nodemix":
            Lv = terms.n_levels
            idx = mix_index(ci, cj, Lv)
            counts = np.bincount(idx[idx >= 0], minlength=Lv * (Lv + 1) // 2 - 1)
            out[off:off + len(counts)] = counts
    return out
