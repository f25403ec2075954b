"""Real networks: clustering the labelled networks shipped in ``tdadp.datasets``, released
with edgeFlip.

polblogs (its largest component: 1,222 blogs, liberal / conservative), polbooks (105 books,
liberal / neutral / conservative), the Faux Mesa High school friendships (205 students by
grade, 6 grades; 57 have no friend), Zachary's karate club (34 members, the two clubs after the
split) and the Davis southern women (18 women and 14 events, the two sides of the bipartite
graph) are released with edgeFlip at each eps (and without privacy), embedded with the
privacy-adjusted ASE at its automatic dimension, and clustered with every method given the
true number of groups K: the default (:class:`~tdadp.cluster.BlockModelClustering`, the
partition of ToMATo, k-means, the BIC Gaussian mixture, spectral clustering and spherical
k-means under which the release is most likely as a degree-corrected block model), each of
those five alone, and SCORE. The default, ToMATo and the Gaussian mixture also choose their
own count (the default and ToMATo by ToMATo's bootstrap test, whose significance is
recorded). One release and one embedding per replicate are shared by all
methods, and nodes with no edge in the release (no signal to embed) are left out of every
method alike. Scores: adjusted Rand index and normalized mutual information against the
labels, on the nodes clustered.

Warnings raised inside a task are counted in the table (columns ``task_warnings`` and
``task_warning_messages``, as in every experiment) and stated once at the end of the run.
"""

from __future__ import annotations

import numpy as np

from tdadp import EdgeFlip, from_networkx
from tdadp.cluster import BlockModelClustering, clustering_scores, make_clusterer
from tdadp.datasets import (
    load_davis,
    load_faux_mesa_high,
    load_karate,
    load_polblogs,
    load_polbooks,
)

from ._common import (
    REPLICATES,
    SEED,
    check_choices,
    check_epsilons,
    choices,
    epsilons,
    pyplot,
    quantile_band,
    save,
)

NAME = "realnets"
SUMMARY = "Clustering the labelled networks of tdadp.datasets under edgeFlip"
_METHODS = ("default", "tomato", "kmeans", "gmm", "spectral", "spherical", "score",
            "default_auto", "tomato_auto", "gmm_auto")
_GIVEN_K = ("default", "tomato", "kmeans", "gmm", "spectral", "spherical", "score")
CONFIG = {
    "seed": 0,
    "replicates": 10,
    "networks": ["polblogs", "polbooks", "faux_mesa_high", "karate", "davis"],
    "epsilons": [1.0, 2.0, 4.0, 8.0, float("inf")],
    "methods": list(_METHODS),
}
QUICK = {"replicates": 2, "epsilons": [2.0, float("inf")], "networks": ["karate", "davis"]}


def _labelled(G, key):
    """The graph's adjacency (node order of G) and its labels as integers."""
    _, y = np.unique(np.array([str(G.nodes[v][key]) for v in G]), return_inverse=True)
    return from_networkx(G), y


NETWORKS = {
    "polblogs": lambda: _labelled(load_polblogs(largest_component=True), "label"),
    "polbooks": lambda: _labelled(load_polbooks(), "label"),
    "faux_mesa_high": lambda: _labelled(load_faux_mesa_high(), "Grade"),
    "karate": lambda: _labelled(load_karate(), "label"),
    "davis": lambda: _labelled(load_davis(), "bipartite"),
}


def validate(config):
    check_epsilons(NAME, config["epsilons"], allow_inf=True, positive=True)
    check_choices(NAME, "networks", config["networks"], tuple(NETWORKS))
    check_choices(NAME, "methods", config["methods"], _METHODS)


RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "networks": choices(tuple(NETWORKS)),
    "epsilons": epsilons(infinite=True),
    "methods": choices(_METHODS),
}


def point_seconds(point, config):
    """Seconds per point: polblogs' 1,222 nodes cost most (ToMATo three times, spectral
    clustering), the others a second or two a release (measured on 2 cores)."""
    per_release = 10.0 if point["network"] == "polblogs" else 1.5
    return config["replicates"] * per_release, 4.0


def peak_memory(config):
    """Peak bytes of one task: polblogs' dense release and ToMATo's neighbour graph stay
    under 0.3 GB."""
    return 300e6


def points(config):
    return [{"network": n, "epsilon": float(e)} for n in config["networks"]
            for e in config["epsilons"]]


def _score(out, method, y, labels):
    scores = clustering_scores(y, labels)
    out[f"ari_{method}"] = scores["ari"]
    out[f"nmi_{method}"] = scores["nmi"]
    out[f"n_clusters_{method}"] = int(np.unique(labels).size)


