"""Mechanisms (Fig. 1 right), in the authors' design: edgeFlip against LaplaceFlip as n grows.

Vishwanath and Hehir's Fig. 1 (right), as run by their experiment code (github
anonymous-fly/dp-rdpg, ``notebooks-old/comparison.ipynb``): a Gaussian-kernel graph on a
lemniscate (P_ij = min(1, N(0, sigma^2) density at |z_i - z_j|), sigma = 0.75, z on the curve
(sin t, sin t cos t) at n evenly spaced t), n from 50 to 1,000, eps = log n, 10 repeats. For each
mechanism M the H1 alpha diagram (raw, not log) of the 3-dimensional ASE of A is compared by
W_inf with that of the privacy-adjusted ASE of M(A).

Their adjustment subtracts edgeFlip's flip rate 1 / (1 + e^eps) from both releases, although
LaplaceFlip flips with probability e^(-eps/2) / 2 (larger); ``laplaceflip_authors`` reproduces
that, ``laplaceflip`` adjusts with LaplaceFlip's own rate (what tdadp's embedding reads from the
release). Their graph is a kernel graph, not an RDPG; the ``rdpg`` model runs the same
comparison on tdadp's latent lemniscate RDPG. Both mechanisms of a replicate act on the same
graph (a paired comparison).

The authors plot the mean over repeats of distances between Ripserer's alpha diagrams, whose
filtration values are diameters (twice the radius units of gudhi's and tdadp's): their curves'
end points (``PUBLISHED``, in diameters) are marked on the figure halved.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import norm

import tdadp
from tdadp.topology import bottleneck_distance, persistence_diagram

from ._common import (
    REPLICATES,
    SEED,
    check_choices,
    check_components,
    check_min,
    check_range,
    choices,
    dense_seconds,
    dense_task_memory,
    fitted_slope,
    nodes,
    pyplot,
    quantile_band,
    real,
    save,
    size_axis,
    sizes,
)

NAME = "mechanisms"
SUMMARY = ("Fig. 1 right (authors' design): H1 W_inf between ASE(A) and adjusted ASE(M(A)), "
           "edgeFlip vs LaplaceFlip, n = 50..1000, eps = log n")
CONFIG = {
    "seed": 0,
    "replicates": 10,
    "sizes": [50, 100, 200, 400, 600, 800, 1000],
    "models": ["gaussian_kernel", "rdpg"],
    "n_components": 3,
    "bandwidth": 0.75,
}
QUICK = {"replicates": 2, "sizes": [50, 200, 1000]}

MODELS = ("gaussian_kernel", "rdpg")
# The authors' curves (means) at n = 50 and n = 1,000, Gaussian-kernel lemniscate, in
# Ripserer's diameter units.
PUBLISHED = {"edgeflip": {50: 0.065, 1000: 0.008}, "laplaceflip": {50: 0.081, 1000: 0.034}}
_CURVES = (
    ("edgeflip", "edgeFlip", "C0", "o", "-"),
    ("laplaceflip_authors", "LaplaceFlip, adjusted with edgeFlip's rate (authors)", "C3", "s",
     "--"),
    ("laplaceflip", "LaplaceFlip, adjusted with its own rate", "C1", "D", "-."),
)


def validate(config):
    check_min(NAME, "sizes", config["sizes"], 20)
    check_min(NAME, "n_components", config["n_components"], 2)
    check_choices(NAME, "models", config["models"], MODELS)
    check_range(NAME, "bandwidth", config["bandwidth"], 0.0, np.inf, "the kernel's width")
    check_components(NAME, config["n_components"], config["sizes"])


RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "sizes": sizes(20),
    "models": choices(MODELS),
    "n_components": nodes(2),
    "bandwidth": real(0.0, 1e6),
}

# Time of one task on one core (for the run's estimate, checked against --max-hours before any
# work): fitted to the full runs' task times (figures/*/results.csv, a shared 2-core
# machine); the longest task of a point runs up to 4 times its mean.


def point_seconds(point, config):
    task = dense_seconds(point["n_nodes"], 0.05, 3.0e-6)
    return config["replicates"] * task, 4 * task


def peak_memory(config):
    """Peak bytes of the largest task (checked before a run starts); the Gaussian kernel's
    float64 work (differences, distances, probabilities, uniforms: 40 bytes per n^2) too."""
    n = float(max(config["sizes"]))
    kernel = 40.0 * n * n if "gaussian_kernel" in config["models"] else 0.0
    return dense_task_memory(n) + kernel


def points(config):
    return [{"model": m, "n_nodes": int(n)} for m in config["models"] for n in config["sizes"]]


def epsilon_for(n):
    """The authors' privacy budget eps = log n (flip rate 1 / (n + 1))."""
    return float(np.log(n))


