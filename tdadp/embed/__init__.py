"""Stage 4, adjacency spectral embedding (plain or privacy-adjusted) and its evaluation."""

from ._eigen import (
    ShiftedAdjacency,
    resolve_solver,
    top_eigenpairs,
    SOLVERS,
)
from ._dimension import (
    zhu_ghodsi_elbows,
)
from ._embedding import (
    adjacency_spectral_embedding,
    AdjacencySpectralEmbedding,
)
from ._alignment import (
    procrustes_align,
    gram_error,
    two_to_infinity_error,
)

__all__ = [
    "ShiftedAdjacency",
    "resolve_solver",
    "top_eigenpairs",
    "SOLVERS",
    "zhu_ghodsi_elbows",
    "adjacency_spectral_embedding",
    "AdjacencySpectralEmbedding",
    "procrustes_align",
    "gram_error",
    "two_to_infinity_error",
]
