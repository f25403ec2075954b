"""Shared helpers of the benchmarks: machine description, timing, and the targets table.

Every benchmark module reports the rows of issue 29's targets it measures to :func:`report`;
``python -m benchmarks`` (``make bench``) gathers them into one table, ``benchmarks/results.md``
(and ``.csv``), with the machine, the date and the load average beside each row.
"""

from __future__ import annotations

import csv
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, fields


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        mem = f", {pages * size / 2**30:.0f} GiB"
    except (ValueError, OSError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{mem}, Python {platform.python_version()}"


def timed(func, *args, **kwargs):
    start = time.perf_counter()
    out = func(*args, **kwargs)
    return out, time.perf_counter() - start


def best_of(func, *args, repeat=3, **kwargs):
    """``(output of the last run, shortest time of repeat runs)``."""
    best, out = float("inf"), None
    for _ in range(repeat):
        out, t = timed(func, *args, **kwargs)
        best = min(best, t)
    return out, best


def peak_rss_gib():
    """Peak resident memory of this process so far, in GiB.

    Linux's ``ru_maxrss`` survives fork and exec: a child started by a process that once held
    5 GiB reports at least 5 GiB (``python -m benchmarks`` runs some benchmarks in-process
    before it starts the measured children). ``VmHWM`` is the high-water mark of the
    process's own address space, fresh at exec, so it is read first.
    """
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 2**20   # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux


def available_bytes():
    """Memory the system can still give (``MemAvailable``), or all of it if unknown: the
    machine may be shared, so a measurement that needs more is skipped, not run into an
    out-of-memory kill of somebody else's process."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def measure_in_child(module, *args):
    """Run ``python -m module --child *args`` and return the JSON dict its last line prints,
    or ``{"error": last stderr line}``: one fresh process per measurement, so that peak memory
    is that measurement's own."""
    proc = subprocess.run([sys.executable, "-m", module, "--child", *map(str, args)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        return {"error": tail}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def random_sparse_graph(n, m, seed):
    """A symmetric CSR uint8 graph on ``n`` nodes with ``m`` uniformly random edges (no
    loops): a sparse graph with no structure beyond its mean."""
    import numpy as np
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    i, j = rng.integers(0, n, (2, int(2.4 * m)))  # half are i < j, a few repeat
    keep = i < j
    pairs = np.unique(i[keep].astype(np.int64) * n + j[keep])[:m]
    i, j = np.divmod(pairs, n)
    U = sp.coo_matrix((np.ones(pairs.size, dtype=np.uint8), (i, j)), shape=(n, n))
    return (U + U.T).tocsr()


# The rows of issue 29's targets table, in its order: key -> (what, unit, comparison, target).
# A benchmark reports a row by its key; the table shows every row, measured or not.
TARGETS = {
    "sparse_100k_time": ("sparse 100,000 nodes, 1M edges -> edgeFlip eps 1 packed -> "
                         "adjusted ASE d = 3: time", "s", "<=", 180.0),
    "sparse_100k_peak": ("sparse 100,000 nodes, 1M edges -> edgeFlip eps 1 packed -> "
                         "adjusted ASE d = 3: peak memory", "GiB", "<=", 4.0),
    "noise_circle_ratio": ("adjusted ASE, noise-only release / circle release, n = 20,000",
                           "x", "<=", 3.0),
    "secure_seeded_ratio": ("secure / seeded packed edgeFlip, n = 20,000", "x", "<=", 1.5),
    "e2e_100k_secure": ("100,000-node circle, secure release: sample -> release -> adjusted "
                        "ASE -> alpha H1 -> ToMATo", "s", "<=", 90.0),
    "si_grid_ratio": ("shift-invariant bottleneck (certified, tol 1e-3) vs 1,000-shift grid, "
                      "n = 10,000", "x", ">=", 100.0),
    "tomato_gudhi_ratio": ("ToMATo(n_clusters=2) / gudhi Tomato(n_clusters=2), 10,000 points",
                           "x", "<=", 2.0),
    "e2e_10k_si": ("end to end n = 10,000 incl. certified shift-invariant distance", "s",
                   "<=", 8.0),
    "make_test": ("clean-clone make test, pytest part (2 workers)", "s", "<=", 360.0),
    "cluster_fit_300": ("BlockModelClustering(n_clusters=9) warm fit, 327-node release at "
                        "eps 2 (high school 2013)", "s", "<=", 0.2),
    "cluster_fit_20k": ("BlockModelClustering(n_clusters=3) warm fit, 19,717-node citation "
                        "network (pubmed, no privacy)", "s", "<=", 5.0),
    "cluster_cli_100": ("tdadp cluster on a 100-node release, wall, imports included", "s",
                        "<=", 1.5),
}


@dataclass
class Row:
    """One measured row of the targets table."""

    key: str
    measured: float
    met: bool
    detail: str
    source: str
    date: str
    load: str
    machine: str
    cpu_s: str = ""  # CPU seconds of the measured process (all threads), for time rows


# Rows reported in this process (``python -m benchmarks`` imports every benchmark module).
RESULTS: list[Row] = []

# Where :func:`report` records each row as soon as it is measured (path without extension):
# set by ``python -m benchmarks`` for a full run, None otherwise (a module run alone, or a
# quick run, only prints). A run stopped early keeps every row it measured.
RESULTS_PATH = None


def load_average():
    """The 1-, 5- and 15-minute load averages, as text (the machine is shared)."""
    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def report(key, measured, detail="", source=None, cpu_s=None):
    """Record the measurement of the target row ``key`` (a key of :data:`TARGETS`) and print
    it; ``detail`` says what else a reader needs (sizes, stages, peak memory); ``cpu_s``, the
    measured process's CPU seconds for a row in seconds: on a shared machine the wall time
    grows with the load, and on an idle one a CPU-bound run's wall time is at most that."""
    _, unit, op, target = TARGETS[key]
    measured = float(measured)
    met = measured <= target if op == "<=" else measured >= target
    row = Row(key, measured, met, detail, source or _caller_module(),
              datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
              load_average(), machine(), "" if cpu_s is None else f"{float(cpu_s):.1f}")
    RESULTS.append(row)
    if RESULTS_PATH is not None:
        # Read again before writing: another run (--only) may have recorded rows meanwhile.
        csv_path = RESULTS_PATH + ".csv"
        write_table(merge_rows(read_rows(csv_path), [row]), csv_path, RESULTS_PATH + ".md")
    print(f"[target row] {TARGETS[key][0]}: {_fmt(measured, unit)} (target {op} "
          f"{_fmt(target, unit)}: {'met' if met else 'NOT met'}); load {row.load}", flush=True)
    return row


def _caller_module():
    """The file name (without .py) of the module that called :func:`report`."""
    path = sys._getframe(2).f_globals.get("__file__", "")
    return os.path.splitext(os.path.basename(path))[0]


def _fmt(value, unit):
    if unit == "x":
        return f"{value:.2f}x" if value < 10 else f"{value:.0f}x"
    if unit == "GiB":
        return f"{value:.2f} GiB"
    return f"{value:.2f} s" if value < 10 else f"{value:.1f} s"


def read_rows(path):
    """The rows of a results CSV written by :func:`write_table` (none if it is missing)."""
    if not os.path.exists(path):
        return []
    with open(path, newline="") as fh:
        rows = []
        for r in csv.DictReader(fh):
            if r["key"] not in TARGETS:
                continue
            rows.append(Row(**{f.name: r[f.name] for f in fields(Row) if f.name in r}))
            rows[-1].measured = float(rows[-1].measured)
            rows[-1].met = rows[-1].met == "True"
        return rows


def merge_rows(old, new):
    """``old`` with each row that ``new`` measured again replaced (the last report wins)."""
    by_key = {r.key: r for r in old}
    by_key.update({r.key: r for r in new})
    return [by_key[k] for k in TARGETS if k in by_key]


def write_table(rows, csv_path, md_path):
    """Write ``rows`` as CSV and as the Markdown table the README shows (every target row,
    ``not measured`` where none was reported)."""
    with open(csv_path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=[f.name for f in fields(Row)])
        writer.writeheader()
        for r in rows:
            writer.writerow(asdict(r))
    with open(md_path, "w") as fh:
        fh.write(markdown_table(rows))


def markdown_table(rows):
    by_key = {r.key: r for r in rows}
    machines = sorted({r.machine for r in rows})
    lines = ["<!-- written by `make bench` (benchmarks/__main__.py); do not edit -->",
             "| target (issue 29) | measured | target | met | CPU s | date | load 1/5/15 min "
             "| details |",
             "|---|---|---|---|---|---|---|---|"]
    for key, (what, unit, op, target) in TARGETS.items():
        r = by_key.get(key)
        if r is None:
            lines.append(f"| {what} | not measured | {op} {_fmt(target, unit)} | - | - | - | "
                         "- | - |")
            continue
        lines.append(f"| {what} | {_fmt(r.measured, unit)} | {op} {_fmt(target, unit)} | "
                     f"{'yes' if r.met else '**no**'} | {r.cpu_s or '-'} | {r.date} | "
                     f"{r.load} | {r.detail} (`{r.source}`) |")
    lines.append("")
    lines.append("Machine: " + "; ".join(machines) + ". Times are wall seconds. Load: the 1-, "
                 "5- and 15-minute load averages when the row was recorded (2 cores: above 2 "
                 "the machine was shared and wall times are longer than on an idle one). CPU s: "
                 "the measured process's CPU seconds, all threads, which load inflates far less "
                 "than wall time: on an idle 2-core machine a CPU-bound run's wall time lies "
                 "between half its CPU seconds and about all of them.")
    return "\n".join(lines) + "\n"
