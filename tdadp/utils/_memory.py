"""How much memory this process can still use: cgroups (v1 and v2), rlimits, MemAvailable.

Every stage that could be asked for more than the machine has calls :func:`check_memory`
before allocating, so it refuses with a message saying how much it needs instead of being
killed by the kernel.
"""

from __future__ import annotations

import os
import re
import time

try:  # Unix only; elsewhere no rlimit applies
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None

__all__ = [
    "physical_memory",
    "memory_limits",
    "available_memory",
    "check_memory",
]

# A limit at or above this many bytes is "unlimited" (cgroup v1 writes 2**63 - 4096 for none).
_UNLIMITED = 1 << 62
_AVAILABLE = "the system's available memory, MemAvailable"
# Seconds to wait before each new reading of MemAvailable when it alone would refuse (see
# recheck_available).
_RECHECK_DELAYS = (0.05, 0.25, 0.5)


def physical_memory():
    """Bytes of physical memory of this machine (8 GiB when the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 8 * 1024**3


def _read(path):
    # os.open/os.read rather than open(): these files are read on every release (the plan
    # of each transform), and a text-mode file object costs more than the read itself.
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # absent (another OS, no such controller) or unreadable: no limit known
        return None
    try:
        chunks = []
        while True:  # one read for the small files; mountinfo may need a few
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    return b"".join(chunks).decode("ascii", errors="replace")


def _status_bytes(status, key):
    """``VmSize``-like field of /proc/self/status, in bytes (None when absent)."""
    for line in (status or "").splitlines():
        name, _, value = line.partition(":")
        if name == key:
            parts = value.split()
            if parts and parts[0].isdigit():
                return int(parts[0]) * (1024 if parts[1:] == ["kB"] else 1)
    return None


def _number(text):
    """A cgroup file's integer, or None for "max", a missing file or garbage."""
    text = (text or "").strip()
    return int(text) if text.isdigit() else None


def _unescape(field):
    # mountinfo escapes space, tab, newline and backslash as \ooo octal sequences
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def _cgroup_mounts(mountinfo):
    """(version, mount root, mount point) of the cgroup2 and v1 memory hierarchies."""
    out = []
    for line in (mountinfo or "").splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 5 or len(tail) < 3:
            continue
        if tail[0] == "cgroup2":
            out.append((2, _unescape(fields[3]), _unescape(fields[4])))
        elif tail[0] == "cgroup" and "memory" in tail[2].split(","):
            out.append((1, _unescape(fields[3]), _unescape(fields[4])))
    return out


def _cgroup_paths(cgroup):
    """{1: path of the v1 memory cgroup, 2: path of the v2 cgroup} of /proc/self/cgroup."""
    out = {}
    for line in (cgroup or "").splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        if parts[0] == "0" and parts[1] == "":
            out[2] = parts[2]
        elif "memory" in parts[1].split(","):
            out[1] = parts[2]
    return out


# The cgroup directories whose limits apply to this process, per (proc root, pid, text of
# /proc/self/cgroup): finding them takes /proc/self/mountinfo (the costliest read, growing
# with the mount table) and a walk up the hierarchy, and neither changes while the process
# stays in its cgroup. The limit and usage files themselves are read on every call: a
# limit can be changed from outside at any time and the usage changes constantly.
# - the pid: a forked child has a cgroup of its own to look up (the same one until moved,
#   but a child that is moved must not use its parent's entry);
# - the text of /proc/self/cgroup (read every call; it is cheap): a process moved to
#   another cgroup (cgexec, a job scheduler writing to cgroup.procs) gets its new limits;
# - the proc root: tests point it at fake trees.
# A cgroup hierarchy mounted or unmounted while the process runs is not seen until it
# moves; containers mount theirs before the process starts.
_LEVELS = {}
_FILES = {2: ("memory.max", "memory.current"),
          1: ("memory.limit_in_bytes", "memory.usage_in_bytes")}


