"""Convergence (Prop. 2): persistence diagrams of the private embedding as n grows.

The edgeFlip release of a latent circle is a gRDPG whose latent circle is shrunk by
sqrt(1 - 2 pi). Against the H1 alpha diagram of the true latent positions we track, as n grows:
- W_inf between raw diagrams of the plain ASE: stalls at the shrinkage bias;
- W_SI between log diagrams of the plain ASE: scale-free, so it needs no knowledge of eps and
  should fall with n;
- W_inf between raw diagrams of the privacy-adjusted ASE (eps known): should fall with n.
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
    check_components,
    check_epsilons,
    check_min,
    dense_task_memory,
    plot_band,
    pyplot,
    save,
)

NAME = "convergence"
SUMMARY = "Prop. 2: W_inf raw, W_SI log and W_inf adjusted against n, per eps"
CONFIG = {
    "seed": 0,
    "replicates": 20,
    "sizes": [250, 500, 1000, 2000, 4000, 8000],
    "epsilons": [0.5, 1.0, 2.0, 4.0],
    "n_components": 3,
}
QUICK = {"replicates": 2, "sizes": [100, 200, 400], "epsilons": [1.0, 4.0]}


def validate(config):
    check_epsilons(NAME, config["epsilons"], allow_inf=False, positive=True)
    check_min(NAME, "sizes", config["sizes"], 50)
    check_min(NAME, "n_components", config["n_components"], 2)
    check_components(NAME, config["n_components"], config["sizes"])


def peak_memory(config):
    """Peak bytes of the largest task (checked before a run starts)."""
    return dense_task_memory(max(config["sizes"]))


def points(config):
    return [{"n_nodes": int(n), "epsilon": float(e)} for e in config["epsilons"]
            for n in config["sizes"]]


def _h1(Y):
    return persistence_diagram(np.asarray(Y), complex="alpha", homology_dimensions=(1,))


def run_task(params, config, seed):
    s_latent, s_graph, s_flip = seed.spawn(3)
    n, eps, d = params["n_nodes"], params["epsilon"], config["n_components"]
    X = tdadp.circle(n, random_state=s_latent)
    A = tdadp.sample_grdpg(X, random_state=s_graph)
    B = tdadp.edge_flip(A, eps, random_state=s_flip)
    del A
    truth = _h1(X)
    plain = _h1(tdadp.adjacency_spectral_embedding(B, d))
    adjusted = _h1(tdadp.adjacency_spectral_embedding(B, d, adjust=True))
    si = shift_invariant_bottleneck(log_diagram(plain), log_diagram(truth),
                                    homology_dimension=1)
    return {
        "w_raw": bottleneck_distance(plain, truth, homology_dimension=1),
        "w_si_log": si[0],
        "si_shift": si[1],
        "theory_shift": float(0.5 * np.log(1 - 2 * tdadp.flip_probability(eps))),
        "w_adjusted": bottleneck_distance(adjusted, truth, homology_dimension=1),
    }


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(14, 4), sharex=True)
    panels = (("w_raw", "W_inf, raw diagrams (plain ASE)"),
              ("w_si_log", "W_SI, log diagrams (plain ASE, eps unknown)"),
              ("w_adjusted", "W_inf, raw diagrams (adjusted ASE, eps known)"))
    for ax, (metric, title) in zip(axes, panels):
        for (eps,), (xs, median, quantiles, _) in sorted(band(rows, "n_nodes", metric,
                                                     ("epsilon",)).items()):
            plot_band(ax, xs, median, quantiles, f"eps = {eps:g}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(config["sizes"], [str(n) for n in config["sizes"]])
        ax.xaxis.set_minor_formatter(plt.NullFormatter())
        ax.set_xlabel("n (nodes)")
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("distance to the latent circle's H1 diagram")
    fig.suptitle(f"latent circle, {config['replicates']} replicates (median and 10-90% "
                 "quantiles)", fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, "convergence", formats)
