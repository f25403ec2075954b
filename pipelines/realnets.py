"""Real networks: clustering labelled networks that ship with networkx, released with edgeFlip.

Zachary's karate club (34 members, the two clubs after the split) and the Davis southern women
(18 women and 14 events, the two sides of the bipartite graph) are released with edgeFlip at
each eps (and without privacy), embedded with the privacy-adjusted ASE at its automatic
dimension, and clustered with every method, each given the true number of groups K; ToMATo
and the Gaussian mixture also choose their own count. Scores: adjusted Rand index and
normalized mutual information against the labels. One release and one embedding per
replicate are shared by all methods: only the clusterer differs.

Warnings raised inside a task are counted in the table (columns ``task_warnings`` and
``task_warning_messages``, as in every experiment) and stated once at the end of the run.
"""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np

from tdadp import from_networkx, make_private_clustering
from tdadp.cluster import clustering_scores

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
SUMMARY = "Clustering labelled networks from networkx (karate, Davis) under edgeFlip"
CONFIG = {
    "seed": 0,
    "replicates": 10,
    "networks": ["karate", "davis"],
    "epsilons": [1.0, 2.0, 4.0, 8.0, float("inf")],
    "methods": ["tomato", "kmeans", "gmm", "spectral", "tomato_auto", "gmm_auto"],
}
QUICK = {"replicates": 2, "epsilons": [2.0, float("inf")]}

_METHODS = ("tomato", "kmeans", "gmm", "spectral", "tomato_auto", "gmm_auto")
_GIVEN_K = ("tomato", "kmeans", "gmm", "spectral")


def _karate():
    G = nx.karate_club_graph()
    # Edge weights count shared activities; the network is the friendship graph.
    A = from_networkx(G, weights="binarize")
    return A, np.array([G.nodes[v]["club"] == "Officer" for v in G], dtype=int)


def _davis():
    G = nx.davis_southern_women_graph()
    return from_networkx(G), np.array([G.nodes[v]["bipartite"] for v in G])


NETWORKS = {"karate": _karate, "davis": _davis}


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
    """Tens of nodes: about a second a task, whatever the settings (measured)."""
    return config["replicates"] * 1.0, 4.0


def peak_memory(config):
    """Peak bytes of one task: the networks are tiny (tens of nodes)."""
    return 300e6


def points(config):
    return [{"network": n, "epsilon": float(e)} for n in config["networks"]
            for e in config["epsilons"]]


def _pipeline(method, eps, k, seed):
    auto = method.endswith("_auto")
    return make_private_clustering(method.removesuffix("_auto"), epsilon=eps,
                                   n_clusters=None if auto else k, random_state=seed)


def run_task(params, config, seed):
    s_flip, s_cluster = seed.spawn(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the binarized karate weights
        A, y = NETWORKS[params["network"]]()
    k = int(np.unique(y).size)
    eps = params["epsilon"]
    flip_seed = int(s_flip.generate_state(1)[0])
    cluster_seed = int(s_cluster.generate_state(1)[0])
    out = {"n_nodes": int(A.shape[0]), "k_true": k}
    embedding = np.asarray(_pipeline("kmeans", eps, k, flip_seed)[:-1].fit_transform(A))
    out["dimension"] = int(embedding.shape[1])
    for method in config["methods"]:
        last = _pipeline(method, eps, k, cluster_seed)[-1]
        labels = last.fit_predict(embedding)
        scores = clustering_scores(y, labels)
        out[f"ari_{method}"] = scores["ari"]
        out[f"nmi_{method}"] = scores["nmi"]
        out[f"n_clusters_{method}"] = int(np.unique(labels).size)
        if method == "tomato":
            out["tomato_metric"] = last.metric_
            out["tomato_subspace"] = last.subspace_
        if method == "tomato_auto":
            out["tomato_auto_significant"] = bool(last.significant_)
    return out


# Curves that coincide (often at ARI 0 or 1) stay visible: distinct markers, sizes, dashes.
_STYLE = {"tomato": ("C0", "o", "-", 8), "kmeans": ("C1", "s", "--", 6),
          "gmm": ("C2", "^", "-.", 6), "spectral": ("C3", "x", ":", 6),
          "tomato_auto": ("C0", "o", "-", 8), "gmm_auto": ("C2", "^", "--", 5)}


def _position(eps_values):
    """x positions: log2 eps, with eps = inf one step right of the largest finite eps."""
    finite = [e for e in eps_values if np.isfinite(e)]
    top = np.log2(max(finite)) + 1 if finite else 0.0
    return {e: (np.log2(e) if np.isfinite(e) else top) for e in eps_values}


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    networks = list(config["networks"])
    fig, axes = plt.subplots(2, len(networks), figsize=(5 * len(networks), 7), squeeze=False)
    pos = _position(sorted(set(config["epsilons"])))
    ticks = sorted(pos, key=pos.get)
    for col, network in enumerate(networks):
        sub = [r for r in rows if r["network"] == network]
        for row, (methods, title) in enumerate((
                ([m for m in config["methods"] if m in _GIVEN_K], "K given"),
                ([m for m in config["methods"] if m.endswith("_auto")], "count chosen"))):
            ax = axes[row, col]
            for method in methods:
                xs, median, low, high = quantile_band(sub, "epsilon", f"ari_{method}")
                x = [pos[e] for e in xs]
                color, marker, ls, size = _STYLE.get(method, (None, "o", "-", 4))
                line, = ax.plot(x, median, color=color, marker=marker, ls=ls, ms=size,
                                mfc="none", label=method)
                ax.fill_between(x, low, high, color=line.get_color(), alpha=0.15, lw=0)
            ax.set_xticks([pos[e] for e in ticks])
            ax.set_xticklabels(["∞" if not np.isfinite(e) else f"{e:g}" for e in ticks])
            ax.set_xlabel("epsilon (edgeFlip)")
            ax.set_ylabel("adjusted Rand index")
            ax.set_ylim(-0.55, 1.05)
            n = sub[0]["n_nodes"] if sub else 0
            ax.set_title(f"{network} ({n} nodes): {title}", fontsize=10)
            ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(f"{config['replicates']} releases per eps: median and 10-90% quantiles",
                 fontsize=9)
    fig.tight_layout()
    return save(fig, out_dir, NAME, formats)
