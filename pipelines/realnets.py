"""Real networks: tdadp's default clusterer against what analysts would run instead, on the
same edgeFlip releases of labelled networks.

The networks: the five shipped in :mod:`tdadp.datasets` (polblogs' largest component,
polbooks, Faux Mesa High by grade, Zachary's karate club, the Davis southern women) and the
held-out networks (``_HELDOUT`` below), each in one half: "shipped", "design" (networks the
default may be designed on) or "report" (networks only reported on), recorded in every row.
Each is released with edgeFlip at each eps (and without privacy). On each release:

- the default, :class:`~tdadp.cluster.BlockModelClustering` given the true number of groups
  K (``default``) and choosing its own count (``default_auto``); the partitions of its own
  candidates at K (columns ``candidate_<name>``: k-means and spherical k-means of the
  adjacency embedding, regularised spectral clustering, Leiden coarsened by likelihood and
  tuned by resolution) are read from its fit, at no cost;
- the peers of :mod:`._peers`: Leiden and Louvain as they are and with their resolution tuned
  to K, scikit-learn's spectral clustering on the release, regularised spectral clustering,
  and the privacy-adjusted adjacency spectral embedding with d = K followed by k-means or a
  Gaussian mixture.

Nodes with no edge in the release carry no signal: every method leaves them out alike (the
default is fitted on the whole release and scored on the other nodes; the peers see the
release restricted to them). Scores: adjusted Rand index and normalized mutual information
against the labels, the number of clusters found, and each method's wall seconds on the
release (``time.perf_counter``; the default's include its embedding and its candidates).

A release of a large network at a small eps is dense (edgeFlip adds about pi(eps) n^2 / 2
edges): a (network, eps) pair whose release is expected to have more than
``max_release_edges`` edges is not run, and the run says which (``notes``).

Beside ``results.csv``: ``realnets_summary.csv`` (per network and eps: the default's mean
ARI, the best peer's and which, the difference, whether within 0.05),
``realnets_methods.csv`` (per method: mean ARI and NMI over the pairs at eps >= 2, seconds per
release), ``realnets_seconds.csv`` (per network and method: mean seconds per release) and
``realnets_summary.md`` (the three as markdown).

Warnings raised inside a task are counted in the table (columns ``task_warnings`` and
``task_warning_messages``, as in every experiment) and stated once at the end of the run.
"""

from __future__ import annotations

import csv
import math
import time
from functools import cache
from pathlib import Path

import numpy as np

from tdadp import EdgeFlip, datasets, flip_probability, from_networkx
from tdadp.cluster import BlockModelClustering, clustering_scores
from tdadp.experiments import ConfigError
from tdadp.utils import Interval, Rule

from ._common import (
    REPLICATES,
    SEED,
    check_choices,
    check_epsilons,
    choices,
    epsilons,
    note_on_figure,
    pyplot,
    quantile_band,
    save,
)
from ._peers import PEERS, restrict

NAME = "realnets"
SUMMARY = "The default clusterer against Leiden, Louvain and spectral peers on real networks"

# --- the networks ----------------------------------------------------------------------------


def _labelled(G, key):
    """The graph's adjacency (node order of G) and its labels as integers."""
    _, y = np.unique(np.array([str(G.nodes[v][key]) for v in G]), return_inverse=True)
    return from_networkx(G), y


def _loader(name, key="label", drop=None, **kwargs):
    """``() -> (A, y)`` of ``tdadp.datasets.load_<name>(**kwargs)``, labels from ``key``;
    nodes labelled ``drop`` are left out (the graph on the others)."""
    load = getattr(datasets, f"load_{name}")

    def loaded():
        G = load(**kwargs)
        if drop is not None:
            G = G.subgraph([v for v in G if str(G.nodes[v][key]) != drop]).copy()
        return _labelled(G, key)

    return loaded


SHIPPED = {
    "polblogs": _loader("polblogs", largest_component=True),
    "polbooks": _loader("polbooks"),
    "faux_mesa_high": _loader("faux_mesa_high", "Grade"),
    "karate": _loader("karate"),
    "davis": _loader("davis", "bipartite"),
}
# Held-out networks, one line each: name -> half ("design" or "report", the split drawn in
# tdadp/datasets/data/HELDOUT.md before any method ran on them). A network runs once
# tdadp.datasets exports its loader load_<name>() (a networkx Graph, node attribute "label").
_HELDOUT = {
    "pubmed": "design",
    "high_school_2012": "design",
    "workplace_2013": "design",
    "flare": "design",
    "aucs": "report",
    "high_school_2013": "report",
    "hospital_ward": "report",
    "primary_school": "report",
}
# AUCS: the 53 members of the eight research groups (issue 39's network "C"); the other 8
# ("other": no group, or administrators of two) are not a group, so they are left out (the
# choice was made before any method ran on it).
_KWARGS = {"aucs": {"drop": "other"}}
NETWORKS = {**SHIPPED, **{name: _loader(name, **_KWARGS.get(name, {})) for name in _HELDOUT
                          if hasattr(datasets, f"load_{name}")}}
