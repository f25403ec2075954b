"""Rates (journal version): the error of the privacy-adjusted embedding against n and eps.

Vishwanath and Hehir (AISTATS 2025) recover the latent positions of a gRDPG from its edgeFlip
release by embedding (A_eps - pi (11^T - I)) / (1 - 2 pi). Its expectation is P, and its
entries' noise is that of A inflated by 1 / (1 - 2 pi) = (e^eps + 1) / (e^eps - 1), so the
error of the adjusted embedding should fall like that of the plain ASE of the non-private
graph (2->inf error of order n^-1/2 up to log factors, Frobenius error O(1)) times that
inflation. For a latent circle we measure, on the same graph A, the 2->inf and Frobenius
errors (after Procrustes alignment) of ASE(A) and of the adjusted ASE of edgeFlip(A), fit
their slopes in n on log-log axes, and compare their ratio with the predicted inflation.
"""

from __future__ import annotations

import numpy as np

import tdadp

from . import _common
from ._common import (
    REPLICATES,
    SEED,
    check_epsilons,
    check_min,
    dense_seconds,
    dense_task_memory,
    epsilons,
    pyplot,
    quantile_band,
    save,
    size_axis,
    sizes,
)

NAME = "rates"
SUMMARY = "Journal version: error of the adjusted embedding vs n and eps, inflation vs theory"
CONFIG = {
    "seed": 0,
    "replicates": 10,
    "sizes": [500, 1000, 2000, 4000, 8000, 16000],
    "epsilons": [1.0, 2.0, 4.0],
}
QUICK = {"replicates": 2, "sizes": [300, 600, 1200], "epsilons": [1.0, 4.0]}


def validate(config):
    check_epsilons(NAME, config["epsilons"], allow_inf=False, positive=True)
    check_min(NAME, "sizes", config["sizes"], 50)


RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "sizes": sizes(50),
    "epsilons": epsilons(),
}

# Time of one task on one core (for the run's estimate, checked against --max-hours before any
# work): fitted to the full runs' task times (figures/*/results.csv, a shared 2-core
# machine); the longest task of a point runs up to 4 times its mean.


def point_seconds(point, config):
    task = dense_seconds(point["n_nodes"], 0.2, 6.0e-8)
    return config["replicates"] * task, 4 * task


def peak_memory(config):
    """Peak bytes of the largest task (checked before a run starts): two dense graphs."""
    return 2 * dense_task_memory(max(config["sizes"]))


def points(config):
    return [{"n_nodes": int(n), "epsilon": float(e)} for e in config["epsilons"]
            for n in config["sizes"]]


def theory_inflation(eps):
    """(e^eps + 1) / (e^eps - 1) = 1 / (1 - 2 pi(eps)): the noise inflation of the
    adjusted matrix."""
    return float(1.0 / (1.0 - 2.0 * tdadp.flip_probability(eps)))


def variance_inflation(X, eps):
    """sqrt(sum q(1 - q) / sum P(1 - P)) / (1 - 2 pi), q = (1 - 2 pi) P + pi: the inflation
    of the adjusted matrix's entrywise noise (root mean variance), P = X X^T off the
    diagonal. Flipping also raises each entry's Bernoulli variance (q is nearer 1/2 than P),
    which the factor 1 / (1 - 2 pi) alone leaves out."""
    pi = float(tdadp.flip_probability(eps))
    n = X.shape[0]
    G = X.T @ X
    ones = X.sum(axis=0)
    diag = np.einsum("ij,ij->i", X, X)
    s1 = float(ones @ ones - diag.sum())                        # sum of P_ij, i != j
    s2 = float(np.sum(G * G) - np.sum(diag ** 2))               # sum of P_ij^2
    m = n * (n - 1)
    a = 1.0 - 2.0 * pi
    q1 = a * s1 + pi * m
    q2 = a * a * s2 + 2 * a * pi * s1 + pi * pi * m
    return float(np.sqrt((q1 - q2) / (s1 - s2)) / a)


def _errors(X_hat, X):
    aligned, _ = tdadp.procrustes_align(X_hat, X)
    rows = np.linalg.norm(aligned - X, axis=1)
    return float(rows.max()), float(np.sqrt(np.sum(rows ** 2)))


