"""Shared helpers of the benchmarks: machine description and timing."""

from __future__ import annotations

import os
import platform
import resource
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


def peak_rss_gib():
    """Peak resident memory of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
