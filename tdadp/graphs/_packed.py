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
import scipy.sparse as sp

from ..utils._memory import check_memory
from ..utils._validation import check_adjacency
from ._dyads import row_blocks
from ._packed_kernels import csr_from_words, degrees_from_words

__all__ = ["PackedAdjacency", "packed_layout", "n_words", "fill_blocks", "unused_bits"]

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


def n_words(n):
    """Payload words of a packed graph on ``n`` nodes, in Python integers (no array).

    ``sum_i (W - (i + 1) // 64)`` over ``i < n``, ``W = ceil(n / 64)``: the last offset of
    :func:`packed_layout`, without building it.
    """
    W = -(-n // 64)
    q, r = divmod(n, 64)
    return n * W - (32 * q * (q - 1) + q * (r + 1))


def fill_blocks(out, block_words, streams, n_threads=None, progress=None):
    """Store ``block_words(i0, i1, stream)`` (full-width words) for every standard block of
    ``out``, the blocks computed on threads (numpy's random draws, BLAS and comparisons
    release the GIL). Each block has its own stream, so the result does not depend on the
    threads. ``progress`` (e.g. a progress bar's ``update``), when given, is called with each
    block's number of rows once the block is stored, from the calling thread."""
    blocks = out.block_ranges()
    threads = n_threads or min(len(blocks), os.cpu_count() or 1, 4)

    def store(i0, words):
        out.store_block_words(i0, words)
        if progress is not None:
            progress(words.shape[0])

    if threads <= 1:
        for (i0, i1), g in zip(blocks, streams):
            store(i0, block_words(i0, i1, g))
        return out
    with ThreadPoolExecutor(threads) as pool:
        # At most `threads` blocks in flight: bounded memory whatever n.
        pending = []
        for (i0, i1), g in zip(blocks, streams):
            pending.append((i0, pool.submit(block_words, i0, i1, g)))
            if len(pending) >= 2 * threads:
                j0, fut = pending.pop(0)
                store(j0, fut.result())
        for j0, fut in pending:
            store(j0, fut.result())
    return out


# Set bits of each byte value: numpy < 2 has no bitwise_count.
_BYTE_BITS = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)
# Words counted at a time: a few MiB of counts, whatever the graph's size.
_COUNT_CHUNK = 1 << 22


def _popcount(words):
    """Set bits of each uint64 word."""
    words = np.ascontiguousarray(words, dtype=np.uint64)
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(words)
    return _BYTE_BITS[words.view(np.uint8)].reshape(words.shape + (8,)).sum(
        axis=-1, dtype=np.uint8)


