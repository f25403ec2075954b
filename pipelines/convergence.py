"""Convergence (Prop. 2): the diagram of ASE(edgeFlip(A)) against that of ASE(A), as n grows.

The paper's pair: the H1 alpha diagram of the plain ASE of a latent-circle RDPG A, and that of
the plain ASE of its edgeFlip release B. B is a gRDPG whose latent circle is shrunk by
k = sqrt(1 - 2 pi(eps)) (pairwise distances scale by k, so its population diagram is k times
the latent one). As n grows we track:

- ``w_raw``: W_inf between the raw diagrams. Prop. 2(i): it does not vanish; it tends to the
  population bias W_inf(D(X), k D(X)) (``w_bias``, about r (1 - k) for a circle of radius r).
- ``w_si_log``: the shift-invariant W_SI between log diagrams (scale-free, eps unknown). A
  dilation by k shifts a log diagram by log k, but the main loop's birth is set by sampling
  density and embedding noise, not by the latent scale, so its log-birth barely moves while
  its log-death moves by log k: W_SI has a floor near |log k| / 2 (``si_floor``), whatever n.
- ``w_di``: the dilation-invariant bottleneck min_c W_inf(D_A, c D_B) on raw diagrams (scale-
  free, eps unknown): converges; its optimal scale ``di_scale`` estimates 1 / k.
- ``w_adjusted``: W_inf between D_A and the diagram of the privacy-adjusted ASE of B (eps
  known), beside ``w_nonprivate`` = W_inf(D_A, D(X)), the non-private estimate's own error.
"""

from __future__ import annotations

import numpy as np

import tdadp
from tdadp.topology import (
    bottleneck_distance,
    dilation_invariant_bottleneck,
    log_diagram,
    persistence_diagram,
    shift_invariant_bottleneck,
)

from ._common import (
    REPLICATES,
    SEED,
    band,
    check_components,
    check_epsilons,
    check_min,
    check_range,
    dense_seconds,
    dense_task_memory,
    epsilons,
    fitted_slope,
    nodes,
    note_on_figure,
    plot_band,
    pyplot,
    real,
    save,
    size_axis,
    sizes,
    write_slopes,
)

NAME = "convergence"
SUMMARY = ("Prop. 2: ASE(A) vs ASE(edgeFlip(A)): raw W_inf, log W_SI and its floor, "
           "dilation-invariant W, adjusted W_inf, against n")
CONFIG = {
    "seed": 0,
    "replicates": 6,
    "sizes": [500, 1000, 2000, 4000, 8000, 16000],
    "epsilons": [0.5, 1.0, 2.0, 4.0],
    "n_components": 3,
    "radius": 0.4,
}
QUICK = {"replicates": 2, "sizes": [500, 1000, 2000], "epsilons": [2.0]}

# Below this size the dilation-invariant distance has not yet left its small-n plateau
# (measured at eps = 2: 0.015 at n = 500 and 1,000, 0.004 from 2,000 on).
CONVERGENCE_FROM = 2000
# Certified tolerances: far below the smallest values measured (W_DI 0.002 at n = 16,000;
# log W_SI 0.1).
_DI_TOL = 1e-5
_SI_TOL = 1e-4


def validate(config):
    check_epsilons(NAME, config["epsilons"], allow_inf=False, positive=True)
    check_min(NAME, "sizes", config["sizes"], 50)
    check_min(NAME, "n_components", config["n_components"], 2)
    check_components(NAME, config["n_components"], config["sizes"])
    check_range(NAME, "radius", config["radius"], 0.0, 0.6,
                "the circle sits at height 0.6: probabilities must stay in [0, 1]")


RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "sizes": sizes(50),
    "epsilons": epsilons(),
    "n_components": nodes(2),
    "radius": real(0.0, 0.6),
}

# Time of one task on one core (for the run's estimate, checked against --max-hours before any
# work): fitted to the full runs' task times (figures/*/results.csv, a shared 2-core
# machine); the longest task of a point runs up to 4 times its mean.


def point_seconds(point, config):
    task = dense_seconds(point["n_nodes"], 3.0, 1.0e-6)
    return config["replicates"] * task, 4 * task


def peak_memory(config):
    """Peak bytes of the largest task (checked before a run starts)."""
    return dense_task_memory(max(config["sizes"]))


def points(config):
    return [{"n_nodes": int(n), "epsilon": float(e)} for e in config["epsilons"]
            for n in config["sizes"]]


def notes(config):
    """What a reader of a small run should know (printed and drawn on the figure)."""
    if max(config["sizes"]) >= 2 * CONVERGENCE_FROM:
        return []
    return [f"n <= {max(config['sizes'])}: the dilation-invariant W leaves its small-n plateau "
            f"from n ~ {CONVERGENCE_FROM} on; the full run (tdadp run convergence) goes to "
            "n = 16,000"]


def shrink_factor(eps):
    """k = sqrt(1 - 2 pi(eps)): edgeFlip's dilation of the latent positions."""
    return float(np.sqrt(1.0 - 2.0 * tdadp.flip_probability(eps)))


def _h1(Y):
    return persistence_diagram(np.asarray(Y), complex="alpha", homology_dimensions=(1,))


