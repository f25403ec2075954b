"""Maximum bipartite matching (Hopcroft-Karp), compiled, in O(E sqrt(V)) on every input.

scipy's :func:`scipy.sparse.csgraph.maximum_bipartite_matching` is not used: its depth-first
phase never discards a row whose search failed, so a row reachable along k shortest
alternating paths is searched k times. Layered graphs, in which each level has two rows
adjacent to the two columns matched into the next level, make k double with every level
(scipy issue 26147); the bottleneck decision builds exactly such graphs from diagrams whose
points lie along a line, one 1,233 x 1,201 pair taking minutes.

Here each phase is the textbook one (Hopcroft and Karp, 1973): a breadth-first search sets
the level of every row on a shortest augmenting path, then a depth-first search from each
free row follows level-increasing edges, each row keeping the position of the next edge to
try (so an edge is tried at most once a phase) and a row whose edges are exhausted is marked
dead for the rest of the phase. A phase is therefore O(E), and there are O(sqrt(V)) phases.
The search keeps its own stack: recursion would overflow on paths of 10^5 rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["hopcroft_karp", "maximum_matching", "covers_all"]

# The level of a row that no shortest augmenting path reaches, or whose search failed.
_UNREACHED = np.iinfo(np.int64).max


@njit(cache=True, nogil=True)
def _shortest_levels(indptr, indices, row_match, col_match, level):  # pragma: no cover
    # Breadth-first search from the free rows along alternating paths; returns the level
    # (number of rows on the path) at which the first free column is met, or _UNREACHED.
    n_rows = indptr.size - 1
    queue = np.empty(n_rows, dtype=np.int64)
    head = tail = 0
    for v in range(n_rows):
        if row_match[v] < 0:
            level[v] = 0
            queue[tail] = v
            tail += 1
        else:
            level[v] = _UNREACHED
    found = _UNREACHED
    while head < tail:
        v = queue[head]
        head += 1
        if level[v] + 1 >= found:
            break  # the queue is in level order: no shorter path remains
        for e in range(indptr[v], indptr[v + 1]):
            w = col_match[indices[e]]
            if w < 0:
                found = level[v] + 1
            elif level[w] == _UNREACHED:
                level[w] = level[v] + 1
                queue[tail] = w
                tail += 1
    return found


@njit(cache=True, nogil=True)
def _augment_phase(indptr, indices, row_match, col_match, level, found):  # pragma: no cover
    # Vertex-disjoint shortest augmenting paths from every free row, each path found by a
    # depth-first search that advances next_edge[v] past every edge it gives up on.
    n_rows = indptr.size - 1
    next_edge = indptr[:-1].copy()
    stack = np.empty(n_rows, dtype=np.int64)
    gained = 0
    for root in range(n_rows):
        if row_match[root] >= 0 or level[root] != 0:
            continue
        stack[0] = root
        top = 1
        while top > 0:
            v = stack[top - 1]
            end = indptr[v + 1]
            descended = False
            while next_edge[v] < end:
                w = col_match[indices[next_edge[v]]]
                if w < 0:
                    if level[v] + 1 == found:
                        break  # a free column at the shortest length: augment
                elif level[w] == level[v] + 1 and level[w] < found:
                    stack[top] = w
                    top += 1
                    descended = True
                    break
                next_edge[v] += 1
            if descended:
                continue
            if next_edge[v] == end:
                # Dead end: no augmenting path through v remains in this phase.
                level[v] = _UNREACHED
                top -= 1
                continue
            # stack[k] takes the column of its current edge; the rows of the path are
            # spent for this phase (the paths of a phase are vertex-disjoint).
            for k in range(top):
                r = stack[k]
                c = indices[next_edge[r]]
                row_match[r] = c
                col_match[c] = r
                level[r] = _UNREACHED
            gained += 1
            break
    return gained


@njit(cache=True, nogil=True)
def _csr(i, j, n_rows):  # pragma: no cover - compiled
    # Each row's columns, in the order of the edges, by a counting sort: O(E), where an
    # argsort of 10^7 edges takes a second.
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    for e in range(i.size):
        indptr[i[e] + 1] += 1
    for v in range(n_rows):
        indptr[v + 1] += indptr[v]
    fill = indptr[:-1].copy()
    indices = np.empty(i.size, dtype=np.int64)
    for e in range(i.size):
        indices[fill[i[e]]] = j[e]
        fill[i[e]] += 1
    return indptr, indices


@njit(cache=True, nogil=True)
def hopcroft_karp(indptr, indices, n_cols):  # pragma: no cover - compiled
    """Maximum matching of the bipartite graph with row ``v`` adjacent to the columns
    ``indices[indptr[v]:indptr[v + 1]]`` (int64 CSR arrays).

    Returns ``(row_match, col_match)``: the column of each row and the row of each column,
    -1 where unmatched.
    """
    n_rows = indptr.size - 1
    row_match = np.full(n_rows, -1, dtype=np.int64)
    col_match = np.full(n_cols, -1, dtype=np.int64)
    # A greedy start (each row its first free column) leaves the bound intact and usually
    # most of the work done before the first phase.
    for v in range(n_rows):
        for e in range(indptr[v], indptr[v + 1]):
            c = indices[e]
            if col_match[c] < 0:
                row_match[v] = c
                col_match[c] = v
                break
    level = np.empty(n_rows, dtype=np.int64)
    while True:
        found = _shortest_levels(indptr, indices, row_match, col_match, level)
        if found == _UNREACHED:
            break
        if _augment_phase(indptr, indices, row_match, col_match, level, found) == 0:
            break  # pragma: no cover - a reached free column always gives a path
    return row_match, col_match


def maximum_matching(i, j, n_rows, n_cols):
    """A maximum matching of the bipartite graph with the edges ``(i[e], j[e])``.

    Parameters
    ----------
    i, j : array_like of int, shape (n_edges,)
        The row and the column of each edge; repeated edges are allowed.
    n_rows, n_cols : int
        The sizes of the two sides.

    Returns
    -------
    ndarray of int64, shape (n_rows,)
        The column matched to each row, -1 for an unmatched row: the convention of
        ``scipy.sparse.csgraph.maximum_bipartite_matching(graph, perm_type="column")``.

    Raises
    ------
    ValueError
        If ``i`` and ``j`` differ in length or hold an index outside ``0..n_rows - 1``
        (``0..n_cols - 1``): the compiled search does not check its indices.
    """
    i = np.asarray(i, dtype=np.int64).ravel()
    j = np.asarray(j, dtype=np.int64).ravel()
    if i.size != j.size:
        raise ValueError(f"i and j must give one row and one column per edge, got {i.size} "
                         f"rows and {j.size} columns.")
    for name, idx, n in (("i", i, n_rows), ("j", j, n_cols)):
        if idx.size and (idx.min() < 0 or idx.max() >= n):
            raise ValueError(f"{name} must hold indices in 0..{n - 1}, got values from "
                             f"{idx.min()} to {idx.max()}.")
    indptr, indices = _csr(i, j, np.int64(n_rows))
    row_match, _ = hopcroft_karp(indptr, indices, np.int64(n_cols))
    return row_match


def covers_all(i, j, n_rows, n_cols):
    """Whether the bipartite graph with the edges ``(i[e], j[e])`` matches every one of
    ``n_rows`` rows into the ``n_cols`` columns."""
    i = np.asarray(i, dtype=np.int64)
    if n_rows > n_cols or np.unique(i).size < n_rows:
        return False
    return bool((maximum_matching(i, j, n_rows, n_cols) >= 0).all())