def _cgroup_levels(proc, paths):
    """[(version, directory)] of every cgroup level whose limit applies, innermost first."""
    mounts = _cgroup_mounts(_read(os.path.join(proc, "self", "mountinfo")))
    out = []
    for version, root, point in mounts:
        if version not in paths:
            continue
        path = paths[version]
        inside = path == root or path.startswith(root.rstrip("/") + "/")
        rel = os.path.relpath(path, root) if inside else "."
        # Inside a cgroup namespace the process may see a path its mount does not show.
        start = os.path.normpath(os.path.join(point, rel))
        if not os.path.isdir(start):
            start = point
        level = start
        while True:
            out.append((version, level))
            if os.path.normpath(level) == os.path.normpath(point) or level == "/":
                break
            level = os.path.dirname(level)
    return out


def _cgroup_limits(proc):
    """{description: bytes} left under each cgroup memory limit of this process.

    The limit of every ancestor applies too (a child cgroup without a limit of its own still
    lives inside its parent's), so each level from the process's cgroup up to the mount
    point counts: its limit minus what its members already use.
    """
    cgroup = _read(os.path.join(proc, "self", "cgroup"))
    key = (proc, os.getpid(), cgroup)
    levels = _LEVELS.get(key)
    if levels is None:
        # Entries of other pids or cgroups are stale, those of other roots a test's: a few
        # are kept, never an unbounded number.
        if len(_LEVELS) >= 8:
            _LEVELS.clear()
        levels = _LEVELS[key] = _cgroup_levels(proc, _cgroup_paths(cgroup))
    out = {}
    for version, level in levels:
        limit_file, usage_file = _FILES[version]
        limit = _number(_read(os.path.join(level, limit_file)))
        if limit is not None and limit < _UNLIMITED:
            used = _number(_read(os.path.join(level, usage_file))) or 0
            out[f"the cgroup limit {limit_file} = {limit / 1e9:.3g} GB of {level}, "
                f"{used / 1e9:.3g} GB of it in use"] = max(0, limit - used)
    return out


def memory_limits(*, proc="/proc", getrlimit=None):
    """What this process may still allocate under each limit that applies to it, in bytes.

    A memory check against physical memory alone lets through work that the process cannot
    do: under an address-space rlimit or a cgroup (container) limit a native library that
    runs out aborts the interpreter (``std::bad_alloc``) or the kernel kills it. Counted,
    where the system has them (Linux; elsewhere physical memory only):

    * the soft ``RLIMIT_AS`` minus the current virtual size (``VmSize``) and the soft
      ``RLIMIT_DATA`` minus the current data size (``VmData``);
    * cgroup v2 ``memory.max`` minus ``memory.current`` and cgroup v1
      ``memory.limit_in_bytes`` minus ``memory.usage_in_bytes``, for the process's cgroup
      and each of its ancestors;
    * ``MemAvailable`` of ``/proc/meminfo`` (memory that can be had without swapping), or
      the physical memory when the system does not say.

    Parameters
    ----------
    proc : str, default="/proc"
        Root of the proc file system (``self/status``, ``self/cgroup``,
        ``self/mountinfo``, ``meminfo``); the cgroup files are found through its mount
        table. Tests point it at fake files.
    getrlimit : callable, optional
        ``resource.getrlimit`` (the default) or a stand-in.

    Returns
    -------
    dict
        ``{description: bytes}``, one entry per limit found; never empty.

    Examples
    --------
    >>> limits = memory_limits()
    >>> min(limits.values()) == available_memory()
    True
    """
    out = {}
    status = None  # read only when an rlimit applies (usually none does)
    if getrlimit is None and resource is not None:
        getrlimit = resource.getrlimit
    if getrlimit is not None and resource is not None:
        for name, key, what in (("RLIMIT_AS", "VmSize", "address-space"),
                                ("RLIMIT_DATA", "VmData", "data-segment")):
            soft = getrlimit(getattr(resource, name))[0]
            if soft == resource.RLIM_INFINITY or soft < 0 or soft >= _UNLIMITED:
                continue
            if status is None:
                status = _read(os.path.join(proc, "self", "status")) or ""
            # Without /proc the usage is unknown: the whole limit is counted as left.
            used = _status_bytes(status, key) or 0
            out[f"the {what} limit {name} = {soft / 1e9:.3g} GB, {used / 1e9:.3g} GB of "
                "it in use"] = max(0, soft - used)
    out.update(_cgroup_limits(proc))
    available = _mem_available(proc)
    if available is not None:
        out[_AVAILABLE] = available
    else:
        out["the physical memory"] = physical_memory()
    return out


