"""A file for a packed release, so that a curator can hand it to an analyst.

It lives in the release stage because it stores and rebuilds the release's
:class:`PrivacyGuarantee` (the io stage sits below the release stage and may not import it).

Format (version 2), three lines and a payload::

    TDADP-PACKED-GRAPH\\n
    {the header: one line of UTF-8 JSON}\\n
    {SHA-256 of the header line's bytes (without its newline), 64 lowercase hex digits}\\n
    the payload: the packed words, little-endian uint64, in the layout of
    tdadp.graphs.PackedAdjacency (strict upper triangle, word-aligned rows)

The header is a JSON object with:

``format``
    2 (files of version 1, written by earlier development versions, have no header
    checksum line and are still read).
``layout``
    The layout's name (below); ``byteorder``: ``"little"``.
``n``, ``n_words``
    Nodes and payload words (``n_words`` is fixed by ``n``: ``sum_i (W - (i + 1) // 64)``
    with ``W = ceil(n / 64)``).
``tdadp_version``
    The version that wrote the file.
``sha256``
    SHA-256 of the payload bytes.
``guarantee``
    The release's :class:`PrivacyGuarantee` as a JSON object (its fields, ``components``
    a list of such objects; an infinite epsilon is written ``Infinity``, as Python's json
    does), or null when the graph carries none.
``nodes``
    The node names (a list of strings, integers or finite floats), or null.

Loading checks the magic line, the header's nesting and size (against the memory left) before
parsing it, every field (present, no other, of its type and range: ``n_words`` an integer
equal to the count ``n`` fixes, node names by the rule save_packed writes them by, the
guarantee through :meth:`PrivacyGuarantee.from_dict`, which bounds its depth), the header's
checksum, the payload's size against the file's (so a header claiming 10^9 nodes in a small
file is refused before anything is allocated for them), the memory the graph needs, the
payload's checksum, and that no bit is set outside the graph (on or below the diagonal, or
past column n): a file that fails any of them is refused with a ValueError saying which.
Both checksums are computed in 64 MiB steps, so a 625 MB release (n = 100,000) is read once,
straight into the graph's buffer.
"""

from __future__ import annotations

import hashlib
import json
import math
import numbers
import os
import re
from pathlib import Path

import numpy as np

from ..dp._guarantee import MAX_DEPTH as MAX_GUARANTEE_DEPTH
from ..dp._guarantee import NotAGuarantee, PrivacyGuarantee
from ..graphs._info import graph_guarantee, graph_nodes
from ..graphs._packed import PackedAdjacency, n_words, unused_bits
from ..utils._memory import check_memory
from ._text import DuplicateKeyError, clip, file_path, strict_json, tdadp_version

__all__ = ["save_packed", "load_packed", "PACKED_FORMAT"]

_MAGIC = b"TDADP-PACKED-GRAPH\n"
PACKED_FORMAT = 2
_LAYOUT = "upper-triangle, word-aligned rows, uint64 little-endian, column j = bit j % 64"
_CHUNK_BYTES = 1 << 26  # 64 MiB of payload per checksum, write and read step




def _guarantee_dict(g):
    if g is None:
        return None
    if not isinstance(g, PrivacyGuarantee):
        raise ValueError(f"the graph carries a guarantee of type {type(g).__name__}, not a "
                         "PrivacyGuarantee; only a tdadp release's guarantee can be saved.")
    return g.to_dict()


def _guarantee_from(d, path):
    if d is None:
        return None
    try:
        return PrivacyGuarantee.from_dict(d)
    except NotAGuarantee as exc:
        raise ValueError(f"{path}: the file's guarantee is not a tdadp PrivacyGuarantee "
                         f"({clip(str(exc), 200)}).") from None
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{path}: the file's guarantee is not a valid PrivacyGuarantee "
                         f"({clip(str(exc), 200)}).") from None




def _node_name(name):
    """The name as a JSON value that reads back equal (and hashes alike), or None."""
    if isinstance(name, (bool, np.bool_)):
        return bool(name)
    if isinstance(name, numbers.Integral):
        return int(name)
    if isinstance(name, numbers.Real) and math.isfinite(name):
        return float(name)
    if isinstance(name, str):
        return str(name)
    return None


