"""A simple undirected graph at one bit per dyad: the compact form of a dense private release.

edgeFlip makes every graph dense (at eps = 1 it flips 27% of all dyads), so a 100,000-node
release has about 1.35 billion edges: 10.8 GB as a sparse matrix, 10 GB as a dense uint8
array, but 625 MB as bits of its upper triangle.

Layout (fixed, and the one the file format stores):

* ``W = ceil(n / 64)`` 64-bit words span a full row; column ``j`` is bit ``j % 64`` (least
  significant first) of word ``j // 64``.
* Row ``i`` stores its words ``(i + 1) // 64, ..., W - 1`` only (the strict upper triangle,
  word-aligned, so that word ``w`` of every row covers the same 64 columns); bits of columns
  ``<= i`` in its first word are zero.
* The rows' words are concatenated in row order in one uint64 array; row ``i`` occupies
  ``words[offsets[i]:offsets[i + 1]]``.

The total is about ``n^2 / 128`` words: ``n (n - 1) / 16`` bytes plus at most 16 bytes a row.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..utils._validation import check_memory
from ._dyads import row_blocks, symmetric_csr

__all__ = ["PackedAdjacency", "packed_layout", "fill_blocks"]

if sys.byteorder != "little":  # pragma: no cover - every platform numpy wheels exist for
    raise ImportError("tdadp's packed graphs assume a little-endian machine.")


def packed_layout(n):
    """``(first_word, offsets)`` of the packed layout of a graph on ``n`` nodes.

    ``first_word[i] = (i + 1) // 64`` is the index (within a full row of ``ceil(n/64)``
    words) of row ``i``'s first stored word; ``offsets`` (length ``n + 1``) locates each row's
    words in the concatenated buffer.
    """
    n = int(n)
    W = -(-n // 64)
    first = (np.arange(n, dtype=np.int64) + 1) // 64
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(W - first, out=offsets[1:])
    return first, offsets


def fill_blocks(out, block_words, streams, n_threads=None):
    """Store ``block_words(i0, i1, stream)`` (full-width words) for every standard block of
    ``out``, the blocks computed on threads (numpy's random draws, BLAS and comparisons
    release the GIL). Each block has its own stream, so the result does not depend on the
    threads."""
    blocks = out.block_ranges()
    threads = n_threads or min(len(blocks), os.cpu_count() or 1, 4)
    if threads <= 1:
        for (i0, i1), g in zip(blocks, streams):
            out.store_block_words(i0, block_words(i0, i1, g))
        return out
    with ThreadPoolExecutor(threads) as pool:
        # At most `threads` blocks in flight: bounded memory whatever n.
        pending = []
        for (i0, i1), g in zip(blocks, streams):
            pending.append((i0, pool.submit(block_words, i0, i1, g)))
            if len(pending) >= 2 * threads:
                j0, fut = pending.pop(0)
                out.store_block_words(j0, fut.result())
        for j0, fut in pending:
            out.store_block_words(j0, fut.result())
    return out


class PackedAdjacency:
    """A simple undirected graph stored as its strict upper triangle, one bit per dyad.

    Parameters
    ----------
    n : int
        Number of nodes.
    words : ndarray of uint64, optional
        The packed buffer (see the module notes for the layout); zeros (no edge) if omitted.
    nodes : list, optional
        Node names, as every graph of tdadp may carry.
    guarantee : PrivacyGuarantee, optional
        The release this graph is, as every released graph carries.

    Attributes
    ----------
    n : int
    shape : (n, n)
    words : ndarray of uint64
    offsets : ndarray of int64, shape (n + 1,)
    first_word : ndarray of int64, shape (n,)
    nodes, guarantee

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.graphs import PackedAdjacency
    >>> A = np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]], dtype=np.uint8)
    >>> P = PackedAdjacency.from_dense(A)
    >>> P.n, P.count_edges(), bool((P.toarray() == A).all())
    (3, 2, True)
    """

    def __init__(self, n, words=None, *, nodes=None, guarantee=None):
        n = int(n)
        if n < 0:
            raise ValueError(f"n must be non-negative, got {n}.")
        self.n = n
        self.first_word, self.offsets = packed_layout(n)
        total = int(self.offsets[-1])
        if words is None:
            words = np.zeros(total, dtype=np.uint64)
        else:
            words = np.asarray(words)
            if words.dtype != np.uint64 or words.ndim != 1 or words.size != total:
                raise ValueError(f"a packed graph on {n} nodes needs {total} uint64 words, got "
                                 f"{words.size} of dtype {words.dtype}.")
        self.words = words
        self.nodes = None if nodes is None else list(nodes)
        if self.nodes is not None and len(self.nodes) != n:
            raise ValueError(f"{len(self.nodes)} node names for a graph with {n} nodes.")
        self.guarantee = guarantee

    # ------------------------------------------------------------------ basic properties
    @property
    def shape(self):
        return (self.n, self.n)

    @property
    def n_words_per_row(self):
        """``W = ceil(n / 64)``, the words of a full row."""
        return -(-self.n // 64)

    @property
    def nbytes(self):
        return int(self.words.nbytes)

    def __repr__(self):
        return (f"PackedAdjacency(n={self.n}, {self.nbytes / 2**20:.1f} MiB"
                + (f", released by {self.guarantee.mechanism}" if self.guarantee else "") + ")")

    # ------------------------------------------------------------------ row blocks
    def block_ranges(self):
        """Row ranges ``[i0, i1)`` of the standard blocks (fixed by ``n`` alone)."""
        return list(row_blocks(self.n))

    def _mask(self, i0, i1):
        return np.arange(self.n_words_per_row)[None, :] >= self.first_word[i0:i1, None]

    def block_words(self, i0, i1):
        """Rows ``i0..i1`` as full-width words, shape ``(i1 - i0, W)`` (zeros where unstored)."""
        full = np.zeros((i1 - i0, self.n_words_per_row), dtype=np.uint64)
        full[self._mask(i0, i1)] = self.words[self.offsets[i0]:self.offsets[i1]]
        return full

    def upper_block(self, i0, i1):
        """Rows ``i0..i1`` of the strict upper triangle as a uint8 array of shape (b, n)."""
        full = self.block_words(i0, i1)
        return np.unpackbits(full.view(np.uint8), axis=1, count=self.n, bitorder="little")

    def pack_rows(self, i0, block):
        """Full-width words (b, W) of the strict upper part of rows ``i0..`` of a (b, n) 0/1
        array (entries ``j <= i`` ignored)."""
        block = np.asarray(block)
        b = block.shape[0]
        if block.shape != (b, self.n):
            raise ValueError(f"a block of rows needs shape (b, {self.n}), got {block.shape}.")
        W = self.n_words_per_row
        bits = np.zeros((b, 64 * W), dtype=np.uint8)
        bits[:, :self.n] = block != 0
        # Keep the strict upper triangle only: the diagonal and below are not stored.
        for r in range(b):
            bits[r, :i0 + r + 1] = 0
        return np.packbits(bits, axis=1, bitorder="little").view(np.uint64)

    def store_block_words(self, i0, full):
        """Store rows ``i0..i0 + len(full)`` from full-width words (b, W) (see
        :meth:`block_words`); bits of columns ``<= i`` must be zero."""
        i1 = i0 + full.shape[0]
        self.words[self.offsets[i0]:self.offsets[i1]] = full[self._mask(i0, i1)]

    def set_upper_block(self, i0, block):
        """Store rows ``i0..i0 + len(block)`` from a (b, n) 0/1 array; entries ``j <= i`` are
        ignored."""
        self.store_block_words(i0, self.pack_rows(i0, block))

    # ------------------------------------------------------------------ conversions
    @classmethod
    def from_dense(cls, A, *, nodes=None, guarantee=None):
        """Pack a dense symmetric 0/1 matrix (its strict upper triangle is read)."""
        A = np.asarray(A)
        n = A.shape[0]
        out = cls(n, nodes=nodes, guarantee=guarantee)
        for i0, i1 in out.block_ranges():
            out.set_upper_block(i0, A[i0:i1])
        return out

    def toarray(self):
        """The dense symmetric uint8 adjacency matrix (n x n bytes), refused up front when it
        would not fit."""
        check_memory(float(self.n) ** 2, f"a dense copy of a packed graph on {self.n} nodes",
                     " Keep it packed: the embedding and the mechanisms take packed graphs.")
        out = np.zeros((self.n, self.n), dtype=np.uint8)
        for i0, i1 in self.block_ranges():
            block = self.upper_block(i0, i1)
            out[i0:i1] |= block
            out[:, i0:i1] |= block.T
        return out

    def tocsr(self):
        """The symmetric uint8 CSR adjacency, built block by block (no n x n array), refused
        up front when it would not fit."""
        # Two int64 coordinates a stored edge while building, then int32/int64 CSR indices.
        check_memory(40.0 * self.count_edges(), f"a sparse copy of a packed graph on {self.n} "
                     "nodes", " Keep it packed: the embedding and the mechanisms take packed "
                     "graphs.")
        rows, cols = [], []
        for i0, i1 in self.block_ranges():
            r, c = np.nonzero(self.upper_block(i0, i1))
            rows.append(r + i0)
            cols.append(c)
        empty = np.empty(0, dtype=np.int64)
        return symmetric_csr(np.concatenate(rows) if rows else empty,
                             np.concatenate(cols) if cols else empty, self.n)

    def count_edges(self):
        """Number of edges (set bits)."""
        if hasattr(np, "bitwise_count"):
            return int(np.bitwise_count(self.words).sum(dtype=np.int64))
        return int(np.unpackbits(self.words.view(np.uint8)).sum(dtype=np.int64))

    def copy(self):
        return PackedAdjacency(self.n, self.words.copy(), nodes=self.nodes,
                               guarantee=self.guarantee)

    def __eq__(self, other):
        if not isinstance(other, PackedAdjacency):
            return NotImplemented
        return self.n == other.n and np.array_equal(self.words, other.words)

    __hash__ = None
