"""Graph inputs of the release stages: one graph or a batch, networkx graphs converted."""

from __future__ import annotations

import scipy.sparse as sp

from ..graphs._info import graph_guarantee, graph_nodes, tag_graph
from ..utils._batch import split_batch
from ..utils._validation import check_adjacency
from ._networkx import from_networkx, is_networkx_graph

__all__ = ["coerce_graphs", "graph_batch"]


def coerce_graphs(X):
    """Networkx graphs (alone or in a list) as sparse adjacency matrices; the rest as is."""
    if is_networkx_graph(X):
        return from_networkx(X)
    if isinstance(X, (list, tuple)) and any(is_networkx_graph(x) for x in X):
        return [coerce_graphs(x) for x in X]
    return X


def graph_batch(X, validate=True):
    """``(items, single)`` for graph input; with ``validate``, each item a checked adjacency.

    Checked items keep what their input carried (node names, release; see
    :mod:`tdadp.graphs._info`), so a stage reads them with ``graph_nodes(item)`` and
    ``graph_guarantee(item)`` whatever the container it was given.
    """
    items, single = split_batch(coerce_graphs(X), what="adjacency matrix")
    if validate:
        items = [_keep_info(item, check_adjacency(item)) for item in items]
    return items, single


def _keep_info(raw, checked):
    nodes, guarantee = graph_nodes(raw), graph_guarantee(raw)
    if nodes is None and guarantee is None:
        return checked
    if checked is raw and sp.issparse(raw):
        checked = checked.copy()  # never tag the caller's own sparse matrix
    return tag_graph(checked, nodes=nodes, guarantee=guarantee)
