"""networkx graphs to adjacency matrices and back (networkx is optional)."""

from __future__ import annotations

import sys

import numpy as np
import scipy.sparse as sp

from ..utils._validation import check_adjacency
from ._graph import edges_to_adjacency

__all__ = ["from_networkx", "to_networkx", "is_networkx_graph"]


def is_networkx_graph(obj):
    """Whether ``obj`` is a networkx graph, without importing networkx.

    If networkx has not been imported, no networkx graph can exist; otherwise this is an
    ``isinstance`` check against ``networkx.Graph`` (which the directed and multi-graph classes
    subclass).

    Examples
    --------
    >>> import numpy as np, networkx as nx
    >>> from tdadp.io import is_networkx_graph
    >>> is_networkx_graph(nx.path_graph(3)), is_networkx_graph(np.eye(3))
    (True, False)
    """
    nx = sys.modules.get("networkx")
    if nx is None:
        return False
    return isinstance(obj, nx.Graph)


def from_networkx(G, nodelist=None, sparse=True, return_nodes=False):
    """Adjacency matrix of an undirected networkx graph.

    The result is the adjacency of the simple graph underlying ``G``: edge attributes (weights)
    are ignored, parallel edges of a multigraph are merged, self-loops are dropped with a
    warning. Directed graphs are refused rather than symmetrised silently: call
    ``G.to_undirected()`` (an edge in either direction) first.

    Parameters
    ----------
    G : networkx.Graph or networkx.MultiGraph
    nodelist : sequence of nodes, optional
        Row order; default ``list(G.nodes)``. With a subset of the nodes, the adjacency of the
        induced subgraph.
    sparse : bool, default=True
        Return a scipy CSR matrix of dtype uint8 (else a dense uint8 array).
    return_nodes : bool, default=False
        Also return the list of nodes in row order.

    Returns
    -------
    A : scipy.sparse.csr_matrix or ndarray of shape (n, n)
    nodes : list
        Only if ``return_nodes``.

    Examples
    --------
    >>> import networkx as nx
    >>> from tdadp.io import from_networkx
    >>> from_networkx(nx.path_graph(3), sparse=False).tolist()
    [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    """
    if not (hasattr(G, "nodes") and hasattr(G, "edges") and hasattr(G, "is_directed")):
        raise ValueError(f"expected a networkx graph, got {type(G).__name__}.")
    if G.is_directed():
        raise ValueError(
            "G is a directed graph; edge-DP mechanisms and the spectral embedding work on "
            "undirected graphs. Convert it explicitly, e.g. with G.to_undirected()."
        )
    nodes = list(G.nodes) if nodelist is None else list(nodelist)
    index = {}
    for i, node in enumerate(nodes):
        if node in index:
            raise ValueError(f"nodelist contains node {node!r} more than once.")
        if node not in G:
            raise ValueError(f"nodelist contains {node!r}, which is not a node of G.")
        index[node] = i
    n = len(nodes)
    if n < 2:
        raise ValueError(f"the graph must have at least 2 nodes, got {n}.")
    pairs = [(index[a], index[b]) for a, b in G.edges() if a in index and b in index]
    if pairs:
        rows, cols = np.asarray(pairs, dtype=np.int64).T
    else:
        rows = cols = np.empty(0, dtype=np.int64)
    A = edges_to_adjacency(rows, cols, n, sparse=sparse, source="the networkx graph")
    return (A, nodes) if return_nodes else A


def to_networkx(A, nodes=None):
    """An undirected networkx graph from an adjacency matrix.

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, n)
        Symmetric binary adjacency with a zero diagonal.
    nodes : sequence of hashable, optional
        Node labels (default ``0 .. n-1``); isolated nodes are kept.

    Returns
    -------
    G : networkx.Graph

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.io import to_networkx
    >>> G = to_networkx(np.array([[0, 1], [1, 0]]), nodes=["a", "b"])
    >>> sorted(G.edges())
    [('a', 'b')]
    """
    try:
        import networkx as nx
    except ImportError as exc:  # pragma: no cover - networkx is installed in the tests
        raise ImportError(
            "to_networkx needs networkx: pip install networkx (or tdadp[networkx])."
        ) from exc
    A = check_adjacency(A)
    n = A.shape[0]
    if nodes is None:
        nodes = list(range(n))
    else:
        nodes = list(nodes)
        if len(nodes) != n:
            raise ValueError(f"nodes has {len(nodes)} labels for a matrix with {n} rows.")
        if len(set(nodes)) != n:
            raise ValueError("nodes must be distinct.")
    upper = sp.triu(sp.csr_matrix(A), k=1).tocoo()
    G = nx.Graph()
    G.add_nodes_from(nodes)
    G.add_edges_from(zip((nodes[i] for i in upper.row), (nodes[j] for j in upper.col)))
    return G