def _node_names(nodes, path=None):
    """The names as JSON values that read back equal, or a clear error: one rule for
    :func:`save_packed` (``path`` None) and :func:`load_packed` (a header's names)."""
    if nodes is None:
        return None
    out = []
    bad = 0
    for name in nodes:
        value = _node_name(name)
        if value is None:
            if path is None:  # saving: the caller's own names, said plainly
                raise ValueError(
                    f"node name {len(out)} is {clip(repr(name))} ({type(name).__name__}); a "
                    "packed file stores names that are JSON values reading back equal: "
                    "strings, integers or finite floats. "
                    "Rename the nodes first, e.g. P.nodes = [str(v) for v in P.nodes].")
            bad += 1
        out.append(value)
    if bad:
        raise _damaged(path, f"{bad} of its node names are not strings, integers or finite "
                             "floats (what save_packed writes)")
    return out


def _payload_chunks(words):
    """The payload's bytes in steps (little-endian on every machine)."""
    step = _CHUNK_BYTES // 8
    for start in range(0, words.size, step):
        yield memoryview(np.ascontiguousarray(words[start:start + step], dtype="<u8")).cast("B")


def save_packed(path, A):
    """Write a packed graph (with its release and node names) to ``path``.

    The file format is documented in :mod:`tdadp.io._packed_file`: a magic line, one
    line of JSON header (n, layout, byte order, tdadp version, the guarantee, the node names,
    the payload's SHA-256), the header's own SHA-256, then the packed words as little-endian
    uint64. It is about ``n^2 / 16`` bytes: 625 MB at n = 100,000.

    Parameters
    ----------
    path : str or Path
        Overwritten if it exists.
    A : PackedAdjacency
        The graph; its ``guarantee`` (a :class:`PrivacyGuarantee` or None) and ``nodes`` are
        saved with it.

    Raises
    ------
    ValueError
        If ``A`` is not a PackedAdjacency, carries a guarantee that is not a
        PrivacyGuarantee, or has node names other than strings, integers and finite floats
        (a tuple would read back as a list: rename such nodes first).

    See Also
    --------
    load_packed

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> from tdadp import EdgeFlip
    >>> from tdadp.io import save_packed, load_packed
    >>> A = np.ones((4, 4), dtype=np.uint8) - np.eye(4, dtype=np.uint8)
    >>> B = EdgeFlip(1.0, random_state=0, output="packed").fit_transform(A)
    >>> path = os.path.join(tempfile.mkdtemp(), "release.tdadp")
    >>> save_packed(path, B)
    >>> C = load_packed(path)
    >>> C == B, C.guarantee == B.guarantee
    (True, True)
    """
    if not isinstance(A, PackedAdjacency):
        raise ValueError(f"save_packed writes a PackedAdjacency, got {type(A).__name__}; "
                         "release with output='packed' or build one with "
                         "PackedAdjacency.from_dense or from_sparse.")
    file_path(path)
    nodes = _node_names(graph_nodes(A))
    guarantee = _guarantee_dict(graph_guarantee(A))
    if nodes is not None and len(nodes) != A.n:
        raise ValueError(f"the graph has {len(nodes)} node names for {A.n} nodes.")
    unused = unused_bits(A.words, A.n)
    if unused:
        raise ValueError(f"the graph's words set {unused} bit(s) outside its strict upper "
                         "triangle (the diagonal, below it, or past column n); such a file "
                         "would not load. Build it with PackedAdjacency.from_dense, "
                         "from_sparse or from_edges.")
    digest = hashlib.sha256()
    for chunk in _payload_chunks(A.words):
        digest.update(chunk)
    header = {"format": PACKED_FORMAT, "layout": _LAYOUT, "byteorder": "little", "n": A.n,
              "n_words": int(A.words.size), "tdadp_version": tdadp_version(),
              "sha256": digest.hexdigest(), "guarantee": guarantee, "nodes": nodes}
    line = json.dumps(header).encode("utf-8")
    with open(Path(path), "wb") as fh:
        fh.write(_MAGIC)
        fh.write(line + b"\n")
        fh.write(hashlib.sha256(line).hexdigest().encode("ascii") + b"\n")
        for chunk in _payload_chunks(A.words):
            fh.write(chunk)


def _damaged(path, what):
    return ValueError(f"{path}: {what} (the file is damaged or was altered).")


