"""Mechanisms (Fig. 1 right): edgeFlip against thresholded Laplace noise.

The anchors' setup: a latent lemniscate of Gerono (n = 100), eps from 0.5 to 10, 10 runs. For
each mechanism M and eps, the H1 alpha diagrams (log scale) of the 3-dimensional ASE of A and of
M(A) are compared with the bottleneck distance (and the shift-invariant one, which forgives the
global shrinkage), for the plain and for the privacy-adjusted embedding. LaplaceFlip is
randomized response with flip rate e^(-eps/2)/2 > 1/(1 + e^eps), so edgeFlip should be closer
at every eps.
"""

from __future__ import annotations

import numpy as np

import tdadp
from tdadp.topology import (
    bottleneck_distance,
    log_diagram,
    persistence_diagram,
    shift_invariant_bottleneck,
)

from ._common import (
    band,
    check_choices,
    check_components,
    check_epsilons,
    check_min,
    dense_task_memory,
    plot_band,
    pyplot,
    save,
)

NAME = "mechanisms"
SUMMARY = "Fig. 1 right: H1 bottleneck between ASE(A) and ASE(M(A)), edgeFlip vs LaplaceFlip"
CONFIG = {
    "seed": 0,
    "replicates": 10,
    "n_nodes": 100,
    "n_components": 3,
    "epsilons": [0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0],
    "mechanisms": ["edgeflip", "laplaceflip"],
}
QUICK = {"replicates": 2, "epsilons": [0.5, 2.0, 8.0]}

_MECHANISMS = {"edgeflip": tdadp.EdgeFlip, "laplaceflip": tdadp.LaplaceFlip}


def validate(config):
    check_epsilons(NAME, config["epsilons"], allow_inf=False, positive=True)
    check_min(NAME, "n_nodes", config["n_nodes"], 20)
    check_min(NAME, "n_components", config["n_components"], 2)
    check_choices(NAME, "mechanisms", config["mechanisms"], tuple(_MECHANISMS))
    check_components(NAME, config["n_components"], config["n_nodes"])


def peak_memory(config):
    """Peak bytes of the largest task (checked before a run starts)."""
    return dense_task_memory(config["n_nodes"])


def points(config):
    return [{"mechanism": m, "epsilon": float(e)} for m in config["mechanisms"]
            for e in config["epsilons"]]


def _log_h1(Y):
    return log_diagram(persistence_diagram(np.asarray(Y), complex="alpha",
                                           homology_dimensions=(1,)))


def run_task(params, config, seed):
    s_latent, s_graph, s_mech = seed.spawn(3)
    X = tdadp.lemniscate(config["n_nodes"], random_state=s_latent)
    A = tdadp.sample_grdpg(X, random_state=s_graph)
    eps, d = params["epsilon"], config["n_components"]
    mechanism = _MECHANISMS[params["mechanism"]](eps, random_state=s_mech)
    B = mechanism.fit_transform(A)
    # The adjusted embedding reads the mechanism's own flip rate from the release it carries.
    reference = _log_h1(tdadp.adjacency_spectral_embedding(A, d))
    out = {"flip_probability": mechanism.flip_probability_}
    for name, adjust in (("plain", False), ("adjusted", True)):
        D = _log_h1(tdadp.adjacency_spectral_embedding(B, d, adjust=adjust))
        out[f"bottleneck_{name}"] = bottleneck_distance(reference, D, homology_dimension=1)
        out[f"si_bottleneck_{name}"] = shift_invariant_bottleneck(
            reference, D, homology_dimension=1)[0]
    return out


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    styles = {"edgeflip": "-", "laplaceflip": "--"}
    for ax, metric, title in ((axes[0], "bottleneck", "bottleneck W_inf"),
                              (axes[1], "si_bottleneck", "shift-invariant W_SI")):
        for embedding in ("plain", "adjusted"):
            bands = band(rows, "epsilon", f"{metric}_{embedding}", ("mechanism",))
            for (mech,), (xs, median, quantiles, _) in sorted(bands.items()):
                plot_band(ax, xs, median, quantiles, f"{mech}, {embedding}", ls=styles[mech],
                          color="C0" if embedding == "plain" else "C1")
        ax.set_xlabel("epsilon")
        ax.set_title(f"H1 log-diagram {title}, ASE(A) vs ASE(M(A))", fontsize=10)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("distance (log scale diagrams)")
    fig.suptitle(f"lemniscate, n = {config['n_nodes']}, {config['replicates']} replicates "
                 "(median and 10-90% quantiles)", fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, "mechanisms", formats)
