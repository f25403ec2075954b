"""ERGM: private releases of ERGM statistics and private Bayesian inference (Goldberg 2018).

Goldberg's simulation design (thesis, Table 5.1): networks from three ERGMs with edges -4.6
and (alternating k-stars, k-triangles, k-two-paths) = (0, 1, 0), (0, 2, -0.1), (2, 2, -0.5).
For each network:

- RMSE of the noisy statistics, per-statistic eps in {0.025, 0.125, 0.25}: restricted
  sensitivity on H_k (edge level: projection + Laplace; node level: truncation + Cauchy with
  smooth sensitivity) at degree cutoffs k = that network's minimum (at least 1), median and
  1.5 x maximum degree (an oracle choice, as in the thesis: choosing k from the data is not
  itself private), against Lu & Miklau's private local sensitivity ((eps, 1e-6)-DP).
- parameter recovery on the first ``recovery_replicates`` networks of each setting: the
  posterior of the non-private exchange algorithm and of the three private methods, the
  restricted edge-level release (Algorithm 2, k = 1.5 x max degree), the local-sensitivity
  release, and the edgeFlip release at the same total budget (Karwa et al.): posterior means
  and whether the 95% credible interval covers the truth.

The decay of the alternating terms is 1 by default (``decay`` in the configuration): with
decay 2 in Snijders' parameterization models 2 and 3 are degenerate already at n = 100 (their
chains end near the complete graph), see the README.
"""

from __future__ import annotations

import math
import time

import numpy as np
from matplotlib.ticker import NullFormatter

from tdadp.ergm import ERGMStatisticsRelease, PrivateERGM, ergm_statistics, parse_terms, sample_ergm
from tdadp.experiments import ConfigError, Values
from tdadp.utils import Options

from ._common import (
    MAX_REPLICATES,
    REPLICATES,
    SEED,
    check_min,
    count,
    epsilons,
    nodes,
    pyplot,
    real,
    save,
    sizes,
)

NAME = "ergm"
SUMMARY = "Goldberg (2018): private ERGM statistics (restricted vs local sensitivity) and " \
          "private Bayesian ERGM inference"
MODELS = {1: [-4.6, 0.0, 1.0, 0.0], 2: [-4.6, 0.0, 2.0, -0.1], 3: [-4.6, 2.0, 2.0, -0.5]}
TERMS = ("edges", "altkstars", "altktriangles", "altktwopaths")
CUTOFFS = ("min", "median", "1.5max")
METHODS = ("nonprivate", "restricted", "local", "flip")
CONFIG = {
    "seed": 0,
    "replicates": 50,
    "sizes": [100, 200],
    "models": [1, 2, 3],
    "decay": 1.0,
    "epsilons": [0.025, 0.125, 0.25],
    "delta": 1e-6,
    "sample_steps_per_dyad": 20,
    "recovery_size": 100,
    "recovery_replicates": 10,
    "recovery_epsilon": 0.25,
    "recovery_iter": 2000,
    "recovery_burn_in": 1000,
}
QUICK = {"replicates": 2, "sizes": [60], "models": [1, 2], "recovery_size": 60,
         "recovery_replicates": 1, "recovery_iter": 300, "recovery_burn_in": 100,
         "sample_steps_per_dyad": 10}


def validate(config):
    check_min(NAME, "sizes", config["sizes"], 10)
    check_min(NAME, "recovery_size", config["recovery_size"], 10)
    for m in config["models"]:
        if m not in MODELS:
            raise ConfigError(f"{NAME}: unknown model {m!r} (known: 1, 2, 3)")
    if config["recovery_burn_in"] >= config["recovery_iter"]:
        raise ConfigError(f"{NAME}: recovery_burn_in = {config['recovery_burn_in']} must be "
                          f"below recovery_iter = {config['recovery_iter']}")


RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "sizes": sizes(10, max_len=20),
    "models": Values(Options(*MODELS), max_len=len(MODELS)),
    # The statistic releases' exact tables resolve alternating k-stars up to a decay of 2^30.
    "decay": real(1.0, 2.0 ** 30, "both"),
    "epsilons": epsilons(),
    "delta": real(0.0, 1.0),
    "sample_steps_per_dyad": count(1, 10**4),
    "recovery_size": nodes(10),
    "recovery_replicates": count(0, MAX_REPLICATES),
    "recovery_epsilon": real(0.0, math.inf),
    "recovery_iter": count(1, 10**7),
    "recovery_burn_in": count(0, 10**7),
}


