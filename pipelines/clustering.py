"""Clustering (Fig. 2): ToMATo against k-means and spectral clustering on private graphs.

Two concentric latent circles (the anchors' 900 + 300 nodes, scaled up here because the
rings only separate in the embedding from about 1200 + 400 nodes) and a 3-block SBM, released
with edgeFlip at several eps and embedded with the privacy-adjusted ASE. Each method is told
the true number of clusters (ToMATo is also run with its automatic choice); the metric is the
adjusted Rand index against the latent memberships.
"""

from __future__ import annotations

import numpy as np

import tdadp
from tdadp import make_private_clustering
from tdadp.cluster import clustering_scores

from ._common import (
    REPLICATES,
    SEED,
    band,
    check_choices,
    check_epsilons,
    check_min,
    choices,
    dense_seconds,
    dense_task_memory,
    epsilons,
    nodes,
    note_on_figure,
    plot_band,
    pyplot,
    save,
    sizes,
)

NAME = "clustering"
SUMMARY = "Fig. 2: ARI of ToMATo vs k-means vs spectral clustering on private graphs"
CONFIG = {
    "seed": 0,
    "replicates": 10,
    "circles_nodes": [3000, 1000],
    "sbm_nodes": 900,
    "epsilons": [0.5, 1.0, 2.0, 5.0],
    "models": ["two_circles", "sbm"],
    "methods": ["tomato", "tomato_auto", "kmeans", "spectral"],
}
# The quick run keeps the circles at the size where they separate (at 600 + 200 nodes no
# method separates them at any eps, so a quick figure would show nothing).
QUICK = {"replicates": 2, "circles_nodes": [1200, 400], "sbm_nodes": 300,
         "epsilons": [1.0, 2.0, 5.0]}
SEPARATION_FROM = (1200, 400)

SBM_B = [[0.5, 0.2, 0.2], [0.2, 0.5, 0.2], [0.2, 0.2, 0.5]]
_MODELS = ("two_circles", "sbm")
_METHODS = ("tomato", "tomato_auto", "kmeans", "spectral")
# Curves that coincide (often at ARI 0 or 1) stay visible: distinct markers, sizes and dashes.
_STYLE = {"tomato": ("C0", "o", "-", 7), "tomato_auto": ("C2", "s", "--", 5),
          "kmeans": ("C3", "^", "-.", 6), "spectral": ("C1", "x", ":", 6)}
_LABEL = {"tomato": "ToMATo (K given)", "tomato_auto": "ToMATo (automatic count)",
          "kmeans": "k-means (K given)", "spectral": "spectral (K given)"}


def validate(config):
    check_epsilons(NAME, config["epsilons"], allow_inf=False, positive=True)
    check_min(NAME, "circles_nodes", config["circles_nodes"], 20)
    check_min(NAME, "sbm_nodes", config["sbm_nodes"], 30)
    if len(config["circles_nodes"]) != 2:
        raise tdadp.experiments.ConfigError(f"{NAME}: circles_nodes must be two sizes")
    check_choices(NAME, "models", config["models"], _MODELS)
    check_choices(NAME, "methods", config["methods"], _METHODS)


RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "circles_nodes": sizes(20, min_len=2, max_len=2),
    "sbm_nodes": nodes(30),
    "epsilons": epsilons(),
    "models": choices(_MODELS),
    "methods": choices(_METHODS),
}

# Time of one task on one core (for the run's estimate, checked against --max-hours before any
# work): fitted to the full runs' task times (figures/*/results.csv, a shared 2-core
# machine); the longest task of a point runs up to 4 times its mean.


def point_seconds(point, config):
    n = sum(config["circles_nodes"]) if point["model"] == "two_circles" \
        else config["sbm_nodes"]
    task = dense_seconds(n, 0.8, 3.5e-7) * (1 + 0.1 * len(config["methods"]))
    return config["replicates"] * task, 4 * task


def peak_memory(config):
    """Peak bytes of the largest task (checked before a run starts)."""
    return dense_task_memory(max(sum(config["circles_nodes"]), config["sbm_nodes"]))


def notes(config):
    """Below SEPARATION_FROM nodes the rings do not separate in the embedding at any eps."""
    if sum(config["circles_nodes"]) >= sum(SEPARATION_FROM) or \
            "two_circles" not in config["models"]:
        return []
    return [f"two circles of {' + '.join(map(str, config['circles_nodes']))} nodes: below "
            f"about {' + '.join(map(str, SEPARATION_FROM))} the rings do not separate in the "
            "embedding at any eps, whatever the clusterer"]


