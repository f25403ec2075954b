"""networkx graphs to adjacency matrices and back (networkx is optional)."""

from __future__ import annotations

import math
import numbers
import sys

import numpy as np
import scipy.sparse as sp

from ..graphs._info import graph_nodes, tag_graph
from ..graphs._packed import PackedAdjacency
from ..utils._memory import check_memory
from ..utils._params import Options, check_param
from ..utils._validation import SELF_LOOP_POLICIES, WEIGHT_POLICIES, check_adjacency
from ._edgelist import DIRECTED_POLICIES, undirected_arcs
from ._graph import edges_to_matrix

__all__ = ["from_networkx", "to_networkx", "is_networkx_graph", "networkx_matrix"]

# What a networkx Graph holds (measured with tracemalloc: about 210 bytes an edge, with the
# nodes, for 400,000 edges on 20,000 nodes), with a margin.
_NX_EDGE_BYTES = 250
_NX_NODE_BYTES = 500


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


def _edge_weight(value, a, b, weight):
    if isinstance(value, numbers.Real) and math.isfinite(value):
        return float(value)
    raise ValueError(f"the edge ({a!r}, {b!r}) has {weight}={value!r}, which is not a finite "
                     "real number.")


def networkx_matrix(G, nodelist=None, *, weight="weight", directed="refuse"):
    """The exact adjacency of ``G`` (float64 CSR) and its node list.

    Entry ``(u, v)`` is the edge's ``weight`` attribute (1 when absent or when ``weight`` is
    None), summed over the parallel edges of a multigraph; a self-loop's weight is on the
    diagonal. Nothing is dropped or binarized here: :func:`from_networkx` and
    :func:`~tdadp.io.graph_batch` judge the matrix with the contract of every container.
    A directed graph is refused unless ``directed`` chooses its undirected graph (see
    :func:`from_networkx`).
    """
    if not (hasattr(G, "nodes") and hasattr(G, "edges") and hasattr(G, "is_directed")):
        raise ValueError(f"expected a networkx graph, got {type(G).__name__}.")
    check_param(directed, [Options(*DIRECTED_POLICIES)], "directed")
    if weight is not None and not isinstance(weight, str):
        raise ValueError(f"weight must be an edge attribute name or None, got {weight!r}.")
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
    rows, cols, values = [], [], []
    edges = G.edges(data=weight, default=1) if weight is not None else \
        ((a, b, 1) for a, b in G.edges())
    for a, b, w in edges:
        if a in index and b in index:
            rows.append(index[a])
            cols.append(index[b])
            values.append(_edge_weight(w, a, b, weight))
    merge = "sum" if G.is_multigraph() else "same"  # parallel edges add up
    if G.is_directed():
        if G.is_multigraph():
            rows, cols, values = _sum_parallel_arcs(rows, cols, values, n)
        # The edge-DP mechanisms and the embedding work on undirected graphs, and a silent
        # choice would change the graph released: the message says how to choose.
        rows, cols, values = undirected_arcs(
            rows, cols, values, n, directed, known_directed=True, source="G",
            opt_in="from_networkx(G, directed={!r})")
        merge = "same"  # the two arcs of an edge, as an edge list's two lines
    return edges_to_matrix(rows, cols, values, n, merge=merge, nodes=nodes,
                           source="the networkx graph"), nodes


def _sum_parallel_arcs(rows, cols, values, n):
    """One arc per ordered pair, weighing the sum of its parallel arcs."""
    keys, inverse = np.unique(np.asarray(rows, dtype=np.int64) * n
                              + np.asarray(cols, dtype=np.int64), return_inverse=True)
    return keys // n, keys % n, np.bincount(inverse, weights=values, minlength=keys.size)


