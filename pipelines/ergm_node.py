"""ERGM node level: Goldberg's (2018) Sec. 5.3 study (Figs. 5.6, C.1, C.2), truncation vs LP.

Models 1-3 of the thesis (Table 5.1; the parameterisation and decays chosen by the ``ergm``
experiment's scan: its ``convention``, ``decay``, ``decay_tri``, ``decay_2p``) at each n of
``sizes``; ``networks`` networks per model and n. Each model's statistics (those with a
non-zero parameter: 2, 3 and 4 of them) are released at node level at ``epsilon`` per
statistic (:class:`~tdadp.ergm.ERGMStatisticsRelease`, ``level="node"``, total budget
``epsilon`` times their number), once per network, at each of the thesis's cutoffs (the min,
median, max and 1.5 x max of the point's networks' maximum degrees) and with each projection
onto H_k:

- ``truncation``: nodes of degree > k isolated, Cauchy noise at the beta-smooth bound of the
  truncated statistic's local sensitivity (the thesis's "RS(H_k) times the smooth bound");
- ``lp``: the flow / LP extension (:func:`~tdadp.ergm.lp_statistic`, Kasiviswanathan et al.
  2013, the thesis's "LP projection of Blocki et al."), whose node sensitivity is RS(H_k) on
  every graph, with Laplace noise of scale RS/eps; altkstars has no LP extension and is
  truncated in both.

The metric is the thesis's median absolute error normalised by the statistic: the median
over the point's networks of ``|released - true|``, divided by the mean of the true
statistic over the same networks (``relative_error``); ``q25``/``q75`` are the quartiles of the
same ratio. ``results.csv`` holds one row per model, n, statistic, cutoff and projection;
``points.csv`` the sweep's table (one row per model and n).
"""

from __future__ import annotations

import math
import time

import numpy as np

from tdadp.ergm import (
    ERGMStatisticsRelease,
    ergm_statistics,
    lp_statistic,
    parse_terms,
    sample_ergm,
    truncate_max_degree,
    truncation_smooth_sensitivity,
)
from tdadp.experiments import ConfigError, Values, write_table
from tdadp.utils import Options

from . import ergm
from ._common import REPLICATES, SEED, count, note_on_figure, pyplot, real, save, sizes

NAME = "ergm_node"
SUMMARY = "Goldberg (2018) Sec. 5.3: node-level releases of ERGM statistics, naive " \
          "truncation (Cauchy, smooth bound) vs the flow / LP extension (Laplace), by n and cutoff"
PROJECTIONS = ("truncation", "lp")
CUTOFFS = ergm.CUTOFFS
# The thesis's claim checked here (Sec. 5.3): model 1's k-triangle error below 25% for n > 700.
CLAIM = {"model": 1, "statistic": "altktriangles", "n_above": 700, "relative_error": 0.25}
CONFIG = {
    "seed": 0,
    "replicates": 1,
    "models": [1, 2, 3],
    "sizes": [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000],
    # the thesis draws 50 networks per model and n; 40 fit the time of 2 shared cores
    "networks": 40,
    "epsilon": 0.5,
    "projections": list(PROJECTIONS),
    # the committed design of the ergm experiment (figures/ergm/provenance.json)
    "convention": ergm.CONFIG["convention"],
    "decay": ergm.CONFIG["decay"],
    "decay_tri": ergm.CONFIG["decay_tri"],
    "decay_2p": ergm.CONFIG["decay_2p"],
    "sample_steps_per_dyad": ergm.CONFIG["sample_steps_per_dyad"],
}
QUICK = {"models": [1, 3], "sizes": [40, 80], "networks": 4, "sample_steps_per_dyad": 10}

_DECAY = real(1.0, 2.0 ** 30, "both")
RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "models": Values(Options(*ergm.MODELS), max_len=len(ergm.MODELS)),
    "sizes": sizes(10, max_len=20),
    "networks": count(1, 1000),
    "epsilon": real(0.0, math.inf),
    "projections": Values(Options(*PROJECTIONS), max_len=len(PROJECTIONS)),
    "convention": [Options(*ergm.CONVENTIONS)],
    "decay": _DECAY,
    "decay_tri": _DECAY,
    "decay_2p": _DECAY,
    "sample_steps_per_dyad": count(1, 10**4),
}