def run_task(params, config, seed):
    s_flip, s_cluster = seed.spawn(2)
    A, y = NETWORKS[params["network"]]()
    k = int(np.unique(y).size)
    eps = params["epsilon"]
    flip_seed = int(s_flip.generate_state(1)[0])
    cluster_seed = int(s_cluster.generate_state(1)[0])
    release = EdgeFlip(eps, random_state=flip_seed).fit_transform(A)
    methods = config["methods"]
    # The default's own fit gives its candidates' labels on the same embedding: ToMATo,
    # k-means, the Gaussian mixture, spectral clustering and spherical k-means with K given.
    # Nodes with no edge in the release carry no signal: every method leaves them out.
    default = BlockModelClustering(n_clusters=k, random_state=cluster_seed).fit(release)
    active = np.flatnonzero(~default.isolated_)
    embedding = np.asarray(default.embedding_)[active]
    y = y[active]
    out = {"n_nodes": int(A.shape[0]), "n_clustered": int(active.size), "k_true": k,
           "dimension": int(default.n_components_), "default_choice": default.selected_}
    for method in methods:
        if method == "default":
            labels = default.labels_[active]
        elif method in default.candidate_labels_:
            labels = default.candidate_labels_[method][active]
        elif method == "default_auto":
            auto = BlockModelClustering(random_state=cluster_seed).fit(release)
            labels = auto.labels_[active]
            out["default_auto_significant"] = bool(auto.significant_)
            out["default_auto_choice"] = str(auto.selected_)
        else:
            name = method.removesuffix("_auto")
            last = make_clusterer(name, None if method.endswith("_auto") else k, cluster_seed)
            labels = last.fit_predict(embedding)
            if method == "tomato_auto":
                out["tomato_auto_significant"] = bool(last.significant_)
        _score(out, method, y, labels)
    if "tomato" in methods:
        tomato = default.clusterers_["tomato"]
        out["tomato_metric"] = tomato.metric_
        out["tomato_subspace"] = tomato.subspace_
    return out


# Curves that coincide (often at ARI 0 or 1) stay visible: distinct markers, sizes, dashes.
_STYLE = {"default": ("k", "*", "-", 9), "default_auto": ("k", "*", "-", 9),
          "tomato": ("C0", "o", "-", 8), "kmeans": ("C1", "s", "--", 6),
          "gmm": ("C2", "^", "-.", 6), "spectral": ("C3", "x", ":", 6),
          "spherical": ("C4", "D", "-", 5), "score": ("C5", "v", "--", 5),
          "tomato_auto": ("C0", "o", "-", 8), "gmm_auto": ("C2", "^", "--", 5)}
_WORDS = {"default": "default (most likely partition)",
          "default_auto": "default, tested count", "tomato": "ToMATo", "kmeans": "k-means",
          "gmm": "Gaussian mixture (BIC)",
          "spectral": "spectral clustering", "spherical": "spherical k-means",
          "score": "SCORE", "tomato_auto": "ToMATo, tested count",
          "gmm_auto": "Gaussian mixture, BIC count"}


def _position(eps_values):
    """x positions: log2 eps, with eps = inf one step right of the largest finite eps."""
    finite = [e for e in eps_values if np.isfinite(e)]
    top = np.log2(max(finite)) + 1 if finite else 0.0
    return {e: (np.log2(e) if np.isfinite(e) else top) for e in eps_values}


def _band(ax, sub, method, pos):
    """Median and 10-90% band over the finite eps joined by a line; eps = inf (no privacy)
    drawn apart, a marker with its band as an error bar, since inf is not a point on the
    eps axis."""
    xs, median, low, high = quantile_band(sub, "epsilon", f"ari_{method}")
    color, marker, ls, size = _STYLE.get(method, (None, "o", "-", 4))
    finite = [i for i, e in enumerate(xs) if np.isfinite(e)]
    x = [pos[xs[i]] for i in finite]
    line, = ax.plot(x, median[finite], color=color, marker=marker, ls=ls, ms=size,
                    mfc="none", label=_WORDS.get(method, method))
    ax.fill_between(x, low[finite], high[finite], color=line.get_color(), alpha=0.12, lw=0)
    for i, e in enumerate(xs):
        if not np.isfinite(e):
            ax.errorbar([pos[e]], [median[i]], yerr=[[median[i] - low[i]], [high[i] - median[i]]],
                        color=line.get_color(), marker=marker, ms=size, mfc="none", capsize=3)


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    networks = list(config["networks"])
    fig, axes = plt.subplots(2, len(networks), figsize=(4.2 * len(networks), 7.5),
                             squeeze=False)
    pos = _position(sorted(set(config["epsilons"])))
    ticks = sorted(pos, key=pos.get)
    for col, network in enumerate(networks):
        sub = [r for r in rows if r["network"] == network]
        for row, (methods, title) in enumerate((
                ([m for m in config["methods"] if m in _GIVEN_K], "K given"),
                ([m for m in config["methods"] if m.endswith("_auto")], "count chosen"))):
            ax = axes[row, col]
            for method in methods:
                _band(ax, sub, method, pos)
            ax.set_xticks([pos[e] for e in ticks])
            ax.set_xticklabels(["∞ (no privacy)" if not np.isfinite(e) else f"{e:g}"
                                for e in ticks], fontsize=8)
            ax.set_xlabel("epsilon (edgeFlip)")
            ax.set_ylabel("adjusted Rand index")
            ax.set_ylim(-0.55, 1.05)
            n = sub[0]["n_nodes"] if sub else 0
            k = sub[0]["k_true"] if sub else 0
            ax.set_title(f"{network} ({n} nodes, {k} groups): {title}", fontsize=9)
            if col == 0:
                ax.legend(fontsize=7, loc="lower right")
    fig.suptitle(f"{config['replicates']} releases per eps: median (line) and 10-90% "
                 "quantiles (band)", fontsize=9)
    fig.tight_layout()
    return save(fig, out_dir, NAME, formats)
