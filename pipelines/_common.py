"""Helpers shared by the experiment definitions: validation, grouping, figures."""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from pathlib import Path

import numpy as np
from matplotlib.ticker import NullFormatter

from tdadp.experiments import ConfigError, Values
from tdadp.utils import Interval, Options

# --- declared config rules (checked by tdadp.experiments.check_config before any work) -----
# Every pipeline declares RULES = {key: rule} for each key of its CONFIG. Sizes stop far
# beyond what memory allows (checked next, with the memory each task needs), so that the
# estimates below never overflow.
MAX_NODES = 10**6
MAX_REPLICATES = 100_000
SEED = [Interval("int", 0, 2**63 - 1, "both")]
REPLICATES = [Interval("int", 1, MAX_REPLICATES, "both")]


def count(low, high):
    """An int in [low, high]."""
    return [Interval("int", low, high, "both")]


def nodes(low):
    """A number of nodes: an int from ``low``."""
    return count(low, MAX_NODES)


def sizes(low, **kw):
    """A list of numbers of nodes."""
    return Values(Interval("int", low, MAX_NODES, "both"), **kw)


def real(low, high, closed="neither"):
    return [Interval("real", low, high, closed)]


def epsilons(zero=False, infinite=False):
    """A list of privacy budgets: positive (or from 0), finite (or up to inf)."""
    closed = {(False, False): "neither", (True, False): "left", (False, True): "right",
              (True, True): "both"}[zero, infinite]
    return Values(Interval("real", 0, math.inf, closed))


def choices(options):
    """A list of distinct entries of ``options``."""
    return Values(Options(*options), max_len=len(options))


def dense_seconds(n_nodes, fixed, per_dyad):
    """Seconds of one task on a dense graph of ``n_nodes`` nodes: ``fixed + per_dyad n^2``."""
    return fixed + per_dyad * float(n_nodes) ** 2


def check_epsilons(name, values, allow_inf=True, positive=False):
    for eps in values:
        if not (eps >= 0) or (not allow_inf and np.isinf(eps)):
            raise ConfigError(f"{name}: epsilons must be >= 0{'' if allow_inf else ' and finite'}"
                              f", got {eps!r}")
        if positive and eps == 0:
            raise ConfigError(f"{name}: epsilons must be > 0 (eps = 0 leaves no signal for the "
                              "privacy-adjusted embedding)")


def check_min(name, key, value, minimum):
    values = value if isinstance(value, (list, tuple)) else [value]
    for v in values:
        if v < minimum:
            raise ConfigError(f"{name}: {key} must be at least {minimum}, got {v}")


def check_components(name, n_components, n_nodes):
    """An embedding of ``n_nodes`` nodes has fewer than ``n_nodes`` dimensions."""
    smallest = min(n_nodes) if isinstance(n_nodes, (list, tuple)) else n_nodes
    if n_components >= smallest:
        raise ConfigError(f"{name}: n_components = {n_components} must be below the number of "
                          f"nodes ({smallest})")


# Measured peak of one task, minus the interpreter's baseline: 7.3 to 8.7 bytes per n^2 at
# n = 6,000 for every experiment (the dense graph, its release and the embedding's float
# work); 10 bytes per n^2 leaves a margin.
_BYTES_PER_DYAD_SQUARED = 10.0
_BASELINE = 300e6


def dense_task_memory(n_nodes):
    """Peak bytes of one task on a dense graph of ``n_nodes`` nodes (measured, see above)."""
    return _BASELINE + _BYTES_PER_DYAD_SQUARED * float(n_nodes) ** 2


def check_choices(name, key, values, known):
    """Every entry of ``values`` (the list under ``key``) must be one of ``known``."""
    for value in values:
        if value not in known:
            raise ConfigError(f"{name}: unknown {key[:-1]} {value!r} in {key} (known: "
                              f"{', '.join(known)})")


