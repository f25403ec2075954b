"""Shared helpers of the benchmarks: machine description and timing."""

from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import sys
import time


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
