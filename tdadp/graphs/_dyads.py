"""Dyad-level machinery shared by the graph generator and the mechanisms.

A simple undirected graph on n nodes is its upper triangle: N = n(n-1)/2 independent dyads.
Dense work walks the upper triangle in row blocks (bounded memory: no n x n float array is
ever built); sparse work enumerates dyads by their linear upper-triangle index and jumps
between successes with geometric gaps, costing time proportional to the successes only. The
gaps are drawn exactly, in integer arithmetic (:mod:`tdadp.dp._sampling`): a float
geometric sampler overflows int64 at tiny rates and truncates its tail, and either breaks a
privacy guarantee resting on the flip rate.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from ..dp._sampling import geometric_exp, rational_scale

__all__ = [
    "row_blocks",
    "write_upper_block",
    "n_dyads",
    "dyad_pairs",
    "dyad_index",
    "gap_parameters",
    "bernoulli_positions",
    "symmetric_csr",
]

# Elements per dense working block (float64): 2^23 elements = 64 MiB per buffer.
_BLOCK_ELEMENTS = 1 << 23


def row_blocks(n):
    """Row ranges [i0, i1) covering 0..n-1; the block of rows i0..i1 spans columns i0..n-1.

    The block height depends on n only, so draws happen in the same order on every machine.
    """
    step = max(1, _BLOCK_ELEMENTS // max(1, n))
    for i0 in range(0, n, step):
        yield i0, min(n, i0 + step)


def write_upper_block(out, i0, block):
    """Write ``block`` (rows i0..i1, columns i0..n) as the upper part of a symmetric ``out``.

    Only the strict upper triangle of ``block`` is used; its mirror image is written below the
    diagonal and the diagonal is set to zero.
    """
    b = block.shape[0]
    head = block[:, :b]
    # The square part straddles the diagonal: keep its strict upper triangle and mirror it.
    head[np.tril_indices(b)] = 0
    head += head.T
    out[i0:i0 + b, i0:] = block
    out[i0 + b:, i0:i0 + b] = block[:, b:].T


def n_dyads(n):
    return n * (n - 1) // 2


def _row_offsets(n):
    i = np.arange(n, dtype=np.int64)
    return i * (n - 1) - i * (i - 1) // 2


def dyad_pairs(k, n):
    """(i, j), i < j, of the upper-triangle linear indices ``k`` (row-major order)."""
    k = np.asarray(k, dtype=np.int64)
    offsets = _row_offsets(n)
    i = np.searchsorted(offsets, k, side="right") - 1
    j = k - offsets[i] + i + 1
    return i, j


def dyad_index(i, j, n):
    """Linear upper-triangle index of the pairs (i, j), i < j."""
    i = np.asarray(i, dtype=np.int64)
    j = np.asarray(j, dtype=np.int64)
    return i * (n - 1) - i * (i - 1) // 2 + (j - i - 1)


def gap_parameters(p):
    """(t, s, rate): exact geometric gaps of success rate ``rate = 1 - e^(-s/t) >= p``.

    ``p`` is a float in (0, 1). The rate sampled is ``p`` rounded up by a relative ``2^-30``
    at most (up: more successes, which for a flip means more privacy, never less), so that the
    gaps can be drawn exactly by :func:`~tdadp.dp._sampling.geometric_exp`.
    """
    lam = -np.log1p(-p)
    # log1p is accurate to within an ulp; two steps up make lam_hi an upper bound.
    lam_hi = np.nextafter(np.nextafter(lam, np.inf), np.inf)
    t, s = rational_scale(Fraction(1) / Fraction(float(lam_hi)), round="down")
    return t, s, float(-np.expm1(-s / t))


def bernoulli_positions(rng, p, N):
    """Sorted indices in [0, N) of successes of N independent Bernoulli trials of rate ``p``.

    The gaps between successes are drawn exactly (integer arithmetic, no overflow and no
    truncated tail, whatever ``p`` and ``N``), so the cost is proportional to the number of
    successes (about pN), not to N. The rate realized is :func:`gap_parameters`' ``rate``:
    ``p`` itself up to a relative ``2^-30``, and never below it.
    """
    N = int(N)
    if p <= 0 or N <= 0:
        return np.empty(0, dtype=np.int64)
    if p >= 1:
        return np.arange(N, dtype=np.int64)
    t, s, rate = gap_parameters(p)
    chunks, last = [], -1
    while last < N - 1:
        remaining = N - 1 - last
        expected = remaining * rate
        # Gaps are capped at `remaining`, so a chunk's cumulative sum stays below 2^62.
        m = int(min(expected + 5 * np.sqrt(expected + 1) + 16, 1 << 20,
                    max(1, (1 << 62) // (remaining + 1))))
        pos = last + np.cumsum(geometric_exp(rng, t, s, m, cap=remaining) + 1)
        inside = pos[pos < N]
        chunks.append(inside)
        if inside.size < pos.size:
            break
        last = int(pos[-1])
    return np.concatenate(chunks) if chunks else np.empty(0, dtype=np.int64)


def symmetric_csr(i, j, n):
    """Symmetric binary CSR (uint8) with edges (i, j) and (j, i)."""
    rows = np.concatenate([i, j])
    cols = np.concatenate([j, i])
    data = np.ones(rows.size, dtype=np.uint8)
    A = sp.csr_matrix((data, (rows, cols)), shape=(n, n))
    A.sort_indices()
    return A
