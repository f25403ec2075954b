"""The nodes of a graph with no edge to another node, in any container."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._packed import PackedAdjacency
from ._packed_kernels import touched_from_words

__all__ = ["isolated_nodes"]

# Entries of a dense graph scanned at once (16 MB of booleans).
_COUNT_ENTRIES = 1 << 24


def isolated_nodes(A):
    """Boolean mask of the nodes with no edge to another node.

    A self-loop is not an edge to another node and an explicit zero is no edge. The
    embedding marks these nodes (:attr:`~tdadp.LatentPositions.isolated`); the clustering
    recipes and the CLI leave them out of clustering, labelled -1.

    Parameters
    ----------
    A : ndarray, scipy sparse matrix or PackedAdjacency
        A square adjacency matrix.

    Returns
    -------
    ndarray of bool of shape (n,)

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.graphs import isolated_nodes
    >>> isolated_nodes(np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]])).tolist()
    [False, False, True]
    """
    if isinstance(A, PackedAdjacency):
        # Bits of the strict upper triangle only; whether a node has an edge, not how many
        # (the degrees take 64 additions a word, this one OR).
        return ~touched_from_words(A.words, A.offsets, A.first_word, A.n)
    if sp.issparse(A):
        stored = sp.csr_array(A, copy=True)
        stored.sum_duplicates()
        stored.eliminate_zeros()
        neighbours = np.diff(stored.indptr) - (stored.diagonal() != 0)
    else:
        # By blocks of rows: count_nonzero makes a boolean copy of what it counts.
        n = A.shape[0]
        step = max(1, _COUNT_ENTRIES // max(n, 1))
        neighbours = np.concatenate([np.count_nonzero(A[i:i + step], axis=1)
                                     for i in range(0, n, step)]) - (np.diagonal(A) != 0)
    return np.asarray(neighbours) == 0