_HALVES = ("shipped", "design", "report")

# --- the methods -----------------------------------------------------------------------------

# The default's own candidates at K, read from its fit (candidate_labels_).
# Named "candidate_<name>": two of them are also peers' names (Leiden with its own count and
# tuned to K run by leidenalg, against the default's coarsened igraph Leiden).
_CANDIDATES = ("kmeans", "spherical", "laplacian", "leiden", "leiden_k")
_METHODS = ("default", "default_auto", *PEERS, *(f"candidate_{c}" for c in _CANDIDATES))
# Methods with a measured time of their own (a candidate's is inside the default's fit).
_TIMED = ("default", "default_auto", *PEERS)
# eps of the summary's per-method means (eps = 1 is reported per pair only).
_SUMMARY_EPS = (2.0, 4.0, 8.0, math.inf)
_WITHIN = 0.05

CONFIG = {
    "seed": 0,
    "replicates": 10,
    "networks": list(NETWORKS),
    "halves": {**dict.fromkeys(SHIPPED, "shipped"),
               **{n: half for n, half in _HELDOUT.items() if n in NETWORKS}},
    "epsilons": [1.0, 2.0, 4.0, 8.0, float("inf")],
    "methods": list(_METHODS),
    # polblogs at eps = 1: 0.2 million edges; pubmed (19,717 nodes) at eps = 8: 0.11 million,
    # at eps = 4: 3.5 million, at eps = 1: 52 million.
    "max_release_edges": 2_000_000,
}
QUICK = {"replicates": 2, "epsilons": [2.0, float("inf")], "networks": ["karate", "davis"]}


def _is_halves(value):
    return isinstance(value, dict) and all(
        isinstance(k, str) and v in _HALVES for k, v in value.items())


RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "networks": choices(tuple(NETWORKS)),
    "halves": [Rule("a table of network -> 'shipped', 'design' or 'report'", _is_halves)],
    "epsilons": epsilons(infinite=True),
    "methods": choices(_METHODS),
    "max_release_edges": [Interval("int", 1, 10**12, "both")],
}


def validate(config):
    check_epsilons(NAME, config["epsilons"], allow_inf=True, positive=True)
    check_choices(NAME, "networks", config["networks"], tuple(NETWORKS))
    check_choices(NAME, "methods", config["methods"], _METHODS)
    missing = [n for n in config["networks"] if n not in config["halves"]]
    if missing:
        raise ConfigError(f"{NAME}: halves names no half for {', '.join(missing)} (each "
                          "network run is 'shipped', 'design' or 'report')")
    if not points(config):
        raise ConfigError(f"{NAME}: every (network, eps) pair's release has more than "
                          f"max_release_edges = {config['max_release_edges']} edges")


@cache
def _size(network):
    """(nodes, edges) of a network."""
    A, _ = NETWORKS[network]()
    n = A.shape[0]
    return n, int(round(float(A.sum()) / 2))


def _release_edges(network, eps):
    """Expected number of edges of the network's edgeFlip release at ``eps``."""
    n, m = _size(network)
    rate = float(flip_probability(eps))
    return m * (1.0 - rate) + (n * (n - 1) / 2 - m) * rate


def _too_large(network, eps, config):
    return _release_edges(network, eps) > config["max_release_edges"]


def notes(config):
    """The (network, eps) pairs not run: their releases are too large."""
    skipped = [f"{n} at eps {e:g} ({_release_edges(n, e) / 1e6:.1f} M edges)"
               for n in config["networks"] for e in config["epsilons"]
               if _too_large(n, e, config)]
    if not skipped:
        return []
    return [f"not run, release above max_release_edges = {config['max_release_edges']:,}: "
            + "; ".join(skipped)]


def points(config):
    return [{"network": n, "half": config["halves"][n], "epsilon": float(e)}
            for n in config["networks"] for e in config["epsilons"]
            if not _too_large(n, e, config)]


def point_seconds(point, config):
    """Seconds per point: per release a fixed part (imports, the small fits), a part per
    release edge (the modularity peers' resolution bisections) and a part per node (the
    default's embedding and fits); the constants were measured on 2 loaded cores."""
    edges = _release_edges(point["network"], point["epsilon"])
    n, _ = _size(point["network"])
    return config["replicates"] * (4.0 + 4e-4 * edges + 5e-3 * n), 4.0


