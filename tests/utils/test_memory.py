"""Memory limits that are real: rlimits, cgroup v1 and v2 limits, MemAvailable.

The parsing is tested on fake /proc and cgroup trees (``memory_limits(proc=...)`` reads the
cgroup mount points from the fake ``self/mountinfo``); the rlimits on the running process in a
subprocess, where ``resource.setrlimit`` cannot touch pytest's own interpreter.
"""

import os
import resource
import subprocess
import sys
import textwrap

import pytest

from tdadp.utils import available_memory, memory_limits
from tdadp.utils._memory import check_memory

GB = 10**9
UNLIMITED_V1 = "9223372036854771712\n"  # what cgroup v1 writes for "no limit"


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _no_rlimit(_):
    return (resource.RLIM_INFINITY, resource.RLIM_INFINITY)


def fake_proc(tmp_path, *, cgroup="", mounts=(), meminfo_kb=16_000_000, status=""):
    """A fake /proc: ``mounts`` are (fstype, superoptions, mount root, mount point) tuples."""
    proc = tmp_path / "proc"
    _write(proc / "self" / "cgroup", cgroup)
    lines = [f"{30 + i} 23 0:{40 + i} {root} {point} rw,relatime - {fstype} {fstype} {opts}"
             for i, (fstype, opts, root, point) in enumerate(mounts)]
    _write(proc / "self" / "mountinfo", "\n".join(lines) + "\n")
    _write(proc / "self" / "status", status)
    if meminfo_kb is not None:
        _write(proc / "meminfo", f"MemTotal:       32000000 kB\nMemFree:        1000 kB\n"
                                 f"MemAvailable:   {meminfo_kb} kB\n")
    return str(proc)


def test_cgroup_v2_limit_of_the_process_cgroup_binds(tmp_path):
    cg = tmp_path / "cgroup2"
    _write(cg / "user.slice" / "job" / "memory.max", "4000000000\n")
    _write(cg / "user.slice" / "job" / "memory.current", "1000000000\n")
    _write(cg / "user.slice" / "memory.max", "max\n")  # no limit at the parent
    _write(cg / "user.slice" / "memory.current", "7000000000\n")
    proc = fake_proc(tmp_path, cgroup="0::/user.slice/job\n",
                     mounts=[("cgroup2", "rw,nsdelegate", "/", str(cg))])
    limits = memory_limits(proc=proc, getrlimit=_no_rlimit)
    assert sorted(limits.values()) == [3 * GB, 16_000_000 * 1024]
    assert available_memory(proc=proc, getrlimit=_no_rlimit) == 3 * GB
    (label,) = [k for k, v in limits.items() if v == 3 * GB]
    assert "memory.max" in label and str(cg / "user.slice" / "job") in label


def test_a_parent_cgroups_limit_applies_too(tmp_path):
    cg = tmp_path / "cgroup2"
    _write(cg / "a" / "b" / "memory.max", "max\n")
    _write(cg / "a" / "b" / "memory.current", "100\n")
    _write(cg / "a" / "memory.max", str(int(2.5 * GB)))
    _write(cg / "a" / "memory.current", str(2 * GB))
    proc = fake_proc(tmp_path, cgroup="0::/a/b\n",
                     mounts=[("cgroup2", "rw", "/", str(cg))])
    assert available_memory(proc=proc, getrlimit=_no_rlimit) == GB // 2


