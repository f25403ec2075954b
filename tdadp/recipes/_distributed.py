"""A packed private graph partitioned in row blocks over Dask workers.

The graph never gathers on one machine. Each worker samples a gRDPG and flips it for its own
partition of row blocks. Each block draws from its own spawned stream
(:func:`~tdadp.utils.block_streams`), so the release is bit-for-bit the one the in-process path
gives with the same seeds, wherever a block runs. The embedding's block products run as tasks
on the workers. Only the n x k blocks travel: the driver sends V, each partition computes its
share of ``A V``, and the shares are summed in a tree on the workers.

Nothing here imports Dask. The functions take a ``dask.distributed.Client`` and call its
``submit``, ``scatter`` and ``gather`` methods.
"""

from __future__ import annotations

import numpy as np

from ..embed._eigen import top_eigenpairs
from ..embed._packed_ops import packed_rows_matmat
from ..graphs._dyads import row_blocks
from ..graphs._grdpg import latent_matrix, sample_packed_block
from ..graphs._packed import PackedAdjacency, packed_layout
from ..latent._positions import LatentPositions
from ..release._flip import EdgeFlip, flip_block
from ..utils._random import block_streams, check_random_state, item_streams, stage_tag

__all__ = ["DistributedPackedGraph", "distributed_private_grdpg", "distributed_embedding"]


# Shares summed by one task of the reduction tree.
_FAN_IN = 4


def _sum(*blocks):
    out = blocks[0].copy()
    for b in blocks[1:]:
        out += b
    return out