def peak_memory(config):
    """Peak bytes of one task: the release (one bit per dyad for a large network), its CSR
    copies for the peers (about 50 bytes an edge with igraph's) and the default's embedding."""
    largest = max(_release_edges(p["network"], p["epsilon"]) for p in points(config))
    n = max(_size(network)[0] for network in config["networks"])
    return 400e6 + 60.0 * largest + n * n / 8


# --- one task --------------------------------------------------------------------------------


def _score(out, method, y, labels):
    if labels is None:  # a candidate the default no longer has
        out[f"ari_{method}"] = out[f"nmi_{method}"] = out[f"n_clusters_{method}"] = math.nan
        return
    scores = clustering_scores(y, labels)
    out[f"ari_{method}"] = scores["ari"]
    out[f"nmi_{method}"] = scores["nmi"]
    out[f"n_clusters_{method}"] = int(np.unique(labels).size)


def _timed(fit):
    start = time.perf_counter()
    result = fit()
    return result, time.perf_counter() - start


def run_task(params, config, seed):
    s_flip, s_cluster = seed.spawn(2)
    A, y = NETWORKS[params["network"]]()
    k = int(np.unique(y).size)
    flip_seed = int(s_flip.generate_state(1)[0])
    cluster_seed = int(s_cluster.generate_state(1)[0])
    release = EdgeFlip(params["epsilon"], random_state=flip_seed).fit_transform(A)
    methods = config["methods"]
    default, seconds = _timed(
        lambda: BlockModelClustering(n_clusters=k, random_state=cluster_seed).fit(release))
    # Nodes with no edge in the release carry no signal: every method leaves them out.
    active = np.flatnonzero(~np.asarray(default.isolated_))
    y = y[active]
    out = {"n_nodes": int(A.shape[0]), "n_clustered": int(active.size), "k_true": k,
           "default_choice": str(default.selected_), "seconds_default": seconds}
    _score(out, "default", y, np.asarray(default.labels_)[active])
    candidates = default.candidate_labels_
    for name in _CANDIDATES:
        if f"candidate_{name}" in methods:
            labels = candidates.get(name)
            _score(out, f"candidate_{name}", y,
                   None if labels is None else np.asarray(labels)[active])
    if "default_auto" in methods:
        auto, out["seconds_default_auto"] = _timed(
            lambda: BlockModelClustering(random_state=cluster_seed).fit(release))
        _score(out, "default_auto", y, np.asarray(auto.labels_)[active])
        out["default_auto_significant"] = bool(auto.significant_)
        out["default_auto_choice"] = str(auto.selected_)
    peers = [m for m in methods if m in PEERS]
    if peers:
        sub = restrict(release, active)
        for method in peers:
            labels, out[f"seconds_{method}"] = _timed(
                lambda m=method: PEERS[m](sub, k, cluster_seed))
            _score(out, method, y, labels)
    return out


# --- the summary tables ----------------------------------------------------------------------


