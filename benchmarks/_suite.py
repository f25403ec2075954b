"""The last target row: ``make test`` on a clean clone (``python -m benchmarks --suite``).

Not part of the default ``make bench``: it clones the repository's committed HEAD into a
temporary folder and runs ``make test`` there (a fresh virtual environment, the install, the
linter, then the default suite on every core), which takes several minutes on its own. The
row is the pytest part, read from pytest's closing line; the whole command's time is beside it.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks._common import report

# pytest's closing line: "==== 3804 passed, 12 deselected in 327.12s (0:05:27) ===="
_SUMMARY = re.compile(r"=+ (.*?) in ([0-9.]+)s")


def pytest_seconds(output):
    """``(seconds, summary)`` from pytest's closing line in ``output``, or None."""
    found = _SUMMARY.findall(output)
    if not found:
        return None
    summary, seconds = found[-1]
    return float(seconds), summary


def run_suite(repo=None):
    repo = Path(repo or Path(__file__).resolve().parent.parent)
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="tdadp-clean-") as folder:
        clone = Path(folder) / "tdadp"
        subprocess.run(["git", "clone", "--quiet", str(repo), str(clone)], check=True)
        start = time.perf_counter()
        proc = subprocess.run(["make", "test"], cwd=clone, capture_output=True, text=True)
        total = time.perf_counter() - start
    parsed = pytest_seconds(proc.stdout)
    if parsed is None:
        tail = (proc.stdout.strip().splitlines() or proc.stderr.strip().splitlines()
                or ["no output"])[-1]
        print(f"make test on a clean clone of {commit}: no pytest summary ({tail})")
        return None
    seconds, summary = parsed
    status = "" if proc.returncode == 0 else f"; make exited {proc.returncode}"
    return report("make_test", seconds,
                  f"clean clone of {commit}: {summary}; make test in all {total:.0f} s "
                  f"(venv, install, lint){status}", source="_suite")
