"""Cutting a ToMATo merge tree: how many modes to keep, and the threshold that says so.

A cut into ``c`` clusters keeps the first ``c`` modes of the diagram order (the modes that
never die, then decreasing prominence; ties in prominence go to the earlier death, then to
the higher peak: see :class:`~tdadp.cluster._hierarchy.MergeTree`). A cut is asked for by a
number of clusters, by a threshold tau (modes of prominence ``>= tau`` are kept), or left to
the largest gap in the prominences. The threshold reported for a count is the middle of the
gap between the last kept and the first merged prominence: on an exact tie that gap is 0
wide and the threshold equals the tied prominence, so the count, not the threshold, says
which modes were kept (:func:`kept_modes`).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..utils._params import Interval, check_param

__all__ = ["CUT_RULES", "check_cut", "immortal_reference", "gap_cut", "threshold_for",
           "resolve_cut", "kept_modes"]

CUT_RULES = {
    "n_clusters": [None, "positive_int"],
    "merge_threshold": [None, Interval("real", 0, math.inf, "both")],
}


def check_cut(n_clusters, merge_threshold, owner=None):
    """Check a requested cut: at most one of ``n_clusters`` and ``merge_threshold``."""
    check_param(n_clusters, CUT_RULES["n_clusters"], "n_clusters", owner)
    check_param(merge_threshold, CUT_RULES["merge_threshold"], "merge_threshold", owner)
    if n_clusters is not None and merge_threshold is not None:
        raise ValueError("give n_clusters or merge_threshold, not both.")


def immortal_reference(tree):
    """Prominence standing for the immortal modes in the gap rule.

    The lowest of their peaks minus the lower of (a) the lowest death of a mortal mode, i.e.
    the level of the last merge, and (b) the 10% quantile of the density; and at least the
    largest finite prominence. (a) is what their prominence would be if the filtration stopped
    once every mortal mode has merged: unlike the lowest density value, it is not inflated by
    a few far outliers, whose log-density is very low. (b) keeps it from collapsing when the
    real clusters sit in different connected components and only noise modes merge, near the
    peaks.
    """
    p = tree.prominences
    lowest_peak = float(np.min(tree.births[: tree.n_components]))
    floor = tree.low_density
    if p.size:
        floor = min(floor, float(np.min(tree.deaths[tree.n_components:])))
    ref = lowest_peak - floor
    return max(ref, float(p[0])) if p.size else ref


def gap_cut(tree):
    """Number of clusters and threshold from the largest gap in the sorted prominences.

    The sequence is ``s_0 >= s_1 >= ... >= s_m >= s_{m+1} = 0`` where ``s_1..s_m`` are the
    finite prominences in decreasing order and ``s_0`` stands for the immortal modes (see
    :func:`immortal_reference`). The cut goes through the largest gap ``s_j - s_{j+1}`` (the
    first one, i.e. fewer clusters, on ties): the modes above it are kept.
    """
    p = tree.prominences
    s = np.concatenate([[immortal_reference(tree)], p, [0.0]])
    gaps = s[:-1] - s[1:]
    j = int(np.argmax(gaps))
    return tree.n_components + j, float((s[j] + s[j + 1]) / 2)


def threshold_for(tree, n_clusters):
    """A merge threshold that keeps exactly the first ``n_clusters`` modes (up to ties)."""
    p = tree.prominences
    j = n_clusters - tree.n_components
    if j >= p.size:
        return 0.0
    upper = immortal_reference(tree) if j == 0 else float(p[j - 1])
    return float((upper + p[j]) / 2)


def resolve_cut(tree, n_clusters=None, merge_threshold=None):
    """(n_clusters, merge_threshold) actually used for a requested cut."""
    L, c0 = tree.n_modes, tree.n_components
    if n_clusters is not None:
        c = int(n_clusters)
        if c < c0:
            warnings.warn(
                f"n_clusters={c} is fewer than the {c0} connected components of the "
                f"neighbourhood graph, which ToMATo cannot merge; using {c0} clusters. Increase "
                "k (or the radius) to connect the graph.",
                UserWarning, stacklevel=3,
            )
            c = c0
        elif c > L:
            warnings.warn(
                f"n_clusters={c} exceeds the {L} modes of the density; using {L} clusters.",
                UserWarning, stacklevel=3,
            )
            c = L
        return c, threshold_for(tree, c)
    if merge_threshold is not None:
        tau = float(merge_threshold)
        # A mode is merged iff its prominence is < tau.
        return c0 + int(np.count_nonzero(tree.prominences >= tau)), tau
    return gap_cut(tree)


def kept_modes(births, deaths, n_clusters):
    """Mask of the ``n_clusters`` modes a cut into that many clusters keeps.

    The modes are ranked in the diagram order of the merge tree: immortal ones (death
    ``-inf``) first by decreasing peak, then by decreasing prominence, on ties the higher
    death (the earlier merge) first, then the higher peak; rows tied on all three keep their
    order. A ToMATo :attr:`~tdadp.cluster.ToMATo.diagram_` is in that order already, so the
    mask keeps its first ``n_clusters`` rows, exactly the modes its labels were cut from.

    Parameters
    ----------
    births, deaths : ndarray of shape (n_modes,)
    n_clusters : int

    Returns
    -------
    ndarray of bool of shape (n_modes,)

    Examples
    --------
    >>> import numpy as np
    >>> births = np.array([3.0, 2.0, 2.5, 2.25])
    >>> deaths = np.array([-np.inf, 1.0, 1.5, 1.25])  # prominences inf, 1, 1, 1
    >>> kept_modes(births, deaths, 3).tolist()  # the tie goes to the earlier merges
    [True, False, True, True]
    """
    immortal = np.isneginf(deaths)
    prom = np.where(immortal, np.inf, births - np.where(immortal, 0.0, deaths))
    # np.lexsort sorts by its last key first; a stable sort keeps tied rows in their order.
    order = np.lexsort((-births, -deaths, -prom))
    kept = np.zeros(births.shape[0], dtype=bool)
    kept[order[: int(n_clusters)]] = True
    return kept