def _number(value):
    """A float, or None for a missing or non-numeric value (a NaN is missing)."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(value) else value


def _mean(rows, key):
    values = [v for v in (_number(r.get(key)) for r in rows) if v is not None]
    return float(np.mean(values)) if values else math.nan


def _pairs(rows):
    """{(network, eps): rows} in the order of the rows."""
    out = {}
    for row in rows:
        out.setdefault((row["network"], float(row["epsilon"])), []).append(row)
    return out


def _run_methods(rows):
    return [m for m in _METHODS if any(_number(r.get(f"ari_{m}")) is not None for r in rows)]


def summary(rows):
    """One entry per (network, eps): the default's mean ARI, the best peer's and which."""
    entries = []
    for (network, eps), sub in _pairs(rows).items():
        peers = {m: _mean(sub, f"ari_{m}") for m in PEERS}
        peers = {m: v for m, v in peers.items() if not math.isnan(v)}
        default = _mean(sub, "ari_default")
        best = max(peers, key=peers.get) if peers else ""
        best_ari = peers[best] if peers else math.nan
        entries.append({
            "network": network, "half": sub[0].get("half", ""), "epsilon": eps,
            "releases": len(sub), "ari_default": default, "ari_best_peer": best_ari,
            "best_peer": best, "difference": default - best_ari,
            "within_0.05": bool(default >= best_ari - _WITHIN) if peers else "",
        })
    return entries


def method_summary(rows):
    """One entry per method: mean over the (network, eps) pairs at eps >= 2 of its mean ARI
    and NMI, and its seconds per release (median and largest over all releases)."""
    pairs = [sub for (_, eps), sub in _pairs(rows).items() if eps in _SUMMARY_EPS]
    entries = []
    for method in _run_methods(rows):
        ari = [_mean(sub, f"ari_{method}") for sub in pairs]
        nmi = [_mean(sub, f"nmi_{method}") for sub in pairs]
        seconds = [v for v in (_number(r.get(f"seconds_{method}")) for r in rows)
                   if v is not None]
        entries.append({
            "method": method,
            "kind": ("default" if method.startswith("default") else
                     "peer" if method in PEERS else "candidate"),
            "pairs": int(np.sum(~np.isnan(ari))) if ari else 0,
            "mean_ari": float(np.nanmean(ari)) if pairs and not np.all(np.isnan(ari))
            else math.nan,
            "mean_nmi": float(np.nanmean(nmi)) if pairs and not np.all(np.isnan(nmi))
            else math.nan,
            "median_seconds": float(np.median(seconds)) if seconds else math.nan,
            "max_seconds": float(np.max(seconds)) if seconds else math.nan,
        })
    return entries


def seconds_summary(rows):
    """One entry per network: its size and each timed method's mean seconds per release."""
    entries = []
    timed = [m for m in _TIMED if m in _run_methods(rows)]
    networks = list(dict.fromkeys(r["network"] for r in rows))
    for network in networks:
        sub = [r for r in rows if r["network"] == network]
        entry = {"network": network, "n_clustered": _mean(sub, "n_clustered")}
        entry.update({m: _mean(sub, f"seconds_{m}") for m in timed})
        entries.append(entry)
    return entries


def _text(value):
    if isinstance(value, float):
        return "inf" if math.isinf(value) else ("" if math.isnan(value) else f"{value:.4g}")
    return str(value)


def _write_csv(entries, path):
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(entries[0]) if entries else ["network"])
        writer.writeheader()
        for entry in entries:
            writer.writerow({k: _text(v) for k, v in entry.items()})
    return path