def run_task(params, config, seed):
    s_latent, s_graph, s_flip = seed.spawn(3)
    n, eps = params["n_nodes"], params["epsilon"]
    X = tdadp.circle(n, random_state=s_latent)
    Xa = np.asarray(X, dtype=float)
    d = Xa.shape[1]
    A = tdadp.sample_grdpg(X, random_state=s_graph)
    two_inf_np, fro_np = _errors(np.asarray(tdadp.adjacency_spectral_embedding(A, d)), Xa)
    B = tdadp.edge_flip(A, eps, random_state=s_flip)
    del A
    X_hat = np.asarray(tdadp.adjacency_spectral_embedding(B, d, adjust=True))
    two_inf, fro = _errors(X_hat, Xa)
    return {"two_inf": two_inf, "fro": fro, "two_inf_nonprivate": two_inf_np,
            "fro_nonprivate": fro_np, "inflation_two_inf": two_inf / two_inf_np,
            "inflation_fro": fro / fro_np, "theory_inflation": theory_inflation(eps),
            "variance_inflation": variance_inflation(Xa, eps)}


def fitted_slope(rows, metric, eps=None):
    """Least-squares slope of log median(metric) against log n, at one eps or pooled over
    all (nan with fewer than two sizes)."""
    sub = rows if eps is None else [r for r in rows if r["epsilon"] == eps]
    return _common.fitted_slope(sub, "n_nodes", metric)


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    eps_values = sorted({r["epsilon"] for r in rows})
    sizes = sorted({r["n_nodes"] for r in rows})
    fig, axes = plt.subplots(1, 3, figsize=(18, 4.2))
    for ax, metric, title in ((axes[0], "two_inf", "2->inf error"),
                              (axes[1], "fro", "Frobenius error")):
        for i, eps in enumerate(eps_values):
            sub = [r for r in rows if r["epsilon"] == eps]
            xs, med, lo, hi = quantile_band(sub, "n_nodes", metric)
            line, = ax.plot(xs, med, marker="o", ms=3, color=f"C{i}",
                            label=f"eps = {eps:g} (slope {fitted_slope(rows, metric, eps):.2f})")
            ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.2, lw=0)
        xs, med, lo, hi = quantile_band(rows, "n_nodes", f"{metric}_nonprivate")
        ax.plot(xs, med, "k-", marker="s", ms=3,
                label="no privacy, pooled over eps "
                      f"(slope {fitted_slope(rows, metric + '_nonprivate'):.2f})")
        ax.fill_between(xs, lo, hi, color="k", alpha=0.1, lw=0)
        if metric == "two_inf" and len(xs) > 1:  # the n^-1/2 reference through the first point
            ref = med[0] * (np.asarray(xs) / xs[0]) ** -0.5
            ax.plot(xs, ref, "k:", lw=1, label="slope -1/2 (reference)")
        size_axis(ax, sizes)
        ax.set_ylabel(f"{title} after Procrustes")
        ax.set_title(f"{title}: adjusted ASE of edgeFlip(A) vs ASE(A)", fontsize=10)
        # where no curve runs: below the falling 2->inf curves (room made for it), between
        # the flat Frobenius ones
        if metric == "two_inf":
            ax.set_ylim(bottom=ax.get_ylim()[0] / 5)
        ax.legend(fontsize=8, loc="lower left" if metric == "two_inf" else "center right")
    ax = axes[2]
    for i, eps in enumerate(eps_values):
        sub = [r for r in rows if r["epsilon"] == eps]
        xs, med, lo, hi = quantile_band(sub, "n_nodes", "inflation_fro")
        line, = ax.plot(xs, med, marker="o", ms=3, color=f"C{i}",
                        label=f"eps = {eps:g}: measured (Frobenius)")
        ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.2, lw=0)
        ax.axhline(theory_inflation(eps), color=line.get_color(), ls="--", lw=1,
                   label=f"eps = {eps:g}: (e^eps + 1) / (e^eps - 1) = "
                         f"{theory_inflation(eps):.2f}")
        xs, med, _, _ = quantile_band(sub, "n_nodes", "variance_inflation")
        ax.plot(xs, med, color=line.get_color(), ls=":", lw=1.5,
                label=f"eps = {eps:g}: with the flips' variance ({np.median(med):.2f})")
    ax.axhline(1.0, color="grey", lw=0.5)
    size_axis(ax, sizes, log_y=False)
    ax.set_ylabel("error ratio: private / non-private (same graph)")
    ax.set_title("inflation of the error by edgeFlip", fontsize=10)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.02, 0.5))  # beside the data
    fig.suptitle(f"latent circle, {config['replicates']} replicates: median and 10-90% "
                 "quantiles", fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, "rates", formats)