# Seconds on one core, fitted to the full run's task times (figures/ergm/results.csv, a shared
# 2-core machine): about 0.3 us a sampler step, and a posterior fit about 5 us a dyad an
# iteration (four fits: non-private, restricted, local, edgeFlip).
def point_seconds(point, config):
    n = point["n_nodes"]
    dyads = n * (n - 1) / 2
    releases = 0.01 * len(config["epsilons"]) if n in config["sizes"] else 0.0
    each = 0.05 + 3e-7 * config["sample_steps_per_dyad"] * dyads + releases
    recovery = 0.0
    if n == config["recovery_size"]:
        recovery = 4 * config["recovery_iter"] * 1e-5 * dyads
    fits = min(config["replicates"], config["recovery_replicates"])
    return config["replicates"] * each + fits * recovery, each + (recovery if fits else 0.0)


def peak_memory(config):
    """The chains' n x n state (17 bytes a dyad) times a few chains, plus the interpreter."""
    n = max(max(config["sizes"]), config["recovery_size"])
    return 300e6 + 6 * 17 * n * n


def statistics(config):
    d = float(config["decay"])
    return ["edges", ("altkstars", d), ("altktriangles", d), ("altktwopaths", d)]


def points(config):
    return [{"model": int(m), "n_nodes": int(n)} for m in config["models"]
            for n in sorted(set(config["sizes"]) | {config["recovery_size"]})]


def cutoffs(deg):
    """The thesis's degree cutoffs for one network: min (at least 1), median, 1.5 x max."""
    return {"min": max(1, int(deg.min())), "median": max(1, int(np.median(deg))),
            "1.5max": max(1, int(np.ceil(1.5 * deg.max())))}


def _release(A, stats, eps_stat, level, k, method, delta, rng):
    p = len(stats)
    mech = ERGMStatisticsRelease(statistics=stats, epsilon=eps_stat * p, level=level,
                                 max_degree=k, method=method, delta=delta, random_state=rng)
    return np.asarray(mech.fit().transform(A).values, dtype=float)


def _rmse_part(A, s, deg, config, seed, in_rmse):
    out = {}
    if not in_rmse:
        return out
    stats = statistics(config)
    ks = cutoffs(deg)
    streams = iter(seed.spawn(len(config["epsilons"]) * (2 * len(CUTOFFS) + 1)))
    for eps in config["epsilons"]:
        for rule in CUTOFFS:
            for level in ("edge", "node"):
                v = _release(A, stats, eps, level, ks[rule], "restricted", config["delta"],
                             np.random.default_rng(next(streams)))
                for t, name in enumerate(TERMS):
                    out[f"err_{level}_{rule}_{eps:g}_{name}"] = float(v[t] - s[t])
        v = _release(A, stats, eps, "edge", None, "local", config["delta"],
                     np.random.default_rng(next(streams)))
        for t, name in enumerate(TERMS):
            out[f"err_local_{eps:g}_{name}"] = float(v[t] - s[t])
    return out


def _fit(A, config, method, k, seed):
    stats = statistics(config)
    p = len(stats)
    eps = config["recovery_epsilon"]
    kwargs = dict(statistics=stats, n_iter=config["recovery_iter"],
                  burn_in=config["recovery_burn_in"], random_state=seed)
    if method == "nonprivate":
        est = PrivateERGM(**kwargs)
    elif method == "restricted":
        est = PrivateERGM(epsilon=eps * p, mechanism="restricted", max_degree=k, **kwargs)
    elif method == "local":
        est = PrivateERGM(epsilon=eps * p, mechanism="local", delta=config["delta"], **kwargs)
    else:
        est = PrivateERGM(epsilon=eps * p, mechanism="flip", **kwargs)
    start = time.perf_counter()
    est.fit(A)
    return est, time.perf_counter() - start