def band(rows, x, y, by=()):
    """{group: (xs, median, (low, high), count)} over replicates, x sorted; low and high are
    the 10% and 90% quantiles, which stay within the metric's range (a mean plus or minus a
    standard deviation does not: an ARI near 1 would get a band above 1, a distance near 0
    one below 0)."""
    groups = defaultdict(list)
    for row in rows:
        groups[tuple(row[b] for b in by)].append(row)
    out = {}
    for key, sub in groups.items():
        xs, median, low, high, count = _quantiles(sub, x, y, 0.1, 0.9)
        if xs:
            out[key] = (np.array(xs), median, (low, high), count)
    return out


def plot_band(ax, xs, median, quantiles, label, **kw):
    """The median line and the band between the quantiles ``(low, high)`` of :func:`band`."""
    kw = {"marker": "o", "ms": 3, **kw}
    line, = ax.plot(xs, median, label=label, **kw)
    ax.fill_between(xs, quantiles[0], quantiles[1], color=line.get_color(), alpha=0.2, lw=0)
    return line


def save(fig, out_dir, stem, formats):
    paths = []
    for fmt in formats:
        path = Path(out_dir) / f"{stem}.{fmt}"
        fig.savefig(path, dpi=130, bbox_inches="tight")
        paths.append(path)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return paths


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def quantile_band(rows, x, y, low=0.1, high=0.9):
    """(xs, median, low quantile, high quantile) of ``y`` over the rows at each ``x``.

    Quantiles of the values themselves stay within the metric's range, which a mean plus or
    minus a standard deviation does not (an ARI near 1 would get a band above 1).
    """
    return _quantiles(rows, x, y, low, high)[:4]


def _quantiles(rows, x, y, low, high):
    """(xs, median, low quantile, high quantile, count) of ``y`` at each ``x`` (missing and
    NaN values skipped)."""
    groups = defaultdict(list)
    for row in rows:
        value = row.get(y)
        if value is None or (isinstance(value, float) and np.isnan(value)):
            continue
        groups[row[x]].append(float(value))
    xs = sorted(groups)
    vals = [np.array(groups[v]) for v in xs]
    return (xs, np.array([np.median(v) for v in vals]),
            np.array([np.quantile(v, low) for v in vals]),
            np.array([np.quantile(v, high) for v in vals]),
            np.array([v.size for v in vals]))


def check_range(name, key, value, low, high, why):
    """``low < value < high`` (open interval), else a ConfigError saying ``why``."""
    if not low < value < high:
        raise ConfigError(f"{name}: {key} must be in ({low:g}, {high:g}) ({why}), got "
                          f"{value!r}")


def fitted_slope(rows, x, y):
    """Least-squares slope of log median(y) against log x (nan with fewer than two x values
    or a non-positive median)."""
    xs, med, _, _ = quantile_band(rows, x, y)
    if len(xs) < 2 or np.any(med <= 0):
        return float("nan")
    return float(np.polyfit(np.log(xs), np.log(med), 1)[0])


def write_slopes(entries, out_dir, stem):
    """The fitted slopes beside the figure, as ``<stem>_slopes.csv``."""
    path = Path(out_dir) / f"{stem}_slopes.csv"
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(entries[0]) if entries else ["epsilon"])
        writer.writeheader()
        for entry in entries:
            writer.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v)
                             for k, v in entry.items()})
    return path


def note_on_figure(fig, notes):
    """Draw an experiment's notes (e.g. "the quick size is below the threshold") along the
    bottom edge, in red, so that a figure read alone carries them."""
    if notes:
        fig.text(0.5, 0.005, "NOTE: " + " | ".join(notes), ha="center", va="bottom",
                 fontsize=8, color="firebrick", wrap=True)


def size_axis(ax, sizes, xlabel="n (nodes)", log_y=True):
    """Log-scaled n axis with one labelled tick per size (no minor labels), log y by default."""
    ax.set_xscale("log")
    if log_y:
        ax.set_yscale("log")
    ax.set_xticks(sizes, [str(n) for n in sizes])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(xlabel)
