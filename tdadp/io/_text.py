"""Small helpers of the file formats: the path checked, clipped quotes, strict JSON, the
writer's version."""

from __future__ import annotations

import json
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

__all__ = ["file_path", "clip", "DuplicateKeyError", "strict_json", "tdadp_version"]


def file_path(path):
    """``path`` as a Path, after refusing what is not a file name (TypeError) or is empty."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"path must be a file name (a str or path-like), got "
                        f"{type(path).__name__}.")
    if not os.fspath(path):
        raise ValueError("path must be a file name, got an empty one.")
    return Path(os.fsdecode(path))


def clip(text, limit=80):
    """``text`` (a name's repr, a message) cut to ``limit`` characters.

    A message quoting a file's content stays short whatever the file holds.
    """
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."


class DuplicateKeyError(ValueError):
    """A JSON object names the same field twice (``json`` would keep the last silently)."""


def _unique_keys(pairs):
    out = dict(pairs)
    if len(out) != len(pairs):
        raise DuplicateKeyError("a field is named twice")
    return out


def strict_json(text):
    """``json.loads`` that refuses an object naming a field twice."""
    return json.loads(text, object_pairs_hook=_unique_keys)


def tdadp_version():
    """The installed tdadp's version, written into every file it saves."""
    try:
        return version("tdadp")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"
