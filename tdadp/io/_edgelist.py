"""Reading a network from an edge-list text file (CSV, TSV, whitespace-separated)."""

from __future__ import annotations

import codecs
import csv
import os
import re

import numpy as np

from ..graphs._info import EdgeListedNodes, tag_graph
from ..utils._params import Interval, Options, check_param
from ..utils._validation import SELF_LOOP_POLICIES, WEIGHT_POLICIES, check_adjacency
from ._graph import edges_to_matrix

__all__ = ["read_edgelist", "read_nodes", "DIRECTED_POLICIES", "DirectedEdgesError",
           "undirected_arcs"]

#: What a reader does with a directed list of arcs: refuse it, an edge wherever either arc
#: exists (networkx's ``G.to_undirected()``), or only where both do
#: (``G.to_undirected(reciprocal=True)``).
DIRECTED_POLICIES = ("refuse", "symmetrize", "mutual")

_INT = re.compile(r"^[+-]?\d+$")
# Auto-detected delimiters, in order of preference (see read_edgelist).
_AUTO_DELIMITERS = ("\t", ",", ";")
_QUOTED = re.compile(r'"(?:[^"]|"")*"')
# Column names a header line commonly gives the two endpoints (compared lower-case, without
# "_", "-" and spaces).
_HEADER_NAMES = frozenset({
    "source", "target", "src", "dst", "from", "to", "u", "v", "i", "j", "head", "tail",
    "node", "node1", "node2", "nodea", "nodeb", "id1", "id2", "sourceid", "targetid",
    "fromid", "toid", "fromnodeid", "tonodeid", "sender", "receiver", "start", "end",
})
# A whitespace-separated field: a double-quoted string ("" escapes a quote) or a bare word.
_WS_FIELD = re.compile(r'"((?:[^"]|"")*)"|(\S+)')


# The longest line read: an edge is two labels and a weight (and perhaps a few ignored
# columns). A longer line is refused once this much of it is read (or, when a comment starts
# within it, the rest is dropped as it streams by), never held whole.
MAX_LINE = 1 << 20
_CHUNK = 1 << 16  # characters (or bytes) read at a time
_BREAK = re.compile(r"\r\n|\r|\n")  # universal newlines, as Python's text mode


def _open(path):
    if hasattr(path, "read"):
        return path, False
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise ValueError(
            f"path must be a file name or a readable text file object, got {type(path).__name__}."
        )
    if not os.fspath(path):
        raise ValueError("path must be a file name or a readable text file object, got an "
                         "empty file name.")
    return open(path, "rb"), True


def _quote(text, limit=80):
    """``text`` as a repr of at most ``limit`` characters (a bad line, quoted in a message)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def strip_comment(line, marker):
    """``line`` up to a comment marker that is not inside double quotes (``marker`` None:
    the whole line). Every reader of the user's text files applies this one rule."""
    if marker is None or marker not in line:
        return line
    if '"' not in line:
        return line.split(marker, 1)[0]
    quoted = False
    for k, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif not quoted and line.startswith(marker, k):
            return line[:k]
    return line


