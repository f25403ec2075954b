"""Edge arrays to a simple undirected graph's adjacency matrix."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp


def edges_to_adjacency(rows, cols, n, *, sparse=True, source="the input", stacklevel=3):
    """Symmetric, hollow, binary adjacency of the undirected edges (rows[i], cols[i]).

    Duplicated edges (in either direction) are merged; self-loops are dropped with a warning.
    Returns a CSR matrix of dtype uint8 with sorted indices, or a dense uint8 array.
    """
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    loops = rows == cols
    n_loops = int(np.count_nonzero(loops))
    if n_loops:
        warnings.warn(
            f"{source} has {n_loops} self-loop(s); they were dropped (an adjacency matrix of a "
            "simple graph has a zero diagonal).",
            UserWarning, stacklevel=stacklevel,
        )
        rows, cols = rows[~loops], cols[~loops]
    u = np.minimum(rows, cols)
    v = np.maximum(rows, cols)
    key = np.unique(u * n + v)
    u, v = key // n, key % n
    r = np.concatenate([u, v])
    c = np.concatenate([v, u])
    A = sp.csr_matrix((np.ones(r.size, dtype=np.uint8), (r, c)), shape=(n, n))
    A.sort_indices()
    return A if sparse else A.toarray()
