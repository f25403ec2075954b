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

import numpy as np

__all__ = ["Parts"]


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