def _partition_words(X, J, sparsity, rate, n, blocks, sample_streams, flip_streams):
    """Packed words of consecutive row blocks: sampled, then flipped (runs on a worker)."""
    first, offsets = packed_layout(n)
    W = -(-n // 64)
    parts = []
    for (i0, i1), gs, gf in zip(blocks, sample_streams, flip_streams):
        full = sample_packed_block(X, J, sparsity, gs, i0, i1)
        if rate:
            full ^= flip_block(gf, rate, n, i0, i1)
        parts.append(full[np.arange(W)[None, :] >= first[i0:i1, None]])
    return np.concatenate(parts)


class DistributedPackedGraph:
    """A packed graph held by Dask workers as partitions of consecutive row blocks.

    Attributes
    ----------
    n : int
    partitions : list of (i0, i1)
        The rows each partition holds.
    guarantee : PrivacyGuarantee or None
        The release it is.
    """

    def __init__(self, client, n, partitions, futures, guarantee=None):
        self.client = client
        self.n = int(n)
        self.shape = (self.n, self.n)
        self.partitions = list(partitions)
        self.futures = list(futures)
        self.guarantee = guarantee

    def matmat(self, V):
        """``A @ V``: each partition's share computed where it lives, summed on the driver."""
        V = np.ascontiguousarray(V, dtype=np.float64)
        squeeze = V.ndim == 1
        Vb = V[:, None] if squeeze else V
        # A fresh key each call: scattered by content hash, the same V twice in a row races
        # with the release of the previous call's copy, and the tasks lose their input.
        shared = self.client.scatter(Vb, broadcast=True, hash=False)
        shares = [self.client.submit(packed_rows_matmat, f, i0, i1, self.n, shared, pure=False)
                  for f, (i0, i1) in zip(self.futures, self.partitions)]
        # Every partition's share is a whole n x k block (its rows' transposed half reaches
        # every row): summed in a tree on the workers, so one block reaches the driver
        # instead of one a partition.
        while len(shares) > 1:
            shares = [self.client.submit(_sum, *shares[i:i + _FAN_IN], pure=False)
                      for i in range(0, len(shares), _FAN_IN)]
        out = shares[0].result()
        return out[:, 0] if squeeze else out

    def gather(self):
        """The whole graph on the driver, as a :class:`~tdadp.graphs.PackedAdjacency`."""
        words = np.concatenate(self.client.gather(self.futures))
        return PackedAdjacency(self.n, words, guarantee=self.guarantee)


def distributed_private_grdpg(client, X, epsilon, *, graph_random_state, flip_random_state,
                              signature=None, sparsity=1.0, n_partitions=None):
    """Sample a gRDPG and release it with edgeFlip on Dask workers, never gathering it.

    The result is the graph that ``EdgeFlip(epsilon, random_state=flip_random_state,
    output="packed").fit_transform(sample_grdpg(X, signature, sparsity,
    random_state=graph_random_state, output="packed"))`` gives in process, bit for bit.

    Parameters
    ----------
    client : dask.distributed.Client
    X : array-like of shape (n, d)
        Latent positions (sent to every worker: n x d floats).
    epsilon : float in [0, inf]
    graph_random_state, flip_random_state : int or SeedSequence
        Seeds of the model and of the mechanism (fixed seeds: this is an experiment; a real
        release of private data would not sample its graph).
    signature : pair of int, optional
    sparsity : float, default=1.0
    n_partitions : int, optional
        Partitions of row blocks (default: four per worker).

    Returns
    -------
    DistributedPackedGraph
    """
    Xf, (p, q) = latent_matrix(X, signature)
    Xf = np.ascontiguousarray(Xf)
    J = np.r_[np.ones(p), -np.ones(q)]
    n = Xf.shape[0]
    mech = EdgeFlip(epsilon, random_state=flip_random_state, output="packed").fit()
    rate = mech.flip_probability_
    blocks = list(row_blocks(n))  # the packed graph's standard blocks
    sample = block_streams(check_random_state(graph_random_state, stage_tag("GRDPG")),
                           len(blocks))
    (flip_root,) = item_streams(flip_random_state, [0], stage_tag("EdgeFlip"))
    flips = block_streams(flip_root, len(blocks))
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    k = max(1, min(len(blocks), n_partitions or 4 * workers))
    cuts = np.linspace(0, len(blocks), k + 1).astype(int)
    shared_X = client.scatter(Xf, broadcast=True)
    partitions, futures = [], []
    for a, b in zip(cuts[:-1], cuts[1:]):
        if a == b:
            continue
        partitions.append((blocks[a][0], blocks[b - 1][1]))
        futures.append(client.submit(_partition_words, shared_X, J, float(sparsity), rate, n,
                                     blocks[a:b], sample[a:b], flips[a:b], pure=False))
    return DistributedPackedGraph(client, n, partitions, futures, guarantee=mech.guarantee_)


class _Operator:
    """The privacy-adjusted operator of a distributed graph, for the eigensolver."""

    def __init__(self, G, shift, scale):
        self.A, self.n = G, G.n
        self.shift, self.scale, self.diagonal = shift, scale, None

    def matmat(self, Q):
        Q = np.asarray(Q, dtype=np.float64)
        Z = self.A.matmat(Q)
        if self.shift:
            Z -= self.shift * Q.sum(axis=0, keepdims=True)
            Z += self.shift * Q
        return Z * self.scale


def distributed_embedding(G, n_components, *, adjust=True):
    """Adjacency spectral embedding of a :class:`DistributedPackedGraph`, plain or adjusted.

    The same solver and starting block as the in-process embedding of a packed graph
    (block Krylov), so both give the same embedding up to rounding in the order of sums.

    Returns
    -------
    LatentPositions of shape (n, n_components)
    """
    rate = G.guarantee.flip_probability if (adjust and G.guarantee is not None) else 0.0
    op = _Operator(G, rate, 1.0 / (1.0 - 2.0 * rate))
    w, V = top_eigenpairs(op, n_components, "krylov")
    order = np.concatenate([np.flatnonzero(w >= 0), np.flatnonzero(w < 0)])
    w, V = w[order], V[:, order]
    return LatentPositions(V * np.sqrt(np.abs(w)),
                           signature=(int(np.sum(w >= 0)), int(np.sum(w < 0))))
