"""An open file format for a graph release: an edge-list CSV and a JSON sidecar.

:func:`save_release` writes what an edge-DP mechanism returned (a dense ``GraphArray``, a
scipy sparse matrix or a :class:`~tdadp.graphs.PackedAdjacency`) so that an analyst can read
it with any tool, and :func:`load_release` reads it back, checked, as the graph it was:
tagged with its node names and its guarantee, so the privacy-adjusted embedding works on it.

Format ``tdadp-release``, version 1: two files.

**The data file** ``path``:

- dense and sparse releases: an edge list in CSV (RFC 4180, UTF-8, no byte-order mark, lines
  ending ``"\\n"``): the header line ``source,target``, then one line per edge ``u,v`` with
  the node names of its endpoints, the row of ``u`` before the row of ``v``, lines sorted by
  ``(u, v)`` in node order. A name is double-quoted (``"`` doubled inside) when it holds a
  ``,``, a ``"`` or a ``#`` (so that readers treating ``#`` as a comment keep it). Isolated
  nodes appear on no line: the sidecar lists every node.
- packed releases: the binary ``.tdadp`` file of :func:`~tdadp.io.save_packed` (unchanged).

**The sidecar** ``path + ".json"`` (``release.csv.json`` for ``release.csv``): one strict
JSON object (RFC 8259: an infinite epsilon is the string ``"Infinity"``) with exactly

``format``
    ``"tdadp-release"``; ``version``: ``1``.
``kind``
    ``"edgelist-csv"`` or ``"packed"``: what the data file is.
``data_file``
    The data file's name when saved (informative: the pair may be renamed together).
``tdadp_version``
    The tdadp that wrote it.
``n``, ``n_edges``
    Nodes and edges of the graph.
``sha256``
    SHA-256 of the data file's bytes (64 lowercase hex digits).
``nodes``
    The ``n`` node names in row order, isolated nodes included: strings or integers (JSON
    keeps them apart, so mixed names come back as they went).
``guarantee``
    :meth:`PrivacyGuarantee.to_dict` of the release, or null for a graph saved with
    ``allow_unreleased=True``.

**Node names** are the release's own (:func:`~tdadp.graphs.graph_nodes`) or ``0 .. n-1``.
Only names that read back equal from the CSV and the JSON are written; refused: names that
are not ``str`` or integers (None, NaN, floats, bools, tuples...: rename them first, e.g.
``[str(v) for v in nodes]``), integers outside int64, empty strings, strings with leading or
trailing whitespace or control characters (line breaks, tabs) or longer than
:data:`MAX_NAME` characters, and two names with the same CSV text (a repeated name, or
``1`` and ``"1"``). Mixed strings and integers are allowed.

**The guarantee** is checked when saved and when loaded
(:meth:`PrivacyGuarantee.check_consistent`): an EdgeFlip or LaplaceFlip guarantee as its
mechanism states it at its epsilon (flip rate, effective epsilon, unit ``"edge"``...), or a
composition of such guarantees with its totals; no other guarantee (it could not be checked).

**Writing.** Both files go to hidden temporary files ``.NAME.*.tmp`` beside them, then are
published under an exclusive lock, the hidden file ``.NAME.lock`` (``NAME`` the data file's
name) in their folder, removed after: writers of one path (threads or processes) publish one
at a time, so the pair on disk always comes from one writer.

The SHA-256s catch a file altered or swapped after saving, not a forgery (anyone can
recompute them): sign the pair to prove who released it. Nor can they tell an isolated node
added to the sidecar's list (with ``n`` raised by one) of an edge list: the CSV names only
nodes with an edge.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import json
import math
import numbers
import os
import re
import tempfile
import threading
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ..dp._guarantee import PrivacyGuarantee
from ..graphs._dyads import symmetric_csr
from ..graphs._info import graph_guarantee, graph_nodes, tag_graph
from ..graphs._packed import PackedAdjacency
from ..utils._memory import check_memory
from ._input import one_graph
from ._packed_file import load_packed, save_packed
from ._text import DuplicateKeyError, clip, file_path, strict_json, tdadp_version

try:  # POSIX: the lock between processes
    import fcntl
except ImportError:  # pragma: no cover - Windows: only this process's writers are serialised
    fcntl = None

__all__ = ["save_release", "load_release", "check_release_nodes", "check_release_path",
           "RELEASE_FORMAT", "RELEASE_VERSION", "sidecar_path", "MAX_NAME"]

RELEASE_FORMAT = "tdadp-release"
RELEASE_VERSION = 1
#: The longest node name written (characters).
MAX_NAME = 4096

_KINDS = ("edgelist-csv", "packed")
_FIELDS = ("format", "version", "kind", "data_file", "tdadp_version", "n", "n_edges",
           "sha256", "nodes", "guarantee")
_HEADER = b"source,target\n"
_MIN_LINE = 4  # "u,v\n": the fewest bytes an edge line takes
_CHUNK = 1 << 20
_INT64 = (-(1 << 63), (1 << 63) - 1)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_NEEDS_QUOTES = re.compile(r'[,"#]')
_SHA256 = re.compile(r"[0-9a-f]{64}")
# The guarantee's float fields, whose infinities the sidecar writes as strings.
_FLOAT_FIELDS = frozenset({"epsilon", "effective_epsilon", "flip_probability", "sensitivity",
                           "noise_scale", "delta"})
_SPECIAL = {"Infinity": math.inf, "-Infinity": -math.inf}
# Peak bytes of loading, per edge (two int64 endpoint arrays, the int64 dyad keys and their
# sort, the COO and CSR of both triangles) and per byte of sidecar (json.loads of a list of
# short names).
_BYTES_PER_EDGE = 112
_PARSE_BYTES_PER_BYTE = 16
# Serialises this process's publishing. flock alone would not where a file system emulates it
# with POSIX record locks, which are per process (NFS); held only while a pair is published.
_PUBLISHING = threading.Lock()


def sidecar_path(path):
    """The sidecar of the data file ``path``: ``path`` with ``".json"`` appended.

    Examples
    --------
    >>> from tdadp.io import sidecar_path
    >>> sidecar_path("out/release.csv").name
    'release.csv.json'
    """
    path = file_path(path)
    return path.with_name(path.name + ".json")


# --------------------------------------------------------------------------- node names
def _name_problem(name):
    """(the name as a JSON value, None) or (None, what is wrong with it)."""
    if isinstance(name, (bool, np.bool_)):
        return None, "a bool (True == 1: it would not stay apart from the integer)"
    if isinstance(name, numbers.Integral):
        value = int(name)
        if not _INT64[0] <= value <= _INT64[1]:
            return None, "an integer outside int64"
        return value, None
    if isinstance(name, str):
        value = str(name)
        if not value:
            return None, "empty"
        if len(value) > MAX_NAME:
            return None, f"longer than {MAX_NAME:,} characters"
        if value != value.strip():
            return None, "a string with leading or trailing whitespace"
        if _CONTROL.search(value):
            return None, "a string with a control character (a line break, a tab...)"
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return None, "a string that is not valid Unicode (a lone surrogate)"
        return value, None
    if isinstance(name, numbers.Real) and math.isnan(name):
        return None, "NaN"
    return None, f"of type {type(name).__name__} (only strings and integers are written)"


def _node_list(nodes, n, where=None):
    """The names as JSON values with their CSV texts, checked by the rule of the module
    docstring: a caller's names (``where`` None) or a sidecar's (``where`` its path).

    A caller's names may be a private graph's (checked before its release): its messages
    say which position is wrong, never the name; a sidecar is public and its are quoted."""
    if nodes is None:
        nodes = range(n)
    out = []
    for k, name in enumerate(nodes):
        value, problem = _name_problem(name)
        if problem:
            if where is None:
                raise ValueError(f"node name {k} (in row order, from 0) is {problem}; a "
                                 "release file stores node names that read back equal: "
                                 "non-empty strings without surrounding whitespace or control "
                                 "characters, and integers. Rename the nodes first, e.g. "
                                 "with [str(v) for v in nodes].")
            raise _damaged(where, f"its node name {k} is {problem}")
        out.append(value)
    if len(out) != n:
        raise ValueError(f"{len(out)} node names for a graph with {n} nodes.")
    index = {}
    for k, value in enumerate(out):
        text = str(value)
        if text in index:
            alike = type(out[index[text]]) is type(value)
            if where is None:
                what = ("are the same name" if alike else
                        "are an integer and a string written alike in CSV")
                raise ValueError(f"node names {index[text]} and {k} (in row order, from 0) "
                                 f"{what}; names must be distinct as text to read back. "
                                 "Rename the nodes first.")
            raise _damaged(where, f"its node names {index[text]} and {k} are both written "
                                  f"{clip(repr(text))}" + ("" if alike else
                                  " (an integer and a string alike in CSV)"))
        index[text] = k
    return out, index


def check_release_nodes(nodes, n):
    """Check node names as :func:`save_release` would, writing nothing.

    So that a caller (the ``tdadp release`` command) can refuse names before it spends a
    release on them. The messages say which name is wrong by its position, never by the
    name: the names may be a private graph's.

    Parameters
    ----------
    nodes : iterable or None
        The ``n`` node names in row order (:func:`~tdadp.graphs.graph_nodes` of the graph);
        None stands for ``0 .. n-1``.
    n : int
        The number of nodes of the graph.

    Raises
    ------
    ValueError
        The error :func:`save_release` raises for these names: a name that is not a string
        or an integer, or would not read back equal (see :mod:`tdadp.io._release_file`), two
        names written alike, or a number of names other than ``n``.

    Examples
    --------
    >>> from tdadp.io import check_release_nodes
    >>> check_release_nodes(["a", "b", 3], 3)
    >>> check_release_nodes(["a", "b", "a"], 3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: node names 0 and 2 (in row order, from 0) are the same name; ...
    """
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral) or n < 0:
        raise ValueError(f"n must be a number of nodes (an integer >= 0), got "
                         f"{clip(repr(n))}.")
    _node_list(nodes, int(n))


# --------------------------------------------------------------------------- sidecar
def _json_guarantee(d):
    """A guarantee dict with its infinite floats as strings (strict JSON)."""
    out = {}
    for key, value in d.items():
        if key == "components":
            value = [_json_guarantee(c) for c in value]
        elif key in _FLOAT_FIELDS and isinstance(value, float) and math.isinf(value):
            value = "Infinity" if value > 0 else "-Infinity"
        out[key] = value
    return out


def _python_guarantee(d, side, depth=0):
    """Inverse of :func:`_json_guarantee` (anything else left to ``from_dict`` to judge).

    An infinite number written as a number (``1e999``, or JSON's non-standard ``Infinity``
    and ``NaN``) is refused: the format writes infinities as strings, and a huge literal
    would otherwise read as an infinite epsilon."""
    if not isinstance(d, dict) or depth > 64:
        return d
    out = dict(d)
    for key, value in d.items():
        if key == "components" and isinstance(value, list):
            out[key] = [_python_guarantee(c, side, depth + 1) for c in value]
        elif key in _FLOAT_FIELDS and isinstance(value, str) and value in _SPECIAL:
            out[key] = _SPECIAL[value]
        elif isinstance(value, float) and not math.isfinite(value):
            raise _damaged(side, f"its guarantee writes {clip(str(key), 40)} as a number "
                                 "that is not finite (the format writes an infinite value as "
                                 'the string "Infinity")')
    return out


def _guarantee_of(G, allow_unreleased):
    g = graph_guarantee(G)
    if g is None:
        if not allow_unreleased:
            raise ValueError("the graph carries no guarantee, so it is not a release (a "
                             "mechanism's output carries its guarantee; a slice, complement "
                             "or copy does not). Save the mechanism's output itself, or pass "
                             "allow_unreleased=True to save a graph that is not private.")
        return None
    if not isinstance(g, PrivacyGuarantee):
        raise ValueError(f"the graph carries a guarantee of type {type(g).__name__}, not a "
                         "PrivacyGuarantee; only a tdadp release's guarantee can be saved.")
    try:
        g.check_consistent()  # what load_release will check: a file saved must load
    except ValueError as exc:
        raise ValueError(f"the graph's guarantee cannot be saved in a release file, whose "
                         f"readers check it: {str(exc).rstrip('.')}. A release file holds "
                         "the guarantee of an EdgeFlip or LaplaceFlip release, or a "
                         "composition of them.") from None
    return _json_guarantee(g.to_dict())


def _damaged(path, what):
    return ValueError(f"{path}: {what} (the file is damaged, was altered, or does not belong "
                      "to this release).")


def _int_field(d, key):
    value = d[key]
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _read_sidecar(path):
    """The checked sidecar of the data file ``path``: (fields, guarantee, node index)."""
    side = sidecar_path(path)
    if not side.is_file():
        raise ValueError(f"{path}: its sidecar {side.name} is missing; a release is the data "
                         "file and its JSON sidecar (node names, guarantee, checksum) "
                         "together, written by save_release.")
    size = side.stat().st_size
    check_memory(_PARSE_BYTES_PER_BYTE * float(size), f"reading the sidecar {side}",
                 " A sidecar holds a release's node names: a few MB for a million nodes.")
    try:
        d = strict_json(side.read_bytes().decode("utf-8"))
    except DuplicateKeyError:
        raise _damaged(side, "it names a field twice") from None
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deep
        raise _damaged(side, "it is not valid JSON") from None
    if not isinstance(d, dict):
        raise _damaged(side, "it is not a JSON object")
    if d.get("format") != RELEASE_FORMAT:
        raise ValueError(f"{side} is not a {RELEASE_FORMAT} sidecar (its format is "
                         f"{repr(d.get('format'))[:40]}).")
    ver = d.get("version")
    if ver != RELEASE_VERSION or not isinstance(ver, int) or isinstance(ver, bool):
        raise ValueError(f"{side}: {RELEASE_FORMAT} version {repr(ver)[:40]} is not one "
                         f"this tdadp reads (version {RELEASE_VERSION}); it was written by "
                         f"tdadp {str(d.get('tdadp_version', '?'))[:40]}.")
    missing = [k for k in _FIELDS if k not in d]
    unknown = [k for k in d if k not in _FIELDS]
    if missing or unknown:
        raise _damaged(side, f"it lacks {len(missing)} and adds {len(unknown)} field(s) "
                             f"(fields: {', '.join(_FIELDS)})")
    if d["kind"] not in _KINDS:
        raise _damaged(side, f"its kind is not one of {', '.join(_KINDS)}")
    for key in ("data_file", "tdadp_version"):
        if not isinstance(d[key], str):
            raise _damaged(side, f"its {key} is not a string")
    if not isinstance(d["sha256"], str) or not _SHA256.fullmatch(d["sha256"]):
        raise _damaged(side, "its sha256 is not 64 lowercase hex digits")
    n, m = _int_field(d, "n"), _int_field(d, "n_edges")
    if n is None or n < 0:
        raise _damaged(side, "its n is not a node count")
    if m is None or m < 0 or m > n * (n - 1) // 2:
        raise _damaged(side, f"its n_edges is not an edge count of a graph on {n} nodes")
    if not isinstance(d["nodes"], list) or len(d["nodes"]) != n:
        raise _damaged(side, f"its nodes are not a list of {n} names")
    d["nodes"], index = _node_list(d["nodes"], n, side)
    guarantee = None
    if d["guarantee"] is not None:
        data = _python_guarantee(d["guarantee"], side)
        try:
            guarantee = PrivacyGuarantee.from_dict(data)
        except (TypeError, ValueError, RecursionError) as exc:
            raise ValueError(f"{side}: its guarantee does not parse as a PrivacyGuarantee "
                             f"({clip(exc, 200)}).") from None
        try:
            guarantee.check_consistent()
        except ValueError as exc:
            raise _damaged(side, f"its guarantee does not hold together: "
                                 f"{str(exc).rstrip('.')}") from None
    return d, guarantee, index


# --------------------------------------------------------------------------- writing
def _csv_field(text):
    if _NEEDS_QUOTES.search(text):
        return '"' + text.replace('"', '""') + '"'
    return text


def _upper_edges(A):
    """(rows, cols) of the edges ``i < j`` of a checked dense or CSR graph, sorted."""
    if sp.issparse(A):
        U = sp.triu(sp.csr_matrix(A), k=1).tocoo()
        order = np.lexsort((U.col, U.row))
        return U.row[order].astype(np.int64), U.col[order].astype(np.int64)
    rows, cols = [], []
    for i in range(A.shape[0] - 1):
        j = np.flatnonzero(A[i, i + 1:]) + (i + 1)
        rows.append(np.full(j.size, i, dtype=np.int64))
        cols.append(j.astype(np.int64))
    if not rows:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    return np.concatenate(rows), np.concatenate(cols)


def _write_csv(fh, rows, cols, texts):
    digest = hashlib.sha256(_HEADER)
    fh.write(_HEADER)
    fields = [_csv_field(t) for t in texts]
    step = 1 << 16
    for a in range(0, rows.size, step):
        chunk = "".join(f"{fields[i]},{fields[j]}\n"
                        for i, j in zip(rows[a:a + step].tolist(), cols[a:a + step].tolist()))
        data = chunk.encode("utf-8")
        digest.update(data)
        fh.write(data)
    return digest.hexdigest()


def _file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _temp_file(final):
    fd, name = tempfile.mkstemp(dir=final.parent, prefix=f".{final.name}.", suffix=".tmp")
    os.close(fd)
    return Path(name)


def _sync(path):
    with open(path, "rb+") as fh:
        fh.flush()
        os.fsync(fh.fileno())


def _check_targets(path, overwrite):
    """Refuse what would stop the data file ``path`` or its sidecar from being published:
    checked before anything is written, and again under the lock before publishing."""
    for target in (path, sidecar_path(path)):
        if target.is_dir() and not target.is_symlink():
            raise ValueError(f"{target} is a folder; a release is written to a file name.")
        # lexists: a symbolic link is a file there, even when it points nowhere.
        if not overwrite and os.path.lexists(target):
            link = " (a symbolic link)" if target.is_symlink() else ""
            raise ValueError(f"{target} exists{link}; pass overwrite=True to replace it.")


def check_release_path(path, *, overwrite=False):
    """Check that :func:`save_release` could write a release to ``path``, writing nothing.

    So that a caller (the ``tdadp release`` command) can refuse a target before it spends
    a release on it.

    Parameters
    ----------
    path : str or Path
        The data file; its sidecar is ``path + ".json"``.
    overwrite : bool, default=False
        As for :func:`save_release`.

    Raises
    ------
    ValueError
        The error :func:`save_release` raises: the data file or its sidecar is a folder, or
        exists (a symbolic link too, even a dangling one) and ``overwrite`` is False.

    Examples
    --------
    >>> import os, tempfile
    >>> from tdadp.io import check_release_path
    >>> path = os.path.join(tempfile.mkdtemp(), "release.csv")
    >>> os.symlink("nowhere", path + ".json")
    >>> check_release_path(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...release.csv.json exists (a symbolic link); pass overwrite=True to replace it.
    """
    path = file_path(path)
    _check_bool("overwrite", overwrite)
    _check_targets(path, overwrite)


def _check_bool(name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}.")


def _lock_file(path):
    # In the folder's real path, so that two names of one folder (a symbolic link) share it.
    return Path(os.path.realpath(path.parent)) / f".{path.name}.lock"


def _acquire(lock):
    """A descriptor of ``lock`` holding its exclusive ``flock``."""
    while True:
        # Read-only is enough to flock, and opens a lock file another user created.
        fd = os.open(lock, os.O_RDONLY | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            # The writer that held it may have removed it meanwhile (see _exclusive): a lock
            # on a removed file excludes no one, so take the file now under that name.
            if os.path.samestat(os.fstat(fd), os.stat(lock)):
                return fd
        except FileNotFoundError:
            pass
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)


@contextlib.contextmanager
def _exclusive(path):
    """Hold the lock of the release ``path`` against its other writers: the threads of this
    process and, through ``flock`` on the hidden lock file, other processes."""
    with _PUBLISHING:
        lock = _lock_file(path)
        fd = None if fcntl is None else _acquire(lock)
        try:
            yield
        finally:
            # Removed while still held, so no lock file outlives a save; a writer waiting on
            # it then finds it gone and creates the next one (_acquire).
            if fd is not None:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(lock)
                os.close(fd)


def _backup(path):
    """A hidden hard link to the file at ``path`` (None if none, or no hard links)."""
    if not os.path.lexists(path):
        return None
    name = _temp_file(path)
    name.unlink()
    try:
        os.link(path, name, follow_symlinks=False)
    except OSError:  # pragma: no cover - a file system without hard links
        return None
    return name


def _publish(tmp, final, overwrite):
    """Move ``tmp`` to ``final`` in one step; without ``overwrite``, never over a file."""
    if overwrite:
        os.replace(tmp, final)
        return
    try:
        os.link(tmp, final)  # atomic, and fails if final exists
    except FileExistsError:
        raise ValueError(f"{final} exists; pass overwrite=True to replace it.") from None
    except OSError:  # pragma: no cover - a file system without hard links
        if os.path.lexists(final):
            raise ValueError(f"{final} exists; pass overwrite=True to replace it.") from None
        os.replace(tmp, final)
        return
    os.unlink(tmp)


def _publish_pair(tmp_data, path, tmp_side, overwrite):
    """Publish the data file, then its sidecar; if the sidecar cannot be, put back the data
    file that was there (or none): ``path`` never holds a new data file without its sidecar."""
    backup = _backup(path) if overwrite else None
    try:
        _publish(tmp_data, path, overwrite)
        try:
            _publish(tmp_side, sidecar_path(path), overwrite)
        except BaseException:
            if backup is not None:
                os.replace(backup, path)
            else:
                os.unlink(path)
            raise
    finally:
        if backup is not None and os.path.lexists(backup):
            os.unlink(backup)


def save_release(path, G, *, overwrite=False, allow_unreleased=False):
    """Write a release to ``path`` (an edge-list CSV or a packed file) and its JSON sidecar.

    The format is documented in :mod:`tdadp.io._release_file`: a dense or sparse release as
    a CSV edge list any tool reads, a :class:`~tdadp.graphs.PackedAdjacency` as the binary
    file of :func:`save_packed`; the sidecar ``path + ".json"`` holds the node list
    (isolated nodes included), the guarantee, the counts and the data file's SHA-256.

    Everything that can refuse is checked before anything is written: the guarantee (as
    :func:`load_release` will), the node names (:func:`check_release_nodes`), the graph, the
    targets (:func:`check_release_path`). Both files are then written to temporary files,
    flushed to disk, and renamed under the lock of the module docstring, the data file
    first: a crash never leaves a half-written file under either name (a data file whose
    sidecar was not yet replaced is refused by :func:`load_release`), and if the sidecar
    cannot be published the data file that was there is put back.

    Parameters
    ----------
    path : str or Path
        The data file (``release.csv`` or ``release.tdadp`` by convention); the sidecar is
        ``path + ".json"``.
    G : ndarray, scipy sparse matrix or PackedAdjacency
        A simple graph carrying its guarantee (what a tdadp mechanism returns), and
        optionally node names (else ``0 .. n-1`` are written). Names must read back equal:
        strings and integers, distinct as text (see the module docstring).
    overwrite : bool, default=False
        Replace existing files; by default an existing data file or sidecar is refused.
    allow_unreleased : bool, default=False
        Save a graph that carries no guarantee (a raw, non-private graph, or a slice or
        complement of a release, which is no release); its sidecar has ``"guarantee": null``
        and it loads without one. By default such a graph is refused: a release file should
        hold a release.

    Returns
    -------
    sidecar : Path
        The sidecar's path.

    Raises
    ------
    ValueError
        For a graph without a guarantee (unless ``allow_unreleased``), a guarantee that is
        not a PrivacyGuarantee or does not hold together
        (:meth:`~tdadp.dp.PrivacyGuarantee.check_consistent`), node names that would not
        read back, an existing file or symbolic link (unless ``overwrite``), a folder under
        either name, or a graph that is not simple (self-loops, weights, not symmetric).

    See Also
    --------
    load_release

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> from tdadp import EdgeFlip, save_release, load_release
    >>> A = np.zeros((4, 4), dtype=np.uint8); A[0, 1] = A[1, 0] = 1
    >>> B = EdgeFlip(40.0, random_state=0).fit_transform(A)   # node 2 and 3 isolated
    >>> path = os.path.join(tempfile.mkdtemp(), "release.csv")
    >>> save_release(path, B).name
    'release.csv.json'
    >>> print(open(path).read(), end="")
    source,target
    0,1
    >>> C = load_release(path)
    >>> C.shape, C.nodes, C.guarantee == B.guarantee
    ((4, 4), [0, 1, 2, 3], True)
    """
    path = file_path(path)
    _check_bool("overwrite", overwrite)
    _check_bool("allow_unreleased", allow_unreleased)
    side = sidecar_path(path)
    guarantee = _guarantee_of(G, allow_unreleased)
    packed = isinstance(G, PackedAdjacency)
    if packed:
        n, A = G.n, G
    else:
        A = one_graph(G, "the release")
        n = A.shape[0]
    nodes, _ = _node_list(graph_nodes(G), n)
    _check_targets(path, overwrite)
    tmp_data, tmp_side = _temp_file(path), _temp_file(side)
    try:
        if packed:
            save_packed(tmp_data, G)
            sha, m = _file_sha256(tmp_data), G.count_edges()
        else:
            rows, cols = _upper_edges(A)
            with open(tmp_data, "wb") as fh:
                sha = _write_csv(fh, rows, cols, [str(v) for v in nodes])
            m = int(rows.size)
        sidecar = {"format": RELEASE_FORMAT, "version": RELEASE_VERSION,
                   "kind": "packed" if packed else "edgelist-csv", "data_file": path.name,
                   "tdadp_version": tdadp_version(), "n": int(n), "n_edges": int(m),
                   "sha256": sha, "nodes": nodes, "guarantee": guarantee}
        text = json.dumps(sidecar, ensure_ascii=False, allow_nan=False, indent=1)
        tmp_side.write_bytes(text.encode("utf-8") + b"\n")
        _sync(tmp_data)
        _sync(tmp_side)
        with _exclusive(path):
            _check_targets(path, overwrite)  # another writer may have published meanwhile
            _publish_pair(tmp_data, path, tmp_side, overwrite)
    finally:
        for tmp in (tmp_data, tmp_side):
            if tmp.exists():
                tmp.unlink()
    return side


# --------------------------------------------------------------------------- reading
def _read_edges(path, m, index):
    """The endpoints of the ``m`` edge lines of a CSV whose checksum matched."""
    n = len(index)
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    k = 0
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            reader = csv.reader(fh, strict=True)
            header = next(reader, None)
            if header != ["source", "target"]:
                raise _damaged(path, "its first line is not the header source,target")
            for row in reader:
                line = reader.line_num
                if len(row) != 2:
                    raise _damaged(path, f"line {line} has {len(row)} field(s), not 2")
                i, j = index.get(row[0]), index.get(row[1])
                if i is None or j is None:
                    name = row[0] if i is None else row[1]
                    raise _damaged(path, f"line {line} names a node the sidecar does not list "
                                         f"({clip(repr(name))})")
                if i == j:
                    raise _damaged(path, f"line {line} is a self-loop")
                if k == m:
                    raise _damaged(path, f"it lists more than the {m} edges its sidecar "
                                         f"records (line {line})")
                src[k], dst[k] = (i, j) if i < j else (j, i)
                k += 1
    except UnicodeDecodeError:
        raise _damaged(path, "it is not UTF-8 text") from None
    except csv.Error as exc:
        raise _damaged(path, f"it is not valid CSV ({clip(exc)})") from None
    if k != m:
        raise _damaged(path, f"it lists {k} edges, its sidecar records {m}")
    keys = src * n + dst
    order = np.argsort(keys, kind="stable")
    repeated = np.flatnonzero(np.diff(keys[order]) == 0)
    if repeated.size:
        first = int(order[repeated[0] + 1]) + 2  # the line of the later copy (header: line 1)
        raise _damaged(path, f"it lists {repeated.size} edge(s) twice (the first repeat on "
                             f"line {first}); a simple graph has each edge once")
    return src, dst


def load_release(path, *, sparse=True):
    """Read a release written by :func:`save_release`, checking it against its sidecar.

    The sidecar (``path + ".json"``) is read and checked first (its format and version,
    every field, the node names, the guarantee re-derived from its mechanism), then the
    data file's size and the memory its graph needs, then its SHA-256; an edge list is then
    parsed line by line (each endpoint a node of the sidecar, no self-loop, no edge twice,
    exactly ``n_edges`` lines); a packed file goes through :func:`load_packed` and must
    agree with its sidecar.

    Parameters
    ----------
    path : str or Path
        The data file (not the sidecar).
    sparse : bool, default=True
        For an edge list: a scipy ``csr_matrix`` (uint8), else a dense uint8
        :class:`~tdadp.graphs.GraphArray`. A packed file always gives a PackedAdjacency.

    Returns
    -------
    G : scipy.sparse.csr_matrix, GraphArray or PackedAdjacency
        Carrying the sidecar's node names and guarantee (read them with ``graph_nodes`` and
        ``graph_guarantee``), so ``AdjacencySpectralEmbedding(adjust=True)`` reads its flip
        rate as it would from the release in memory.

    Raises
    ------
    ValueError
        Saying what is wrong (quoting at most ~80 characters of a name): a missing sidecar,
        a sidecar of another format or version, with a field missing, added or invalid, or
        whose guarantee does not parse or hold together
        (:meth:`~tdadp.dp.PrivacyGuarantee.check_consistent`); a data file whose SHA-256
        differs from the sidecar's (altered, or another release's); an edge list with a line
        naming a node the sidecar does not list, a self-loop, an edge listed twice or a count
        of edges other than the sidecar's; a packed file whose nodes, guarantee or edges
        differ from its sidecar's; a graph too large for the memory left (checked first).

    See Also
    --------
    save_release

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> from tdadp import EdgeFlip, save_release, load_release
    >>> from tdadp.graphs import PackedAdjacency
    >>> P = PackedAdjacency.from_edges(3, [0], [2], nodes=["a", "b", "c"])
    >>> B = EdgeFlip(50.0, random_state=0, output="packed").fit_transform(P)
    >>> path = os.path.join(tempfile.mkdtemp(), "release.tdadp")
    >>> _ = save_release(path, B)
    >>> C = load_release(path)
    >>> C == B, C.nodes, C.guarantee == B.guarantee
    (True, ['a', 'b', 'c'], True)
    """
    path = file_path(path)
    _check_bool("sparse", sparse)
    d, guarantee, index = _read_sidecar(path)
    if not path.is_file():
        raise ValueError(f"{path}: the data file of the sidecar {sidecar_path(path).name} is "
                         "missing.")
    n, m, nodes = d["n"], d["n_edges"], d["nodes"]
    size = path.stat().st_size
    if d["kind"] == "edgelist-csv":
        if m > max(0, size - len(_HEADER)) // _MIN_LINE:
            raise _damaged(path, f"its sidecar records {m:,} edges, more than its "
                                 f"{size:,} bytes can hold")
        need = _BYTES_PER_EDGE * float(m) + 8.0 * n + (0.0 if sparse else float(n) * n)
        check_memory(need, f"the release of {path} ({n} nodes, {m} edges)",
                     " Load it on a machine with more memory"
                     + ("." if sparse else ", or with sparse=True."))
    if _file_sha256(path) != d["sha256"]:
        raise ValueError(f"{path}: its SHA-256 differs from the one its sidecar records: the "
                         "file was altered after it was saved, or the sidecar belongs to "
                         "another release.")
    if d["kind"] == "packed":
        P = load_packed(path)
        if P.n != n or P.count_edges() != m:
            raise _damaged(path, "its node or edge count differs from its sidecar's")
        stored = list(range(n)) if P.nodes is None else P.nodes
        if [(type(v), v) for v in stored] != [(type(v), v) for v in nodes]:
            raise _damaged(path, "its node names differ from its sidecar's")
        if P.guarantee != guarantee:
            raise _damaged(path, "its guarantee differs from its sidecar's")
        return tag_graph(P, nodes=nodes, guarantee=guarantee)
    src, dst = _read_edges(path, m, index)
    A = symmetric_csr(src, dst, n)
    del src, dst
    if not sparse:
        A = A.toarray()
    return tag_graph(A, nodes=nodes, guarantee=guarantee)
