"""Shrinkage (Fig. 1 left, Corollary 1): edgeFlip shrinks the latent geometry by sqrt(1 - 2 pi).

Prop. 1 maps every latent position x to phi(x) = sqrt(1 - 2 pi) x ⊕ sqrt(pi), so every
pairwise distance, hence the diameter, shrinks by sqrt(1 - 2 pi(eps)); at eps = 0 the cloud
collapses to one point (Erdős–Rényi(1/2)). For a 3-block SBM and a latent circle we embed the
edgeFlip release (plain ASE, dimension = the private signature's rank) and compare the
measured diameter with the theory. Diameters are measured robustly: the largest distance
between block centroids (SBM), twice the mean distance to the centroid (circle).
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import MaxNLocator

import tdadp

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
    plot_band,
    pyplot,
    save,
)

NAME = "shrinkage"
SUMMARY = "Fig. 1 left: diameter of the private embedding vs sqrt(1 - 2 pi) x diameter"
CONFIG = {
    "seed": 0,
    "replicates": 10,
    "n_nodes": 1500,
    "models": ["sbm", "circle"],
    "epsilons": [0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, float("inf")],
}
QUICK = {"replicates": 2, "n_nodes": 300, "epsilons": [0.0, 1.0, 4.0, float("inf")]}

SBM_B = [[0.55, 0.2, 0.15], [0.2, 0.45, 0.1], [0.15, 0.1, 0.5]]
_MODELS = ("sbm", "circle")


def validate(config):
    check_epsilons(NAME, config["epsilons"])
    check_min(NAME, "n_nodes", config["n_nodes"], 30)
    check_choices(NAME, "models", config["models"], _MODELS)


RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "n_nodes": nodes(30),
    "models": choices(_MODELS),
    "epsilons": epsilons(zero=True, infinite=True),
}

# Time of one task on one core (for the run's estimate, checked against --max-hours before any
# work): fitted to the full runs' task times (figures/*/results.csv, a shared 2-core
# machine); the longest task of a point runs up to 4 times its mean.


def point_seconds(point, config):
    task = dense_seconds(config["n_nodes"], 0.1, 1.0e-7)
    return config["replicates"] * task, 4 * task


def peak_memory(config):
    """Peak bytes of the largest task (checked before a run starts)."""
    return dense_task_memory(config["n_nodes"])


def points(config):
    return [{"model": m, "epsilon": float(e)} for m in config["models"]
            for e in config["epsilons"]]


def latent(model, n, seed):
    if model == "sbm":
        return tdadp.sbm(n, SBM_B, random_state=seed)
    return tdadp.circle(n, random_state=seed)


def diameter(model, Y, labels):
    Y = np.asarray(Y)
    if model == "sbm":
        centroids = np.array([Y[labels == k].mean(axis=0) for k in np.unique(labels)])
        diff = centroids[:, None, :] - centroids[None, :, :]
        return float(np.sqrt((diff ** 2).sum(-1)).max())
    return float(2 * np.mean(np.linalg.norm(Y - Y.mean(axis=0), axis=1)))


def _embed(model, n, eps, seed):
    s_latent, s_graph, s_flip = seed.spawn(3)
    X = latent(model, n, s_latent)
    A = tdadp.sample_grdpg(X, random_state=s_graph)
    B = tdadp.edge_flip(A, eps, random_state=s_flip)
    d = sum(tdadp.private_signature(X, eps))
    return X, tdadp.adjacency_spectral_embedding(B, n_components=d)


def run_task(params, config, seed):
    model, eps = params["model"], params["epsilon"]
    X, X_hat = _embed(model, config["n_nodes"], eps, seed)
    labels = X.labels if X.labels is not None else np.zeros(len(X), int)
    d0 = diameter(model, X, labels)
    measured = diameter(model, X_hat, labels)
    theory = float(np.sqrt(1 - 2 * tdadp.flip_probability(eps)))
    return {"latent_diameter": d0, "theory_diameter": theory * d0,
            "embedded_diameter": measured, "ratio": measured / d0, "theory_ratio": theory}


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(13, 4), gridspec_kw={"width_ratios": [1.3, 1, 1]})
    ax = axes[0]
    finite = [r for r in rows if np.isfinite(r["epsilon"])]
    bands = band(finite, "epsilon", "ratio", ("model",))
    for (model,), (xs, median, quantiles, _) in bands.items():
        plot_band(ax, xs, median, quantiles, f"{model}: measured")
    top = max([e for e in config["epsilons"] if np.isfinite(e)] or [8.0])
    grid = np.linspace(0, top, 300)
    ax.plot(grid, np.sqrt(1 - 2 * tdadp.flip_probability(grid)), "k--",
            label="theory sqrt(1 - 2 pi)")
    ax.axhline(1.0, color="grey", lw=0.5)
    ax.set_xlabel("epsilon")
    ax.set_ylabel("diameter ratio private / non-private")
    ax.set_title(f"edgeFlip shrinks the geometry (n = {config['n_nodes']}, "
                 f"{config['replicates']} replicates:\nmedian and 10-90% quantiles)", fontsize=10)
    ax.legend(fontsize=8)
    # One replicate's embeddings at a few eps, first two coordinates after Procrustes.
    seed = np.random.SeedSequence(config["seed"], spawn_key=(10**6,))
    for ax, model in zip(axes[1:], ("sbm", "circle")):
        for eps, color in ((np.inf, "C0"), (2.0, "C1"), (0.5, "C2"), (0.0, "C3")):
            X, X_hat = _embed(model, config["n_nodes"], eps, seed)
            Y = np.asarray(X_hat)
            # centre and rotate onto the first coordinates of the latent positions
            k = min(Y.shape[1], X.shape[1])
            Y = Y[:, :k] - Y[:, :k].mean(0)
            Xc = np.asarray(X)[:, :k] - np.asarray(X)[:, :k].mean(0)
            Z, _ = tdadp.procrustes_align(Y, Xc)
            if Z.shape[1] == 1:
                Z = np.c_[Z, np.zeros(len(Z))]
            ax.scatter(Z[:, 0], Z[:, 1], s=2, alpha=0.4, color=color, label=f"eps={eps:g}")
        ax.set_aspect("equal")
        ax.set_xlabel("coordinate 1 (aligned to the latent positions)")
        ax.set_ylabel("coordinate 2")
        ax.locator_params(nbins=5)
        if model == "sbm":  # a narrow panel: two ticks, or their labels overlap
            ax.xaxis.set_major_locator(MaxNLocator(nbins=2))
        ax.set_title(f"{model}: plain ASE of the release", fontsize=10)
    # one legend for both scatters, under them: inside, it covered points
    handles, labels = axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.67, -0.01), ncol=4,
               fontsize=8, markerscale=4)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return save(fig, out_dir, "shrinkage", formats)
