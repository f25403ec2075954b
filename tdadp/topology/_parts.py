"""Split a diagram's points by how they can be matched.

Under the L_inf ground distance, with the convention inf - inf = 0 (and -inf - -inf = 0):

* finite off-diagonal points match finite points or the diagonal;
* points (b, inf) with b finite are at infinite distance from the diagonal and from every
  point of another kind: they match each other, at cost |b - b'|;
* points (-inf, d) with d finite likewise match each other, at cost |d - d'|;
* points (-inf, inf) match each other at cost 0;
* points on the diagonal (b == d, including (-inf, -inf)) never change a distance and are
  dropped.

Within each infinite kind the sorted matching is optimal for the bottleneck cost (and for
every convex cost of |x - y|), whatever the shift, since a shift moves all of them together.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["Parts", "normalizing_exponent"]


def normalizing_exponent(*arrays):
    """The k for which ``2**-k`` times the largest finite |coordinate| lies in [0.5, 1).

    Every distance of this package is positively homogeneous (d(cX, cY) = c d(X, Y)), and
    scaling by a power of two is exact in binary floating point, so the distances are computed
    on ``np.ldexp(X, -k)`` and scaled back by ``2**k``: the same bits as without scaling for
    ordinary coordinates, while coordinates near 1e200 no longer overflow in differences or
    q-th powers (nor hang hera's auction), and coordinates near 1e-300 no longer fall under
    absolute thresholds. Only coordinates below about 1e-308 times the largest one lose bits
    (they become subnormal), the limit of float64 itself. 0 when no coordinate is finite and
    non-zero.
    """
    largest = 0.0
    for X in arrays:
        X = np.asarray(X, dtype=np.float64)
        finite = np.abs(X[np.isfinite(X)])
        if finite.size:
            largest = max(largest, float(finite.max()))
    return math.frexp(largest)[1] if largest > 0 else 0


class Parts:
    """The points of one dimension of a diagram, by kind, with their row indices."""

    __slots__ = ("finite", "finite_idx", "essential", "essential_idx", "neg_birth",
                 "neg_birth_idx", "full_idx")

    def __init__(self, X):
        X = np.asarray(X, dtype=np.float64).reshape(-1, 2)
        b, d = X[:, 0], X[:, 1]
        off = b != d
        fb, fd = np.isfinite(b), np.isfinite(d)
        fin = off & fb & fd
        self.finite_idx = np.flatnonzero(fin)
        self.finite = X[fin]
        ess = fb & np.isposinf(d)
        idx = np.flatnonzero(ess)
        order = np.argsort(b[idx], kind="stable")
        self.essential_idx = idx[order]
        self.essential = b[self.essential_idx]
        neg = np.isneginf(b) & fd
        idx = np.flatnonzero(neg)
        order = np.argsort(d[idx], kind="stable")
        self.neg_birth_idx = idx[order]
        self.neg_birth = d[self.neg_birth_idx]
        self.full_idx = np.flatnonzero(np.isneginf(b) & np.isposinf(d))

    def counts(self):
        return (self.essential.size, self.neg_birth.size, self.full_idx.size)