def unused_bits(words, n):
    """How many bits of a packed buffer lie outside the graph on ``n`` nodes.

    Those are columns ``<= i`` in row ``i``'s first stored word (the diagonal and below) and
    columns ``>= n`` (padding) in its last; a graph sets none of them. Row blocks at a time,
    vectorised, no dense copy.
    """
    first_word, offsets = packed_layout(n)
    W = -(-n // 64)
    pad = n % 64
    pad_mask = np.uint64(0) if pad == 0 else ~np.uint64((1 << pad) - 1)
    count = 0
    step = 1 << 18
    for i0 in range(0, n, step):
        i1 = min(n, i0 + step)
        rows = np.arange(i0, i1, dtype=np.int64)
        f = first_word[i0:i1]
        stored = f < W  # the last row of a graph with n % 64 == 0 stores no word
        rows, f = rows[stored], f[stored]
        start, end = offsets[i0:i1][stored], offsets[i0 + 1:i1 + 1][stored]
        # Row i's first word covers columns 64 f .. 64 f + 63; those up to i are its
        # (i - 64 f + 1) lowest bits (0 to 63 of them: f = (i + 1) // 64).
        low = (rows - 64 * f + 1).astype(np.uint64)
        mask = (np.uint64(1) << low) - np.uint64(1)
        count += int(_popcount(words[start] & mask).sum(dtype=np.int64))
        if pad:
            count += int(_popcount(words[end - 1] & pad_mask).sum(dtype=np.int64))
    return count



def _count_bits(words):
    """Set bits in all of ``words``, a chunk at a time (no per-bit or per-word array of the
    whole buffer: 8 GiB of unpacked bits for a graph on 100,000 nodes)."""
    return sum(int(_popcount(words[a:a + _COUNT_CHUNK]).sum(dtype=np.int64))
               for a in range(0, words.size, _COUNT_CHUNK))


def _carried(A, nodes, guarantee):
    """``nodes`` and ``guarantee``, defaulting to what the graph ``A`` carries."""
    if nodes is None:
        nodes = getattr(A, "nodes", None)
    if guarantee is None:
        guarantee = getattr(A, "guarantee", None)
    return nodes, guarantee


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

    Notes
    -----
    Conversions: :meth:`from_dense`, :meth:`from_sparse` and :meth:`from_edges` build one
    (row block by row block, never an n x n array beyond the input); :meth:`toarray`,
    :meth:`tocsr` and :func:`tdadp.io.to_networkx` convert back, each refusing up front (a
    ValueError saying how much it needs and how much there is) when the copy would not fit in
    memory. A packed graph pickles (its words, node names and guarantee) and saves to a file
    with :func:`tdadp.save_packed`.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.graphs import PackedAdjacency
    >>> A = np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]], dtype=np.uint8)
    >>> P = PackedAdjacency.from_dense(A)
    >>> P.n, P.count_edges(), bool((P.toarray() == A).all())
    (3, 2, True)
    >>> P.degrees().tolist()
    [2, 1, 1]
    >>> Q = PackedAdjacency.from_edges(3, [0, 2], [1, 0], nodes=["a", "b", "c"])
    >>> Q == P, Q.nodes
    (True, ['a', 'b', 'c'])
    """

    def __init__(self, n, words=None, *, nodes=None, guarantee=None, validate=True):
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"n must be a non-negative integer, got {n!r}.")
        n = int(n)
        total = n_words(n)
        # The layout (two int64 arrays of n + 1) and, when made here, the words.
        check_memory(16.0 * (n + 1) + (8.0 * total if words is None else 0.0),
                     f"a packed graph on {n} nodes")
        self.n = n
        self.first_word, self.offsets = packed_layout(n)
        if words is None:
            words = np.zeros(total, dtype=np.uint64)
        else:
            words = np.asarray(words)
            if words.dtype != np.uint64 or words.ndim != 1 or words.size != total:
                raise ValueError(f"a packed graph on {n} nodes needs {total} uint64 words, got "
                                 f"{words.size} of dtype {words.dtype}.")
            if validate and (unused := unused_bits(words, n)):
                raise ValueError(f"the words set {unused} bit(s) outside the graph (on or "
                                 "below the diagonal, or past the last column), which no "
                                 "graph has.")
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
        """Pack a dense symmetric 0/1 matrix (its strict upper triangle is read).

        Parameters
        ----------
        A : array-like of shape (n, n)
            Only entries ``A[i, j]``, ``j > i``, are read (nonzero: an edge).
        nodes : list, optional
            Default: the node names ``A`` carries (see :mod:`tdadp.graphs`), if any.
        guarantee : PrivacyGuarantee, optional
            Default: the release ``A`` carries, if any.

        Returns
        -------
        PackedAdjacency

        Examples
        --------
        >>> import numpy as np
        >>> from tdadp.graphs import PackedAdjacency
        >>> PackedAdjacency.from_dense(np.ones((4, 4)) - np.eye(4)).count_edges()
        6
        """
        nodes, guarantee = _carried(A, nodes, guarantee)
        A = np.asarray(A)
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise ValueError(f"a dense adjacency must be square, got shape {A.shape}.")
        n = A.shape[0]
        out = cls(n, nodes=nodes, guarantee=guarantee)
        for i0, i1 in out.block_ranges():
            out.set_upper_block(i0, A[i0:i1])
        return out

    @classmethod
    def from_sparse(cls, A, *, nodes=None, guarantee=None):
        """Pack a scipy sparse adjacency matrix, in time and memory proportional to its edges.

        ``A`` is judged by the input contract of simple graphs (square, symmetric, entries 0
        and 1, no self-loops; see :mod:`tdadp.io`): a matrix that is not one raises the
        contract's ValueError rather than being packed by its upper triangle alone.

        Parameters
        ----------
        A : scipy sparse matrix or array of shape (n, n), any format
        nodes : list, optional
            Default: the node names ``A`` carries, if any.
        guarantee : PrivacyGuarantee, optional
            Default: the release ``A`` carries, if any.

        Returns
        -------
        PackedAdjacency

        Raises
        ------
        ValueError
            If ``A`` is not the adjacency of a simple undirected graph.

        Examples
        --------
        >>> import scipy.sparse as sp
        >>> from tdadp.graphs import PackedAdjacency
        >>> S = sp.csr_matrix(([1, 1], ([0, 1], [1, 0])), shape=(3, 3))
        >>> P = PackedAdjacency.from_sparse(S)
        >>> P.toarray().tolist()
        [[0, 1, 0], [1, 0, 0], [0, 0, 0]]
        """
        nodes, guarantee = _carried(A, nodes, guarantee)
        if not sp.issparse(A):
            raise ValueError(f"from_sparse expects a scipy sparse matrix, got "
                             f"{type(A).__name__}; use from_dense for arrays.")
        S = check_adjacency(A, nodes=nodes)
        n = S.shape[0]
        out = cls(n, nodes=nodes, guarantee=guarantee)
        indptr = S.indptr.astype(np.int64, copy=False)
        step = 1 << 22  # stored entries per step: bounded temporaries
        i0 = 0
        while i0 < n:
            i1 = int(np.searchsorted(indptr, indptr[i0] + step, side="right")) - 1
            i1 = min(n, max(i1, i0 + 1))
            rows = np.repeat(np.arange(i0, i1), np.diff(indptr[i0:i1 + 1]))
            cols = S.indices[indptr[i0]:indptr[i1]].astype(np.int64)
            upper = cols > rows
            out._set_bits(rows[upper], cols[upper])
            i0 = i1
        return out

    @classmethod
    def from_edges(cls, n, rows, cols, *, nodes=None, guarantee=None):
        """A packed graph on ``n`` nodes with the undirected edges ``(rows[k], cols[k])``.

        The pairs may come in any order and either orientation; a pair listed more than
        once (e.g. once in each direction) is one edge, as in an edge list. Memory: the
        packed graph plus about 40 bytes an edge of the largest step (``2^22`` edges).

        Parameters
        ----------
        n : int
            Number of nodes.
        rows, cols : array-like of int, shape (m,)
            The edges' endpoints, in ``0 .. n - 1``.
        nodes : list, optional
        guarantee : PrivacyGuarantee, optional

        Returns
        -------
        PackedAdjacency

        Raises
        ------
        ValueError
            If the endpoints are not integers in range, the arrays differ in length, or an
            edge is a self-loop (a simple graph has none).

        Examples
        --------
        >>> from tdadp.graphs import PackedAdjacency
        >>> P = PackedAdjacency.from_edges(4, [0, 1, 3], [1, 0, 2])
        >>> P.count_edges(), P.degrees().tolist()
        (2, [1, 1, 1, 1])
        """
        n = int(n)
        rows, cols = np.asarray(rows), np.asarray(cols)
        if rows.shape != cols.shape or rows.ndim != 1:
            raise ValueError(f"rows and cols must be 1-D arrays of one length, got shapes "
                             f"{rows.shape} and {cols.shape}.")
        for name, a in (("rows", rows), ("cols", cols)):
            if a.size and not np.issubdtype(a.dtype, np.integer):
                raise ValueError(f"{name} must hold integer node indices, got dtype "
                                 f"{a.dtype}.")
            outside = int(np.count_nonzero((a < 0) | (a >= n))) if a.size else 0
            if outside:
                # Counts only: the edges may be private.
                raise ValueError(f"{name} holds {outside} node indices outside 0 .. {n - 1}.")
        loops = int(np.count_nonzero(rows == cols))
        if loops:
            raise ValueError(f"the edges hold {loops} self-loop(s); a simple graph has none: "
                             "drop them first.")
        out = cls(n, nodes=nodes, guarantee=guarantee)
        step = 1 << 22
        for s in range(0, rows.size, step):
            r = rows[s:s + step].astype(np.int64)
            c = cols[s:s + step].astype(np.int64)
            out._set_bits(np.minimum(r, c), np.maximum(r, c))
        return out

    def _set_bits(self, i, j):
        # Set the bits of dyads (i, j), i < j (repeats allowed: OR).
        where = self.offsets[i] + (j >> 6) - self.first_word[i]
        np.bitwise_or.at(self.words, where, np.left_shift(np.uint64(1),
                                                          (j & 63).astype(np.uint64)))

    def toarray(self):
        """The dense symmetric uint8 adjacency matrix (``n^2`` bytes).

        Returns
        -------
        ndarray of uint8, shape (n, n)
            A plain array: tag it with :func:`tdadp.graphs.tag_graph` to carry the node names
            and release.

        Raises
        ------
        ValueError
            Up front, when ``n^2`` bytes would not fit in the memory left (the message says
            how much is needed and available).

        Examples
        --------
        >>> from tdadp.graphs import PackedAdjacency
        >>> PackedAdjacency.from_edges(3, [0], [2]).toarray().tolist()
        [[0, 0, 1], [0, 0, 0], [1, 0, 0]]
        """
        check_memory(float(self.n) ** 2, f"a dense copy of a packed graph on {self.n} nodes",
                     " Keep it packed: the embedding and the mechanisms take packed graphs.")
        out = np.zeros((self.n, self.n), dtype=np.uint8)
        for i0, i1 in self.block_ranges():
            block = self.upper_block(i0, i1)
            out[i0:i1] |= block
            out[:, i0:i1] |= block.T
        return out

    def tocsr(self):
        """The symmetric uint8 CSR adjacency, sized from the degrees (no n x n array).

        Column indices are sorted, int32 when ``n`` and the number of stored entries fit
        (else int64): ``2 * edges * (1 + 4) + 4 (n + 1)`` bytes, or with int64 indices
        ``2 * edges * (1 + 8) + 8 (n + 1)``.

        Returns
        -------
        scipy.sparse.csr_matrix of uint8, shape (n, n)
            A plain matrix: tag it with :func:`tdadp.graphs.tag_graph` to carry the node
            names and release.

        Raises
        ------
        ValueError
            Up front, when the matrix would not fit in the memory left.

        Examples
        --------
        >>> from tdadp.graphs import PackedAdjacency
        >>> S = PackedAdjacency.from_edges(3, [0, 1], [1, 2]).tocsr()
        >>> S.nnz, S.indices.dtype
        (4, dtype('int32'))
        """
        deg = self.degrees()
        nnz = int(deg.sum())
        index = np.int32 if max(nnz, self.n) < 2**31 else np.int64
        size = np.dtype(index).itemsize
        check_memory(nnz * (1 + size) + 2 * size * (self.n + 1) + 8 * self.n,
                     f"a sparse copy of a packed graph on {self.n} nodes ({nnz // 2} edges)",
                     " Keep it packed: the embedding and the mechanisms take packed graphs.")
        indptr = np.zeros(self.n + 1, dtype=index)
        np.cumsum(deg, out=indptr[1:])
        indices = np.empty(nnz, dtype=index)
        csr_from_words(self.words, self.offsets, self.first_word, indptr, indices)
        out = sp.csr_matrix((np.ones(nnz, dtype=np.uint8), indices, indptr),
                            shape=self.shape, copy=False)
        out.has_sorted_indices = True
        return out

    def degrees(self):
        """The degree of every node, in one pass over the words (no dense copy).

        Row ``i``'s stored bits are its neighbours ``j > i``; its neighbours ``j < i`` are
        the bits of column ``i`` in earlier rows. A compiled kernel counts both (on every
        thread, with its own column counts).

        Returns
        -------
        ndarray of int64, shape (n,)

        Examples
        --------
        >>> from tdadp.graphs import PackedAdjacency
        >>> PackedAdjacency.from_edges(4, [0, 0, 0], [1, 2, 3]).degrees().tolist()
        [3, 1, 1, 1]
        """
        return degrees_from_words(self.words, self.offsets, self.first_word, self.n)

    def count_edges(self):
        """Number of edges (set bits)."""
        return _count_bits(self.words)

    def copy(self):
        return PackedAdjacency(self.n, self.words.copy(), validate=False, nodes=self.nodes,
                               guarantee=self.guarantee)

    def __eq__(self, other):
        if not isinstance(other, PackedAdjacency):
            return NotImplemented
        return self.n == other.n and np.array_equal(self.words, other.words)

    __hash__ = None