def from_networkx(G, nodelist=None, sparse=True, return_nodes=False, *, weight="weight",
                  directed="refuse", self_loops="error", weights="error"):
    """Adjacency matrix of an undirected networkx graph, under the input contract of tdadp.

    The matrix is the graph's: entry ``(u, v)`` is the edge's ``weight`` attribute (1 when
    the edge has none), the parallel edges of a multigraph add up, a self-loop's weight sits on
    the diagonal. As for every container (see :mod:`tdadp.io`), a simple graph is expected:
    self-loops and weights other than 1 raise a ValueError naming the nodes, unless you opt in
    to dropping or binarizing them (reported in a UserWarning with the counts), or keep them
    for a stage that reads weights. Directed graphs are refused rather than symmetrised
    silently (a ValueError counting the pairs linked both ways and one way): choose the
    undirected graph with ``directed``, as :func:`~tdadp.io.read_edgelist` does for a
    directed edge list.

    Parameters
    ----------
    G : networkx.Graph or networkx.MultiGraph
    nodelist : sequence of nodes, optional
        Row order; default ``list(G.nodes)``. With a subset of the nodes, the adjacency of the
        induced subgraph.
    sparse : bool, default=True
        Return a scipy CSR matrix (else a dense array).
    return_nodes : bool, default=False
        Also return the list of nodes in row order (the result carries it too, see below).
    weight : str or None, default="weight"
        Edge attribute holding the weight; None gives every edge weight 1.
    directed : {"refuse", "symmetrize", "mutual"}, default="refuse"
        For a DiGraph or MultiDiGraph (ignored for an undirected graph): refuse it, an edge
        wherever either arc exists (``G.to_undirected()``), or an edge only where both do
        (``G.to_undirected(reciprocal=True)``). The two arcs of an edge must have one weight
        (networkx would keep either), a MultiDiGraph's parallel arcs adding up first.
    self_loops : {"error", "drop", "keep"}, default="error"
        What to do with self-loops: refuse them, drop them (with a warning), or keep them on
        the diagonal.
    weights : {"error", "binarize", "keep"}, default="error"
        What to do with weights other than 1 (and parallel edges): refuse them, make every
        edge of nonzero weight an edge of weight 1 (with a warning), or keep them.

    Returns
    -------
    A : scipy.sparse.csr_matrix or ndarray of shape (n, n)
        dtype uint8, or float64 with ``weights="keep"``. It carries the node names: read them
        with :func:`tdadp.graphs.graph_nodes`; the stages downstream (e.g. the pandas output of
        the embedding) use them.
    nodes : list
        Only if ``return_nodes``.

    Raises
    ------
    ValueError
        For a directed graph with ``directed="refuse"``, fewer than 2 nodes, a bad
        ``nodelist``, a weight that is not a real number, and self-loops or weights the
        options do not allow.

    Examples
    --------
    >>> import networkx as nx
    >>> from tdadp.io import from_networkx
    >>> from_networkx(nx.path_graph(3), sparse=False).tolist()
    [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    >>> G = nx.Graph([("a", "b", {"weight": 2.5}), ("b", "c", {"weight": 1})])
    >>> from_networkx(G)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the networkx graph has 1 weighted edge (entries other than 0 and 1); ...
    >>> from_networkx(G, weights="keep", sparse=False).tolist()
    [[0.0, 2.5, 0.0], [2.5, 0.0, 1.0], [0.0, 1.0, 0.0]]
    >>> D = nx.DiGraph([(0, 1), (1, 0), (1, 2)])
    >>> from_networkx(D, directed="mutual", sparse=False).tolist()
    [[0, 1, 0], [1, 0, 0], [0, 0, 0]]
    """
    A, nodes = networkx_matrix(G, nodelist, weight=weight, directed=directed)
    A = check_adjacency(A, "the networkx graph", self_loops=self_loops, weights=weights,
                        nodes=nodes, opt_in="from_networkx(G, {})", stacklevel=2)
    A = tag_graph(A if sparse else A.toarray(), nodes=nodes)
    return (A, nodes) if return_nodes else A