def _markdown(entries):
    if not entries:
        return "(no rows)\n"
    head = list(entries[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(_text(e[k]) for k in head) + " |" for e in entries]
    return "\n".join(lines) + "\n"


def write_summaries(rows, out_dir):
    """The three summary tables as CSV beside the results, and together as markdown."""
    out_dir = Path(out_dir)
    pairs, methods, seconds = summary(rows), method_summary(rows), seconds_summary(rows)
    paths = [_write_csv(pairs, out_dir / f"{NAME}_summary.csv"),
             _write_csv(methods, out_dir / f"{NAME}_methods.csv"),
             _write_csv(seconds, out_dir / f"{NAME}_seconds.csv")]
    judged = [p for p in pairs if p["epsilon"] in _SUMMARY_EPS and p["best_peer"]]
    within = sum(bool(p["within_0.05"]) for p in judged)
    text = (f"# {NAME}: the default against the best peer\n\n"
            f"Mean ARI over the releases of each (network, eps); best peer among "
            f"{', '.join(PEERS)}. At eps in {{2, 4, 8, inf}} the default is within "
            f"{_WITHIN} of the best peer on {within} of {len(judged)} pairs.\n\n"
            + _markdown(pairs)
            + "\n## Per method: mean over the (network, eps) pairs at eps in {2, 4, 8, inf}\n\n"
            + _markdown(methods)
            + "\n## Mean seconds per release\n\n" + _markdown(seconds))
    path = out_dir / f"{NAME}_summary.md"
    path.write_text(text, encoding="utf-8")
    return [*paths, path]


# --- the figure ------------------------------------------------------------------------------

_WORDS = {"default": "default (K given)", "default_auto": "default (own count)",
          "leiden": "Leiden", "leiden_k": "Leiden tuned to K", "louvain": "Louvain",
          "louvain_k": "Louvain tuned to K", "sklearn_spectral": "sklearn SpectralClustering",
          "regularized_laplacian": "regularised Laplacian", "ase_kmeans": "ASE (d = K), k-means",
          "ase_gmm": "ASE (d = K), GMM"}
_COLUMNS = 4


def _position(eps_values):
    """x positions: log2 eps, with eps = inf one step right of the largest finite eps."""
    finite = [e for e in eps_values if np.isfinite(e)]
    top = np.log2(max(finite)) + 1 if finite else 0.0
    return {e: (np.log2(e) if np.isfinite(e) else top) for e in eps_values}


def _curve(ax, sub, method, pos, band=True, **style):
    """Median ARI over the finite eps joined by a line, its 10-90% quantiles as a band; eps =
    inf (no privacy) drawn apart, a marker with its band as an error bar."""
    xs, median, low, high = quantile_band(sub, "epsilon", f"ari_{method}")
    if not xs:
        return None
    finite = [i for i, e in enumerate(xs) if np.isfinite(e)]
    x = [pos[xs[i]] for i in finite]
    line, = ax.plot(x, median[finite], clip_on=False, **style)
    color = line.get_color()
    if band:
        ax.fill_between(x, low[finite], high[finite], color=color, alpha=0.15, lw=0)
    for i, e in enumerate(xs):
        if not np.isfinite(e):
            err = [[median[i] - low[i]], [high[i] - median[i]]] if band else None
            ax.errorbar([pos[e]], [median[i]], yerr=err, color=color, capsize=3, clip_on=False,
                        marker=style.get("marker", "o"), ms=style.get("ms", 4), mfc="none",
                        lw=style.get("lw", 1.2))
    return float(np.min(low)) if band else float(np.min(median))


def _best_peer(sub):
    means = {m: _mean(sub, f"ari_{m}") for m in PEERS}
    means = {m: v for m, v in means.items() if not math.isnan(v)}
    return max(means, key=means.get) if means else None


def make_figures(rows, config, out_dir, formats):
    write_summaries(rows, out_dir)
    plt = pyplot()
    networks = [n for n in config["networks"] if any(r["network"] == n for r in rows)]
    ncol = min(_COLUMNS, max(len(networks), 1))
    nrow = max(1, math.ceil(len(networks) / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.4 * ncol, 3.9 * nrow + 0.8),
                             squeeze=False)
    pos = _position(sorted(set(config["epsilons"])))
    ticks = sorted(pos, key=pos.get)
    methods = config["methods"]
    for ax, network in zip(axes.flat, networks):
        sub = [r for r in rows if r["network"] == network]
        best = _best_peer(sub)
        lows = []
        for peer in PEERS:
            if peer in methods and peer != best:
                lows.append(_curve(ax, sub, peer, pos, band=False, color="0.65", lw=0.8,
                                   marker=".", ms=3, label="_other peers"))
        if best is not None:
            lows.append(_curve(ax, sub, best, pos, color="C3", marker="o", ms=5, mfc="none",
                               label=f"best peer: {_WORDS.get(best, best)}"))
        if "default_auto" in methods:
            lows.append(_curve(ax, sub, "default_auto", pos, band=False, color="C0", ls="--",
                               marker="s", ms=4, mfc="none", label=_WORDS["default_auto"]))
        if "default" in methods:
            lows.append(_curve(ax, sub, "default", pos, color="C0", marker="*", ms=8,
                               label=_WORDS["default"]))
        lows = [v for v in lows if v is not None]
        # ARI lies in [-0.5, 1]: the axis shows the part of that range the curves use.
        ax.set_ylim(max(-0.5, math.floor(min([0.0, *lows]) * 10) / 10), 1.0)
        ax.set_xticks([pos[e] for e in ticks])
        ax.set_xticklabels(["∞" if not np.isfinite(e) else f"{e:g}" for e in ticks])
        ax.set_xlabel("epsilon (edgeFlip; ∞: no privacy)", fontsize=8)
        ax.set_ylabel("adjusted Rand index", fontsize=8)
        ax.grid(alpha=0.3)
        n, k = sub[0]["n_nodes"], sub[0]["k_true"]
        ax.set_title(f"{network} ({n} nodes, K = {k}; {sub[0].get('half', '')})", fontsize=9)
        ax.legend(fontsize=7, loc="best")
    for ax in axes.flat[len(networks):]:
        ax.set_visible(False)
    counts = [sum(1 for r in rows if (r["network"], r["epsilon"]) == pair)
              for pair in {(r["network"], r["epsilon"]) for r in rows}]
    releases = (f"{min(counts)}" if min(counts) == max(counts)
                else f"{min(counts)} to {max(counts)}")
    fig.suptitle(f"{releases} releases per (network, eps): median (line) and 10-90% quantiles "
                 "(band); grey: the other peers (medians)", fontsize=10,
                 y=1 - 0.2 / fig.get_figheight())
    note_on_figure(fig, notes(config))
    # Margins in inches, not tight_layout: the full-width note below made it push the rows
    # together until titles and axis labels overlapped.
    height = fig.get_figheight()
    fig.subplots_adjust(left=0.05, right=0.98, top=1 - 0.8 / height, bottom=0.75 / height,
                        hspace=0.45, wspace=0.25)
    return save(fig, out_dir, NAME, formats)