_FIELDS = ("format", "layout", "byteorder", "n", "n_words", "tdadp_version", "sha256",
           "guarantee", "nodes")
_SCAN = 1 << 16  # bytes read at a time looking for the header's end
_STEP = 1 << 20  # a header parsed without a memory check; bytes of a nesting-count block
# Peak memory of json.loads per byte of header (a list of short names: a Python object of
# 28 to 60 bytes and a list slot for each name's few bytes).
_PARSE_BYTES_PER_BYTE = 16
# A header nests at most this deep: the header, its guarantee and the guarantee's components
# (a dict and a list a level, MAX_DEPTH levels); beyond it, refused before json recurses
# (deeper, from_dict refuses the guarantee with its own message).
_MAX_NESTING = 2 * MAX_GUARANTEE_DEPTH + 8
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_SHA256 = re.compile(r"[0-9a-f]{64}")






def _nesting(line):
    """Deepest nesting of brackets and braces outside the JSON strings of ``line``."""
    bare = np.frombuffer(_JSON_STRING.sub(b"", line), dtype=np.uint8)
    deepest = level = 0
    for a in range(0, bare.size, _STEP):
        part = bare[a:a + _STEP]
        steps = ((part == ord("[")) | (part == ord("{"))).astype(np.int64) \
            - ((part == ord("]")) | (part == ord("}")))
        depth = level + np.cumsum(steps)
        if depth.size:
            deepest = max(deepest, int(depth.max()))
            level = int(depth[-1])
    return deepest


def _header_line(fh, path, size):
    """The header line's bytes (without its newline): its end found a step at a time, its
    parse checked against the memory left before it is read whole."""
    start = fh.tell()
    length = None
    pos = start
    while pos < size:
        chunk = fh.read(_SCAN)
        if not chunk:
            break
        k = chunk.find(b"\n")
        if k >= 0:
            length = pos - start + k
            break
        pos += len(chunk)
    if length is None:
        raise _damaged(path, "its header line is cut short")
    if length > _STEP:  # below, its parse needs less than the numbers reading it
        check_memory(float(_PARSE_BYTES_PER_BYTE) * length,
                     f"reading the {length:,}-byte header of {path}",
                     " A packed file's header holds its node names and guarantee: a few MB.")
    fh.seek(start)
    return fh.read(length + 1)[:-1]


def _int_field(header, key):
    value = header[key]
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _header(fh, path, size):
    """(header, guarantee, payload offset) of an open packed file, every field checked."""
    if fh.read(len(_MAGIC)) != _MAGIC:
        raise ValueError(f"{path} is not a tdadp packed graph (no TDADP-PACKED-GRAPH line).")
    line = _header_line(fh, path, size)
    deepest = _nesting(line)
    if deepest > _MAX_NESTING:
        raise _damaged(path, f"its header nests {deepest} levels deep (a tdadp header nests "
                             f"at most {_MAX_NESTING})")
    try:
        header = strict_json(line.decode("utf-8"))
    except DuplicateKeyError:
        raise _damaged(path, "its header names a field twice") from None
    except (ValueError, RecursionError):  # not UTF-8, not JSON, an integer of 5,000 digits
        raise _damaged(path, "its header is not valid JSON") from None
    if not isinstance(header, dict):
        raise _damaged(path, "its header is not a JSON object")
    fmt = header.get("format")
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt < 1 or fmt > PACKED_FORMAT:
        version_ = header.get("tdadp_version", "?")
        raise ValueError(f"{path}: format {clip(repr(fmt), 40)} is not one this tdadp reads "
                         f"(1 to {PACKED_FORMAT}); it was written by tdadp "
                         f"{clip(str(version_), 40)}: read it with that version or a "
                         "newer one.")
    missing = [k for k in _FIELDS if k not in header]
    unknown = [k for k in header if k not in _FIELDS]
    if missing or unknown:
        raise _damaged(path, f"its header lacks {len(missing)} and adds {len(unknown)} "
                             f"field(s) (fields: {', '.join(_FIELDS)})")
    if header["layout"] != _LAYOUT or header["byteorder"] != "little":
        raise ValueError(f"{path}: unknown layout or byte order in its header.")
    if not isinstance(header["tdadp_version"], str):
        raise _damaged(path, "its header's tdadp_version is not a string")
    if not isinstance(header["sha256"], str) or not _SHA256.fullmatch(header["sha256"]):
        raise _damaged(path, "its header's sha256 is not 64 lowercase hex digits")
    n = _int_field(header, "n")
    if n is None or n < 0:
        raise _damaged(path, "its header has no valid node count")
    count = _int_field(header, "n_words")
    if count is None or count != n_words(n):
        raise _damaged(path, f"its header's word count does not match {n} nodes")
    nodes = header["nodes"]
    if nodes is not None and (not isinstance(nodes, list) or len(nodes) != n):
        raise _damaged(path, f"its node names are not a list of {n}")
    header["nodes"] = _node_names(nodes, path)
    guarantee = _guarantee_from(header["guarantee"], path)
    # The fields' own checks first (their messages say more), then the checksum that
    # catches any other change (an epsilon altered by hand, a flipped digit).
    if fmt >= 2:
        stored = fh.read(65)
        if stored.rstrip(b"\n").decode("ascii", "replace") != hashlib.sha256(line).hexdigest() \
                or not stored.endswith(b"\n"):
            raise _damaged(path, "its header does not match the header's checksum")
    return header, guarantee, fh.tell()