def authors_lemniscate(n):
    """(sin t, sin t cos t) at n evenly spaced t in [0, 2 pi) (their grid without the
    repeated endpoint)."""
    t = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    return np.column_stack([np.sin(t), np.sin(t) * np.cos(t)])


def gaussian_kernel_graph(Z, bandwidth, rng):
    """Symmetric 0/1 adjacency with P_ij = min(1, N(0, bandwidth^2) density at |z_i - z_j|)
    on the dyads i < j and a zero diagonal."""
    diff = Z[:, None, :] - Z[None, :, :]
    P = np.minimum(1.0, norm.pdf(np.sqrt(np.einsum("ijk,ijk->ij", diff, diff)),
                                 scale=bandwidth))
    upper = np.triu(rng.random(P.shape) < P, k=1)
    return (upper | upper.T).astype(np.uint8)


def _h1(Y):
    return persistence_diagram(np.asarray(Y), complex="alpha", homology_dimensions=(1,))


def run_task(params, config, seed):
    s_graph, s_edge, s_laplace = seed.spawn(3)
    n, d = params["n_nodes"], config["n_components"]
    if params["model"] == "gaussian_kernel":
        A = gaussian_kernel_graph(authors_lemniscate(n), config["bandwidth"],
                                  np.random.default_rng(s_graph))
    else:
        A = tdadp.sample_grdpg(tdadp.lemniscate(n, random_state=s_graph),
                               random_state=s_graph.spawn(1)[0])
    eps = epsilon_for(n)
    reference = _h1(tdadp.adjacency_spectral_embedding(A, d))
    edge = tdadp.EdgeFlip(eps, random_state=s_edge).fit_transform(A)
    laplace = tdadp.LaplaceFlip(eps, random_state=s_laplace).fit_transform(A)
    del A
    embeddings = {
        "edgeflip": tdadp.adjacency_spectral_embedding(edge, d, adjust=True),
        # the authors' adjustment: edgeFlip's rate at eps, whatever the mechanism
        "laplaceflip_authors": tdadp.adjacency_spectral_embedding(np.asarray(laplace), d,
                                                                  epsilon=eps),
        "laplaceflip": tdadp.adjacency_spectral_embedding(laplace, d, adjust=True),
    }
    out = {"epsilon": eps, "flip_edgeflip": float(tdadp.flip_probability(eps)),
           "flip_laplaceflip": float(tdadp.laplace_flip_probability(eps))}
    for name, Y in embeddings.items():
        out[f"w_{name}"] = bottleneck_distance(reference, _h1(Y), homology_dimension=1)
    return out


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    models = [m for m in MODELS if any(r["model"] == m for r in rows)]
    fig, axes = plt.subplots(1, len(models), figsize=(6.5 * len(models), 4.6), squeeze=False)
    sizes = sorted({r["n_nodes"] for r in rows})
    for ax, model in zip(axes[0], models):
        sub = [r for r in rows if r["model"] == model]
        for key, label, color, marker, ls in _CURVES:
            xs, med, lo, hi = quantile_band(sub, "n_nodes", f"w_{key}")
            slope = fitted_slope(sub, "n_nodes", f"w_{key}")
            ax.plot(xs, med, color=color, marker=marker, ms=4, ls=ls,
                    label=f"{label} (slope {slope:+.2f})")
            ax.fill_between(xs, lo, hi, color=color, alpha=0.15, lw=0)
        if model == "gaussian_kernel":
            for mech, color in (("edgeflip", "C0"), ("laplaceflip", "C3")):
                ns = sorted(PUBLISHED[mech])
                ax.plot(ns, [PUBLISHED[mech][m] / 2 for m in ns], ls="none", marker="*", ms=12,
                        mfc="none", mec=color,
                        label=f"authors' {'edgeFlip' if mech == 'edgeflip' else 'LaplaceFlip'}"
                              " (published mean / 2: radius units)")
        size_axis(ax, sizes, "n (nodes); eps = log n")
        ax.set_ylabel("W_inf between H1 diagrams (radius units)")
        ax.set_title("Gaussian-kernel lemniscate (the authors' graph)" if model ==
                     "gaussian_kernel" else "latent-lemniscate RDPG (tdadp.lemniscate)",
                     fontsize=10)
        ax.legend(fontsize=7, loc="lower left")
    fig.suptitle("ASE(A) vs privacy-adjusted ASE(M(A)), d = 3, raw H1 alpha diagrams; "
                 f"{config['replicates']} replicates: median and 10-90% quantiles", fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, NAME, formats)