def _decoded(handle):
    """The file's text a chunk at a time (str or UTF-8 bytes), its byte-order mark dropped;
    yields ``(text, final)``, or raises a ValueError naming the line of a byte that is not
    UTF-8."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    first = True
    breaks = 0
    while True:
        chunk = handle.read(_CHUNK)
        if not isinstance(chunk, (str, bytes)):
            raise ValueError(f"path must be a readable text or binary file object; its read "
                             f"gave {type(chunk).__name__}.")
        final = not chunk
        if isinstance(chunk, bytes):
            try:
                text = decoder.decode(chunk, final=final)
            except UnicodeDecodeError as exc:
                good = chunk[:exc.start].decode("utf-8", "ignore")
                line = breaks + len(_BREAK.findall(good)) + 1
                raise ValueError(f"line {line} of the edge list is not UTF-8 text; save the "
                                 "file as UTF-8.") from None
        else:
            text = chunk
        if first and text:
            text = text.lstrip("\ufeff")  # written by spreadsheet programs
            first = False
        breaks += len(_BREAK.findall(text))
        yield text, final
        if final:
            return


def _read_lines(handle):
    """(line number, text, complete) of each line: its text whole, or (complete False) its
    first MAX_LINE characters only, the rest dropped as it is read."""
    lineno = 1
    buffer = ""       # the current line so far
    overflow = False  # the current line passed MAX_LINE (already yielded, incomplete)
    carry = ""        # a "\r" at a chunk's end, which may start a "\r\n"
    for text, final in _decoded(handle):
        text = carry + text
        carry = ""
        if text.endswith("\r") and not final:
            text, carry = text[:-1], "\r"
        parts = _BREAK.split(text)
        for part in parts[:-1]:
            if not overflow:
                line = buffer + part
                if len(line) > MAX_LINE:
                    yield lineno, line[:MAX_LINE], False
                else:
                    yield lineno, line, True
            buffer, overflow = "", False
            lineno += 1
        if not overflow:
            buffer += parts[-1]
            if len(buffer) > MAX_LINE:
                yield lineno, buffer[:MAX_LINE], False
                buffer, overflow = "", True
    if buffer and not overflow:
        yield lineno, buffer, True


def _data_lines(handle, comments):
    """(line number, text) of the lines left once comments and blank lines are removed."""
    out = []
    for lineno, line, complete in _read_lines(handle):
        text = strip_comment(line, comments)
        if not complete and len(text) == len(line):
            raise ValueError(
                f"line {lineno} of the edge list is longer than {MAX_LINE:,} characters (it "
                f"starts {line[:80]!r}...); an edge list has one edge a line: two labels and "
                "perhaps a weight. Is it a text edge list with line breaks?")
        text = text.strip()
        if text:
            out.append((lineno, text))
    return out


def _sniff(lines):
    """The delimiter of the first data line (a later malformed line cannot mislead it)."""
    first = _QUOTED.sub("", lines[0][1]) if lines else ""
    for delimiter in _AUTO_DELIMITERS:
        if delimiter in first:
            return delimiter
    return None


def _split(text, delimiter, lineno):
    if delimiter is None:
        return [bare if bare else quoted.replace('""', '"')
                for quoted, bare in _WS_FIELD.findall(text)]
    if len(delimiter) > 1:
        return [f.strip() for f in text.split(delimiter)]
    try:
        fields = next(csv.reader([text], delimiter=delimiter, skipinitialspace=True,
                                 strict=True))
    except csv.Error as exc:
        raise ValueError(f"line {lineno} of the edge list cannot be parsed: {exc} (the line "
                         f"starts {_quote(text)}).") from None
    return [f.strip() for f in fields]


def _is_number(field):
    try:
        float(field)
    except ValueError:
        return False
    return True


def _normal(name):
    return re.sub(r"[\s_\-]", "", name.lower())


def _infer_header(first, rest, weight_index):
    """Whether the first data line is a header: see :func:`read_edgelist`.

    Only a line that cannot be an edge is taken for one: its two labels name no node of
    any other line and are not both integers.
    """
    labels = first[:2]
    if all(_INT.match(x) for x in labels):
        return False
    if any(x in labels for fields in rest for x in fields[:2]):
        return False
    if rest and all(_INT.match(x) for fields in rest for x in fields[:2]):
        return True
    if all(_normal(x) in _HEADER_NAMES for x in labels):
        return True
    if weight_index is not None and len(first) > weight_index \
            and not _is_number(first[weight_index]):
        later = [fields[weight_index] for fields in rest if len(fields) > weight_index]
        return bool(later) and all(_is_number(w) for w in later)
    return False


def _weight_index(weight_column, header_fields):
    if weight_column is None or isinstance(weight_column, int):
        return weight_column
    if header_fields is None:
        raise ValueError(f"weight_column={_quote(weight_column)} names a column, but the edge list "
                         "has no header line; give the column's index instead.")
    names = [_normal(f) for f in header_fields]
    if _normal(weight_column) not in names:
        raise ValueError(f"weight_column={_quote(weight_column)} is not a column of the "
                         f"header {_quote(' '.join(header_fields))}.")
    index = names.index(_normal(weight_column))
    if index < 2:
        raise ValueError(f"weight_column={_quote(weight_column)} is column {index}, which holds "
                         "node labels.")
    return index


def _weight(fields, index, lineno):
    if index is None or len(fields) <= index or fields[index] == "":
        return 1.0
    try:
        w = float(fields[index])
    except ValueError:
        raise ValueError(
            f"line {lineno} of the edge list has {_quote(fields[index])} in its weight column "
            f"(column {index}), which is not a number. Pass weight_column=None to ignore "
            "that column, or the index/name of the right one."
        ) from None
    if not np.isfinite(w):
        raise ValueError(f"line {lineno} of the edge list has a weight of {w}.")
    return w


class DirectedEdgesError(ValueError):
    """Arcs given where an undirected graph is expected, with no ``directed=`` choice made.

    A ValueError whose attributes count the unordered pairs of nodes listed in both
    directions (``reciprocated``) and in one only (``one_way``), so that a caller (the
    command line) can word the fix in its own terms.
    """

    def __init__(self, message, reciprocated, one_way):
        super().__init__(message)
        self.reciprocated = int(reciprocated)
        self.one_way = int(one_way)


def _reciprocal(src, dst, n):
    """For each arc ``src[k] -> dst[k]`` other than a self-loop, whether the reverse arc is
    listed too; and the numbers of reciprocated and one-way unordered pairs."""
    off = src != dst
    arcs = np.unique(src[off] * n + dst[off])
    back = np.isin((arcs % n) * n + arcs // n, arcs, assume_unique=True)
    reverse = np.zeros(src.size, dtype=bool)
    reverse[off] = np.isin(dst[off] * n + src[off], arcs)
    # each reciprocated pair is two distinct arcs, each one-way pair one
    return reverse, int(back.sum()) // 2, int((~back).sum())


def undirected_arcs(src, dst, values, n, directed, *, known_directed, source, opt_in):
    """The arcs ``src -> dst`` (node indices below ``n``) to build an undirected graph from,
    under the policy ``directed`` (one of :data:`DIRECTED_POLICIES`).

    ``"symmetrize"`` keeps every arc (an edge wherever either arc exists), ``"mutual"`` the
    arcs whose reverse is listed too, and self-loops. ``"refuse"`` keeps every arc of an
    undirected listing and raises :class:`DirectedEdgesError` on a directed one: always when
    ``known_directed`` (a networkx DiGraph), else when some unordered pairs are listed in
    both directions and others in one only (an undirected list gives every edge once, or
    every edge in both directions). The message gives counts and ``opt_in`` (a format string
    of the call that chooses, e.g. ``"read_edgelist(..., directed={!r})"``), never a node.

    Returns
    -------
    src, dst, values : ndarray
        The arcs kept (all of them, the same arrays, unless ``directed="mutual"``).
    """
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    values = np.asarray(values, dtype=np.float64)
    if directed == "symmetrize":
        return src, dst, values
    reverse, reciprocated, one_way = _reciprocal(src, dst, n)
    if directed == "mutual":
        keep = reverse | (src == dst)
        return src[keep], dst[keep], values[keep]
    if known_directed or (reciprocated and one_way):
        why = ("is directed" if known_directed else "looks directed (an undirected list "
               "gives each edge once, or each in both directions)")
        raise DirectedEdgesError(
            f"{source} {why}: {reciprocated:,} pair(s) of nodes are linked in both "
            f"directions, {one_way:,} in one direction only. Choose its undirected graph: "
            f"{opt_in.format('symmetrize')} (an edge wherever either direction is given, as "
            f"networkx's G.to_undirected()) or {opt_in.format('mutual')} (an edge only where "
            "both are, as G.to_undirected(reciprocal=True)).",
            reciprocated, one_way)
    return src, dst, values


def read_edgelist(path, *, delimiter="auto", comments="#", header="infer", weight_column=2,
                  directed="refuse", self_loops="error", weights="error", sparse=True,
                  return_nodes=False, node_order="sorted", nodes=None):
    """Read an undirected network from an edge-list file (CSV, TSV or whitespace-separated).

    Each data line holds one edge: two node labels, then optionally its weight (column
    ``weight_column``); further columns (timestamps, ...) are ignored. The graph is
    undirected: ``u v`` and ``v u`` are the same edge, and an edge listed several times must
    have one weight. Its adjacency then follows the input contract of every container (see
    :mod:`tdadp.io`): self-loops and weights other than 1 raise a ValueError naming the nodes
    unless ``self_loops``/``weights`` opt in to dropping/binarizing (with a UserWarning) or
    keeping them. A weight of 0 is no edge (its nodes are kept).

    **Directed lists.** A list of arcs (links with a direction: hyperlinks, citations,
    who-follows-whom) is refused rather than symmetrised silently, as
    :func:`~tdadp.io.from_networkx` refuses a DiGraph. A file does not say which it is, so
    the listing decides: every pair of nodes given once (in either orientation) is an
    undirected list, and so is every pair given in both orientations (each edge listed
    twice); some pairs in both orientations and others in one only is a directed list
    (reciprocated and one-way arcs), refused by a ValueError counting both kinds of pairs
    (a ``DirectedEdgesError``, the counts also its attributes). Choose the graph with
    ``directed``: ``"symmetrize"`` (an edge wherever either arc is listed, networkx's
    ``G.to_undirected()``; what earlier versions did silently) or ``"mutual"`` (an edge
    only where both are, ``G.to_undirected(reciprocal=True)``; the nodes of the other arcs
    are kept). A directed list with no reciprocated arc, or only reciprocated ones, cannot
    be told from an undirected one and is read as one; ``directed="mutual"`` still keeps
    only the reciprocated pairs.

    **Delimiters.** ``"auto"`` (default) takes the first of tab, ``","`` and ``";"`` that
    occurs (outside quotes) on the first data line, else any run of whitespace. Fields may be
    double-quoted (``"New York, NY"``; ``""`` is a quote inside quotes), with any delimiter.

    **Header.** ``header="infer"`` (default) takes the first data line as a header (column
    names, not an edge) only when it cannot be an edge: its two labels are not both integers
    and label no node on any other line, and either every other line's labels are integers,
    or both are common endpoint names (``source``/``target``, ``from``/``to``, ``u``/``v``,
    ``node1``/``node2``, ...), or its weight field is not a number while every other line's
    is. Otherwise it is an edge (and a weight that is not a number is an error naming the
    line). ``True``/``False`` say it.

    **Comments.** Everything from ``comments`` to the end of a line is ignored (except inside
    quotes); blank lines are skipped.

    Node labels are any strings. They are numbered ``0 .. n-1`` in ``node_order``:
    ``"sorted"`` (default) sorts them numerically when every label is an integer (so "10"
    comes after "9") and as strings otherwise; ``"first_seen"`` keeps the order of first
    appearance in the file.

    With ``nodes``, the first line is a header when it names no listed node and both its
    endpoint fields are such common names; otherwise an edge.

    **The node set.** Without ``nodes``, the graph's nodes are the labels the edges name:
    a node without an edge cannot appear, and the node list reveals which nodes have an
    edge. That is fine for a public network, but not for one about to be released with
    edge-DP (one more edge to a new node adds a row to the release): give the public node
    list as ``nodes``, and the graph has exactly those nodes, the isolated ones included, in
    an order that depends on that list alone (``node_order`` applied to it). Names read
    from the edges travel as :class:`~tdadp.graphs.EdgeListedNodes`, which the release
    mechanisms warn about.

    Parameters
    ----------
    path : str, path-like or file object (text or binary, UTF-8)
    delimiter : "auto", str or None, default="auto"
        Column separator; None splits on any whitespace.
    comments : str or None, default="#"
        Comment marker; None disables comments.
    header : {"infer", True, False}, default="infer"
    weight_column : int, str or None, default=2
        Column holding the weight (an index from 0, or a header name); lines without it have
        weight 1. None reads no weight (every edge has weight 1).
    directed : {"refuse", "symmetrize", "mutual"}, default="refuse"
        What to do with a directed list (see above): refuse it, an edge wherever either arc
        is listed, or an edge only where both are. The two arcs of an edge must have one
        weight. An undirected list reads the same under "refuse" and "symmetrize".
    self_loops : {"error", "drop", "keep"}, default="error"
        Refuse self-loops, drop them (with a warning; the node is kept), or keep them on the
        diagonal.
    weights : {"error", "binarize", "keep"}, default="error"
        Refuse weights other than 1, make every edge of nonzero weight an edge of weight 1
        (with a warning), or keep them (a float64 weighted adjacency).
    sparse : bool, default=True
        Return a scipy CSR matrix (else a dense array).
    return_nodes : bool, default=False
        Also return the node labels, ``nodes[i]`` being the label of row ``i``: Python ints
        when every label is an integer, else strings. The matrix carries them too
        (:func:`tdadp.graphs.graph_nodes`), for the stages downstream.
    node_order : {"sorted", "first_seen"}, default="sorted"
        With ``nodes``: "sorted" sorts the list as above, "first_seen" keeps its order.
    nodes : sequence of str or int, optional
        The public node list: every node of the network, isolated ones included, each name
        once (an int and its decimal text are the same name). Every edge must join two
        listed nodes (else a ValueError counting the labels that are not listed). The
        names come back as ints when every name is an integer within int64 (distinct as
        integers), else as strings, as for labels read from the edges.

    Returns
    -------
    A : scipy.sparse.csr_matrix or ndarray of shape (n, n)
        Symmetric adjacency, dtype uint8 (float64 with ``weights="keep"``).
    nodes : list
        Only if ``return_nodes``.

    Raises
    ------
    ValueError
        On a line with fewer than two columns, a weight that is not a number, a line longer
        than ``MAX_LINE`` (2^20) characters or one that is not UTF-8 (naming the line
        number, quoting at most 80 characters of it), an edge listed twice with different
        weights, a file without any edge, fewer than two nodes, a directed list with
        ``directed="refuse"``, and self-loops or weights the options do not allow.
        Also if ``path`` is neither a file name nor a file object.

    Examples
    --------
    >>> import io
    >>> from tdadp.io import read_edgelist
    >>> text = "# a triangle and a pendant\\n1 2\\n2 3\\n3 1\\n3 10\\n"
    >>> A, nodes = read_edgelist(io.StringIO(text), return_nodes=True)
    >>> nodes
    [1, 2, 3, 10]
    >>> A.toarray().tolist()
    [[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 0]]

    Listing ``2 1`` as well makes it a directed list: one pair linked both ways, three one
    way.

    >>> read_edgelist(io.StringIO(text + "2 1\\n"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tdadp.io._edgelist.DirectedEdgesError: the edge list looks directed (...): 1 pair(s) ...
    >>> read_edgelist(io.StringIO(text + "2 1\\n"), directed="mutual").toarray().tolist()
    [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    >>> csv_text = io.StringIO('source,target,weight\\n"Smith, J.",Lee,0.5\\nLee,Kim,2\\n')
    >>> A, nodes = read_edgelist(csv_text, weights="keep", sparse=False, return_nodes=True)
    >>> nodes, A.tolist()
    (['Kim', 'Lee', 'Smith, J.'], [[0.0, 2.0, 0.0], [2.0, 0.0, 0.5], [0.0, 0.5, 0.0]])
    """
    check_param(node_order, [Options("sorted", "first_seen")], "node_order")
    check_param(directed, [Options(*DIRECTED_POLICIES)], "directed")
    check_param(header, [Options("infer", True, False)], "header")
    check_param(self_loops, [Options(*SELF_LOOP_POLICIES)], "self_loops")
    check_param(weights, [Options(*WEIGHT_POLICIES)], "weights")
    check_param(weight_column, [None, Interval("int", 2, None, "left"), str], "weight_column")
    if not (delimiter is None or (isinstance(delimiter, str) and delimiter != "")):
        raise ValueError(f"delimiter must be 'auto', a non-empty string or None, got "
                         f"{_quote(repr(delimiter))}.")
    if comments is not None and (not isinstance(comments, str) or comments == ""):
        raise ValueError(f"comments must be a non-empty string or None, got "
                         f"{_quote(repr(comments))}.")
    handle, owned = _open(path)
    try:
        lines = _data_lines(handle, comments)
    finally:
        if owned:
            handle.close()
    if delimiter == "auto":
        delimiter = _sniff(lines)
    rows = [(lineno, _split(text, delimiter, lineno)) for lineno, text in lines]
    for (lineno, fields), (_, text) in zip(rows, lines):
        if len(fields) < 2 or not fields[0] or not fields[1]:
            raise ValueError(
                f"line {lineno} of the edge list is malformed: expected two node labels "
                f"separated by {'whitespace' if delimiter is None else _quote(delimiter)}, "
                f"got {len(fields)} field(s) in {_quote(text)}."
            )
    index = {} if nodes is None else _node_index(nodes)
    if rows and header == "infer":
        if index:
            # With the node list, the first line is a header only when it names no listed
            # node and both its fields are endpoint column names; anything else is an edge
            # (the guess below could take a lone edge's line for a header and drop it).
            first = rows[0][1][:2]
            header = not any(f in index for f in first) and all(
                _normal(f) in _HEADER_NAMES for f in first)
        elif isinstance(weight_column, str):
            header = _normal(weight_column) in {_normal(f) for f in rows[0][1]}
        else:
            header = _infer_header(rows[0][1], [f for _, f in rows[1:]], weight_column)
    header_fields = rows[0][1] if rows and header else None
    if header:
        rows = rows[1:]
    wi = _weight_index(weight_column, header_fields)
    if not rows and not index:
        # Without a node list there is no graph; with one, it is the empty graph.
        raise ValueError("the edge list has no edge.")
    listed = len(index)
    src, dst, values = [], [], []
    for lineno, fields in rows:
        for label in fields[:2]:
            if label not in index:
                index[label] = len(index)
        src.append(index[fields[0]])
        dst.append(index[fields[1]])
        values.append(_weight(fields, wi, lineno))
    labels = list(index)
    if len(labels) > listed > 0:
        # A count, not the labels: they are the private graph's.
        raise ValueError(f"{len(labels) - listed:,} label(s) of the edge list are not in the "
                         f"node list of {listed:,} nodes; list every node (an edge-DP "
                         "release needs the whole node set from outside the edges).")
    if len(labels) < 2:
        raise ValueError(f"the edge list has only one node ({_quote(labels[0])}); need at "
                         "least 2.")
    src, dst, values = undirected_arcs(src, dst, values, len(labels), directed,
                                       known_directed=False, source="the edge list",
                                       opt_in="read_edgelist(..., directed={!r})")
    out_labels = _numeric_labels(labels)
    if node_order == "sorted":
        perm = sorted(range(len(labels)), key=out_labels.__getitem__)
        new_id = np.empty(len(labels), dtype=np.int64)
        new_id[perm] = np.arange(len(labels))
        src, dst = new_id[src], new_id[dst]
        out_labels = [out_labels[i] for i in perm]
    A = edges_to_matrix(src, dst, values, len(labels), merge="same", nodes=out_labels,
                        source="the edge list")
    A = check_adjacency(A, "the edge list", self_loops=self_loops, weights=weights,
                        nodes=out_labels, opt_in="read_edgelist(..., {})", stacklevel=2)
    if nodes is None:
        out_labels = EdgeListedNodes(out_labels)
    A = tag_graph(A if sparse else A.toarray(), nodes=out_labels)
    return (A, out_labels) if return_nodes else A


def read_nodes(path, *, comments="#"):
    """Read a node list: one name a line, or the column ``node`` of a CSV with a header.

    The public node set of a network to release (see :func:`read_edgelist`'s ``nodes``):
    every node, isolated ones included, each once. Fields follow CSV quoting (a name holding
    a comma is quoted); comments are cut as :func:`read_edgelist` cuts them, so give both
    files the same ``comments``.

    Parameters
    ----------
    path : str or path-like
    comments : str or None, default="#"

    Returns
    -------
    list of str

    Raises
    ------
    ValueError
        On invalid CSV, a line with the wrong number of fields, an empty or repeated name
        (by line number) or a file without any name.

    Examples
    --------
    >>> import os, tempfile
    >>> from tdadp.io import read_nodes
    >>> path = os.path.join(tempfile.mkdtemp(), "nodes.csv")
    >>> _ = open(path, "w").write('node,group\\n"Smith, J.",1\\nLee,2\\n')
    >>> read_nodes(path)
    ['Smith, J.', 'Lee']
    """
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            lines = (strip_comment(line, comments) for line in fh)
            rows = [(k, row) for k, row in enumerate(csv.reader(lines, strict=True), 1)
                    if any(field.strip() for field in row)]
    except csv.Error as exc:
        raise ValueError(f"{path} is not valid CSV ({_quote(str(exc))})") from None
    column = None
    if rows:
        header = [field.strip().lower() for field in rows[0][1]]
        if "node" in header:
            column = header.index("node")
            rows = rows[1:]
    names, seen = [], set()
    for line, row in rows:
        if column is None and len(row) != 1:
            raise ValueError(f"{path}: line {line} has {len(row)} fields; give one node name a "
                             "line (quote a name holding a comma) or a CSV with a column "
                             "'node'")
        if column is not None and len(row) != len(header):
            raise ValueError(f"{path}: line {line} has {len(row)} fields, its header "
                             f"{len(header)} (quote a name holding a comma)")
        name = row[0 if column is None else column].strip()
        if not name:
            raise ValueError(f"{path}: line {line} has an empty node name")
        if name in seen:
            raise ValueError(f"{path}: line {line} repeats a node name")
        seen.add(name)
        names.append(name)
    if not names:
        raise ValueError(f"{path} lists no node")
    return names


def _node_index(nodes):
    """{name as text: position} of a public node list, refusing what cannot be one."""
    if isinstance(nodes, (str, bytes)) or not hasattr(nodes, "__iter__"):
        raise ValueError(f"nodes must be a sequence of node names, got "
                         f"{type(nodes).__name__}.")
    index = {}
    for k, name in enumerate(nodes):
        if isinstance(name, (bool, np.bool_)) or not isinstance(name, (str, int, np.integer)):
            raise ValueError(f"nodes[{k}] is a {type(name).__name__}; node names are strings "
                             "or integers.")
        text = str(int(name)) if isinstance(name, (int, np.integer)) else name.strip()
        if not text:
            raise ValueError(f"nodes[{k}] is an empty name.")
        if text in index:
            raise ValueError(f"nodes[{k}] repeats the name of nodes[{index[text]}]; each node "
                             "is listed once.")
        index[text] = k
    if len(index) < 2:
        raise ValueError(f"the node list has {len(index)} node(s); need at least 2.")
    return index


# Integer labels become Python ints only within int64, the range every downstream container
# (numpy indices, pandas, the release file) holds; beyond it they stay text.
_INT64 = (-(1 << 63), (1 << 63) - 1)


def _numeric_labels(labels):
    """The labels as Python ints when all are integers within int64 (distinct as integers),
    else as is."""
    if all(_INT.match(label) for label in labels):
        values = [int(label) for label in labels]
        # "01" and "1" are different strings but the same integer: keep them apart.
        if len(set(values)) == len(values) and _INT64[0] <= min(values) and \
                max(values) <= _INT64[1]:
            return values
    return labels
