"""Stage 4, adjacency spectral embedding (plain or privacy-adjusted) and its evaluation."""

from ._alignment import (
    gram_error,
    procrustes_align,
    two_to_infinity_error,
)
from ._dimension import (
    zhu_ghodsi_elbows,
)
from ._eigen import (
    SOLVERS,
    ShiftedAdjacency,
    resolve_solver,
    top_eigenpairs,
)
from ._embedding import (
    AdjacencySpectralEmbedding,
    adjacency_spectral_embedding,
    adjusted_adjacency,
)

__all__ = [
    "ShiftedAdjacency",
    "resolve_solver",
    "top_eigenpairs",
    "SOLVERS",
    "zhu_ghodsi_elbows",
    "adjacency_spectral_embedding",
    "adjusted_adjacency",
    "AdjacencySpectralEmbedding",
    "procrustes_align",
    "gram_error",
    "two_to_infinity_error",
]