def to_networkx(A, nodes=None, *, self_loops="error", weights="error"):
    """An undirected networkx graph from an adjacency matrix (the inverse of from_networkx).

    Parameters
    ----------
    A : array-like, sparse matrix of shape (n, n) or PackedAdjacency
        Symmetric adjacency; judged by the input contract of :mod:`tdadp.io` (a simple graph
        unless the options say otherwise). A :class:`~tdadp.graphs.PackedAdjacency` is read
        row block by row block (never as a dense matrix), after checking that the networkx
        graph (about 250 bytes an edge) fits in memory.
    nodes : sequence of hashable, optional
        Node labels; default the names ``A`` carries (from :func:`from_networkx` or
        :func:`read_edgelist`), else ``0 .. n-1``. Isolated nodes are kept.
    self_loops : {"error", "drop", "keep"}, default="error"
        As in :func:`from_networkx`; kept self-loops become self-loop edges.
    weights : {"error", "binarize", "keep"}, default="error"
        As in :func:`from_networkx`; kept weights become the edges' ``"weight"`` attribute.

    Returns
    -------
    G : networkx.Graph

    Raises
    ------
    ValueError
        If ``A`` is not a graph under the options, ``nodes`` does not name its rows, or (up
        front) the networkx graph would not fit in the memory left.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.io import to_networkx
    >>> G = to_networkx(np.array([[0, 1], [1, 0]]), nodes=["a", "b"])
    >>> sorted(G.edges())
    [('a', 'b')]
    >>> to_networkx(np.array([[0, 0.5], [0.5, 0]]), weights="keep").edges(data=True)
    EdgeDataView([(0, 1, {'weight': 0.5})])
    >>> from tdadp.graphs import PackedAdjacency
    >>> sorted(to_networkx(PackedAdjacency.from_edges(3, [0, 1], [1, 2])).edges())
    [(0, 1), (1, 2)]
    """
    try:
        import networkx as nx
    except ImportError as exc:  # pragma: no cover - networkx is installed in the tests
        raise ImportError(
            "to_networkx needs networkx: pip install networkx (or tdadp[networkx])."
        ) from exc
    carried = graph_nodes(A)
    packed = isinstance(A, PackedAdjacency)
    if packed:
        # Simple by construction: the options have nothing to drop or binarize.
        check_param(self_loops, [Options(*SELF_LOOP_POLICIES)], "self_loops")
        check_param(weights, [Options(*WEIGHT_POLICIES)], "weights")
        if A.n < 2:
            raise ValueError(f"the graph must have at least 2 nodes, got {A.n}.")
    else:
        A = check_adjacency(A, self_loops=self_loops, weights=weights, nodes=carried,
                            opt_in="to_networkx(A, {})", stacklevel=2)
    n = A.shape[0]
    if nodes is None:
        nodes = carried if carried is not None else list(range(n))
    else:
        nodes = list(nodes)
        if len(nodes) != n:
            raise ValueError(f"nodes has {len(nodes)} labels for a matrix with {n} rows.")
        if len(set(nodes)) != n:
            raise ValueError("nodes must be distinct.")
    if packed:
        return _packed_to_networkx(A, nodes, weights == "keep", nx)
    upper = sp.triu(sp.csr_matrix(A), k=0).tocoo()
    G = nx.Graph()
    G.add_nodes_from(nodes)
    pairs = zip((nodes[i] for i in upper.row), (nodes[j] for j in upper.col))
    if weights == "keep":
        G.add_weighted_edges_from((a, b, float(w)) for (a, b), w in zip(pairs, upper.data))
    else:
        G.add_edges_from(pairs)
    return G


def _packed_to_networkx(A, nodes, weighted, nx):
    edges = A.count_edges()
    check_memory(_NX_EDGE_BYTES * edges + _NX_NODE_BYTES * A.n,
                 f"a networkx graph of a packed graph on {A.n} nodes ({edges} edges)",
                 " Keep it packed: the embedding and the mechanisms take packed graphs; "
                 "tocsr() is about 50 times smaller.")
    G = nx.Graph()
    G.add_nodes_from(nodes)
    for i0, i1 in A.block_ranges():
        rows, cols = A.upper_block(i0, i1).nonzero()
        pairs = ((nodes[i], nodes[j]) for i, j in zip((rows + i0).tolist(), cols.tolist()))
        if weighted:
            G.add_weighted_edges_from((a, b, 1.0) for a, b in pairs)
        else:
            G.add_edges_from(pairs)
    return G
