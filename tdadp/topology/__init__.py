"""Topology: persistence diagrams, bottleneck distances and the shift-invariant bottleneck.

* :class:`PersistenceDiagram` — the diagram type (homology dimension -> (k, 2) array), with
  converters to and from gudhi, ripser/persim and giotto-tda formats; :func:`log_diagram`.
* :class:`PersistentHomology` / :func:`persistence_diagram` — alpha (gudhi) or Rips (ripser)
  diagrams of point clouds, in distance units.
* :func:`bottleneck_distance`, :func:`wasserstein_distance` — via hera, with explicit rules
  for infinite points and -inf births.
* :func:`shift_invariant_bottleneck` — exact and certified W_SI (Sheehy, Kisielius, Cavanna
  2018).
* :func:`dilation_invariant_bottleneck` — exact and certified min over c of W_inf(D1, c D2) on
  raw diagrams (scale-free without the logarithm).
* :class:`PairwiseDistance` — distance matrices to reference diagrams (last Pipeline step).
* :func:`plot_diagram`, :func:`plot_matching` — plots.
"""

from ._bottleneck import bottleneck_distance, wasserstein_distance
from ._diagram import PersistenceDiagram, as_diagram, log_diagram, stack_giotto
from ._dilation_invariant import DilationInvariantResult, dilation_invariant_bottleneck
from ._pairwise import PairwiseDistance, pairwise_distance
from ._persistence import PersistentHomology, estimate_rips_memory, persistence_diagram
from ._plotting import plot_diagram, plot_matching
from ._shift_invariant import ShiftInvariantResult, shift_invariant_bottleneck

__all__ = [
    "PersistenceDiagram",
    "as_diagram",
    "log_diagram",
    "stack_giotto",
    "PersistentHomology",
    "persistence_diagram",
    "estimate_rips_memory",
    "bottleneck_distance",
    "wasserstein_distance",
    "shift_invariant_bottleneck",
    "ShiftInvariantResult",
    "dilation_invariant_bottleneck",
    "DilationInvariantResult",
    "PairwiseDistance",
    "pairwise_distance",
    "plot_diagram",
    "plot_matching",
]
