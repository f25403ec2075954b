"""Reading a network from an edge-list text file."""

from __future__ import annotations

import os
import re

import numpy as np

from ._graph import edges_to_adjacency

__all__ = ["read_edgelist"]

_INT = re.compile(r"^[+-]?\d+$")


def _open(path):
    if hasattr(path, "read"):
        return path, False
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise ValueError(
            f"path must be a file name or a readable text file object, got {type(path).__name__}."
        )
    return open(path, encoding="utf-8"), True


def read_edgelist(path, *, delimiter=None, comments="#", sparse=True, return_nodes=False,
                  node_order="sorted"):
    """Read an undirected, unweighted network from an edge-list file.

    Each non-empty line holds one edge: two node labels separated by ``delimiter``
    (whitespace by default); further columns (weights, timestamps) are ignored. Everything from
    ``comments`` to the end of a line is ignored. The graph is taken as undirected and simple:
    ``u v`` and ``v u`` are the same edge, duplicated edges are merged, and self-loops are
    dropped with a warning (the node itself is kept).

    Node labels are any strings. They are numbered ``0 .. n-1`` in ``node_order``:
    ``"sorted"`` (default) sorts them numerically when every label is an integer (so "10"
    comes after "9") and as strings otherwise; ``"first_seen"`` keeps the order of first
    appearance in the file.

    Parameters
    ----------
    path : str, path-like or text file object
    delimiter : str or None, default=None
        Column separator; None splits on any whitespace.
    comments : str or None, default="#"
        Comment marker; None disables comments.
    sparse : bool, default=True
        Return a scipy CSR matrix (else a dense array).
    return_nodes : bool, default=False
        Also return the node labels, ``nodes[i]`` being the label of row ``i``: Python ints
        when every label is an integer, else strings.
    node_order : {"sorted", "first_seen"}, default="sorted"

    Returns
    -------
    A : scipy.sparse.csr_matrix or ndarray of shape (n, n), dtype uint8
        Symmetric binary adjacency matrix with a zero diagonal.
    nodes : list
        Only if ``return_nodes``.

    Raises
    ------
    ValueError
        On a line with fewer than two columns (naming the line number), on a file without any
        edge, or with fewer than two nodes.

    Examples
    --------
    >>> import io
    >>> from tdadp.io import read_edgelist
    >>> text = io.StringIO("# a triangle and a pendant\\n1 2\\n2 3\\n3 1\\n3 10\\n2 1\\n")
    >>> A, nodes = read_edgelist(text, return_nodes=True)
    >>> nodes
    [1, 2, 3, 10]
    >>> A.toarray().tolist()
    [[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 0]]
    """
    if node_order not in ("sorted", "first_seen"):
        raise ValueError(f"node_order must be 'sorted' or 'first_seen', got {node_order!r}.")
    if delimiter is not None and (not isinstance(delimiter, str) or delimiter == ""):
        raise ValueError(f"delimiter must be a non-empty string or None, got {delimiter!r}.")
    if comments is not None and (not isinstance(comments, str) or comments == ""):
        raise ValueError(f"comments must be a non-empty string or None, got {comments!r}.")
    handle, owned = _open(path)
    index = {}
    src, dst = [], []
    try:
        for lineno, line in enumerate(handle, start=1):
            if isinstance(line, bytes):
                line = line.decode("utf-8")
            if comments is not None:
                line = line.split(comments, 1)[0]
            fields = line.split(delimiter) if delimiter is not None else line.split()
            fields = [f.strip() for f in fields]
            if not any(fields):
                continue
            if len(fields) < 2 or not fields[0] or not fields[1]:
                raise ValueError(
                    f"line {lineno} of the edge list is malformed: expected two node labels "
                    f"separated by {'whitespace' if delimiter is None else repr(delimiter)}, "
                    f"got {line.rstrip()!r}."
                )
            for label in fields[:2]:
                if label not in index:
                    index[label] = len(index)
            src.append(index[fields[0]])
            dst.append(index[fields[1]])
    finally:
        if owned:
            handle.close()
    if not src:
        raise ValueError("the edge list has no edge.")
    labels = list(index)
    if len(labels) < 2:
        raise ValueError(f"the edge list has only one node ({labels[0]!r}); need at least 2.")
    numeric = all(_INT.match(label) for label in labels)
    if numeric:
        values = [int(label) for label in labels]
        if len(set(values)) != len(values):
            # "01" and "1" are different strings but the same integer: keep them apart.
            numeric = False
    out_labels = values if numeric else labels
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    if node_order == "sorted":
        perm = sorted(range(len(labels)), key=out_labels.__getitem__)
        new_id = np.empty(len(labels), dtype=np.int64)
        new_id[perm] = np.arange(len(labels))
        src, dst = new_id[src], new_id[dst]
        out_labels = [out_labels[i] for i in perm]
    A = edges_to_adjacency(src, dst, len(labels), sparse=sparse, source="the edge list",
                           stacklevel=3)
    return (A, out_labels) if return_nodes else A