def validate(config):
    if len(set(config["sizes"])) != len(config["sizes"]):
        raise ConfigError(f"{NAME}: sizes must be distinct, got {config['sizes']}")
    if max(config["sizes"]) > 5000:
        raise ConfigError(f"{NAME}: sizes above 5,000 nodes are not supported (the "
                          f"networks are dense n x n arrays), got {max(config['sizes'])}")


def points(config):
    return [{"model": m, "n_nodes": n} for m in config["models"] for n in config["sizes"]]


# Seconds on one core of an idle machine: MH steps cost about 0.8 us (model 1, the densest)
# or 0.35 us; a release a few ms to 0.4 s (the LP, when it is solved).
def point_seconds(point, config):
    n = point["n_nodes"]
    per_step = 8e-7 if point["model"] == 1 else 3.5e-7
    draw = 0.05 + per_step * config["sample_steps_per_dyad"] * n * (n - 1) / 2
    each = config["networks"] * (draw + len(CUTOFFS) * len(config["projections"]) * 0.05)
    return config["replicates"] * each, each


def peak_memory(config):
    """The point's networks (n x n uint8 each) and a release's LP (HiGHS), plus Python."""
    n = max(config["sizes"])
    return 400e6 + config["networks"] * n * n + 30 * n * n


def notes(config):
    out = []
    if config["networks"] < 50:
        out.append(f"{config['networks']} networks per model and n (the thesis: 50)")
    if max(config["sizes"]) <= CLAIM["n_above"]:
        out.append(f"n up to {max(config['sizes'])}: the thesis's claim is about n > "
                   f"{CLAIM['n_above']}")
    return out


def _mechanism(stats, config, k, projection, rng):
    eps = config["epsilon"] * len(stats)
    return ERGMStatisticsRelease(statistics=stats, epsilon=eps, level="node", max_degree=k,
                                 projection=projection, random_state=rng).fit()


def _projected(A, stats, k, projection):
    """The statistics of the projection (no noise): what the release centres on."""
    trunc = ergm_statistics(truncate_max_degree(A, k), parse_terms(stats))
    if projection == "truncation":
        return trunc
    out = trunc.copy()
    for t, s in enumerate(stats):
        name = s if isinstance(s, str) else s[0]
        if name != "altkstars":
            out[t] = float(lp_statistic(A, s, k))
    return out


def _noise_scales(mech, A, k):
    """Each statistic's noise scale on A: the fixed Laplace scale (LP blocks), or the
    Cauchy scale Delta S*(A) / alpha of the truncation (computed from the public bounds)."""
    deg = np.asarray(A.sum(axis=1)).ravel().astype(np.int64)
    factor = truncation_smooth_sensitivity(deg, k, 1.0, mech.beta_)
    return np.where(np.isnan(mech.noise_scale_), mech.sensitivity_ * factor / mech.alpha_,
                    mech.noise_scale_)


