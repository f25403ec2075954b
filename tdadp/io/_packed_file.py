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

Loading checks the magic line, the header's checksum, every field, the payload's size
(against the file's) and its checksum, and refuses a file that fails any of them with a
ValueError saying which. Both checksums are computed in 64 MiB steps, so a 625 MB release
(n = 100,000) is read once, straight into the graph's buffer.
"""

from __future__ import annotations

import hashlib
import json
import math
import numbers
import os
from dataclasses import asdict, fields
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

from ..dp._guarantee import PrivacyGuarantee
from ..graphs._info import graph_guarantee, graph_nodes
from ..graphs._packed import PackedAdjacency, packed_layout
from ..utils._memory import check_memory

__all__ = ["save_packed", "load_packed", "PACKED_FORMAT"]

_MAGIC = b"TDADP-PACKED-GRAPH\n"
PACKED_FORMAT = 2
_LAYOUT = "upper-triangle, word-aligned rows, uint64 little-endian, column j = bit j % 64"
_CHUNK_BYTES = 1 << 26  # 64 MiB of payload per checksum, write and read step


def _tdadp_version():
    try:
        return version("tdadp")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


def _guarantee_dict(g):
    if g is None:
        return None
    if not isinstance(g, PrivacyGuarantee):
        raise ValueError(f"the graph carries a guarantee of type {type(g).__name__}, not a "
                         "PrivacyGuarantee; only a tdadp release's guarantee can be saved.")
    d = asdict(g)
    d["components"] = [_guarantee_dict(c) for c in g.components]
    return d


def _guarantee_from(d, path):
    if d is None:
        return None
    names = {f.name for f in fields(PrivacyGuarantee)}
    if not isinstance(d, dict) or not set(d) <= names:
        raise ValueError(f"{path}: the file's guarantee is not a tdadp PrivacyGuarantee.")
    d = dict(d)
    components = d.get("components", [])
    if not isinstance(components, list):
        raise ValueError(f"{path}: the file's guarantee is not a tdadp PrivacyGuarantee.")
    d["components"] = tuple(_guarantee_from(c, path) for c in components)
    try:
        return PrivacyGuarantee(**d)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{path}: the file's guarantee is not a valid PrivacyGuarantee "
                         f"({exc}).") from None


def _node_names(nodes):
    """The names as JSON values that read back equal (and hash alike), or a clear error."""
    if nodes is None:
        return None
    out = []
    for k, name in enumerate(nodes):
        if isinstance(name, (bool, np.bool_)):
            out.append(bool(name))
        elif isinstance(name, numbers.Integral):
            out.append(int(name))
        elif isinstance(name, numbers.Real) and math.isfinite(name):
            out.append(float(name))
        elif isinstance(name, str):
            out.append(str(name))
        else:
            raise ValueError(
                f"node name {k} is {name!r} ({type(name).__name__}); a packed file stores "
                "names that are JSON values reading back equal: strings, integers or finite "
                "floats. "
                "Rename the nodes first, e.g. P.nodes = [str(v) for v in P.nodes].")
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
    digest = hashlib.sha256()
    for chunk in _payload_chunks(A.words):
        digest.update(chunk)
    header = {"format": PACKED_FORMAT, "layout": _LAYOUT, "byteorder": "little", "n": A.n,
              "n_words": int(A.words.size), "tdadp_version": _tdadp_version(),
              "sha256": digest.hexdigest(), "guarantee": _guarantee_dict(graph_guarantee(A)),
              "nodes": _node_names(graph_nodes(A))}
    line = json.dumps(header).encode("utf-8")
    with open(Path(path), "wb") as fh:
        fh.write(_MAGIC)
        fh.write(line + b"\n")
        fh.write(hashlib.sha256(line).hexdigest().encode("ascii") + b"\n")
        for chunk in _payload_chunks(A.words):
            fh.write(chunk)


def _damaged(path, what):
    return ValueError(f"{path}: {what} (the file is damaged or was altered).")


def _header(fh, path):
    if fh.read(len(_MAGIC)) != _MAGIC:
        raise ValueError(f"{path} is not a tdadp packed graph (no TDADP-PACKED-GRAPH line).")
    line = fh.readline()
    if not line.endswith(b"\n"):
        raise _damaged(path, "its header line is cut short")
    line = line[:-1]
    try:
        header = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise _damaged(path, "its header is not valid JSON") from None
    if not isinstance(header, dict):
        raise _damaged(path, "its header is not a JSON object")
    fmt = header.get("format")
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt < 1 or fmt > PACKED_FORMAT:
        raise ValueError(f"{path}: format {fmt!r} is not one this tdadp reads (1 to "
                         f"{PACKED_FORMAT}); it was written by tdadp "
                         f"{header.get('tdadp_version', '?')}: read it with that version "
                         "or a newer one.")
    if header.get("layout") != _LAYOUT or header.get("byteorder") != "little":
        raise ValueError(f"{path}: unknown layout or byte order in its header.")
    n = header.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise _damaged(path, "its header has no valid node count")
    if header.get("n_words") != int(packed_layout(n)[1][-1]):
        raise _damaged(path, f"its header's word count does not match {n} nodes")
    nodes = header.get("nodes")
    if nodes is not None and (not isinstance(nodes, list) or len(nodes) != n):
        raise _damaged(path, f"its node names are not a list of {n}")
    guarantee = _guarantee_from(header.get("guarantee"), path)
    # The fields' own checks first (their messages say more), then the checksum that
    # catches any other change (an epsilon altered by hand, a flipped digit).
    if fmt >= 2:
        stored = fh.readline()
        if stored.rstrip(b"\n").decode("ascii", "replace") != hashlib.sha256(line).hexdigest():
            raise _damaged(path, "its header does not match the header's checksum")
    return header, guarantee


def load_packed(path):
    """Read a packed graph written by :func:`save_packed`, checking it thoroughly.

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
        or is malformed, a payload of the wrong size (truncated, or with trailing bytes), a
        payload that does not match its checksum, or a graph too large for the memory left
        (checked before reading the payload).

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
    path = Path(path)
    with open(path, "rb") as fh:
        header, guarantee = _header(fh, path)
        count = header["n_words"]
        have = os.fstat(fh.fileno()).st_size - fh.tell()
        if have < 8 * count:
            raise _damaged(path, f"the payload holds {have} of its {8 * count} bytes "
                                 "(the file is truncated)")
        if have > 8 * count:
            raise _damaged(path, f"{have - 8 * count} bytes follow the payload")
        check_memory(8.0 * count, f"the packed graph of {path} ({header['n']} nodes)",
                     " Load it on a machine with more memory.")
        words = np.empty(count, dtype="<u8")
        raw = memoryview(words).cast("B")
        digest = hashlib.sha256()
        for start in range(0, raw.nbytes, _CHUNK_BYTES):
            part = raw[start:start + _CHUNK_BYTES]
            if fh.readinto(part) != part.nbytes:
                raise _damaged(path, "the payload ends early (the file is truncated)")
            digest.update(part)
    if digest.hexdigest() != header.get("sha256"):
        raise _damaged(path, "the payload's checksum does not match its header")
    return PackedAdjacency(header["n"], words.astype(np.uint64, copy=False),
                           nodes=header.get("nodes"), guarantee=guarantee)