def _recovery_part(A, deg, theta, config, seed):
    out = {}
    k = cutoffs(deg)["1.5max"]
    for method, s in zip(METHODS, seed.spawn(len(METHODS))):
        est, wall = _fit(A, config, method, k, s)
        ci = est.credible_interval_
        ess = est.posterior_result_.ess()
        out[f"{method}_time_s"] = wall
        out[f"{method}_acceptance"] = float(np.mean(est.posterior_result_.acceptance))
        out[f"{method}_min_ess"] = float(np.min(ess))
        for t, name in enumerate(TERMS):
            out[f"{method}_mean_{name}"] = float(est.coef_[t])
            out[f"{method}_lo_{name}"] = float(ci[t, 0])
            out[f"{method}_hi_{name}"] = float(ci[t, 1])
            out[f"{method}_covered_{name}"] = float(ci[t, 0] <= theta[t] <= ci[t, 1])
    return out


def run_task(params, config, seed):
    # The sweep seeds task (point, replicate) with spawn key (point, replicate): the
    # replicate decides whether this network also gets the (costly) recovery fits.
    replicate = int(seed.spawn_key[-1])
    s_graph, s_rmse, s_fit = seed.spawn(3)
    model, n = params["model"], params["n_nodes"]
    theta = MODELS[model]
    stats = statistics(config)
    steps = int(config["sample_steps_per_dyad"] * n * (n - 1) // 2)
    A = sample_ergm(stats, theta, n_nodes=n, n_steps=steps, random_state=s_graph)
    s = ergm_statistics(A, parse_terms(stats))
    deg = A.sum(axis=1)
    row = {"model": model, "n_nodes": n, "edges": float(s[0]), "max_degree": int(deg.max()),
           "median_degree": float(np.median(deg)), "min_degree": int(deg.min())}
    for t, name in enumerate(TERMS):
        row[f"stat_{name}"] = float(s[t])
    row.update(_rmse_part(A, s, deg, config, s_rmse, n in config["sizes"]))
    if n == config["recovery_size"] and replicate < config["recovery_replicates"]:
        row.update(_recovery_part(A, deg, theta, config, s_fit))
    return row


def _has(row, key):
    """Whether ``row`` has a number under ``key`` (a table read back has "" where none)."""
    v = row.get(key)
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v


def _errors(rows, key):
    return np.array([r[key] for r in rows if _has(r, key)], dtype=float)


def _rmse(rows, key):
    v = _errors(rows, key)
    return float(np.sqrt(np.mean(v ** 2))) if v.size else float("nan")


def _median_abs(rows, key):
    v = _errors(rows, key)
    return float(np.median(np.abs(v))) if v.size else float("nan")


def rmse_table(rows, config):
    """{(model, n, method label, eps, term): error} over the networks of each setting.

    RMSE for the Laplace releases (edge level, local); the median absolute error for the
    node level, whose Cauchy noise has no variance (its RMSE is set by the largest draw)."""
    out = {}
    for model in config["models"]:
        for n in config["sizes"]:
            sub = [r for r in rows if r["model"] == model and r["n_nodes"] == n]
            for eps in config["epsilons"]:
                for name in TERMS:
                    for rule in CUTOFFS:
                        for level in ("edge", "node"):
                            err = _rmse if level == "edge" else _median_abs
                            out[(model, n, f"{level} k={rule}", eps, name)] = err(
                                sub, f"err_{level}_{rule}_{eps:g}_{name}")
                    out[(model, n, "local", eps, name)] = _rmse(sub, f"err_local_{eps:g}_{name}")
    return out


def notes(config):
    out = []
    if config["recovery_replicates"] < 10:
        out.append(f"recovery on {config['recovery_replicates']} network(s) per model only: "
                   "coverage rates are not estimated at this size")
    return out


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    paths = []
    table = rmse_table(rows, config)
    n = max(config["sizes"])
    models = config["models"]
    eps = config["epsilons"]
    fig, axes = plt.subplots(len(models), len(TERMS), figsize=(4 * len(TERMS),
                                                                3.2 * len(models)),
                             squeeze=False)
    styles = {f"edge k={r}": ("C0", m, f"edge, k = {r} (RMSE)")
              for r, m in zip(CUTOFFS, "ov^")}
    styles.update({f"node k={r}": ("C1", m, f"node, k = {r} (median |error|, Cauchy)")
                   for r, m in zip(CUTOFFS, "ov^")})
    styles["local"] = ("C2", "s", "private local sensitivity (RMSE)")
    dashes = {"min": ":", "median": "--", "1.5max": "-"}
    for i, model in enumerate(models):
        sub = [r for r in rows if r["model"] == model and r["n_nodes"] == n]
        for j, name in enumerate(TERMS):
            ax = axes[i, j]
            for key, (color, marker, label) in styles.items():
                ys = [table[(model, n, key, e, name)] for e in eps]
                ls = dashes[key.split("k=")[1]] if "k=" in key else "-"
                ax.plot(eps, ys, color=color, marker=marker, ms=4, ls=ls, label=label)
            typical = np.median([abs(r[f"stat_{name}"]) for r in sub]) if sub else np.nan
            ax.axhline(typical, color="grey", lw=0.8, ls="-.",
                       label="median |statistic| (scale reference)")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xticks(eps)
            ax.set_xticklabels([f"{e:g}" for e in eps])
            ax.xaxis.set_minor_formatter(NullFormatter())
            ax.set_xlabel("epsilon per statistic")
            ax.set_ylabel("error of the released statistic")
            ax.set_title(f"model {model}: {name}", fontsize=9)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8,
               bbox_to_anchor=(0.5, -0.02))
    fig.suptitle(f"Error of private ERGM statistics, n = {n}, {config['replicates']} networks "
                 "per model: restricted sensitivity on H_k (edge level: projection + Laplace; "
                 "node level: truncation + Cauchy) at three cutoffs k, and private local "
                 "sensitivity (Laplace)", fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 0.97))
    paths += save(fig, out_dir, "ergm", formats)

    rec = [r for r in rows if _has(r, "nonprivate_mean_edges")]
    if rec:
        fig, axes = plt.subplots(len(models), len(TERMS), figsize=(4 * len(TERMS),
                                                                    3.0 * len(models)),
                                 squeeze=False)
        for i, model in enumerate(models):
            sub = [r for r in rec if r["model"] == model]
            for j, name in enumerate(TERMS):
                ax = axes[i, j]
                for x, method in enumerate(METHODS):
                    vals = np.array([r[f"{method}_mean_{name}"] for r in sub])
                    cover = np.mean([r[f"{method}_covered_{name}"] for r in sub]) if sub \
                        else np.nan
                    if vals.size:
                        lo, med, hi = np.quantile(vals, [0.1, 0.5, 0.9])
                        ax.plot([x, x], [lo, hi], color=f"C{x}", lw=2)
                        ax.plot(x, med, "o", color=f"C{x}")
                        ax.scatter(np.full(vals.size, x + 0.15), vals, s=6, color=f"C{x}",
                                   alpha=0.5)
                        ax.annotate(f"{100 * cover:.0f}%", (x, hi), textcoords="offset points",
                                    xytext=(0, 4), ha="center", fontsize=7)
                ax.axhline(MODELS[model][j], color="k", lw=1, ls="--", label="true value")
                ax.set_xticks(range(len(METHODS)))
                # the chains' mixing beside each method: coverage means little at low ESS
                ess = [np.median([r[f"{m}_min_ess"] for r in sub]) if sub else np.nan
                       for m in METHODS]
                ax.set_xticklabels([f"{m}\nESS {e:.0f}" for m, e in zip(METHODS, ess)],
                                   fontsize=7)
                ax.set_xlabel("inference")
                ax.set_ylabel(f"posterior mean of theta[{name}]")
                ax.set_title(f"model {model}: {name}", fontsize=9)
        fig.suptitle(f"Parameter recovery, n = {config['recovery_size']}, "
                     f"{config['recovery_replicates']} networks per model, per-statistic eps = "
                     f"{config['recovery_epsilon']:g} (edgeFlip: the same total): median and "
                     "10-90% quantiles of posterior means; label: 95% CI coverage; ESS: median "
                     f"of the smallest ESS of {config['recovery_iter']} draws",
                     fontsize=9)
        fig.tight_layout(rect=(0, 0, 1, 0.95))
        paths += save(fig, out_dir, "ergm_recovery", formats)
    return paths
