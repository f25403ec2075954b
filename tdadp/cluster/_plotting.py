"""Plots of clusterings: the ToMATo prominence diagram, and an embedding coloured by cluster."""

from __future__ import annotations

import numpy as np
from scipy.stats import gaussian_kde

from ..latent._positions import LatentPositions, get_isolated
from ..utils._validation import as_real_array
from ._cut import kept_modes
from ._input import NOISE

__all__ = ["plot_prominence", "plot_embedding"]


def _pyplot():
    """matplotlib's pyplot, imported when a plot is drawn: it would add about 0.3 s to every
    ``import tdadp`` (and every CLI call) that draws nothing."""
    import matplotlib.pyplot as plt

    return plt


def plot_prominence(estimator_or_diagram, ax=None, *, merge_threshold=None, n_clusters=None,
                    band=None):
    """Plot a ToMATo prominence diagram and the merge threshold.

    Each mode is a point (birth, death): its peak density and the density where it merges
    into a higher mode. Its prominence is its vertical distance below the diagonal. The
    dashed line ``death = birth - tau`` separates the kept modes (below it, filled) from the
    merged ones (above it, hollow). Immortal modes (death ``-inf``) are drawn on a line below
    the plot, labelled ``-inf``.

    A cut by a number of clusters keeps exactly that many modes, the first in the diagram
    order (see :func:`~tdadp.cluster._cut.kept_modes`): with a fitted ToMATo, the first
    :attr:`~ToMATo.n_clusters_` rows of its diagram, the modes its labels were cut from. Two
    modes tied in prominence at the cut lie on the threshold line; only one is kept.

    Parameters
    ----------
    estimator_or_diagram : fitted ToMATo or array-like of shape (n_modes, 2)
        A fitted :class:`ToMATo` (its :attr:`~ToMATo.diagram_`, :attr:`~ToMATo.n_clusters_`
        and :attr:`~ToMATo.merge_threshold_` are used), or a diagram of (birth, death) rows.
    ax : matplotlib Axes, optional
        Axes to draw on; default a new figure's.
    merge_threshold : float, optional
        Threshold to draw; default the estimator's ``merge_threshold_`` (none for a bare
        diagram unless ``n_clusters`` is given).
    n_clusters : int, optional
        Draw the cut that keeps this many modes instead (at least the immortal ones, at most
        every mode).
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
    count = None  # the number of modes the fit kept, when drawing its own cut
    if hasattr(estimator_or_diagram, "diagram_"):
        diagram = np.asarray(estimator_or_diagram.diagram_, dtype=float)
        if merge_threshold is None and n_clusters is None:
            merge_threshold = float(estimator_or_diagram.merge_threshold_)
            count = int(estimator_or_diagram.n_clusters_)
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
    if count is not None:
        # The fit's own cut: its diagram is in diagram order, so the kept modes are its first
        # rows. Comparing prominences with the threshold would also keep a mode tied with
        # the last kept one (the threshold is the tied prominence then).
        kept = np.arange(prom.size) < count
    elif n_clusters is not None:
        # As a fit cuts: every immortal mode stays, and a tie goes by diagram order.
        c = int(np.clip(n_clusters, max(1, int(immortal.sum())), prom.size))
        kept = kept_modes(birth, death, c)
        upper = prom[kept].min()
        lower = prom[~kept].max() if c < prom.size else 0.0
        merge_threshold = (lower + upper) / 2 if np.isfinite(upper) else lower + 1.0
    elif merge_threshold is not None:
        kept = prom >= merge_threshold  # a mode is merged iff its prominence is < tau
    else:
        kept = np.ones(prom.size, dtype=bool)
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(4.5, 4.5))

    finite = ~immortal
    lo = min(birth.min(), death[finite].min()) if finite.any() else birth.min()
    hi = birth.max()
    span = hi - lo if hi > lo else 1.0
    lo, hi = lo - 0.05 * span, hi + 0.05 * span
    floor = lo - 0.08 * span  # where immortal modes are drawn

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


# The legend's name and the colour of the points that belong to no cluster.
NOISE_NAME = "noise / isolated"
_NOISE_COLOUR = "0.6"
_DIAGONALS = ("hist", "kde")


def _table(X):
    """``X`` as a float array and the names of its columns (a DataFrame's, else None)."""
    columns = getattr(X, "columns", None)
    points = as_real_array(X, "the embedding")
    if points.ndim != 2 or points.shape[0] == 0 or points.shape[1] == 0:
        raise ValueError(f"the embedding must be a non-empty 2-D (n, d) array, got shape "
                         f"{points.shape}.")
    return points, None if columns is None else [str(c) for c in columns]


def _point_labels(X, labels, n):
    """One label a row: given (an array or a fitted clusterer), else what ``X`` carries."""
    if labels is None:
        labels = X.labels if isinstance(X, LatentPositions) else None
        isolated = get_isolated(X)
        if labels is None:
            labels = np.zeros(n, dtype=np.intp)
            if isolated is not None:  # the embedding's own mark of the isolated nodes
                labels[isolated] = NOISE
    labels = np.asarray(getattr(labels, "labels_", labels))
    if labels.shape != (n,):
        raise ValueError(f"labels must have one entry a row of the embedding ({n}), got "
                         f"shape {labels.shape}.")
    return labels


def _colours(groups, noise):
    """A colour for each group: the qualitative cycle for clusters, grey for the noise."""
    clusters = [g for g, is_noise in zip(groups, noise) if not is_noise]
    if len(clusters) <= 10:
        cmap, count = _pyplot().get_cmap("tab10"), 10
    elif len(clusters) <= 20:
        cmap, count = _pyplot().get_cmap("tab20"), 20
    else:
        cmap, count = _pyplot().get_cmap("turbo"), len(clusters)
    out, k = [], 0
    for is_noise in noise:
        if is_noise:
            out.append(_NOISE_COLOUR)
        else:
            out.append(cmap(k / max(count - 1, 1)) if count > 20 else cmap(k))
            k += 1
    return out


def _diagonal(ax, values, members, colours, limits, diag):
    """Per-group distribution of one dimension: histograms on shared bins, or KDE curves."""
    bins = np.histogram_bin_edges(values, bins=int(np.clip(np.sqrt(values.size), 10, 40)),
                                  range=limits)
    grid = np.linspace(*limits, 200)
    for rows, colour in zip(members, colours):
        v = values[rows]
        if diag == "hist":
            ax.hist(v, bins=bins, histtype="stepfilled", alpha=0.4, color=colour)
        elif v.size > 1 and np.ptp(v) > 0:  # a KDE needs spread (one point has none)
            ax.plot(grid, gaussian_kde(v)(grid) * v.size, color=colour)
    ax.set_yticks([])


def plot_embedding(X, labels=None, *, n_dims=None, figure=None, diag="hist", names=None,
                   label_names=None, legend_title="cluster", title=None, height=2.0,
                   size=10, alpha=0.7):
    """Pairplot of the first dimensions of an embedding, its points coloured by cluster.

    Panel (i, j) off the diagonal plots dimension j (x) against dimension i (y); diagonal
    panel i shows the distribution of dimension i in each group (histograms on shared bins,
    or kernel density estimates scaled by the group's size). The legend names each group by
    its label; the label -1 (noise, or a node isolated in the embedded graph) is drawn in
    grey and named ``"noise / isolated"``.

    Parameters
    ----------
    X : LatentPositions, ndarray or DataFrame of shape (n_nodes, d)
        The embedding. A DataFrame's column names name the dimensions.
    labels : array-like of shape (n_nodes,), fitted clusterer, or None
        Group of each point (its ``labels_`` for a clusterer). None: the ground-truth
        ``labels`` of a :class:`~tdadp.LatentPositions`, else one group, with the isolated
        nodes the embedding marked (:func:`~tdadp.latent.get_isolated`) as -1.
    n_dims : int, optional
        Number of leading dimensions plotted; default ``min(d, 4)``.
    figure : matplotlib Figure, optional
        An empty figure to draw on; default a new one.
    diag : {"hist", "kde"}, default="hist"
        What the diagonal panels show.
    names : sequence of str, optional
        Names of the plotted dimensions; default the DataFrame's columns, else
        ``"dimension 1"``, ``"dimension 2"``, ...
    label_names : mapping, optional
        Legend name of some label values (default: the value itself).
    legend_title : str, default="cluster"
    title : str, optional
        Title of the figure.
    height : float, default=2.0
        Height (and width) of each panel, in inches.
    size, alpha : float
        Marker size and opacity of the points.

    Returns
    -------
    figure : matplotlib Figure
        ``n_dims`` x ``n_dims`` panels (their axes in ``figure.axes``, row by row) and a
        figure legend.

    See Also
    --------
    tdadp.AdjacencySpectralEmbedding : makes the embedding (and marks isolated nodes).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from tdadp import sbm
    >>> from tdadp.cluster import plot_embedding
    >>> X = sbm([50, 50], [[0.5, 0.1], [0.1, 0.5]], random_state=0)  # carries its labels
    >>> fig = plot_embedding(X, label_names={0: "block A", 1: "block B"})
    >>> len(fig.axes), [t.get_text() for t in fig.legends[0].get_texts()]
    (4, ['block A', 'block B'])
    >>> fig.axes[2].get_xlabel(), fig.axes[2].get_ylabel()
    ('dimension 1', 'dimension 2')
    """
    points, columns = _table(X)
    n, d = points.shape
    if n_dims is None:
        n_dims = min(d, 4)
    if isinstance(n_dims, bool) or not isinstance(n_dims, (int, np.integer)) or not (
            1 <= n_dims <= d):
        raise ValueError(f"n_dims must be an int in [1, {d}] (the embedding's dimensions), "
                         f"got {n_dims!r}.")
    if diag not in _DIAGONALS:
        raise ValueError(f"diag must be one of {_DIAGONALS}, got {diag!r}.")
    m = int(n_dims)
    if names is None:
        names = columns[:m] if columns is not None else [f"dimension {i + 1}" for i in range(m)]
    names = [str(x) for x in names]
    if len(names) < m:
        raise ValueError(f"names must name the {m} plotted dimensions, got {len(names)}.")
    labels = _point_labels(X, labels, n)
    groups = np.unique(labels)
    noise = [labels.dtype.kind in "iuf" and g == NOISE for g in groups]
    # Clusters in label order, the noise last in the legend and drawn first (underneath).
    order = [i for i in range(groups.size) if not noise[i]] + [i for i in range(groups.size)
                                                                if noise[i]]
    groups, noise = groups[order], [noise[i] for i in order]
    members = [labels == g for g in groups]
    colours = _colours(groups, noise)
    named = dict(label_names or {})
    legend = [named.get(g.item(), NOISE_NAME if is_noise else str(g.item()))
              for g, is_noise in zip(groups, noise)]

    fig = _pyplot().figure(figsize=(height * m + 1.6, height * m)) if figure is None else figure
    if fig.axes:
        raise ValueError("figure must be empty: plot_embedding lays out its own panels.")
    axes = fig.subplots(m, m, squeeze=False)
    lows, highs = points[:, :m].min(axis=0), points[:, :m].max(axis=0)
    # A dimension of (nearly) one value gets a unit-wide window: its range is rounding.
    span = highs - lows
    span = np.where(span > 1e-9 * np.maximum(1.0, np.maximum(abs(lows), abs(highs))), span, 1.0)
    pad = 0.05 * span
    limits = list(zip(lows - pad, highs + pad))
    draw = sorted(range(len(groups)), key=lambda g: not noise[g])  # noise underneath
    for i in range(m):
        for j in range(m):
            ax = axes[i, j]
            if i == j:
                _diagonal(ax, points[:, i], [members[g] for g in draw],
                          [colours[g] for g in draw], limits[i], diag)
            else:
                for g in draw:
                    ax.scatter(points[members[g], j], points[members[g], i], s=size,
                               color=colours[g], alpha=alpha, linewidths=0)
                ax.set_ylim(limits[i])
            ax.set_xlim(limits[j])
            if i == m - 1:
                ax.set_xlabel(names[j])
            else:
                ax.tick_params(labelbottom=False)
            if j == 0:
                ax.set_ylabel(names[i])
            elif i != j:
                ax.tick_params(labelleft=False)
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], ls="", marker="o", color=c, alpha=alpha) for c in colours]
    fig.legend(handles, legend, title=legend_title, loc="center right", frameon=False)
    if title is not None:
        fig.suptitle(title)
    fig.subplots_adjust(right=1 - 1.5 / (height * m + 1.6), wspace=0.08, hspace=0.08)
    return fig
