"""Plots of persistence diagrams and of matchings between two diagrams."""

from __future__ import annotations

import numpy as np

from ._bottleneck import bottleneck_distance
from ._diagram import as_diagram

__all__ = ["plot_diagram", "plot_matching"]


def _frame(arrays):
    """Finite range of the points, and the positions of the +inf and -inf lines."""
    vals = np.concatenate([a[np.isfinite(a)] for a in arrays] + [np.zeros(0)])
    if vals.size == 0:
        lo, hi = 0.0, 1.0
    else:
        lo, hi = float(vals.min()), float(vals.max())
    pad = 0.05 * (hi - lo) if hi > lo else 0.5
    return lo - pad, hi + pad, hi + 2.5 * pad, lo - 2.5 * pad


def _place(arr, top, left):
    out = np.array(arr, dtype=float)
    out[np.isposinf(out)] = top
    out[np.isneginf(out)] = left
    return out


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5, 5))
    return ax


def _decorate(ax, lo, hi, top, left, has_top, has_left):
    lo_all = left if has_left else lo
    ax.plot([lo_all, top], [lo_all, top], color="0.4", lw=1, zorder=0)
    if has_top:
        ax.axhline(top, color="0.4", ls="--", lw=0.8)
        ax.annotate(r"$+\infty$", (lo_all, top), va="bottom", fontsize=9)
    if has_left:
        ax.axvline(left, color="0.4", ls="--", lw=0.8)
        ax.annotate(r"$-\infty$", (left, lo), ha="left", va="bottom", fontsize=9)
    ax.set_xlabel("birth")
    ax.set_ylabel("death")
    margin = 0.5 * (top - hi) if has_top else 0.0
    ax.set_xlim(lo_all - 0.02 * (top - lo_all), top if has_top else hi)
    ax.set_ylim(lo_all - 0.02 * (top - lo_all), (top + margin) if has_top else hi)


def plot_diagram(D, ax=None, homology_dimensions=None, style="matplotlib", title=None,
                 legend=True, size=20, **scatter_kwargs):
    """Scatter plot of a persistence diagram, one colour per homology dimension.

    Points with infinite death are drawn on a dashed line labelled +inf above the others;
    points with birth -inf (log-scale H0) on a dashed line labelled -inf on the left.

    Parameters
    ----------
    D : PersistenceDiagram, its DataFrame form or (k, 2) array_like
    ax : matplotlib Axes, optional
        Drawn into a new figure by default.
    homology_dimensions : sequence of int, optional
        Dimensions drawn (default: all).
    style : {"matplotlib", "persim"}, default="matplotlib"
        ``"persim"`` delegates to :func:`persim.plot_diagrams` (its look; -inf births are
        placed on the left edge first, since persim does not know them).
    title : str, optional
    legend : bool, default=True
    size : float, default=20
        Marker size.
    **scatter_kwargs
        Passed to ``ax.scatter`` (matplotlib style).

    Returns
    -------
    matplotlib.axes.Axes
    """
    if style not in ("matplotlib", "persim"):
        raise ValueError(f"style must be 'matplotlib' or 'persim', got {style!r}.")
    D = as_diagram(D)
    dims = D.homology_dimensions if homology_dimensions is None else tuple(
        [homology_dimensions] if np.isscalar(homology_dimensions) else homology_dimensions)
    arrays = [D.get(k) for k in dims]
    lo, hi, top, left = _frame(arrays)
    ax = _axes(ax)
    if style == "persim":
        import persim

        placed = [np.where(np.isneginf(a), left, a) for a in arrays]
        persim.plot_diagrams(placed, labels=[f"$H_{k}$" for k in dims], ax=ax, size=size,
                             legend=legend, title=title, show=False)
        return ax
    has_top = any(np.isposinf(a).any() for a in arrays)
    has_left = any(np.isneginf(a).any() for a in arrays)
    for k, a in zip(dims, arrays):
        p = _place(a, top, left)
        ax.scatter(p[:, 0], p[:, 1], s=size, label=f"$H_{k}$", **scatter_kwargs)
    _decorate(ax, lo, hi, top, left, has_top, has_left)
    if legend and dims:
        ax.legend(loc="lower right")
    if title is not None:
        ax.set_title(title)
    return ax


def plot_matching(D1, D2, matching=None, homology_dimension=None, shift=0.0, ax=None,
                  labels=("D1", "D2"), title=None, size=20):
    """Two diagrams of one dimension with an optimal bottleneck matching between them.

    Matched pairs are joined by segments; points matched to the diagonal by a segment to
    their nearest diagonal point (in L_inf). The bottleneck edge is drawn in red.

    Parameters
    ----------
    D1, D2 : PersistenceDiagram, its DataFrame form or (k, 2) array_like
    matching : (m, 2) int array, optional
        Row-index pairs, -1 for the diagonal, as returned by
        ``bottleneck_distance(..., matching=True)``; computed when omitted.
    homology_dimension : int, optional
        Required when the diagrams have several dimensions.
    shift : float, default=0
        Draw ``D1.shift(shift)`` (e.g. the shift of :func:`shift_invariant_bottleneck`).
    ax : matplotlib Axes, optional
    labels : pair of str
    title : str, optional
    size : float

    Returns
    -------
    matplotlib.axes.Axes
    """
    D1, D2 = as_diagram(D1), as_diagram(D2)
    if homology_dimension is None:
        dims = sorted(set(D1.homology_dimensions) | set(D2.homology_dimensions))
        if len(dims) != 1:
            raise ValueError(f"the diagrams have dimensions {dims}: pass homology_dimension.")
        homology_dimension = dims[0]
    A = D1.get(homology_dimension) + float(shift)
    B = D2.get(homology_dimension)
    if matching is None:
        value, matching = bottleneck_distance(A, B, matching=True)
    else:
        value = None
    lo, hi, top, left = _frame([A, B])
    Ap, Bp = _place(A, top, left), _place(B, top, left)
    ax = _axes(ax)
    segs, costs = [], []
    for i, j in ([] if matching is None else np.asarray(matching)):
        if i >= 0 and j >= 0:
            p, q = Ap[i], Bp[j]
            finite = np.isfinite(A[i]).all() and np.isfinite(B[j]).all()
            costs.append(np.max(np.abs(A[i] - B[j])) if finite else 0.0)
        else:
            p = Ap[i] if i >= 0 else Bp[j]
            mid = p.mean()
            q = np.array([mid, mid])
            costs.append((p[1] - p[0]) / 2)
        segs.append((p, q))
    worst = int(np.argmax(costs)) if costs else -1
    for idx, (p, q) in enumerate(segs):
        ax.plot([p[0], q[0]], [p[1], q[1]], color="crimson" if idx == worst else "0.55",
                lw=1.5 if idx == worst else 0.8, zorder=1)
    ax.scatter(Ap[:, 0], Ap[:, 1], s=size, label=labels[0], zorder=2)
    ax.scatter(Bp[:, 0], Bp[:, 1], s=size, marker="x", label=labels[1], zorder=2)
    _decorate(ax, lo, hi, top, left, bool(np.isposinf(np.r_[A, B]).any()),
              bool(np.isneginf(np.r_[A, B]).any()))
    ax.legend(loc="lower right")
    if title is None and value is not None:
        title = f"$H_{homology_dimension}$ bottleneck matching, $W_\\infty$ = {value:.4g}"
    if title:
        ax.set_title(title)
    return ax
