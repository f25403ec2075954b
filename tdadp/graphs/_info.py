"""What a graph carries along a pipeline besides its adjacency: node names and its release.

A graph read from networkx or an edge list knows its node names; a graph released by a
mechanism knows its guarantee (with the flip rate for randomized response). Both travel with
the adjacency itself, so that the next stage needs no copy of them (the embedding reads the
flip rate, the pandas output of a table reads the node names):

- a dense graph is a :class:`GraphArray`, an ``ndarray`` subclass with ``nodes`` and
  ``guarantee`` attributes;
- a sparse graph (any scipy sparse container) has the same two attributes set on the
  object (scipy's containers are plain Python objects);
- a :class:`~tdadp.graphs.PackedAdjacency` (one bit per dyad) has them as its own attributes.

Operations never carry the information over: ``A[:10, :10]``, ``1 - A`` or ``A.astype(float)``
are plain arrays without node names or release (a slice or a complement of a release does not
have the release's flip rate). Only :meth:`GraphArray.copy` and pickling keep it.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._packed import PackedAdjacency

__all__ = ["GraphArray", "EdgeListedNodes", "tag_graph", "graph_nodes", "graph_guarantee"]


class EdgeListedNodes(list):
    """Node names whose *set* was read from the edges themselves (an edge list without a
    node list): exactly the nodes with at least one edge.

    An edge-DP release must not reveal more than its released edges, but a node set read
    from the private edges reveals which nodes have an edge (adding one edge to a new node
    adds a row). The names travel as this list so that a mechanism can warn before it
    releases such a graph; a plain list (or a node list given to the reader) is a node set
    the caller vouches is public.
    """

    __slots__ = ()


class GraphArray(np.ndarray):
    """A dense adjacency matrix with the node names and the release that made it.

    Attributes
    ----------
    nodes : list or None
        ``nodes[i]`` names row ``i`` (from networkx or an edge list).
    guarantee : PrivacyGuarantee or None
        The guarantee of the mechanism that released this graph (its ``flip_probability``
        is what the privacy-adjusted embedding corrects for).
    """

    def __new__(cls, data, nodes=None, guarantee=None):
        obj = np.asarray(data).view(cls)
        obj.nodes = nodes
        obj.guarantee = guarantee
        return obj

    def __array_finalize__(self, obj):
        # Derived arrays (slices, arithmetic) are not the tagged graph: drop the tags.
        self.nodes = None
        self.guarantee = None

    def __array_wrap__(self, obj, context=None, return_scalar=False):
        # Reductions (A.sum(), A.mean()) are numbers, not graphs.
        if return_scalar:
            return obj[()]
        return super().__array_wrap__(obj, context, return_scalar)

    def copy(self, order="C"):
        out = super().copy(order=order)
        out.nodes, out.guarantee = self.nodes, self.guarantee
        return out

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        out = self.copy()
        out.nodes = None if self.nodes is None else list(self.nodes)
        return out

    def __reduce__(self):
        constructor, args, state = super().__reduce__()
        return constructor, args, (state, self.nodes, self.guarantee)

    def __setstate__(self, state):
        base_state, self.nodes, self.guarantee = state
        super().__setstate__(base_state)


def _check_nodes(nodes, n):
    if nodes is None:
        return None
    nodes = EdgeListedNodes(nodes) if isinstance(nodes, EdgeListedNodes) else list(nodes)
    if len(nodes) != n:
        raise ValueError(f"{len(nodes)} node names for a graph with {n} nodes.")
    return nodes


def tag_graph(A, *, nodes=None, guarantee=None):
    """``A`` carrying ``nodes`` and ``guarantee``.

    A dense array comes back as a :class:`GraphArray` view (no copy); a sparse matrix gets the
    attributes set on itself, so pass only a matrix this call's caller owns (a fresh result).
    """
    nodes = _check_nodes(nodes, A.shape[0])
    if sp.issparse(A) or isinstance(A, PackedAdjacency):
        A.nodes = nodes
        A.guarantee = guarantee
        return A
    return GraphArray(A, nodes=nodes, guarantee=guarantee)


def _carries(A):
    return isinstance(A, (GraphArray, PackedAdjacency)) or sp.issparse(A)


def graph_nodes(A):
    """The node names ``A`` carries (a list), or None."""
    return getattr(A, "nodes", None) if _carries(A) else None


def graph_guarantee(A):
    """The release guarantee ``A`` carries, or None."""
    return getattr(A, "guarantee", None) if _carries(A) else None
