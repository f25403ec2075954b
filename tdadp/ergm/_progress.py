"""Progress bars of the long ERGM runs: tqdm on stderr, advanced in chunks.

A bar only counts work done (MH steps, MCMC iterations); it draws nothing, so a run is the
same with or without it.
"""

from __future__ import annotations

import sys
import threading

from tqdm.auto import tqdm

__all__ = ["Progress"]

# Share of the total a bar is told about at a time: a call costs a lock and an addition, and
# tqdm itself runs once per thousandth.
_CHUNKS = 1000


class Progress:
    """A bar counting ``total`` units on stderr (``verbose``), or nothing at all.

    Call it with the units done since the last call; chains on threads may share it (a lock
    guards the count). Used as a context manager, it closes the bar (flushing the rest).
    Disabled, a call returns at once.

    Parameters
    ----------
    verbose : bool
    total : int
    desc : str
        The bar's label.
    unit : str
        What a unit is ("step", "it").
    """

    def __init__(self, verbose, total, desc, unit):
        self.enabled = bool(verbose)
        self._bar = tqdm(total=total, desc=desc, unit=unit, unit_scale=True, file=sys.stderr,
                         disable=not self.enabled)
        self._chunk = max(1, int(total) // _CHUNKS)
        self._pending = 0
        self._lock = threading.Lock()

    def __call__(self, done=1):
        if not self.enabled:
            return
        with self._lock:
            self._pending += done
            if self._pending >= self._chunk:
                self._bar.update(self._pending)
                self._pending = 0

    def close(self):
        with self._lock:
            if self._pending:
                self._bar.update(self._pending)
                self._pending = 0
        self._bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
