"""The base of every privacy release: one contract for graph and statistic releases."""

from __future__ import annotations

import numpy as np

__all__ = ["ReleaseTagsMixin"]


class ReleaseTagsMixin:
    """scikit-learn tags of a stage that releases graphs (or statistics of graphs)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.requires_fit = False
        tags.non_deterministic = not isinstance(self.random_state, (int, np.integer))
        tags.input_tags.sparse = True
        return tags
