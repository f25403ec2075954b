"""Exact ERGM computations on tiny node sets, by enumerating every graph.

With n nodes there are ``2^(n(n-1)/2)`` graphs: 32,768 at n = 6, two million at n = 7. Over
them an ERGM's normalizing constant, mean statistics and (with a prior on a grid) posterior
are exact sums. These are the oracles the samplers and the Bayesian inference are tested
against; they also let a user check a model on a toy network.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.special import logsumexp

from ._terms import ERGMTerms, parse_terms

__all__ = ["MAX_ENUMERATION_NODES", "enumerate_graphs", "ergm_log_partition",
           "ergm_exact_mean"]

#: Enumeration is offered up to 7 nodes (2,097,152 graphs, about 1 GB).
MAX_ENUMERATION_NODES = 7


def _pairs(n):
    return list(itertools.combinations(range(n), 2))


def _batch_statistics(bits, n, terms):
    """Statistics of a batch of graphs given by their dyad bits (G, N)."""
    G = bits.shape[0]
    A = np.zeros((G, n, n), dtype=np.int16)
    for d, (i, j) in enumerate(_pairs(n)):
        A[:, i, j] = A[:, j, i] = bits[:, d]
    deg = A.sum(axis=2).astype(np.float64)
    n_edges = bits.sum(axis=1).astype(np.float64)
    need_L = any(t in ("altktriangles", "altktwopaths") for t in terms.names)
    if need_L:
        Af = A.astype(np.float64)
        L = np.rint(np.matmul(Af, Af)).astype(np.int64)
        iu = np.triu_indices(n, 1)
        Lu = L[:, iu[0], iu[1]].astype(np.float64)
    out = np.zeros((G, terms.n_statistics))
    labels = terms.labels
    _, column, _, _ = terms.label_arrays(n)
    for name_index, (name, decay, off) in enumerate(zip(terms.names, terms.decays,
                                                        terms.offsets)):
        r = 1.0 - 1.0 / decay if np.isfinite(decay) else 0.0
        pw = (lambda x, r=r: np.power(r, x)) if r > 0 else (lambda x: (x == 0).astype(float))
        if name == "edges":
            out[:, off] = n_edges
        elif name == "altkstars":
            out[:, off] = decay * (2 * n_edges - decay * np.sum(1 - pw(deg), axis=1))
        elif name == "altktriangles":
            out[:, off] = decay * np.sum(bits * (1 - pw(Lu)), axis=1)
        elif name == "altktwopaths":
            out[:, off] = decay * np.sum(1 - pw(Lu), axis=1)
        elif name == "gwdegree":
            out[:, off] = decay * np.sum(1 - pw(deg), axis=1)
        else:
            k = column[name_index]
            tab = terms.levels[k]
            for d, (i, j) in enumerate(_pairs(n)):
                a, b = labels[i, k], labels[j, k]
                on = bits[:, d].astype(np.float64)
                for idx in (tab.pair[a, b], tab.end[a], tab.end[b]):
                    if idx >= 0:
                        out[:, off + idx] += on
    return out, deg.max(axis=1) if n else np.zeros(G)


def enumerate_graphs(n_nodes, statistics, labels=None, max_degree=None, *, unique=True):
    """The statistics of every graph on ``n_nodes`` nodes (optionally of bounded degree).

    Parameters
    ----------
    n_nodes : int, 2 <= n_nodes <= 7
    statistics : sequence of terms, or ERGMTerms
    labels : array-like of shape (n_nodes,), optional
    max_degree : int, optional
        Keep only graphs of maximum degree at most ``max_degree``.
    unique : bool, default=True
        Return the distinct statistic vectors with their multiplicities (what every exact sum
        over graphs needs) rather than one row per graph.

    Returns
    -------
    stats : ndarray of shape (m, p)
    counts : ndarray of int64 of shape (m,)
        How many graphs have each row's statistics (all ones when ``unique=False``, and then
        row g is the graph whose dyad bits, in lexicographic dyad order, spell g in binary,
        least significant bit first).

    Examples
    --------
    >>> from tdadp.ergm import enumerate_graphs
    >>> stats, counts = enumerate_graphs(4, ["edges"])
    >>> stats.ravel().tolist(), counts.tolist()   # C(6, k) graphs with k edges
    ([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [1, 6, 15, 20, 15, 6, 1])
    """
    n = int(n_nodes)
    if not 2 <= n <= MAX_ENUMERATION_NODES:
        raise ValueError(f"enumeration covers 2 to {MAX_ENUMERATION_NODES} nodes "
                         f"(2^(n(n-1)/2) graphs), got n_nodes={n_nodes}.")
    terms = statistics if isinstance(statistics, ERGMTerms) else \
        parse_terms(statistics, labels, n_nodes=n)
    N = n * (n - 1) // 2
    chunks, degs = [], []
    step = 1 << min(N, 16)
    for start in range(0, 1 << N, step):
        codes = np.arange(start, min(start + step, 1 << N), dtype=np.int64)
        bits = ((codes[:, None] >> np.arange(N)) & 1).astype(np.int16)
        s, dmax = _batch_statistics(bits, n, terms)
        chunks.append(s)
        degs.append(dmax)
    stats = np.concatenate(chunks)
    dmax = np.concatenate(degs)
    if max_degree is not None:
        keep = dmax <= int(max_degree)
        stats = stats[keep]
    if not unique:
        return stats, np.ones(stats.shape[0], dtype=np.int64)
    # Statistics are sums of a few float terms: round away last-bit noise before grouping.
    key = np.round(stats, 9)
    rows, inverse = np.unique(key, axis=0, return_inverse=True)
    counts = np.bincount(inverse.ravel(), minlength=rows.shape[0]).astype(np.int64)
    # One exact representative per group (the rounded key only groups).
    first = np.zeros(rows.shape[0], dtype=np.int64)
    first[inverse.ravel()[::-1]] = np.arange(stats.shape[0])[::-1]
    return stats[first], counts


def ergm_log_partition(theta, stats, counts):
    """``log Z(theta) = log sum_g exp(theta · s(g))`` over enumerated statistics.

    ``theta`` may be (p,) or a grid (K, p); the result is a float or (K,).
    """
    theta = np.asarray(theta, dtype=np.float64)
    logw = np.log(counts.astype(np.float64))
    return logsumexp(np.atleast_2d(theta) @ stats.T + logw, axis=1) if theta.ndim == 2 else \
        float(logsumexp(stats @ theta + logw))


def ergm_exact_mean(theta, stats, counts):
    """Exact ``E_theta[s(x)]`` over enumerated statistics."""
    theta = np.asarray(theta, dtype=np.float64)
    logp = stats @ theta + np.log(counts.astype(np.float64))
    w = np.exp(logp - logsumexp(logp))
    return w @ stats