def run_task(params, config, seed):
    s_latent, s_graph, s_flip = seed.spawn(3)
    n, eps, d = params["n_nodes"], params["epsilon"], config["n_components"]
    X = tdadp.circle(n, radius=config["radius"], random_state=s_latent)
    A = tdadp.sample_grdpg(X, random_state=s_graph)
    D_A = _h1(tdadp.adjacency_spectral_embedding(A, d))
    B = tdadp.edge_flip(A, eps, random_state=s_flip)
    del A
    D_B = _h1(tdadp.adjacency_spectral_embedding(B, d))
    D_adj = _h1(tdadp.adjacency_spectral_embedding(B, d, adjust=True))
    del B
    D_X = _h1(X)
    k = shrink_factor(eps)
    si = shift_invariant_bottleneck(log_diagram(D_B), log_diagram(D_A), homology_dimension=1,
                                    tol=_SI_TOL)
    di = dilation_invariant_bottleneck(D_A, D_B, homology_dimension=1, tol=_DI_TOL)
    return {
        "w_raw": bottleneck_distance(D_A, D_B, homology_dimension=1),
        "w_bias": bottleneck_distance(D_X, D_X.scale(k), homology_dimension=1),
        "w_si_log": si.distance,
        "si_shift": si.shift,
        "si_floor": float(abs(np.log(k)) / 2),
        "log_k": float(np.log(k)),
        "w_di": di.distance,
        "w_di_lower": di.lower,
        "di_scale": di.scale,
        "di_theory_scale": 1.0 / k,
        "w_adjusted": bottleneck_distance(D_A, D_adj, homology_dimension=1),
        "w_nonprivate": bottleneck_distance(D_A, D_X, homology_dimension=1),
    }


_PANELS = (
    ("w_raw", "raw W_inf (plain ASE)", "Prop. 2(i): tends to the bias W(D_X, k D_X), dashed"),
    ("w_si_log", "log-diagram W_SI (plain ASE, eps unknown)", "dotted: floor |log k| / 2"),
    ("w_di", "dilation-invariant W (plain ASE, eps unknown)", "dotted: slope -1/2"),
    ("w_adjusted", "raw W_inf (adjusted ASE, eps known)",
     "black: W(D_A, D_X), the non-private error"),
)
_MARKERS = "osD^v<>"
_STYLES = ("-", "--", "-.", ":")


def slopes(rows):
    """Fitted log-log slope of each panel's median against n, per eps (the table beside the
    figure)."""
    out = []
    for eps in sorted({r["epsilon"] for r in rows}):
        sub = [r for r in rows if r["epsilon"] == eps]
        entry = {"epsilon": eps}
        for metric, _, _ in _PANELS + (("w_nonprivate", None, None),):
            entry[f"slope_{metric}"] = fitted_slope(sub, "n_nodes", metric)
        out.append(entry)
    return out


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    table = slopes(rows)
    fitted = {e["epsilon"]: e for e in table}
    fig, axes = plt.subplots(1, 4, figsize=(20, 4.6), sharex=True)
    sizes = sorted({r["n_nodes"] for r in rows})
    for ax, (metric, title, subtitle) in zip(axes, _PANELS):
        groups = sorted(band(rows, "n_nodes", metric, ("epsilon",)).items())
        for i, ((eps,), (xs, median, quantiles, _)) in enumerate(groups):
            line = plot_band(ax, xs, median, quantiles,
                             f"eps = {eps:g} (slope {fitted[eps][f'slope_{metric}']:+.2f})",
                             marker=_MARKERS[i % 7], ls=_STYLES[i % 4], color=f"C{i}")
            sub = [r for r in rows if r["epsilon"] == eps]
            if metric == "w_raw":
                xs_b, bias, _, _ = band(sub, "n_nodes", "w_bias")[()]
                ax.plot(xs_b, bias, color=line.get_color(), ls="--", lw=1)
            elif metric == "w_si_log":
                ax.plot(xs, np.full(len(xs), sub[0]["si_floor"]), color=line.get_color(),
                        ls=":", lw=1.2)
        if metric == "w_raw":
            ax.axhline(config["radius"] / 2, color="grey", lw=1, ls="-.")
            ax.annotate("r / 2: loop not recovered", (sizes[0], config["radius"] / 2),
                        fontsize=7, va="bottom", color="grey")
        if metric == "w_di" and groups:
            xs, median = groups[-1][1][0], groups[-1][1][1]
            ax.plot(xs, median[0] * (np.asarray(xs) / xs[0]) ** -0.5, "k:", lw=1)
        if metric == "w_adjusted":
            xs, median, quantiles, _ = band(rows, "n_nodes", "w_nonprivate")[()]
            plot_band(ax, xs, median, quantiles,
                      f"W(D_A, D_X) (slope {fitted_slope(rows, 'n_nodes', 'w_nonprivate'):+.2f})",
                      color="k", marker="s")
        size_axis(ax, sizes)
        ax.set_ylabel("distance to the diagram of ASE(A)")
        ax.set_title(f"{title}\n{subtitle}", fontsize=9)
        ax.legend(fontsize=7, loc="lower left")
    fig.suptitle(f"latent circle (r = {config['radius']:g}), H1 alpha diagrams of ASE(A) vs "
                 f"ASE(edgeFlip(A)); {config['replicates']} replicates: median and 10-90% "
                 "quantiles", fontsize=10)
    note_on_figure(fig, notes(config))
    fig.tight_layout()
    write_slopes(table, out_dir, NAME)
    return save(fig, out_dir, NAME, formats)
