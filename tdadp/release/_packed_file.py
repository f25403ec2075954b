"""A file for a packed release, so that a curator can hand it to an analyst.

Format (version 1)::

    TDADP-PACKED-GRAPH\\n
    {one line of JSON: the header}\\n
    the payload: the packed words, little-endian uint64, in the layout of
    tdadp.graphs.PackedAdjacency (strict upper triangle, word-aligned rows)

The header holds ``format`` (1), ``layout``, ``byteorder`` ("little"), ``n``, ``n_words``,
``tdadp_version``, ``sha256`` (of the payload), ``guarantee`` (the release's
:class:`PrivacyGuarantee` as a JSON object, or null) and ``nodes`` (the node names, or null).
Loading checks every field, the payload's size and its checksum, and refuses a file that fails
any of them with a ValueError saying which.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, fields
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

from ..graphs._info import graph_guarantee, graph_nodes
from ..graphs._packed import PackedAdjacency, packed_layout
from ._guarantee import PrivacyGuarantee

__all__ = ["save_packed", "load_packed", "PACKED_FORMAT"]

_MAGIC = b"TDADP-PACKED-GRAPH\n"
PACKED_FORMAT = 1
_LAYOUT = "upper-triangle, word-aligned rows, uint64 little-endian, column j = bit j % 64"
_CHUNK_WORDS = 1 << 23  # 64 MiB of payload per checksum and write step


def _tdadp_version():
    try:
        return version("tdadp")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


def _guarantee_dict(g):
    if g is None:
        return None
    d = asdict(g)
    d["components"] = [_guarantee_dict(c) for c in g.components]
    return d


def _guarantee_from(d):
    if d is None:
        return None
    names = {f.name for f in fields(PrivacyGuarantee)}
    if not isinstance(d, dict) or not set(d) <= names:
        raise ValueError("the file's guarantee is not a tdadp PrivacyGuarantee.")
    d = dict(d)
    d["components"] = tuple(_guarantee_from(c) for c in d.get("components", ()))
    return PrivacyGuarantee(**d)


def _chunks(words):
    for start in range(0, words.size, _CHUNK_WORDS):
        yield memoryview(np.ascontiguousarray(words[start:start + _CHUNK_WORDS],
                                              dtype="<u8")).cast("B")


def save_packed(path, A):
    """Write a packed graph (with its release and node names) to ``path``.

    Parameters
    ----------
    path : str or Path
    A : PackedAdjacency

    Raises
    ------
    ValueError
        If node names are not JSON values (str, int, float, bool).

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> from tdadp import EdgeFlip
    >>> from tdadp.release import save_packed, load_packed
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
                         "PackedAdjacency.from_dense.")
    digest = hashlib.sha256()
    for chunk in _chunks(A.words):
        digest.update(chunk)
    header = {"format": PACKED_FORMAT, "layout": _LAYOUT, "byteorder": "little", "n": A.n,
              "n_words": int(A.words.size), "tdadp_version": _tdadp_version(),
              "sha256": digest.hexdigest(), "guarantee": _guarantee_dict(graph_guarantee(A)),
              "nodes": graph_nodes(A)}
    try:
        line = json.dumps(header)
    except TypeError:
        raise ValueError("node names must be JSON values (str, int, float, bool) to be saved "
                         "with the graph.") from None
    with open(Path(path), "wb") as fh:
        fh.write(_MAGIC)
        fh.write(line.encode("utf-8") + b"\n")
        for chunk in _chunks(A.words):
            fh.write(chunk)


def _header(fh, path):
    if fh.read(len(_MAGIC)) != _MAGIC:
        raise ValueError(f"{path} is not a tdadp packed graph (no TDADP-PACKED-GRAPH line).")
    line = fh.readline()
    try:
        header = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError(f"{path}: its header is not valid JSON (the file is damaged).") \
            from None
    if not isinstance(header, dict):
        raise ValueError(f"{path}: its header is not a JSON object (the file is damaged).")
    fmt = header.get("format")
    if not isinstance(fmt, int) or fmt > PACKED_FORMAT or fmt < 1:
        raise ValueError(f"{path}: format {fmt!r} is not one this tdadp reads (up to "
                         f"{PACKED_FORMAT}); it was written by tdadp "
                         f"{header.get('tdadp_version', '?')}.")
    if header.get("layout") != _LAYOUT or header.get("byteorder") != "little":
        raise ValueError(f"{path}: unknown layout or byte order in its header.")
    n = header.get("n")
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"{path}: its header has no valid node count.")
    if header.get("n_words") != int(packed_layout(n)[1][-1]):
        raise ValueError(f"{path}: its header's word count does not match {n} nodes "
                         "(the file is damaged).")
    return header


def load_packed(path):
    """Read a packed graph written by :func:`save_packed`, checking it thoroughly.

    Returns
    -------
    PackedAdjacency
        Carrying the release's guarantee and the node names saved with it.

    Raises
    ------
    ValueError
        Not a tdadp packed graph, a newer format, a damaged header, a payload of the wrong
        size (truncated, or with trailing bytes), or a checksum that does not match.
    """
    path = Path(path)
    with open(path, "rb") as fh:
        header = _header(fh, path)
        count = header["n_words"]
        words = np.fromfile(fh, dtype="<u8", count=count)
        if words.size != count:
            raise ValueError(f"{path}: the payload holds {words.size} of its {count} words "
                             "(the file is truncated).")
        if fh.read(1):
            raise ValueError(f"{path}: bytes follow the payload (the file is damaged).")
    digest = hashlib.sha256()
    for chunk in _chunks(words):
        digest.update(chunk)
    if digest.hexdigest() != header.get("sha256"):
        raise ValueError(f"{path}: the payload's checksum does not match its header (the file "
                         "is damaged or was altered).")
    return PackedAdjacency(header["n"], words.astype(np.uint64, copy=False),
                           nodes=header.get("nodes"),
                           guarantee=_guarantee_from(header.get("guarantee")))
