"""The input contract for graphs: one answer whatever the container.

A graph may come as a dense array (or nested list), a scipy sparse matrix or array of any
format (csr, csc, coo, lil, dok, bsr, dia), a networkx graph, an edge list read by
:func:`~tdadp.io.read_edgelist`, or a pandas DataFrame adjacency (below). Containers that list
edges are first turned into the matrix they describe (a networkx edge's ``"weight"``
attribute, 1 when absent, summed over the parallel edges of a multigraph; an edge list's
weight column; a self-loop's weight on the diagonal), and that matrix is judged like any
other. The rules:

- Every graph must be square, symmetric (undirected), real and finite, with at least 2 nodes;
  complex, string or NaN entries and directed networkx graphs are refused.
- **Simple graphs** (``graph_batch(X)``, what the privacy mechanisms take): a nonzero diagonal
  entry (a self-loop) or an entry other than 0 and 1 (a weight, or parallel edges) raises a
  ValueError giving their count (never the nodes or values: the graph may be private) and the
  call that opts in. Opting in is explicit: :func:`simple_graph` (any container),
  ``from_networkx(G, ...)`` and ``read_edgelist(..., ...)`` take ``self_loops="drop"`` (zero
  the diagonal) and ``weights="binarize"`` (every nonzero entry becomes an edge of weight 1);
  what they changed is reported in a UserWarning with the counts.
- **Weighted graphs** (``graph_batch(X, kind="weighted")``, what the spectral embedding
  takes): any symmetric real matrix passes (float matrices symmetric up to a relative
  ``1e-10``, rounding); networkx weights are read; the diagonal is kept as given on every
  path (a self-loop's weight, a kernel's diagonal).
- An entry 0 is no edge, on every path (a networkx edge or edge-list line of weight 0 too).

Node names travel with the graph (see :mod:`tdadp.graphs._info`): from networkx, from an edge
list, and through :func:`graph_batch`.

**DataFrames.** A graph stage with ``set_output(transform="pandas")`` returns each graph as
:func:`graph_frame` makes it: its adjacency as a DataFrame whose index and columns are the
node names, with the release it carries in ``DataFrame.attrs["guarantee"]``. Every graph
stage reads such a DataFrame back as the graph it was (node names, release), and any other
DataFrame by the same reading: square, its index equal to its columns (the same names in
the same order, without duplicates; a default ``RangeIndex`` means no names), an
``attrs["guarantee"]`` that is a :class:`~tdadp.dp.PrivacyGuarantee` when present, and
values judged by the rules above like any matrix (so a simple-graph stage refuses a DataFrame
with entries other than 0 and 1, and the embedding reads its weights). Sparse-backed columns
(``DataFrame.sparse``) give a sparse matrix.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..dp._guarantee import PrivacyGuarantee
from ..graphs._info import graph_guarantee, graph_nodes, tag_graph
from ..graphs._packed import PackedAdjacency
from ..utils._batch import split_batch
from ..utils._memory import check_memory
from ..utils._output import is_dataframe, name_index, pandas_module
from ..utils._params import Options, check_param
from ..utils._validation import check_adjacency, check_symmetric_matrix
from ._networkx import from_networkx, is_networkx_graph, networkx_matrix

__all__ = ["coerce_graphs", "graph_batch", "one_graph", "simple_graph", "graph_frame",
           "GRAPH_KINDS", "WEIGHTED_SYMMETRY_RTOL"]

GRAPH_KINDS = ("simple", "weighted")

# Weighted float input (a kernel, a correlation matrix) is symmetric only up to rounding.
WEIGHTED_SYMMETRY_RTOL = 1e-10


def _exact(G):
    A, nodes = networkx_matrix(G)
    return tag_graph(A, nodes=nodes)


def coerce_graphs(X):
    """Networkx graphs and DataFrames (alone or in a list) as matrices; the rest as is.

    A networkx graph becomes its exact adjacency: a float64 CSR matrix with the edge weights,
    the parallel edges of a multigraph summed and self-loops on the diagonal, carrying the
    node names. A DataFrame becomes its values (a CSR matrix when sparse-backed) carrying its
    node names and release (see the module docstring; its shape, index and ``attrs`` are
    checked here). Values are not judged yet (that is :func:`graph_batch`'s job).
    """
    if is_networkx_graph(X):
        return _exact(X)
    if is_dataframe(X):
        return _frame_graph(X)
    if isinstance(X, (list, tuple)) and any(is_networkx_graph(x) or is_dataframe(x)
                                            for x in X):
        return [coerce_graphs(x) for x in X]
    return X


def graph_batch(X, validate=True, *, kind="simple"):
    """``(items, single)`` for graph input, each item checked by the input contract.

    Parameters
    ----------
    X : graph or sequence of graphs
        Dense arrays, scipy sparse matrices/arrays of any format, networkx graphs, pandas
        DataFrame adjacencies, :class:`~tdadp.graphs.PackedAdjacency` (passed through as it
        is).
    validate : bool, default=True
        False: the items as given (networkx graphs as their exact adjacency, see
        :func:`coerce_graphs`), for a caller that needs the raw containers.
    kind : {"simple", "weighted"}, default="simple"
        "simple": each item a simple graph's adjacency (uint8 ndarray or CSR matrix);
        self-loops and weights raise a ValueError (see the module docstring).
        "weighted": each item a symmetric real matrix (dense in its own numeric dtype, or
        CSR float64), diagonal kept; networkx edge weights are read.

    Returns
    -------
    items : list
        Checked items keep what their input carried (node names, release; see
        :mod:`tdadp.graphs._info`), so a stage reads them with ``graph_nodes(item)`` and
        ``graph_guarantee(item)`` whatever the container it was given.
    single : bool
        Whether ``X`` was one graph.
    """
    check_param(kind, [Options(*GRAPH_KINDS)], "kind")
    items, single = split_batch(coerce_graphs(X), what="adjacency matrix",
                                single_types=(PackedAdjacency,))
    if validate:
        items = [_keep_info(item, _check(item, kind, "A" if single else f"graph {k}"))
                 for k, item in enumerate(items)]
    return items, single


def one_graph(X, name="A", *, kind="simple"):
    """One graph under the input contract, for a stage that takes exactly one.

    Like :func:`graph_batch` on one item (every container, the same rules, node names and
    release kept), with messages that call the graph ``name``; a batch is refused.

    Parameters
    ----------
    X : graph
        A dense array, scipy sparse matrix or array, networkx graph, DataFrame adjacency or
        :class:`~tdadp.graphs.PackedAdjacency`.
    name : str, default="A"
        What messages call the graph (``"G0"``, ``"graph"``).
    kind : {"simple", "weighted"}, default="simple"
        As in :func:`graph_batch`.

    Returns
    -------
    A : ndarray, CSR matrix or PackedAdjacency
        The checked graph.

    Examples
    --------
    >>> import networkx as nx
    >>> from tdadp.io import one_graph
    >>> one_graph(nx.path_graph(3)).toarray().tolist()
    [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    >>> one_graph([[[0, 1], [1, 0]]] * 2, "G0")
    Traceback (most recent call last):
    ...
    ValueError: G0 must be one graph, not a batch of 2.
    """
    check_param(kind, [Options(*GRAPH_KINDS)], "kind")
    items, single = split_batch(coerce_graphs(X), what="adjacency matrix",
                                single_types=(PackedAdjacency,))
    if not single:
        raise ValueError(f"{name} must be one graph, not a batch of {len(items)}.")
    return _keep_info(items[0], _check(items[0], kind, name))


def _check(A, kind, name):
    if isinstance(A, PackedAdjacency):
        # Simple by construction (strict upper triangle of bits): only its size can be wrong.
        if A.n < 2:
            raise ValueError(f"{name} has {A.n} node(s); a graph needs at least 2.")
        return A
    if kind == "weighted":
        return check_symmetric_matrix(A, name, keep_dtype=True, tol=WEIGHTED_SYMMETRY_RTOL)
    return check_adjacency(A, name, nodes=graph_nodes(A))


def simple_graph(A, *, self_loops="error", weights="error"):
    """The simple graph of ``A`` under the input contract, with explicit opt-ins.

    For a graph from anywhere (a matrix of any container, a networkx graph) that the
    mechanisms would refuse: drop its self-loops and/or binarize its weights, with a
    UserWarning saying how many were changed. With the defaults, it is the check the
    mechanisms apply.

    Parameters
    ----------
    A : array-like, scipy sparse matrix/array, networkx graph or DataFrame of shape (n, n)
    self_loops : {"error", "drop", "keep"}, default="error"
        Refuse self-loops, drop them (zero the diagonal), or keep them.
    weights : {"error", "binarize", "keep"}, default="error"
        Refuse entries other than 0 and 1, make every nonzero entry 1, or keep them.

    Returns
    -------
    A : ndarray or CSR sparse matrix/array of shape (n, n)
        dtype uint8 (float64 with ``weights="keep"``); a scipy sparse *array* input gives a
        ``csr_array``, a networkx graph a ``csr_matrix``. Node names and release carried by
        the input are kept.

    Examples
    --------
    >>> import numpy as np
    >>> from tdadp.io import simple_graph
    >>> A = np.array([[1, 2], [2, 0]])
    >>> simple_graph(A)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: A has 1 self-loop (nonzero diagonal entries); ... self_loops='drop').
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     simple_graph(A, self_loops="drop", weights="binarize").tolist()
    [[0, 1], [1, 0]]
    """
    if is_networkx_graph(A):
        return from_networkx(A, self_loops=self_loops, weights=weights)
    if is_dataframe(A):
        A = _frame_graph(A)
    out = _keep_info(A, check_adjacency(A, self_loops=self_loops, weights=weights,
                                        nodes=graph_nodes(A), stacklevel=2))
    if isinstance(A, sp.sparray):
        out = tag_graph(sp.csr_array(out), nodes=graph_nodes(A), guarantee=graph_guarantee(A))
    return out


def _keep_info(raw, checked):
    nodes, guarantee = graph_nodes(raw), graph_guarantee(raw)
    if nodes is None and guarantee is None:
        return checked
    if checked is raw and sp.issparse(raw):
        checked = checked.copy()  # never tag the caller's own sparse matrix
    return tag_graph(checked, nodes=nodes, guarantee=guarantee)


def graph_frame(A):
    """A simple graph as a pandas DataFrame: what graph stages return with pandas output.

    Index and columns are the node names ``A`` carries (else ``RangeIndex(n)``), values 0
    and 1 as int8, sparse-backed (``DataFrame.sparse``) when ``A`` is sparse, and the release
    ``A`` carries in ``attrs["guarantee"]``: every graph stage reads it back as the same
    graph (see the module docstring).

    Parameters
    ----------
    A : ndarray, scipy sparse matrix/array or PackedAdjacency of shape (n, n)
        A simple graph's adjacency (0 and 1), as a mechanism releases it; not checked again.

    Returns
    -------
    pandas.DataFrame of shape (n, n)

    Raises
    ------
    ValueError
        For a :class:`~tdadp.graphs.PackedAdjacency` whose dense ``n^2`` bytes would not fit
        in half of the memory left, up front (a packed graph exists for sizes where they do
        not; the message says how much it needs and to keep the default output).

    Examples
    --------
    >>> import networkx as nx
    >>> from tdadp.io import from_networkx, graph_frame
    >>> frame = graph_frame(from_networkx(nx.path_graph(["a", "b", "c"])))
    >>> frame.sparse.to_dense()
       a  b  c
    a  0  1  0
    b  1  0  1
    c  0  1  0
    >>> graph_nodes(graph_batch(frame)[0][0])
    ['a', 'b', 'c']
    """
    pd = pandas_module()
    nodes, guarantee = graph_nodes(A), graph_guarantee(A)
    n = A.shape[0]
    names = pd.RangeIndex(n) if nodes is None else name_index(nodes)
    if sp.issparse(A):
        frame = pd.DataFrame.sparse.from_spmatrix(A.astype(np.int8), index=names,
                                                  columns=names)
    else:
        if isinstance(A, PackedAdjacency):
            check_memory(float(n) ** 2, f"a DataFrame of the packed graph on {n} nodes",
                         " Keep the default output (set_output(transform='default')): the "
                         "packed graph takes one bit per dyad.")
            A = A.toarray()
        values = np.asarray(A)
        # A view, not a copy, of the usual uint8 release: the same n^2 bytes, read as int8.
        values = values.view(np.int8) if values.dtype == np.uint8 else values.astype(np.int8)
        frame = pd.DataFrame(values, index=names, columns=names, copy=False)
    if guarantee is not None:
        frame.attrs["guarantee"] = guarantee
    return frame


def _frame_graph(frame):
    """The matrix of a DataFrame adjacency, carrying its node names and release."""
    pd = pandas_module()
    if frame.shape[0] != frame.shape[1]:
        raise ValueError(f"a graph given as a DataFrame is its adjacency matrix: it must be "
                         f"square, its index and columns the nodes; got shape {frame.shape}.")
    if not frame.index.equals(frame.columns):
        # Never quote the names: a graph's node names may be private.
        raise ValueError("a graph given as a DataFrame must have the same node names, in the "
                         "same order, as index and as columns; they differ.")
    if not frame.index.is_unique:
        raise ValueError("a graph given as a DataFrame names each node once; its index has "
                         f"{int(frame.index.duplicated().sum())} duplicate name(s).")
    guarantee = frame.attrs.get("guarantee")
    if guarantee is not None and not isinstance(guarantee, PrivacyGuarantee):
        raise ValueError("attrs['guarantee'] of a graph given as a DataFrame must be the "
                         "PrivacyGuarantee of its release (or absent), got "
                         f"{type(guarantee).__name__}.")
    index = frame.index
    # RangeIndex(n) is what a graph without names gets (and pandas' own default).
    unnamed = isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1
    dtypes = list(frame.dtypes)
    if dtypes and all(isinstance(t, pd.SparseDtype) and t.fill_value == 0 for t in dtypes):
        A = frame.sparse.to_coo().tocsr()
    else:
        A = frame.to_numpy()
    return tag_graph(A, nodes=None if unnamed else list(index), guarantee=guarantee)