def load_packed(path):
    """Read a packed graph written by :func:`save_packed`, checking it thoroughly.

    Every header field is checked (type, range, consistency with the others and with the
    file's size) before anything is allocated for the graph, and the memory the graph needs
    against the memory left; then the payload is read and its checksum compared, and no bit
    may be set outside the graph (on or below the diagonal, or past column ``n``).

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    PackedAdjacency
        Carrying the release's guarantee and the node names saved with it.

    Raises
    ------
    ValueError
        Not a tdadp packed graph, a newer format, a header that does not match its checksum
        or is malformed (a field missing, added, of the wrong type or out of range; a node
        count the file's size cannot hold; node names save_packed would refuse; a guarantee
        that is not valid or nests too deep), a payload of the wrong size (truncated, or with
        trailing bytes), a payload that does not match its checksum or sets bits outside the
        graph, or a graph too large for the memory left (checked before reading the
        payload).
    TypeError
        If ``path`` is not a file name.

    See Also
    --------
    save_packed

    Examples
    --------
    >>> import tempfile, os
    >>> from tdadp.graphs import PackedAdjacency
    >>> from tdadp import save_packed, load_packed
    >>> path = os.path.join(tempfile.mkdtemp(), "graph.tdadp")
    >>> save_packed(path, PackedAdjacency.from_edges(3, [0], [2], nodes=["a", "b", "c"]))
    >>> P = load_packed(path)
    >>> P.n, P.count_edges(), P.nodes, P.guarantee is None
    (3, 1, ['a', 'b', 'c'], True)
    """
    file_path(path)
    path = Path(os.fsdecode(path))
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        header, guarantee, offset = _header(fh, path, size)
        n, count = header["n"], header["n_words"]
        have = size - offset
        if have < 8 * count:
            raise _damaged(path, f"the payload holds {have} of its {8 * count} bytes "
                                 "(the file is truncated)")
        if have > 8 * count:
            raise _damaged(path, f"{have - 8 * count} bytes follow the payload")
        # The words, and the layout's three arrays of n + 1 int64 (offsets, first words and
        # the bit check's row indices).
        check_memory(8.0 * count + 24.0 * (n + 1), f"the packed graph of {path} ({n} nodes)",
                     " Load it on a machine with more memory.")
        words = np.empty(count, dtype="<u8")
        raw = memoryview(words).cast("B")
        digest = hashlib.sha256()
        for start in range(0, raw.nbytes, _CHUNK_BYTES):
            part = raw[start:start + _CHUNK_BYTES]
            if fh.readinto(part) != part.nbytes:
                raise _damaged(path, "the payload ends early (the file is truncated)")
            digest.update(part)
    if digest.hexdigest() != header["sha256"]:
        raise _damaged(path, "the payload's checksum does not match its header")
    words = words.astype(np.uint64, copy=False)
    unused = unused_bits(words, n)
    if unused:
        raise _damaged(path, f"its payload sets {unused} bit(s) outside the graph (on or "
                             "below the diagonal, or past the last column), which no graph "
                             "has")
    # Checked just above: the constructor need not scan the words a second time.
    return PackedAdjacency(n, words, nodes=header["nodes"], guarantee=guarantee,
                           validate=False)
