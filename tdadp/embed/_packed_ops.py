"""Products with a packed graph (one bit per dyad) without ever forming its n x n matrix.

``A V`` for the symmetric 0/1 matrix ``A = U + U^T`` whose strict upper triangle ``U`` a
:class:`~tdadp.graphs.PackedAdjacency` stores. A compiled kernel walks the set bits of each
row once, adding ``V[j]`` to row ``i`` of the result (the ``U V`` part) and ``V[i]`` to row
``j`` of a per-thread accumulator (the ``U^T V`` part, summed at the end: no write races).
Its cost is one pass over the words plus ``2k`` additions a stored edge.

:func:`packed_matmat_reference` does the same with numpy, block by block (unpack, cast,
BLAS): slower, kept as the tests' reference.
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

from ..graphs._packed import PackedAdjacency, packed_layout

__all__ = ["packed_matmat", "packed_rows_matmat", "packed_matmat_reference",
           "packed_degrees"]


@njit(parallel=True, cache=True)
def _matmat_kernel(words, offsets, first_word, row0, n, V, n_threads):
    # Rows row0 .. row0 + len(first_word) of a packed graph on n nodes: their words, with
    # offsets relative to words[0]. Returns their share of A V: the rows' own products and
    # their transposed contributions to every row.
    k = V.shape[1]
    n_rows = first_word.size
    upper = np.zeros((n, k))
    lower = np.zeros((n_threads, n, k))
    for t in prange(n_threads):
        acc = np.zeros(k)
        # Interleaved rows balance the triangle's uneven row lengths across threads.
        for r in range(t, n_rows, n_threads):
            i = row0 + r
            acc[:] = 0.0
            start = offsets[r]
            stop = offsets[r + 1]
            base = 64 * first_word[r]
            for w in range(start, stop):
                x = words[w]
                col0 = base + 64 * (w - start)
                while x:
                    low = x & (~x + np.uint64(1))
                    j = col0 + trailing_zeros(x)
                    for c in range(k):
                        acc[c] += V[j, c]
                        lower[t, j, c] += V[i, c]
                    x ^= low
            for c in range(k):
                upper[i, c] = acc[c]
    for t in range(n_threads):
        upper += lower[t]
    return upper


def _threads():
    return max(1, min(get_num_threads(), 8))


def packed_matmat(A, V):
    """``A @ V`` for a packed graph ``A`` (n nodes) and ``V`` of shape (n, k), in float64."""
    V = np.ascontiguousarray(V, dtype=np.float64)
    squeeze = V.ndim == 1
    if squeeze:
        V = V[:, None]
    out = _matmat_kernel(A.words, A.offsets, A.first_word, 0, A.n, V, _threads())
    return out[:, 0] if squeeze else out


def packed_rows_matmat(words, i0, i1, n, V):
    """The share of rows ``i0..i1`` in ``A @ V``, from those rows' packed words alone.

    ``words`` is ``A.words[A.offsets[i0]:A.offsets[i1]]`` of a packed graph on ``n`` nodes; the
    result (n x k) summed over a partition of the rows is ``A @ V``. What a worker holding a
    partition of a distributed packed graph computes.
    """
    first, offsets = packed_layout(n)
    rel = offsets[i0:i1 + 1] - offsets[i0]
    V = np.ascontiguousarray(V, dtype=np.float64)
    return _matmat_kernel(np.ascontiguousarray(words), rel, first[i0:i1].copy(), i0, n, V,
                          _threads())


def packed_matmat_reference(A, V):
    """``A @ V`` by blocks of unpacked rows and BLAS (the tests' reference)."""
    V = np.asarray(V, dtype=np.float64)
    out = np.zeros((A.n,) + V.shape[1:])
    for i0, i1 in A.block_ranges():
        U = A.upper_block(i0, i1).astype(np.float64)
        out[i0:i1] += U @ V
        out += U.T @ V[i0:i1]
    return out


def packed_degrees(A):
    """Degree of every node of a packed graph (row sums of ``A``)."""
    if not isinstance(A, PackedAdjacency):
        raise TypeError("packed_degrees expects a PackedAdjacency.")
    return packed_matmat(A, np.ones((A.n, 1)))[:, 0]