def test_cgroup_v1_memory_controller(tmp_path):
    mem = tmp_path / "memory"
    _write(mem / "memory.limit_in_bytes", UNLIMITED_V1)
    _write(mem / "memory.usage_in_bytes", str(20 * GB))
    _write(mem / "docker" / "abc" / "memory.limit_in_bytes", str(2 * GB))
    _write(mem / "docker" / "abc" / "memory.usage_in_bytes", str(GB // 2))
    proc = fake_proc(tmp_path,
                     cgroup="5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n",
                     mounts=[("cgroup", "rw,cpu,cpuacct", "/", str(tmp_path / "cpu")),
                             ("cgroup", "rw,memory", "/", str(mem))])
    limits = memory_limits(proc=proc, getrlimit=_no_rlimit)
    # The unlimited root (2**63 - 4096) is no limit; the container's limit is.
    assert sorted(limits.values()) == [int(1.5 * GB), 16_000_000 * 1024]
    assert any("memory.limit_in_bytes" in k for k in limits)


def test_cgroup_namespace_shows_the_mount_root(tmp_path):
    # Inside a cgroup namespace /proc/self/cgroup says "/" while the mount root is the
    # container's own cgroup: its files are those at the mount point.
    cg = tmp_path / "cg"
    _write(cg / "memory.max", str(GB))
    _write(cg / "memory.current", str(GB // 4))
    proc = fake_proc(tmp_path, cgroup="0::/\n",
                     mounts=[("cgroup2", "rw", "/kubepods/pod1/c1", str(cg))])
    assert available_memory(proc=proc, getrlimit=_no_rlimit) == GB - GB // 4


def test_mount_points_with_escaped_spaces(tmp_path):
    cg = tmp_path / "my cgroups"
    _write(cg / "job" / "memory.max", str(GB))
    _write(cg / "job" / "memory.current", "0")
    proc = fake_proc(tmp_path, cgroup="0::/job\n",
                     mounts=[("cgroup2", "rw", "/", str(cg).replace(" ", "\\040"))])
    assert available_memory(proc=proc, getrlimit=_no_rlimit) == GB


def test_rlimits_count_what_the_process_already_uses(tmp_path):
    status = "Name:\tpython\nVmPeak:\t  900000 kB\nVmSize:\t  400000 kB\nVmData:\t  100000 kB\n"
    proc = fake_proc(tmp_path, status=status)

    def getrlimit(which):
        soft = {resource.RLIMIT_AS: 3 * 2**30, resource.RLIMIT_DATA: 2 * 2**30}.get(which)
        return (resource.RLIM_INFINITY if soft is None else soft, resource.RLIM_INFINITY)

    limits = memory_limits(proc=proc, getrlimit=getrlimit)
    address = [v for k, v in limits.items() if "RLIMIT_AS" in k]
    data = [v for k, v in limits.items() if "RLIMIT_DATA" in k]
    assert address == [3 * 2**30 - 400000 * 1024]
    assert data == [2 * 2**30 - 100000 * 1024]
    assert available_memory(proc=proc, getrlimit=getrlimit) == 2 * 2**30 - 100000 * 1024


def test_without_proc_the_physical_memory_is_the_limit(tmp_path):
    proc = tmp_path / "nothing"
    limits = memory_limits(proc=str(proc), getrlimit=_no_rlimit)
    assert list(limits) == ["the physical memory"]
    assert limits["the physical memory"] == os.sysconf("SC_PAGE_SIZE") * os.sysconf(
        "SC_PHYS_PAGES")


@pytest.mark.parametrize("junk", ["", "max\n", "garbage\n", "-5\n"])
def test_unreadable_cgroup_values_are_no_limit(tmp_path, junk):
    cg = tmp_path / "cg"
    _write(cg / "memory.max", junk)
    proc = fake_proc(tmp_path, cgroup="0::/\n", mounts=[("cgroup2", "rw", "/", str(cg))])
    assert available_memory(proc=proc, getrlimit=_no_rlimit) == 16_000_000 * 1024


def test_check_memory_names_need_availability_and_the_binding_limit(tmp_path):
    cg = tmp_path / "cg"
    _write(cg / "memory.max", str(4 * GB))
    _write(cg / "memory.current", str(GB))
    proc = fake_proc(tmp_path, cgroup="0::/\n", mounts=[("cgroup2", "rw", "/", str(cg))])
    check_memory(1.4 * GB, "a small job", proc=proc, getrlimit=_no_rlimit)
    with pytest.raises(ValueError) as info:
        check_memory(1.6 * GB, "a dense graph on 40000 nodes", " Pass sparse=True.",
                     proc=proc, getrlimit=_no_rlimit)
    message = str(info.value)
    assert message == (f"a dense graph on 40000 nodes would need about 1.6 GB, more than half "
                       f"of the 3 GB this process can still use (bound by the cgroup limit "
                       f"memory.max = 4 GB of {cg}, 1 GB of it in use). Pass sparse=True.")
    check_memory(2.9 * GB, "a peak estimate", fraction=1.0, proc=proc, getrlimit=_no_rlimit)
    with pytest.raises(ValueError, match="more than the 3 GB"):
        check_memory(3.1 * GB, "a peak estimate", fraction=1.0, proc=proc,
                     getrlimit=_no_rlimit)


_UNDER_RLIMIT = textwrap.dedent("""
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, resource.RLIM_INFINITY))
    from tdadp.utils import available_memory, memory_limits
    from tdadp.utils._memory import check_memory
    limits = memory_limits()
    assert available_memory() < 3 * 2**30, limits
    assert min(limits, key=limits.get).startswith("the address-space limit RLIMIT_AS"), limits
    try:
        # 1 MiB below the limit: refused because the interpreter already uses more.
        check_memory(3 * 2**30 - 2**20, "a job", fraction=1.0)
    except ValueError as exc:
        print(exc)
    else:
        sys.exit("not refused")
""")


def test_the_address_space_rlimit_binds_in_a_limited_process():
    # Before: check_memory compared with half the physical memory, so a job of almost 3 GiB
    # passed under a 3 GiB address-space limit on any machine with more than 6 GiB of RAM.
    proc = subprocess.run([sys.executable, "-c", _UNDER_RLIMIT], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "a job would need about 3.22 GB, more than the" in proc.stdout
    assert "bound by the address-space limit RLIMIT_AS = 3.22 GB" in proc.stdout


def _count_reads(monkeypatch):
    """The paths memory_limits reads, in order (through its one reader, _read)."""
    from tdadp.utils import _memory

    seen = []
    read = _memory._read

    def counting(path):
        seen.append(os.path.basename(path))
        return read(path)

    monkeypatch.setattr(_memory, "_read", counting)
    return seen


def test_cgroup_paths_are_found_once_and_the_limits_read_every_time(tmp_path, monkeypatch):
    # The plan of every release reads the limits: the mount table is parsed once per process
    # and cgroup, the limit and usage files (which change) on every call.
    cg = tmp_path / "cg"
    _write(cg / "job" / "memory.max", str(4 * GB))
    _write(cg / "job" / "memory.current", str(GB))
    proc = fake_proc(tmp_path, cgroup="0::/job\n", mounts=[("cgroup2", "rw", "/", str(cg))])
    seen = _count_reads(monkeypatch)
    assert available_memory(proc=proc, getrlimit=_no_rlimit) == 3 * GB
    assert seen.count("mountinfo") == 1
    seen.clear()
    _write(cg / "job" / "memory.max", str(2 * GB))  # the limit lowered from outside
    _write(cg / "job" / "memory.current", str(GB // 2))
    assert available_memory(proc=proc, getrlimit=_no_rlimit) == int(1.5 * GB)
    assert "mountinfo" not in seen and "status" not in seen  # no rlimit: no VmSize needed
    # the job's limit and its parent's (the mount point's, none), the job's usage
    assert seen.count("memory.max") == 2 and seen.count("memory.current") == 1
    # Moved to another cgroup: its limits, found again.
    _write(cg / "other" / "memory.max", str(GB))
    _write(cg / "other" / "memory.current", "0")
    _write(tmp_path / "proc" / "self" / "cgroup", "0::/other\n")
    seen.clear()
    assert available_memory(proc=proc, getrlimit=_no_rlimit) == GB
    assert seen.count("mountinfo") == 1


def test_a_forked_child_finds_its_cgroup_again(tmp_path, monkeypatch):
    from tdadp.utils import _memory

    cg = tmp_path / "cg"
    _write(cg / "memory.max", str(GB))
    _write(cg / "memory.current", "0")
    proc = fake_proc(tmp_path, cgroup="0::/\n", mounts=[("cgroup2", "rw", "/", str(cg))])
    assert available_memory(proc=proc, getrlimit=_no_rlimit) == GB
    seen = _count_reads(monkeypatch)
    monkeypatch.setattr(_memory.os, "getpid", lambda: -12345)  # what a child sees
    assert available_memory(proc=proc, getrlimit=_no_rlimit) == GB
    assert seen.count("mountinfo") == 1


def test_a_momentary_low_of_memavailable_is_read_again(tmp_path, monkeypatch):
    # MemAvailable drops to 0 while other processes peak (the kernel clamps it there): a
    # refusal it alone decides waits for another reading; one beyond the machine does not.
    from tdadp.utils import _memory

    proc = fake_proc(tmp_path, meminfo_kb=0)
    readings = iter([0, 8_000_000])
    monkeypatch.setattr(_memory, "_mem_available", lambda proc: next(readings) * 1024)
    slept = []
    monkeypatch.setattr(_memory.time, "sleep", slept.append)
    check_memory(GB, "a job", proc=proc, getrlimit=_no_rlimit)
    assert len(slept) == 1  # the second reading let it through

    monkeypatch.setattr(_memory, "_mem_available", lambda proc: 0)
    slept.clear()
    with pytest.raises(ValueError, match=r"more than half of the 0 GB .*MemAvailable\)"):
        check_memory(GB, "a job", proc=proc, getrlimit=_no_rlimit)
    assert len(slept) == len(_memory._RECHECK_DELAYS)
    slept.clear()
    with pytest.raises(ValueError, match="MemAvailable"):
        check_memory(2.0 * _memory.physical_memory(), "a job", fraction=1.0, proc=proc,
                     getrlimit=_no_rlimit)
    assert slept == []  # more than the machine has: refused at once


def test_a_cgroup_refusal_is_not_delayed(tmp_path, monkeypatch):
    from tdadp.utils import _memory

    cg = tmp_path / "cg"
    _write(cg / "memory.max", str(GB))
    _write(cg / "memory.current", "0")
    proc = fake_proc(tmp_path, cgroup="0::/\n", mounts=[("cgroup2", "rw", "/", str(cg))],
                     meminfo_kb=100)
    slept = []
    monkeypatch.setattr(_memory.time, "sleep", slept.append)
    # MemAvailable binds, but the work does not fit the cgroup either: no second reading.
    with pytest.raises(ValueError, match="MemAvailable"):
        check_memory(2 * GB, "a job", fraction=1.0, proc=proc, getrlimit=_no_rlimit)
    assert slept == []
