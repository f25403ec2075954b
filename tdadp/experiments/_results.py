"""What a run writes: the tidy table, the provenance record."""

from __future__ import annotations

import csv
import datetime as _dt
import importlib.metadata
import json
import platform
import sys
from pathlib import Path

__all__ = ["write_table", "read_table", "write_provenance", "versions"]

_PACKAGES = ("tdadp", "numpy", "scipy", "scikit-learn", "gudhi", "ripser", "persim",
             "matplotlib", "joblib", "dask", "distributed")


def versions():
    out = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def _fmt(value):
    if isinstance(value, float):
        return repr(value)  # shortest exact round-trip representation
    return value


def write_table(rows, path):
    """Rows (dicts) to CSV; floats written exactly (``repr``)."""
    path = Path(path)
    columns = []
    for row in rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _fmt(v) for k, v in row.items()})
    return path


def read_table(path):
    """Read a results table back (numbers parsed)."""
    def parse(text):
        for cast in (int, float):
            try:
                return cast(text)
            except ValueError:
                pass
        return text

    with Path(path).open(newline="") as fh:
        return [{k: parse(v) for k, v in row.items()} for row in csv.DictReader(fh)]


def write_provenance(path, *, experiment, config, root_seed, n_tasks, backend, argv=None,
                     wall_time_s=None, notes=()):
    record = {
        "experiment": experiment,
        "config": config,
        "seeds": {
            "root_seed": root_seed,
            "task_seed": "numpy.random.SeedSequence(root_seed, spawn_key=(point, replicate))",
            "n_tasks": n_tasks,
        },
        "versions": versions(),
        "backend": backend,
        "command": list(sys.argv if argv is None else argv),
        "machine": {"platform": platform.platform(), "processor": platform.processor()},
        "finished": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "wall_time_s": wall_time_s,
        "notes": list(notes),
    }
    Path(path).write_text(json.dumps(record, indent=2, default=str) + "\n")
    return path
