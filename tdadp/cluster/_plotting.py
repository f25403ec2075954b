"""Plot of the ToMATo prominence diagram."""

from __future__ import annotations

import numpy as np

__all__ = ["plot_prominence"]


def plot_prominence(estimator_or_diagram, ax=None, *, merge_threshold=None, n_clusters=None,
                    band=None):
    """Plot a ToMATo prominence diagram and the merge threshold.

    Each mode is a point (birth, death): its peak density and the density where it merges
    into a higher mode. Its prominence is its vertical distance below the diagonal. The
    dashed line ``death = birth - tau`` separates the kept modes (below it, filled) from the
    merged ones (above it, hollow). Immortal modes (death ``-inf``) are drawn on a line below
    the plot, labelled ``-inf``.

    Parameters
    ----------
    estimator_or_diagram : fitted ToMATo or array-like of shape (n_modes, 2)
        A fitted :class:`ToMATo` (its :attr:`diagram_` and :attr:`merge_threshold_` are used),
        or a diagram of (birth, death) rows.
    ax : matplotlib Axes, optional
        Axes to draw on; default a new figure's.
    merge_threshold : float, optional
        Threshold to draw; default the estimator's ``merge_threshold_`` (none for a bare
        diagram unless ``n_clusters`` is given).
    n_clusters : int, optional
        Draw the threshold that keeps this many modes instead.
    band : float, optional
        Bootstrap radius ``c`` of the diagram: the strip of prominence below ``2 c`` (modes not
        significantly distinct from noise) is shaded. Default: the estimator's
        ``confidence_band_`` when it has one.

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from tdadp.cluster import ToMATo, plot_prominence
    >>> rng = np.random.default_rng(0)
    >>> X = np.concatenate([rng.normal(0, 0.3, (200, 2)), rng.normal(2, 0.3, (200, 2))])
    >>> ax = plot_prominence(ToMATo().fit(X))
    """
    import matplotlib.pyplot as plt

    if hasattr(estimator_or_diagram, "diagram_"):
        diagram = np.asarray(estimator_or_diagram.diagram_, dtype=float)
        if merge_threshold is None and n_clusters is None:
            merge_threshold = float(estimator_or_diagram.merge_threshold_)
        if band is None:
            band = getattr(estimator_or_diagram, "confidence_band_", None)
    elif hasattr(estimator_or_diagram, "fit") and hasattr(estimator_or_diagram, "get_params"):
        raise ValueError("the ToMATo estimator is not fitted: call fit first.")
    else:
        diagram = np.asarray(estimator_or_diagram, dtype=float)
    if diagram.ndim != 2 or diagram.shape[1] != 2:
        raise ValueError(f"a prominence diagram has shape (n_modes, 2), got {diagram.shape}.")
    if diagram.shape[0] == 0:
        raise ValueError("the prominence diagram is empty.")
    birth, death = diagram[:, 0], diagram[:, 1]
    if np.isnan(diagram).any() or not np.isfinite(birth).all() or np.isposinf(death).any():
        raise ValueError("births must be finite and deaths finite or -inf (no NaN).")
    if np.any(death > birth):
        raise ValueError("a mode cannot die above its birth (death > birth in the diagram).")
    if merge_threshold is not None and n_clusters is not None:
        raise ValueError("give merge_threshold or n_clusters, not both.")
    immortal = np.isneginf(death)
    prom = np.where(immortal, np.inf, birth - np.where(immortal, 0.0, death))
    if n_clusters is not None:
        ranked = np.sort(prom)[::-1]
        c = int(np.clip(n_clusters, 1, ranked.size))
        upper = ranked[c - 1]
        lower = ranked[c] if c < ranked.size else 0.0
        merge_threshold = (lower + upper) / 2 if np.isfinite(upper) else lower + 1.0
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 4.5))

    finite = ~immortal
    lo = min(birth.min(), death[finite].min()) if finite.any() else birth.min()
    hi = birth.max()
    span = hi - lo if hi > lo else 1.0
    lo, hi = lo - 0.05 * span, hi + 0.05 * span
    floor = lo - 0.08 * span  # where immortal modes are drawn
    kept = prom >= merge_threshold if merge_threshold is not None else np.ones_like(finite)

    ax.plot([lo, hi], [lo, hi], color="0.4", lw=1)
    if band is not None:
        if not (np.isfinite(band) and band >= 0):
            raise ValueError(f"band must be a finite number >= 0, got {band!r}.")
        ax.fill_between([lo, hi], [lo, hi], [lo - 2 * band, hi - 2 * band], color="0.85",
                        lw=0, zorder=1, label=f"not significant (prominence < {2 * band:.3g})")
    ax.axhline(floor + 0.04 * span, color="0.7", lw=0.8, ls=":")
    y = np.where(immortal, floor, death)
    ax.scatter(birth[kept], y[kept], s=22, color="C3", zorder=3,
               label=f"kept ({int(kept.sum())})")
    if (~kept).any():
        ax.scatter(birth[~kept], y[~kept], s=18, facecolors="none", edgecolors="C0", zorder=3,
                   label=f"merged ({int((~kept).sum())})")
    if merge_threshold is not None and np.isfinite(merge_threshold):
        ax.plot([lo, hi], [lo - merge_threshold, hi - merge_threshold], color="C2", ls="--",
                lw=1.2, label=f"threshold {merge_threshold:.3g}")
    ax.set_xlim(lo, hi)
    ax.set_ylim(floor - 0.04 * span, hi)
    ticks = [t for t in ax.get_yticks() if floor + 0.04 * span < t <= hi]
    ax.set_yticks([floor] + ticks)
    ax.set_yticklabels(["-inf"] + [f"{t:.3g}" for t in ticks])
    ax.set_xlabel("birth (peak density)")
    ax.set_ylabel("death (merge density)")
    ax.set_title("ToMATo prominence diagram")
    ax.legend(loc="upper left", fontsize="small", frameon=False)
    return ax
