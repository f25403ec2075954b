"""How much memory this process can still use: cgroups (v1 and v2), rlimits, MemAvailable.

Every stage that could be asked for more than the machine has calls :func:`check_memory`
before allocating, so it refuses with a message saying how much it needs instead of being
killed by the kernel.
"""

from __future__ import annotations

import os
import re

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


def physical_memory():
    """Bytes of physical memory of this machine (8 GiB when the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 8 * 1024**3


def _read(path):
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            return fh.read()
    except OSError:  # absent (another OS, no such controller) or unreadable: no limit known
        return None


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


def _cgroup_limits(proc):
    """{description: bytes} left under each cgroup memory limit of this process.

    The limit of every ancestor applies too (a child cgroup without a limit of its own still
    lives inside its parent's), so each level from the process's cgroup up to the mount
    point counts: its limit minus what its members already use.
    """
    paths = _cgroup_paths(_read(os.path.join(proc, "self", "cgroup")))
    mounts = _cgroup_mounts(_read(os.path.join(proc, "self", "mountinfo")))
    files = {2: ("memory.max", "memory.current"),
             1: ("memory.limit_in_bytes", "memory.usage_in_bytes")}
    out = {}
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
            limit_file, usage_file = files[version]
            limit = _number(_read(os.path.join(level, limit_file)))
            if limit is not None and limit < _UNLIMITED:
                used = _number(_read(os.path.join(level, usage_file))) or 0
                out[f"the cgroup limit {limit_file} = {limit / 1e9:.3g} GB of {level}, "
                    f"{used / 1e9:.3g} GB of it in use"] = max(0, limit - used)
            if os.path.normpath(level) == os.path.normpath(point) or level == "/":
                break
            level = os.path.dirname(level)
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
    status = _read(os.path.join(proc, "self", "status"))
    if getrlimit is None and resource is not None:
        getrlimit = resource.getrlimit
    if getrlimit is not None and resource is not None:
        for name, key, what in (("RLIMIT_AS", "VmSize", "address-space"),
                                ("RLIMIT_DATA", "VmData", "data-segment")):
            soft = getrlimit(getattr(resource, name))[0]
            if soft == resource.RLIM_INFINITY or soft < 0 or soft >= _UNLIMITED:
                continue
            # Without /proc the usage is unknown: the whole limit is counted as left.
            used = _status_bytes(status, key) or 0
            out[f"the {what} limit {name} = {soft / 1e9:.3g} GB, {used / 1e9:.3g} GB of "
                "it in use"] = max(0, soft - used)
    out.update(_cgroup_limits(proc))
    available = _status_bytes(_read(os.path.join(proc, "meminfo")), "MemAvailable")
    if available is not None:
        out["the system's available memory, MemAvailable"] = available
    else:
        out["the physical memory"] = physical_memory()
    return out


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
    available memory). Beyond it numpy raises a MemoryError at best; at worst the allocation
    succeeds (overcommit) and the kernel kills the interpreter when the pages are touched, or
    a native library aborts it. The default ``fraction`` leaves room for temporaries when
    ``nbytes`` counts the main arrays only; a conservative estimate of the whole peak may
    pass ``fraction=1``.

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
    limits = memory_limits(proc=proc, getrlimit=getrlimit)
    binding = min(limits, key=limits.get)
    left = limits[binding]
    if nbytes > fraction * left:
        share = "" if fraction == 1 else (
            "half of " if fraction == 0.5 else f"{fraction:g} of ")
        raise ValueError(f"{what} would need about {nbytes / 1e9:.3g} GB, more than {share}"
                         f"the {left / 1e9:.3g} GB this process can still use (bound by "
                         f"{binding}).{hint}")
