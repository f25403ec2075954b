"""Graphs in and out: the one input contract of every graph stage, edge lists, networkx, and
the packed ``.tdadp`` file format (:func:`save_packed`, :func:`load_packed`), and the open
release format (:func:`save_release`, :func:`load_release`: an edge-list CSV, or a packed
file, with a JSON sidecar holding the node names and the guarantee).

Every stage that takes a graph goes through :func:`graph_batch`, so a dense array, a scipy
sparse matrix of any format, a networkx graph and an edge list read by :func:`read_edgelist`
get the same answer: see :mod:`tdadp.io._input` for the contract (self-loops and weights are
refused by the stages that need a simple graph unless you opt in with :func:`simple_graph`,
``from_networkx(..., self_loops=, weights=)`` or ``read_edgelist(..., self_loops=,
weights=)``; the embedding reads weights). A graph stage's pandas output is the graph as a
DataFrame (:func:`graph_frame`), which every graph stage reads back.
"""

from ._edgelist import (
    read_edgelist,
    read_nodes,
)
from ._input import (
    coerce_graphs,
    graph_batch,
    graph_frame,
    one_graph,
    simple_graph,
)
from ._networkx import (
    from_networkx,
    is_networkx_graph,
    to_networkx,
)
from ._packed_file import (
    PACKED_FORMAT,
    load_packed,
    save_packed,
)
from ._release_file import (
    RELEASE_FORMAT,
    check_release_nodes,
    check_release_path,
    load_release,
    save_release,
    sidecar_path,
)

__all__ = [
    "read_edgelist",
    "read_nodes",
    "from_networkx",
    "to_networkx",
    "is_networkx_graph",
    "simple_graph",
    "coerce_graphs",
    "graph_batch",
    "graph_frame",
    "one_graph",
    "PACKED_FORMAT",
    "save_packed",
    "load_packed",
    "RELEASE_FORMAT",
    "save_release",
    "load_release",
    "sidecar_path",
    "check_release_nodes",
    "check_release_path",
]
