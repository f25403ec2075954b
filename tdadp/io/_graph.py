"""Edges (with values) to the exact adjacency matrix they define.

Containers that list edges (networkx graphs, edge lists) are first turned into the matrix they
describe, weights and self-loops included; the simple-graph contract
(:func:`tdadp.utils._validation.check_adjacency`) then judges that matrix exactly as it judges
a matrix given directly, so every container gets the same answer.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = ["edges_to_matrix"]


def _label(name, limit=40):
    text = repr(name)
    return text if len(text) <= limit else text[:limit] + "..."


def _pair_name(i, j, nodes):
    # node labels come from the input: at most 40 characters of each
    return f"({_label(nodes[i])}, {_label(nodes[j])})" if nodes is not None else f"({i}, {j})"


def edges_to_matrix(rows, cols, values, n, *, merge, nodes=None, source="the input"):
    """Symmetric CSR matrix (float64) with ``values[k]`` at ``(rows[k], cols[k])`` and mirror.

    A self-loop ``(i, i)`` puts its value on the diagonal once. A pair listed more than once
    (in either direction) is merged by ``merge``: ``"sum"`` adds the values (the parallel
    edges of a multigraph); ``"same"`` requires one value (an edge list that names an edge
    twice, e.g. once in each direction) and raises a ValueError naming the pair otherwise.
    """
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    values = np.asarray(values, dtype=np.float64)
    u, v = np.minimum(rows, cols), np.maximum(rows, cols)
    keys, inverse = np.unique(u * n + v, return_inverse=True)
    if merge == "sum":
        merged = np.bincount(inverse, weights=values, minlength=keys.size)
    else:
        lo = np.full(keys.size, np.inf)
        hi = np.full(keys.size, -np.inf)
        np.minimum.at(lo, inverse, values)
        np.maximum.at(hi, inverse, values)
        if np.any(lo != hi):
            k = int(np.flatnonzero(lo != hi)[0])
            i, j = divmod(int(keys[k]), n)
            raise ValueError(
                f"{source} gives the edge {_pair_name(i, j, nodes)} more than once with "
                f"different weights ({lo[k]:g} and {hi[k]:g}); an undirected edge has one "
                "weight.")
        merged = lo
    u, v = keys // n, keys % n
    off = u != v
    r = np.concatenate([u, v[off]])
    c = np.concatenate([v, u[off]])
    A = sp.csr_matrix((np.concatenate([merged, merged[off]]), (r, c)), shape=(n, n))
    A.eliminate_zeros()  # an edge of weight 0 is no edge, as a zero entry of a matrix
    A.sort_indices()
    return A