def _mem_available(proc):
    return _status_bytes(_read(os.path.join(proc, "meminfo")), "MemAvailable")


def recheck_available(limits, fits, *, proc="/proc"):
    """``limits`` with MemAvailable read again, when it alone refuses work that would fit.

    MemAvailable is the kernel's estimate of what can be had without swapping, at one
    instant: when other processes' memory peaks it drops, down to 0 (the kernel clamps it
    there), and a moment later it is back. The reading is not wrong (one read of
    /proc/meminfo is one snapshot), but a refusal it decides alone may be undone by waiting
    a little. So when the binding limit is MemAvailable and ``fits(limits)`` would hold
    with the physical memory in its place (every other limit still applying), it is read
    again a few times over about 0.8 s, and the first reading under which the work fits is
    returned (else the last one, for the refusal's message). Work beyond the physical
    memory, an rlimit or a cgroup limit is refused at once, as before; work beyond what
    is available is still refused when it stays so.

    Parameters
    ----------
    limits : dict
        :func:`memory_limits`.
    fits : callable
        ``fits(limits) -> bool``: whether the work fits under these limits.
    proc : str, default="/proc"
        See :func:`memory_limits`.
    """
    if fits(limits) or min(limits, key=limits.get) != _AVAILABLE:
        return limits
    others = {k: v for k, v in limits.items() if k != _AVAILABLE}
    if not fits({**others, "the physical memory": physical_memory()}):
        return limits
    for delay in _RECHECK_DELAYS:
        time.sleep(delay)
        available = _mem_available(proc)
        if available is None:
            break
        limits = {**others, _AVAILABLE: available}
        if fits(limits):
            break
    return limits


def available_memory(*, proc="/proc", getrlimit=None):
    """Bytes this process may still allocate: the smallest of :func:`memory_limits`.

    Parameters
    ----------
    proc, getrlimit
        See :func:`memory_limits`.

    Returns
    -------
    int

    Examples
    --------
    >>> available_memory() > 0
    True
    """
    return min(memory_limits(proc=proc, getrlimit=getrlimit).values())


def check_memory(nbytes, what, hint="", *, fraction=0.5, proc="/proc", getrlimit=None):
    """Refuse work that would need more than ``fraction`` of the memory left to this process.

    The memory left is the smallest of :func:`memory_limits` (rlimits, cgroup limits,
    available memory); when MemAvailable alone refuses, it is read again over a moment
    first (``recheck_available``). Beyond it numpy raises a MemoryError at best; at
    worst the allocation succeeds (overcommit) and the kernel kills the interpreter when the
    pages are touched, or a native library aborts it. The default ``fraction`` leaves room
    for temporaries when ``nbytes`` counts the main arrays only; a conservative estimate of
    the whole peak may pass ``fraction=1``.

    Parameters
    ----------
    nbytes : float
        Estimated bytes.
    what : str
        The work, as the subject of the message ("a dense graph on 10 nodes").
    hint : str, default=""
        Appended to the message (start it with a space).
    fraction : float, default=0.5
        Share of the memory left that the work may take.
    proc, getrlimit
        See :func:`memory_limits`.

    Raises
    ------
    ValueError
        One line: how much is needed, how much is available and which limit binds.
    """
    limits = recheck_available(memory_limits(proc=proc, getrlimit=getrlimit),
                               lambda limits: nbytes <= fraction * min(limits.values()),
                               proc=proc)
    binding = min(limits, key=limits.get)
    left = limits[binding]
    if nbytes > fraction * left:
        share = "" if fraction == 1 else (
            "half of " if fraction == 0.5 else f"{fraction:g} of ")
        raise ValueError(f"{what} would need about {nbytes / 1e9:.3g} GB, more than {share}"
                         f"the {left / 1e9:.3g} GB this process can still use (bound by "
                         f"{binding}).{hint}")