def points(config):
    return [{"model": m, "epsilon": float(e)} for m in config["models"]
            for e in config["epsilons"]]


def _model(model, config, seed):
    if model == "two_circles":
        return tdadp.two_circles(tuple(config["circles_nodes"]), random_state=seed), 3, 2
    return tdadp.sbm(config["sbm_nodes"], SBM_B, random_state=seed), 3, 3


def _pipeline(method, eps, d, k, seed):
    if method == "tomato_auto":
        return make_private_clustering("tomato", epsilon=eps, n_components=d,
                                       random_state=seed)
    return make_private_clustering(method, epsilon=eps, n_components=d, n_clusters=k,
                                   random_state=seed)


def run_task(params, config, seed):
    s_latent, s_graph, s_flip, s_cluster = seed.spawn(4)
    X, d, k = _model(params["model"], config, s_latent)
    A = tdadp.sample_grdpg(X, random_state=s_graph)
    eps = params["epsilon"]
    # One release and one embedding shared by all methods: only the clusterer differs.
    flip_seed = int(s_flip.generate_state(1)[0])
    cluster_seed = int(s_cluster.generate_state(1)[0])
    embedding = _pipeline("kmeans", eps, d, k, flip_seed)[:-1].fit_transform(A)
    out = {}
    for method in config["methods"]:
        last = _pipeline(method, eps, d, k, cluster_seed)[-1]
        labels = last.fit_predict(np.asarray(embedding))
        scores = clustering_scores(X.labels, labels)
        out[f"ari_{method}"] = scores["ari"]
        out[f"misclassification_{method}"] = scores["misclassification"]
        out[f"n_clusters_{method}"] = int(len(np.unique(labels)))
    return out


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    models = [m for m in _MODELS if m in config["models"]]
    fig, axes = plt.subplots(1, len(models) + 1, figsize=(5 * (len(models) + 1), 4))
    for ax, model in zip(axes, models):
        sub = [r for r in rows if r["model"] == model]
        for method in config["methods"]:
            color, marker, ls, size = _STYLE[method]
            for _, (xs, median, quantiles, _) in band(sub, "epsilon", f"ari_{method}").items():
                plot_band(ax, xs, median, quantiles, _LABEL[method], color=color,
                          marker=marker, ls=ls, ms=size, mfc="none")
        ax.set_xlabel("epsilon")
        ax.set_ylabel("adjusted Rand index")
        ax.set_ylim(-0.05, 1.05)
        ax.set_title(f"{model}: privacy-adjusted ASE + clusterer", fontsize=10)
    # one legend under the panels: inside, it covered the curves at ARI 0 or 1
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8,
               bbox_to_anchor=(0.5, -0.02))
    # One private embedding of the two circles at eps = 2, coloured by ToMATo and k-means.
    ax = axes[-1]
    seed = np.random.SeedSequence(config["seed"], spawn_key=(10**6,))
    X, d, k = _model("two_circles", config, seed)
    A = tdadp.sample_grdpg(X, random_state=1)
    emb = np.asarray(_pipeline("kmeans", 2.0, d, k, 2)[:-1].fit_transform(A))
    aligned, _ = tdadp.procrustes_align(emb, X)
    tomato = _pipeline("tomato", 2.0, d, k, 3)[-1].fit_predict(emb)
    kmeans = _pipeline("kmeans", 2.0, d, k, 3)[-1].fit_predict(emb)
    offset = 1.2 * np.ptp(aligned[:, 0])
    ax.scatter(aligned[:, 0], aligned[:, 1], c=tomato, s=2, cmap="coolwarm")
    ax.scatter(aligned[:, 0] + offset, aligned[:, 1], c=kmeans, s=2, cmap="coolwarm")
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_xlabel("coordinate 1 (aligned to the latent plane)")
    ax.set_ylabel("coordinate 2")
    ax.set_title("eps = 2: ToMATo (left) vs k-means (right)", fontsize=10)
    fig.suptitle(f"{config['replicates']} replicates: median and 10-90% quantiles of the ARI; "
                 f"two circles of {' + '.join(str(n) for n in config['circles_nodes'])} nodes, "
                 f"SBM of {config['sbm_nodes']}", fontsize=10)
    note_on_figure(fig, notes(config))
    fig.tight_layout(rect=(0, 0.06, 1, 0.97))
    return save(fig, out_dir, "clustering", formats)
