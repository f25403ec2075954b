"""Compiled loops over packed graphs (numba), each beside the pure numpy code it must equal.

* :func:`bernoulli_words` turns a chunk of uniforms into the edges of a gRDPG block:
  ``U < P_ij`` with ``P_ij = <A_r, B_j>`` computed on the fly, bits set in place. The
  uniforms come from numpy (``Generator.random``, exactly on the grid ``k 2^-53``), in the
  order the numpy reference draws them, so the kernel realizes exactly the reference's
  Bernoulli(``P_ij``) draws; the only difference is the rounding of ``P_ij`` itself (a dot
  product of ``d`` terms summed left to right here, by BLAS there), which changes an edge only
  when a uniform falls between the two roundings (probability about ``2^-53`` a dyad).
  It spares the reference's ``P``, bool and byte arrays (about 40 bytes of memory traffic a
  dyad): the uniforms themselves (numpy, about 2 ns each) are most of its cost.
* :func:`csr_from_words` fills a symmetric CSR structure from the set bits, rows in order,
  so that every row's column indices come out sorted with no sort.
* :func:`degrees_from_words` counts each row's bits and adds each bit to its column's count
  (64 lanes a word, on every thread with its own counts): one pass over the words.
* :func:`touched_from_words` says which nodes have an edge: a row's words ORed together, and
  every row's words ORed into one row of column bits. A word costs one OR where the degree
  count costs 64 additions.

The references are :func:`bernoulli_block_reference`, :func:`degrees_reference` (here)
and, for the CSR, a ``np.nonzero`` of each unpacked block (the tests).
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

__all__ = ["bernoulli_words", "bernoulli_block_reference", "csr_from_words",
           "degrees_from_words", "degrees_reference", "touched_from_words"]


@njit(nogil=True, cache=True, inline="always")
def _dots(A, BT, r, j0, p):  # pragma: no cover - compiled
    # p[x] = <A[r], BT[:, j0 + x]> for 64 columns, the terms summed left to right (A and BT
    # padded with zero coordinates to a multiple of 4: adding 0.0 changes no sum), four
    # coordinates a pass so that the 64 lanes vectorize.
    a0, a1, a2, a3 = A[r, 0], A[r, 1], A[r, 2], A[r, 3]
    for x in range(64):
        j = j0 + x
        p[x] = 0.0 + a0 * BT[0, j] + a1 * BT[1, j] + a2 * BT[2, j] + a3 * BT[3, j]
    for q in range(4, A.shape[1], 4):
        a0, a1, a2, a3 = A[r, q], A[r, q + 1], A[r, q + 2], A[r, q + 3]
        for x in range(64):
            j = j0 + x
            p[x] = (p[x] + a0 * BT[q, j] + a1 * BT[q + 1, j] + a2 * BT[q + 2, j]
                    + a3 * BT[q + 3, j])


@njit(nogil=True, cache=True)
def bernoulli_words(A, BT, U, r0, cstart, c0, i0, full, lohi):  # pragma: no cover
    # Rows r0 .. r0 + len(U) of a block whose first row is i0; U[rr, x] is the uniform of
    # column j = c0 + cstart + x (c0 and cstart multiples of 64: U's rows start at a word).
    # Dyad (i, j), j > i, is an edge when U < <A[r], BT[:, j]>; its bit goes to
    # full[r, j // 64]. A is (b, D), BT is (D, 64 W), both zero-padded (D a multiple of 4,
    # columns up to the last word). lohi gathers the smallest and largest probability of a
    # dyad, lane by lane (a reduction across lanes would not vectorize).
    rows, L = U.shape
    p = np.empty(64)
    lov = np.full(64, lohi[0])
    hiv = np.full(64, lohi[1])
    one = np.uint64(1)
    # Word by word, all rows of U at each word: the word's 64 columns of BT (4 D doubles
    # each) are read once for all rows, from the L1 cache after the first.
    for u0 in range(0, L, 64):
        j0 = c0 + cstart + u0
        for rr in range(rows):
            r = r0 + rr
            i = i0 + r
            _dots(A, BT, r, j0, p)
            acc = np.uint64(0)
            if j0 > i and u0 + 64 <= L:
                for x in range(64):  # the bulk: 64 dyads
                    v = p[x]
                    lov[x] = v if v < lov[x] else lov[x]
                    hiv[x] = v if v > hiv[x] else hiv[x]
                    acc |= np.uint64(U[rr, u0 + x] < v) << np.uint64(x)
            else:  # the word of the diagonal, or the row's last partial word
                for x in range(min(64, L - u0)):
                    if j0 + x > i:
                        v = p[x]
                        lov[x] = min(lov[x], v)
                        hiv[x] = max(hiv[x], v)
                        if U[rr, u0 + x] < v:
                            acc |= one << np.uint64(x)
            full[r, j0 >> 6] = acc
    lohi[0] = lov.min()
    lohi[1] = hiv.max()


def bernoulli_block_reference(A, B, U, c0, i0, W):
    """The numpy twin of :func:`bernoulli_words` on a whole block: ``U`` of shape
    ``(b, n - c0)``; returns full-width words ``(b, W)`` and the probability range."""
    b, m = U.shape
    n = c0 + m
    P = A @ B[c0:].T
    below = np.arange(c0, n)[None, :] <= (i0 + np.arange(b))[:, None]
    P[below] = 0.5  # not dyads: the diagonal and below
    lo, hi = (float(P.min()), float(P.max())) if P.size else (np.inf, -np.inf)
    bits = np.zeros((b, 64 * W - c0), dtype=np.uint8)
    bits[:, :m] = np.less(U, P) & ~below
    full = np.zeros((b, W), dtype=np.uint64)
    full[:, c0 // 64:] = np.packbits(bits, axis=1, bitorder="little").view(np.uint64)
    return full, lo, hi


@njit(nogil=True, cache=True)
def csr_from_words(words, offsets, first_word, indptr, indices):  # pragma: no cover
    # Row i's stored bits are its neighbours j > i; j's entry i is written at j's cursor.
    # Rows are walked in order, so each row receives its smaller neighbours first (in
    # increasing order, from earlier rows) and then its own larger ones: sorted.
    n = first_word.size
    cursor = indptr[:-1].copy()
    for i in range(n):
        start = offsets[i]
        base = 64 * first_word[i]
        for w in range(start, offsets[i + 1]):
            x = words[w]
            col0 = base + 64 * (w - start)
            while x:
                j = col0 + trailing_zeros(x)
                indices[cursor[i]] = j
                cursor[i] += 1
                indices[cursor[j]] = i
                cursor[j] += 1
                x &= x - np.uint64(1)


@njit(parallel=True, cache=True)
def _degree_counts(words, offsets, first_word, width, n_threads):  # pragma: no cover
    n = first_word.size
    counts = np.zeros((n_threads, width), dtype=np.int64)
    own = np.zeros(n, dtype=np.int64)
    for t in prange(n_threads):
        # Interleaved rows balance the triangle's uneven row lengths across threads.
        for i in range(t, n, n_threads):
            start = offsets[i]
            base = 64 * first_word[i]
            total = 0
            for w in range(start, offsets[i + 1]):
                x = words[w]
                col0 = base + 64 * (w - start)
                for b in range(64):
                    bit = np.int64((x >> np.uint64(b)) & np.uint64(1))
                    counts[t, col0 + b] += bit
                    total += bit
            own[i] = total
    return own, counts


def degrees_from_words(words, offsets, first_word, n):
    """Degrees of a packed graph from its buffer and layout (see :mod:`tdadp.graphs._packed`):
    each row's own bits plus the bits of its column in earlier rows."""
    threads = get_num_threads()
    own, counts = _degree_counts(words, offsets, first_word, 64 * -(-n // 64), threads)
    return own + counts.sum(axis=0)[:n]


@njit(parallel=True, cache=True)
def _touched_bits(words, offsets, first_word, width, n_threads):  # pragma: no cover
    n = first_word.size
    columns = np.zeros((n_threads, width), dtype=np.uint64)
    own = np.zeros(n, dtype=np.bool_)
    for t in prange(n_threads):
        for i in range(t, n, n_threads):
            start = offsets[i]
            f = first_word[i] - start
            seen = np.uint64(0)
            for w in range(start, offsets[i + 1]):
                x = words[w]
                seen |= x
                columns[t, f + w] |= x
            own[i] = seen != 0
    return own, columns


def touched_from_words(words, offsets, first_word, n):
    """Boolean mask of the nodes of a packed graph with at least one edge: a set bit in their
    own row (neighbours ``j > i``) or in their column of an earlier row (``j < i``)."""
    width = -(-n // 64)
    own, columns = _touched_bits(words, offsets, first_word, width, get_num_threads())
    column = np.bitwise_or.reduce(columns, axis=0)
    in_column = np.unpackbits(column.view(np.uint8), count=n, bitorder="little")
    return own | in_column.astype(bool)


def degrees_reference(P):
    """The numpy twin of :func:`degrees_from_words`: popcounts of each block's words, and
    column sums of each unpacked block."""
    deg = np.zeros(P.n, dtype=np.int64)
    for i0, i1 in P.block_ranges():
        full = P.block_words(i0, i1)
        bits = np.unpackbits(full.view(np.uint8), axis=1, count=P.n, bitorder="little")
        deg[i0:i1] += bits.sum(axis=1, dtype=np.int64)
        deg += bits.sum(axis=0, dtype=np.int64)
    return deg
