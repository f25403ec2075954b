"""What a randomized-response release will be, decided from public quantities only.

A release path shows more than its released edges if anything it decides depends on the
private graph: the kind of its output, a refusal, a message. Neighbouring graphs (one edge
apart) must then get the same decisions, so every decision here is a function of what is
public: the number of nodes ``n`` (the node set comes from outside the edges), the flip
rate, the container the caller chose (dense, sparse or packed), the caller's public bound
on the number of edges ``max_edges``, and the machine's memory. It is made before the
accountant is charged and before the first coin, so a refusal never costs budget.

What a private quantity would have decided before, and what decides now:

- the memory a sparse release needs grows with the input's edges: it is estimated for the
  largest input the caller allows (``max_edges``, by default every dyad), not the actual
  one;
- ``output="auto"`` picks the input's kind or a packed graph from that same estimate;
- an input with more than ``max_edges`` edges is outside the domain the caller declared: it
  is refused like any other invalid input, before the charge (the refusal says only that
  the bound is exceeded; choose the bound from public knowledge, as it tells that much).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..graphs._dyads import gap_parameters, n_dyads
from ..graphs._packed import PackedAdjacency, n_words
from ..utils._memory import memory_limits, recheck_available

__all__ = ["ReleasePlan", "plan_releases", "check_edge_bound", "input_kind",
           "SPARSE_BYTES_PER_EDGE"]

#: Peak bytes of a sparse release per input edge and per flipped dyad: the sorted int64
#: dyad keys of both, their symmetric difference, the endpoint pairs and the CSR of both
#: triangles (measured with tracemalloc: 92-101 bytes at n = 20,000).
SPARSE_BYTES_PER_EDGE = 104
# Bytes per edge a finished sparse release keeps (CSR of both triangles: int32 indices and
# uint8 data, twice).
_KEPT_BYTES_PER_EDGE = 10
# Share of the memory left that an "auto" release may take before it becomes packed; an
# explicit kind may take all of what is left after a margin for the interpreter's own use.
_AUTO_SHARE = 0.5
_EXPLICIT_SHARE = 0.9


def input_kind(A):
    """The container kind of a validated graph: "dense", "sparse" or "packed"."""
    if isinstance(A, PackedAdjacency):
        return "packed"
    return "sparse" if sp.issparse(A) else "dense"


# Cached: gap_parameters finds an exact rational scale (Fractions), which cost as much as
# the rest of a small graph's plan; a process plans again and again for the same few
# (n, rate) (an audit: thousands of releases of one graph).
@functools.lru_cache(maxsize=256)
def _flips_bound(n, rate):
    """A bound on the number of flipped dyads that is exceeded with negligible probability
    (the mean plus eight standard deviations)."""
    N = n_dyads(n)
    if rate <= 0:
        return 0.0
    if rate < 0.5:
        rate = gap_parameters(rate)[2]
    return min(float(N), rate * N + 8.0 * math.sqrt(rate * N) + 64.0)


def _packed_bytes(n):
    # What PackedAdjacency(n) allocates and checks: its layout and its words.
    return 16.0 * (n + 1) + 8.0 * n_words(n)


def _bytes(kind_in, kind_out, n, rate, edges):
    """(peak, kept, steps) of one release, for an input of at most ``edges`` edges.

    ``steps`` are the checks the containers make on the way, as (bytes, bytes already
    allocated): each must pass here, or it would refuse after the charge.
    """
    dense = float(n) * n
    packed = _packed_bytes(n)
    released = min(float(n_dyads(n)), edges + _flips_bound(n, rate))
    kept_sparse = _KEPT_BYTES_PER_EDGE * released + 8.0 * n
    if kind_out == "packed":
        return packed, packed, [(packed, 0.0)]
    if kind_in == "packed":
        if kind_out == "dense":
            return packed + dense, dense, [(packed, 0.0), (dense, packed)]
        # the packed release, then its CSR copy (5 bytes a stored entry, two an edge)
        return (packed + SPARSE_BYTES_PER_EDGE * released, kept_sparse,
                [(packed, 0.0), (kept_sparse, packed)])
    if kind_out == "dense":
        extra = 0.0 if kind_in == "dense" else dense  # the input's dense copy
        return extra + dense, dense, []
    if kind_in == "dense":  # the CSR copy of the input, then the sparse release
        return (_KEPT_BYTES_PER_EDGE * edges + SPARSE_BYTES_PER_EDGE * (edges + released),
                kept_sparse, [])
    return SPARSE_BYTES_PER_EDGE * (edges + _flips_bound(n, rate)), kept_sparse, []


def _fits(peak, steps, share, left):
    # Each container checks half of what is left after what came before it.
    return peak <= share * left and all(b <= 0.5 * (left - before) for b, before in steps)


@dataclass(frozen=True)
class ReleasePlan:
    """The decisions of one graph's release: its output kind and the bytes it was allowed.

    Attributes
    ----------
    kind : {"dense", "sparse", "packed"}
    peak_bytes : float
        The estimated peak of the release, for the largest input allowed.
    """

    kind: str
    peak_bytes: float


def _need(what, peak, left, share, binding, hint):
    part = "" if share == 1 else ("half of " if share == 0.5 else f"{share:g} of ")
    return (f"{what} would need about {peak / 1e9:.3g} GB, more than {part}the "
            f"{left / 1e9:.3g} GB this process can still use (bound by {binding}).{hint}")


def plan_releases(graphs, rate, output, max_edges=None, *, mechanism="the release",
                  pandas=False, limits=None):
    """Plan the release of each graph of a batch from public quantities only.

    Parameters
    ----------
    graphs : list of (n, kind_in)
        The number of nodes and the container kind of each input (see :func:`input_kind`).
    rate : float
        The flip rate.
    output : {"auto", "dense", "sparse", "packed"}
    max_edges : int or None
        The caller's public bound on each input's number of edges; None: every dyad.
    mechanism : str
        The release's name, for messages.
    pandas : bool
        Whether each release is then turned into a DataFrame (dense for a packed release).
    limits : dict, optional
        :func:`~tdadp.utils.memory_limits` (read when not given).

    Returns
    -------
    list of ReleasePlan

    Raises
    ------
    ValueError
        When a release would not fit in memory, saying how much it needs and how to fit it;
        the message depends on the public quantities alone.
    """
    graphs = list(graphs)
    args = (graphs, rate, output, max_edges, mechanism, pandas)
    if limits is not None:
        return _plan_all(*args, limits)
    limits = memory_limits()
    try:
        return _plan_all(*args, limits)
    except ValueError:
        # A refusal that MemAvailable alone decides is checked again after a short wait (a
        # momentary low, see recheck_available); any other refusal is raised again at once.
        limits = recheck_available(limits, lambda lim: _fits_all(*args, lim))
    return _plan_all(*args, limits)


def _fits_all(*args):
    try:
        _plan_all(*args)
    except ValueError:
        return False
    return True


def _plan_all(graphs, rate, output, max_edges, mechanism, pandas, limits):
    binding = min(limits, key=limits.get)
    left = float(limits[binding])
    plans = []
    for k, (n, kind_in) in enumerate(graphs):
        edges = float(n_dyads(n) if max_edges is None else min(max_edges, n_dyads(n)))
        bound = ("every dyad an edge: pass max_edges, a public bound on the input's "
                 "edges, to plan for fewer" if max_edges is None
                 else f"at most {max_edges:,} input edges")
        kind = output
        if output == "auto":
            kind = kind_in
            if kind != "packed" and not _fits(*_bytes(kind_in, kind, n, rate, edges)[::2],
                                              _AUTO_SHARE, left):
                kind = "packed"
        peak, kept, steps = _bytes(kind_in, kind, n, rate, edges)
        if pandas and kind == "packed":  # the DataFrame's dense copy
            steps = steps + [(float(n) * n, kept)]
            peak, kept = peak + float(n) * n, kept + float(n) * n
        share = _AUTO_SHARE if output == "auto" else _EXPLICIT_SHARE
        if not _fits(peak, steps, share, left):
            what = (f"{mechanism} of graph {k}" if len(graphs) > 1 else mechanism) + \
                f" as a {kind} graph on {n:,} nodes" + (f" ({bound})" if kind == "sparse"
                                                        else "")
            hint = {
                "sparse": " Pass max_edges (a public bound on the input's edges), a larger "
                          "epsilon, or output=\"packed\" (one bit per dyad).",
                "dense": " Use output=\"packed\" (one bit per dyad).",
                "packed": " Release on a machine with more memory, or partition the work.",
            }[kind]
            if pandas and kind == "packed":
                hint = " Keep the default output (a packed graph) for a graph this large."
            raise ValueError(_need(what, peak, left, share, binding, hint))
        left -= kept
        plans.append(ReleasePlan(kind=kind, peak_bytes=peak))
    return plans


def check_edge_bound(A, max_edges, name):
    """Refuse an input with more than ``max_edges`` edges, without saying how many."""
    if max_edges is None:
        return
    if isinstance(A, PackedAdjacency):
        m = A.count_edges()
    else:
        m = A.nnz // 2 if sp.issparse(A) else int(np.count_nonzero(A)) // 2
    if m > max_edges:
        raise ValueError(f"{name} has more edges than max_edges={max_edges:,}, the public "
                         "bound the release was planned for: give a bound that holds for "
                         "every network you may release (it is part of what the caller "
                         "declares public, so choose it without looking at this one).")