def run_task(params, config, seed):
    model, n = params["model"], params["n_nodes"]
    stats, theta, names = ergm.model_statistics(config, model)
    steps = int(config["sample_steps_per_dyad"] * n * (n - 1) // 2)
    net_seeds = seed.spawn(config["networks"])
    graphs = [sample_ergm(stats, theta, n_nodes=n, n_steps=steps, random_state=s)
              for s in net_seeds]
    truth = np.array([ergm_statistics(A, parse_terms(stats)) for A in graphs])
    maxdeg = [int(A.sum(axis=1).max()) for A in graphs]
    ks = ergm.thesis_cutoffs(maxdeg)
    row = {"statistics": " + ".join(names),
           "density": float(np.mean([A.sum() / (n * (n - 1)) for A in graphs])),
           "max_degree": float(np.mean(maxdeg))}
    mean = truth.mean(axis=0)
    for t, name in enumerate(names):
        row[f"mean_{name}"] = float(mean[t])
    release_seeds = iter(seed.spawn(len(CUTOFFS) * len(config["projections"])))
    for rule in CUTOFFS:
        k = ks[rule]
        row[f"k_{rule}"] = k
        row[f"removed_{rule}"] = float(np.mean(
            [1.0 - truncate_max_degree(A, k).sum() / max(A.sum(), 1) for A in graphs]))
        for proj in config["projections"]:
            mech = _mechanism(stats, config, k, proj, np.random.default_rng(next(release_seeds)))
            start = time.perf_counter()
            released = np.array([mech.transform(A).values for A in graphs])
            row[f"seconds_{proj}_{rule}"] = time.perf_counter() - start
            projected = np.array([_projected(A, stats, k, proj) for A in graphs])
            scales = np.array([_noise_scales(mech, A, k) for A in graphs])
            err = np.abs(released - truth)
            for t, name in enumerate(names):
                key = f"{proj}_{rule}_{name}"
                row[f"sens_{key}"] = float(mech.sensitivity_[t])
                row[f"err_{key}"] = float(np.median(err[:, t]))
                row[f"q25_{key}"], row[f"q75_{key}"] = (
                    float(q) for q in np.quantile(err[:, t], [0.25, 0.75]))
                row[f"bias_{key}"] = float(np.median(np.abs(projected[:, t] - truth[:, t])))
                row[f"scale_{key}"] = float(np.median(scales[:, t]))
    return row


def _relative(value, scale):
    return value / scale if scale > 0 else math.nan


def long_rows(rows, config):
    """results.csv: one row per (model, n, replicate, statistic, cutoff, projection)."""
    out = []
    for r in rows:
        names = r["statistics"].split(" + ")
        for name in names:
            scale = r[f"mean_{name}"]
            for rule in CUTOFFS:
                for proj in config["projections"]:
                    key = f"{proj}_{rule}_{name}"
                    lp = proj == "lp" and name in ("edges", "altktriangles", "altktwopaths")
                    out.append({
                        "model": r["model"], "n_nodes": r["n_nodes"],
                        "replicate": r["replicate"], "statistic": name, "cutoff": rule,
                        "k": r[f"k_{rule}"], "projection": proj,
                        "noise": "laplace" if lp else "cauchy",
                        "networks": config["networks"], "epsilon": config["epsilon"],
                        "mean_statistic": scale, "sensitivity": r[f"sens_{key}"],
                        "median_abs_error": r[f"err_{key}"],
                        "relative_error": _relative(r[f"err_{key}"], scale),
                        "q25": _relative(r[f"q25_{key}"], scale),
                        "q75": _relative(r[f"q75_{key}"], scale),
                        "projection_bias": _relative(r[f"bias_{key}"], scale),
                        "noise_scale": _relative(r[f"scale_{key}"], scale),
                        "edges_removed_by_truncation": r[f"removed_{rule}"],
                        "release_seconds": r[f"seconds_{proj}_{rule}"]})
    return out


def claim_rows(long):
    """The thesis's claim: model 1's altktriangles error below 25% for n > 700, per cutoff
    and projection (replicate 0)."""
    out = []
    sub = [e for e in long if e["model"] == CLAIM["model"] and e["replicate"] == 0
           and e["statistic"] == CLAIM["statistic"] and e["n_nodes"] > CLAIM["n_above"]]
    for rule in CUTOFFS:
        for proj in {e["projection"] for e in sub}:
            cell = [e for e in sub if e["cutoff"] == rule and e["projection"] == proj]
            if cell:
                worst = max(e["relative_error"] for e in cell)
                out.append({"cutoff": rule, "projection": proj,
                            "sizes": " ".join(str(e["n_nodes"]) for e in cell),
                            "largest_relative_error": worst,
                            "holds": int(worst < CLAIM["relative_error"])})
    return out


_STYLE = {"truncation": "--", "lp": "-"}
_LABEL = {"truncation": "truncation + Cauchy (smooth bound)",
          "lp": "flow/LP extension + Laplace (altkstars: truncation)"}


def _figure(long, config, out_dir, formats):
    plt = pyplot()
    models = config["models"]
    fig, axes = plt.subplots(len(models), len(ergm.TERMS),
                             figsize=(3.9 * len(ergm.TERMS), 3.2 * len(models)), squeeze=False)
    for i, model in enumerate(models):
        for j, name in enumerate(ergm.TERMS):
            ax = axes[i, j]
            sub = [e for e in long if e["model"] == model and e["statistic"] == name
                   and e["replicate"] == 0]
            if not sub:
                ax.set_axis_off()
                ax.text(0.5, 0.5, f"model {model}: {name}\nnot in the model (parameter 0)",
                        ha="center", va="center", fontsize=8, transform=ax.transAxes)
                continue
            positive = False
            for c_i, rule in enumerate(CUTOFFS):
                for proj in config["projections"]:
                    cell = sorted((e for e in sub if e["cutoff"] == rule and
                                   e["projection"] == proj), key=lambda e: e["n_nodes"])
                    xs = [e["n_nodes"] for e in cell]
                    ys = np.array([e["relative_error"] for e in cell], dtype=float)
                    positive |= bool(np.any(np.isfinite(ys) & (ys > 0)))
                    ax.plot(xs, ys, ls=_STYLE[proj], marker="o", ms=2.5, color=f"C{c_i}",
                            label=f"k = {rule} of max degrees, {_LABEL[proj]}")
                    ax.fill_between(xs, [e["q25"] for e in cell], [e["q75"] for e in cell],
                                    color=f"C{c_i}", alpha=0.08, lw=0)
            if model == CLAIM["model"] and name == CLAIM["statistic"]:
                ax.axhline(CLAIM["relative_error"], color="k", lw=0.8, ls=":",
                           label="thesis: < 25% for n > 700 (model 1, k-triangles)")
                if max(config["sizes"]) > CLAIM["n_above"]:
                    ax.axvline(CLAIM["n_above"], color="k", lw=0.5, ls=":")
            if positive:
                ax.set_yscale("log")
            else:
                ax.text(0.5, 0.5, "the statistic is 0 in every network:\nno relative error",
                        ha="center", va="center", fontsize=8, transform=ax.transAxes)
            ax.set_xlabel("n (nodes)", fontsize=8)
            ax.set_ylabel("median |error| / mean statistic", fontsize=8)
            ax.set_title(f"model {model}: {name}", fontsize=9)
    handles = {}
    for ax in axes.ravel():
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=3, fontsize=7,
               bbox_to_anchor=(0.5, 0.025))
    fig.suptitle(
        f"Node-level releases of ERGM statistics (Goldberg 2018, Sec. 5.3), eps = "
        f"{config['epsilon']:g} per statistic, {config['networks']} networks per model and n, "
        f"one release each ({config['convention']}, decays {config['decay']:g} / "
        f"{config['decay_tri']:g} / {config['decay_2p']:g}); y: median over the networks of "
        "|released - true| / mean true statistic (log), bands: its quartiles; colour: cutoff k "
        "(min / median / max / 1.5 max of the networks' maximum degrees); solid: LP, dashed: "
        "truncation", fontsize=8, wrap=True)
    note_on_figure(fig, notes(config))
    fig.tight_layout(rect=(0, 0.02 + 0.3 / len(models), 1, 0.95))
    return save(fig, out_dir, "ergm_node", formats)


def make_figures(rows, config, out_dir, formats):
    # The sweep's table (one row per model and n) becomes points.csv; results.csv is long.
    write_table(rows, out_dir / "points.csv")
    long = long_rows(rows, config)
    write_table(long, out_dir / "results.csv")
    paths = [out_dir / "points.csv", out_dir / "results.csv"]
    claim = claim_rows(long)
    if claim:
        write_table(claim, out_dir / "claim.csv")
        paths.append(out_dir / "claim.csv")
    return paths + _figure(long, config, out_dir, formats)
