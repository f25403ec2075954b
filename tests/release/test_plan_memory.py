"""The plan reads the machine's memory once per transform, and a momentary low of MemAvailable
does not refuse a release that fits the machine."""

import numpy as np
import pytest

from tdadp.release import EdgeFlip
from tdadp.release import _plan as plan_module
from tdadp.utils import _memory

MEM_AVAILABLE = "the system's available memory, MemAvailable"


def _graph(n=6):
    A = np.zeros((n, n), dtype=np.uint8)
    for i in range(n):
        A[i, (i + 1) % n] = A[(i + 1) % n, i] = 1
    return A


def test_one_reading_of_the_limits_per_transform(monkeypatch):
    calls = []
    real = plan_module.memory_limits
    monkeypatch.setattr(plan_module, "memory_limits", lambda: calls.append(1) or real())
    mech = EdgeFlip(1.0, random_state=0).fit(_graph())
    for k in range(3):
        mech.transform(_graph())
        assert len(calls) == k + 1


def test_a_momentary_low_of_memavailable_is_read_again(monkeypatch):
    n = 2000  # a dense release: 4 MB
    readings = iter([0, 8 * 10**9])
    monkeypatch.setattr(plan_module, "memory_limits",
                        lambda: {MEM_AVAILABLE: next(readings)})
    monkeypatch.setattr(_memory, "_mem_available", lambda proc: next(readings))
    slept = []
    monkeypatch.setattr(_memory.time, "sleep", slept.append)
    plans = plan_module.plan_releases([(n, "dense")], 0.2, "dense")
    assert [p.kind for p in plans] == ["dense"] and len(slept) == 1


def test_a_release_beyond_the_machine_is_refused_at_once(monkeypatch):
    n = 10**6  # a dense release of 1 TB
    monkeypatch.setattr(plan_module, "memory_limits", lambda: {MEM_AVAILABLE: 10**9})
    slept = []
    monkeypatch.setattr(_memory.time, "sleep", slept.append)
    with pytest.raises(ValueError, match=r"bound by the system's available memory"):
        plan_module.plan_releases([(n, "dense")], 0.2, "dense")
    assert slept == []


def test_a_lasting_low_still_refuses_with_the_same_message(monkeypatch):
    n = 2000
    monkeypatch.setattr(plan_module, "memory_limits", lambda: {MEM_AVAILABLE: 10**6})
    monkeypatch.setattr(_memory, "_mem_available", lambda proc: 10**6)
    monkeypatch.setattr(_memory.time, "sleep", lambda s: None)
    with pytest.raises(ValueError) as info:
        plan_module.plan_releases([(n, "dense")], 0.2, "dense", mechanism="EdgeFlip release")
    assert str(info.value) == (
        "EdgeFlip release as a dense graph on 2,000 nodes would need about 0.004 GB, more "
        "than 0.9 of the 0.001 GB this process can still use (bound by the system's available "
        "memory, MemAvailable). Use output=\"packed\" (one bit per dyad).")
