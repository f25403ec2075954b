"""ERGM: Goldberg's (2018) simulation study in the thesis's design.

Three parts, one table (``results.csv``, a ``part`` column says which):

- ``scan``: the decay of the alternating statistics, which the thesis does not state ("between
  roughly 1 and 5; values between 1 and 2 suffice"). Models 1-3 (Table 5.1, theta on edges,
  alternating k-stars, k-triangles, k-two-paths) are drawn at each decay and parameterisation
  (``CONVENTIONS``), from the empty graph and from a dense one (a degenerate model ends far
  apart from the two), and their density and triangle count set beside the thesis's (average
  edge density 6% / 1% / 0.5%; model 1 the most triangles, model 2 about 3x model 3's).
  ``decay_scan.csv`` holds the table. The ``profile`` rows are the chosen decay at the sizes
  of ``profile_sizes`` (densities change with n).
- ``networks``: ``networks`` (50) networks per model at ``n_nodes`` (300) and the chosen decay;
  the thesis's degree cutoffs, the min / median / max / 1.5 x max of the networks' maximum
  degrees (one set per model, not per network), the share of edges each projection removes,
  and the error of every release of the model's statistics (2 / 3 / 4 of them: the
  statistics with a non-zero parameter) at each total eps: restricted sensitivity at each
  cutoff with tdadp's noise RS(H_k)/eps and the thesis's 3 RS(H_k)/eps, and Lu & Miklau's
  private local sensitivity.
- ``fit``: parameter recovery on the first ``runs`` networks of each model: Caimo & Friel's
  population MCMC (``chains`` ADS chains) with the N(0, ``prior_variance``) prior, from the
  network itself and from restricted releases at the median cutoff with either noise at each
  eps.
"""

from __future__ import annotations

import functools
import math
import time
from pathlib import Path

import numpy as np

from tdadp.ergm import (
    ERGMChain,
    ERGMStatisticsRelease,
    PrivateERGM,
    ergm_statistics,
    parse_terms,
    sample_ergm,
)
from tdadp.experiments import ConfigError, Values
from tdadp.release import project_max_degree
from tdadp.utils import Options

from ._common import (
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
SUMMARY = "Goldberg (2018) in the thesis's design: decay scan, restricted (RS and 3 RS) vs " \
          "local sensitivity by degree cutoff, private Bayesian ERGM parameter recovery"
# Table 5.1 of the thesis, on (edges, alternating k-stars, k-triangles, k-two-paths).
MODELS = {1: [-4.6, 0.0, 1.0, 0.0], 2: [-4.6, 0.0, 2.0, -0.1], 3: [-4.6, 2.0, 2.0, -0.5]}
TERMS = ("edges", "altkstars", "altktriangles", "altktwopaths")
# The thesis's average edge densities (Sec. 5.1).
PUBLISHED_DENSITY = {1: 0.06, 2: 0.01, 3: 0.005}
# How "alternating k-stars, k-triangles, k-two-paths with decay d" maps onto tdadp's terms
# (Snijders et al. 2006 in lambda form: altktriangles(lambda) is ergm's gwesp(log lambda)).
#   snijders: altkstars(d), altktriangles(d), altktwopaths(d), theta as given;
#   statnet:  ergm's altkstar(d), gwesp(d), gwdsp(d): lambda = d, e^d, e^d;
#   gwdegree: ergm's gwdegree(d), gwesp(d), gwdsp(d): theta_2 gwdegree(d) =
#             theta_2 (2 e^d edges - altkstars(e^d)) / e^d;
#   negstar:  as snijders with the k-star sum's sign reversed (sum (-1)^(k+1) S_k / d^(k-2)).
CONVENTIONS = ("snijders", "statnet", "gwdegree", "negstar")
CUTOFFS = ("min", "median", "max", "1.5max")
NOISES = ("restricted", "thesis")
FIT_METHODS = ("nonprivate", "restricted", "thesis")
CONFIG = {
    "seed": 0,
    "replicates": 1,
    "n_nodes": 300,
    "models": [1, 2, 3],
    # the parameterisation and the decays of the k-stars (decay), k-triangles and k-two-paths
    # of the runs, in that convention (chosen by the scan: see docs/experiments/prose/ergm.md)
    "parts": ["scan", "profile", "networks", "fit"],
    "convention": "negstar",
    "decay": 1.65,
    "decay_tri": 1.65,
    "decay_2p": 10.0,
    "sample_steps_per_dyad": 20,
    # the scan
    "scan_conventions": list(CONVENTIONS),
    "scan_decays": [1.0, 1.5, 1.75, 2.0, 3.0, 5.0],
    "scan_sizes": [100, 300],
    "scan_networks": 1,
    # per-statistic decays (k-stars, k-triangles, k-two-paths) in the chosen convention, at
    # the largest scan size
    "scan_per_statistic": [[1.65, 1.65, 1.65], [1.65, 1.65, 3.0], [1.65, 1.65, 10.0],
                           [1.65, 1.65, 50.0], [1.0, 1.3, 10.0]],
    "profile_sizes": [100, 200, 300, 500],
    "profile_networks": 3,
    # releases
    "networks": 50,
    "epsilons": [1.0, 3.0],
    "delta": 1e-6,
    # parameter recovery
    "runs": 10,
    "chains": 3,
    "prior_variance": 50.0,
    "fit_iter": 400,
    "fit_burn_in": 150,
    # MH steps of each auxiliary draw and latent update (Bergm's aux.iters is 1,000)
    "aux_steps": 5000,
}
QUICK = {"replicates": 2, "n_nodes": 40, "models": [1, 3], "scan_conventions": ["negstar"],
         "scan_decays": [1.0, 2.0], "scan_sizes": [40], "scan_networks": 1,
         "scan_per_statistic": [[1.65, 1.65, 10.0]], "aux_steps": 1000,
         "profile_sizes": [40], "profile_networks": 1, "networks": 4, "epsilons": [3.0],
         "runs": 1, "fit_iter": 60, "fit_burn_in": 30, "sample_steps_per_dyad": 10}


def validate(config):
    check_min(NAME, "n_nodes", config["n_nodes"], 10)
    for m in config["models"]:
        if m not in MODELS:
            raise ConfigError(f"{NAME}: unknown model {m!r} (known: 1, 2, 3)")
    for triple in config["scan_per_statistic"]:
        if not (isinstance(triple, (list, tuple)) and len(triple) == 3 and all(
                isinstance(d, (int, float)) and 1.0 <= d <= 2.0 ** 30 for d in triple)):
            raise ConfigError(f"{NAME}: each scan_per_statistic entry must be three decays in "
                              f"[1, 2^30] (k-stars, k-triangles, k-two-paths), got {triple!r}")
    if config["runs"] > config["networks"]:
        raise ConfigError(f"{NAME}: runs = {config['runs']} must be at most networks = "
                          f"{config['networks']} (the fits are on the first networks)")
    if config["fit_burn_in"] >= config["fit_iter"]:
        raise ConfigError(f"{NAME}: fit_burn_in = {config['fit_burn_in']} must be below "
                          f"fit_iter = {config['fit_iter']}")


# The release tables resolve altkstars up to a decay of 2^30; e^d for d <= 20 stays below.
_DECAY = real(1.0, 2.0 ** 30, "both")
RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "n_nodes": nodes(10),
    "models": Values(Options(*MODELS), max_len=len(MODELS)),
    "parts": Values(Options("scan", "profile", "networks", "fit"), max_len=4),
    "convention": [Options(*CONVENTIONS)],
    "decay": _DECAY,
    "decay_tri": _DECAY,
    "decay_2p": _DECAY,
    "sample_steps_per_dyad": count(1, 10**4),
    "scan_conventions": Values(Options(*CONVENTIONS), max_len=len(CONVENTIONS)),
    "scan_decays": Values(*real(1.0, 20.0, "both"), max_len=30),
    "scan_sizes": sizes(10, max_len=10),
    "scan_networks": count(1, 1000),
    "scan_per_statistic": Values(list, max_len=30),
    "profile_sizes": sizes(10, max_len=10),
    "profile_networks": count(1, 1000),
    "networks": count(1, 1000),
    "epsilons": epsilons(),
    "delta": real(0.0, 1.0),
    "runs": count(0, 1000),
    "chains": count(3, 100),
    "prior_variance": real(0.0, math.inf),
    "fit_iter": count(1, 10**7),
    "fit_burn_in": count(0, 10**7),
    "aux_steps": count(1, 10**9),
}


def model_terms(convention, decays, theta):
    """tdadp's terms and parameter for a model written in ``convention`` with decays
    ``(k-stars, k-triangles, k-two-paths)``."""
    ds, dt, dp = (float(d) for d in decays)
    th = [float(t) for t in theta]
    if convention in ("snijders", "negstar"):
        ls, lt, lp = ds, dt, dp
        if convention == "negstar":
            th[1] = -th[1]
    else:
        ls = ds if convention == "statnet" else math.exp(ds)
        lt, lp = math.exp(dt), math.exp(dp)
        if convention == "gwdegree":
            th[0] += 2 * th[1]
            th[1] = -th[1] / ls
    stats = ["edges", ("altkstars", ls), ("altktriangles", lt), ("altktwopaths", lp)]
    return stats, np.array(th)


def chosen_decays(config):
    return (config["decay"], config["decay_tri"], config["decay_2p"])


def model_statistics(config, model):
    """The model's statistics in the thesis's design (those with a non-zero parameter: 2, 3
    and 4 for models 1, 2, 3) and their true parameter in tdadp's terms."""
    stats, theta = model_terms(config["convention"], chosen_decays(config), MODELS[model])
    keep = [t for t in range(len(TERMS)) if t == 0 or MODELS[model][t] != 0]
    return [stats[t] for t in keep], theta[keep], [TERMS[t] for t in keep]


def points(config):
    pts = []
    parts = config["parts"]
    for conv in config["scan_conventions"] if "scan" in parts else ():
        for d in config["scan_decays"]:
            for n in config["scan_sizes"]:
                for m in config["models"]:
                    for start in ("empty", "dense"):
                        pts.append({"part": "scan", "convention": conv, "decay_star": d,
                                    "decay_tri": d, "decay_2p": d, "model": m,
                                    "n_nodes": n, "start": start})
    for ds, dt, dp in config["scan_per_statistic"] if "scan" in parts else ():
        for m in config["models"]:
            for start in ("empty", "dense"):
                pts.append({"part": "scan", "convention": config["convention"],
                            "decay_star": ds, "decay_tri": dt, "decay_2p": dp, "model": m,
                            "n_nodes": max(config["scan_sizes"]), "start": start})
    for n in config["profile_sizes"] if "profile" in parts else ():
        for m in config["models"]:
            pts.append({"part": "profile", "convention": config["convention"],
                        "decay_star": config["decay"], "decay_tri": config["decay_tri"],
                        "decay_2p": config["decay_2p"], "model": m, "n_nodes": n,
                        "start": "empty"})
    for m in config["models"] if "networks" in parts else ():
        pts.append({"part": "networks", "model": m, "n_nodes": config["n_nodes"]})
    for r in range(config["runs"]) if "fit" in parts else ():
        for m in config["models"]:
            pts.append({"part": "fit", "model": m, "n_nodes": config["n_nodes"], "run": r,
                        "method": "nonprivate", "epsilon": math.inf})
            for eps in config["epsilons"]:
                for noise in NOISES:
                    pts.append({"part": "fit", "model": m, "n_nodes": config["n_nodes"],
                                "run": r, "method": noise, "epsilon": eps})
    return pts


# Seconds on one core of an idle machine (sampler ~0.3 us a step in sparse states; a fit
# ~1.5e-5 s a dyad an iteration with 3 chains).
def point_seconds(point, config):
    n = point["n_nodes"]
    dyads = n * (n - 1) / 2
    draw = 0.05 + 3e-7 * config["sample_steps_per_dyad"] * dyads
    part = point["part"]
    if part == "scan":
        each = config["scan_networks"] * draw * 3
    elif part == "profile":
        each = config["profile_networks"] * draw
    elif part == "networks":
        each = config["networks"] * (draw + 0.05 * len(config["epsilons"]))
    else:
        each = config["networks"] * draw + config["fit_iter"] * 1.5e-5 * dyads * \
            config["chains"] / 3
    return config["replicates"] * each, each


def peak_memory(config):
    """The chains' n x n state (17 bytes a dyad) times a few chains, plus the interpreter."""
    n = max([config["n_nodes"], *config["scan_sizes"], *config["profile_sizes"]])
    return 300e6 + (4 + config["chains"]) * 17 * n * n


def _triangles(A):
    B = A.astype(np.float64)
    return float(np.einsum("ij,jk,ki->", B, B, B) / 6.0)


def _draw(stats, theta, n, start, steps_per_dyad, seed):
    """One draw of the chain from ``start``; (graph, density halfway, density at the end)."""
    rng = np.random.default_rng(seed)
    A0 = np.zeros((n, n), dtype=np.uint8)
    if start == "dense":
        U = np.triu(rng.random((n, n)) < 0.5, 1)
        A0 = (U | U.T).astype(np.uint8)
    chain = ERGMChain(A0, parse_terms(stats))
    dyads = n * (n - 1) // 2
    _, trace = chain.run(theta, steps_per_dyad * dyads, rng, trace_every=dyads)
    return chain.A, float(trace[len(trace) // 2 - 1, 0] / dyads), float(trace[-1, 0] / dyads)


def _scan_task(params, config, seed):
    stats, theta = model_terms(params["convention"], (params["decay_star"],
                                                      params["decay_tri"],
                                                      params["decay_2p"]),
                               MODELS[params["model"]])
    n = params["n_nodes"]
    networks = config["scan_networks" if params["part"] == "scan" else "profile_networks"]
    half, end, tri, maxdeg = [], [], [], []
    for s in seed.spawn(networks):
        A, h, e = _draw(stats, theta, n, params["start"], config["sample_steps_per_dyad"], s)
        half.append(h)
        end.append(e)
        tri.append(_triangles(A))
        maxdeg.append(int(A.sum(axis=1).max()))
    return {"density": float(np.mean(end)), "density_halfway": float(np.mean(half)),
            "density_sd": float(np.std(end)), "triangles": float(np.mean(tri)),
            "max_degree": float(np.mean(maxdeg)), "n_networks": networks}


def _network(config, model, index, replicate):
    """Network ``index`` of ``model`` at the chosen decay: the same graph in every part of a
    replicate (its seed depends on (seed, model, index, replicate) only)."""
    stats, theta = model_terms(config["convention"], chosen_decays(config), MODELS[model])
    seed = np.random.SeedSequence(config["seed"], spawn_key=(7, model, index, replicate))
    n = config["n_nodes"]
    steps = int(config["sample_steps_per_dyad"] * n * (n - 1) // 2)
    return sample_ergm(stats, theta, n_nodes=n, n_steps=steps, random_state=seed)


def thesis_cutoffs(max_degrees):
    """Goldberg's cutoffs: the min, median, max and 1.5 x max of the sampled networks'
    maximum degrees (at least 1)."""
    md = np.asarray(max_degrees, dtype=float)
    return {"min": max(1, int(md.min())), "median": max(1, int(np.median(md))),
            "max": max(1, int(md.max())), "1.5max": max(1, int(math.ceil(1.5 * md.max())))}


# What a network depends on (the key of the cutoffs' cache).
_NETWORK_KEYS = ("seed", "convention", "decay", "decay_tri", "decay_2p", "n_nodes",
                 "sample_steps_per_dyad", "networks")


@functools.lru_cache(maxsize=8)
def _model_cutoffs(key):
    """The thesis's cutoffs of one model (cached: each fit task of a worker needs them)."""
    config, model, replicate = dict(key[0]), key[1], key[2]
    return thesis_cutoffs([int(_network(config, model, i, replicate).sum(axis=1).max())
                           for i in range(config["networks"])])


def _cutoffs_for(config, model, replicate):
    frozen = tuple((k, config[k]) for k in _NETWORK_KEYS)
    return _model_cutoffs((frozen, model, replicate))


def _release(A, stats, eps, k, method, noise, delta, rng):
    mech = ERGMStatisticsRelease(statistics=stats, epsilon=eps, max_degree=k, method=method,
                                 noise=noise, delta=delta, random_state=rng)
    return np.asarray(mech.fit().transform(A).values, dtype=float)


def _networks_task(params, config, seed):
    model = params["model"]
    stats, _, names = model_statistics(config, model)
    replicate = int(seed.spawn_key[-1])
    graphs = [_network(config, model, i, replicate) for i in range(config["networks"])]
    degs = [A.sum(axis=1) for A in graphs]
    ks = thesis_cutoffs([int(d.max()) for d in degs])
    row = {"density": float(np.mean([d.sum() / (len(d) * (len(d) - 1)) for d in degs])),
           "triangles": float(np.mean([_triangles(A) for A in graphs])),
           "max_degree": float(np.mean([d.max() for d in degs])),
           "statistics": " + ".join(names)}
    for rule in CUTOFFS:
        row[f"k_{rule}"] = ks[rule]
        removed = [1.0 - project_max_degree(A, ks[rule]).sum() / max(A.sum(), 1)
                   for A in graphs]
        row[f"removed_{rule}"] = float(np.mean(removed))
    errors = {}
    streams = iter(seed.spawn(len(graphs) * len(config["epsilons"]) * (2 * len(CUTOFFS) + 1)))
    truth = []
    for A in graphs:
        s = ergm_statistics(A, parse_terms(stats))
        truth.append(s)
        for eps in config["epsilons"]:
            for rule in CUTOFFS:
                for noise in NOISES:
                    v = _release(A, stats, eps, ks[rule], "restricted", noise, config["delta"],
                                 np.random.default_rng(next(streams)))
                    errors.setdefault((noise, rule, eps), []).append(v - s)
            v = _release(A, stats, eps, None, "local", "restricted", config["delta"],
                         np.random.default_rng(next(streams)))
            errors.setdefault(("local", "-", eps), []).append(v - s)
    scale = np.mean(np.abs(np.array(truth)), axis=0)
    for t, name in enumerate(names):
        row[f"stat_{name}"] = float(scale[t])
    for (method, rule, eps), errs in errors.items():
        rmse = np.sqrt(np.mean(np.array(errs) ** 2, axis=0))
        for t, name in enumerate(names):
            key = f"rmse_{method}_{eps:g}_{name}" if method == "local" else \
                f"rmse_{method}_{rule}_{eps:g}_{name}"
            row[key] = float(rmse[t])
    return row


def _fit_task(params, config, seed):
    model, method, eps = params["model"], params["method"], params["epsilon"]
    stats, theta, names = model_statistics(config, model)
    replicate = int(seed.spawn_key[-1])
    A = _network(config, model, params["run"], replicate)
    k = _cutoffs_for(config, model, replicate)["median"]
    kwargs = dict(statistics=stats, method="population", n_chains=config["chains"],
                  n_iter=config["fit_iter"], burn_in=config["fit_burn_in"],
                  prior_cov=[config["prior_variance"]] * len(stats),
                  aux_steps=config["aux_steps"], latent_steps=config["aux_steps"],
                  random_state=seed)
    if method != "nonprivate":
        kwargs.update(epsilon=eps, mechanism="restricted", max_degree=k, noise=method)
    start = time.perf_counter()
    est = PrivateERGM(**kwargs).fit(A)
    row = {"k": k if method != "nonprivate" else "", "fit_time_s": time.perf_counter() - start,
           "min_ess": float(np.min(est.posterior_result_.ess())),
           "statistics": " + ".join(names)}
    ci = est.credible_interval_
    for t, name in enumerate(names):
        row[f"true_{name}"] = float(theta[t])
        row[f"mean_{name}"] = float(est.coef_[t])
        row[f"lo_{name}"] = float(ci[t, 0])
        row[f"hi_{name}"] = float(ci[t, 1])
        row[f"covered_{name}"] = float(ci[t, 0] <= theta[t] <= ci[t, 1])
    return row


def run_task(params, config, seed):
    part = params["part"]
    if part in ("scan", "profile"):
        return _scan_task(params, config, seed)
    if part == "networks":
        return _networks_task(params, config, seed)
    return _fit_task(params, config, seed)


def _has(row, key):
    """Whether ``row`` has a number under ``key`` (a table read back has "" where none)."""
    v = row.get(key)
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v


def scan_table(rows):
    """One line per (part, convention, decays, model, n, start), averaged over replicates,
    with the thesis's density beside it."""
    groups = {}
    for r in rows:
        if r.get("part") not in ("scan", "profile"):
            continue
        key = (r["part"], r["convention"], r["decay_star"], r["decay_tri"], r["decay_2p"],
               r["model"], r["n_nodes"], r["start"])
        groups.setdefault(key, []).append(r)
    out = []
    for key, sub in groups.items():
        dens = float(np.mean([r["density"] for r in sub]))
        out.append({
            "part": key[0], "convention": key[1], "decay_star": key[2], "decay_tri": key[3],
            "decay_2p": key[4], "model": key[5], "n_nodes": key[6], "start": key[7],
            "density": dens,
            "density_halfway": float(np.mean([r["density_halfway"] for r in sub])),
            "triangles": float(np.mean([r["triangles"] for r in sub])),
            "max_degree": float(np.mean([r["max_degree"] for r in sub])),
            "published_density": PUBLISHED_DENSITY[key[5]],
            "ratio_to_published": dens / PUBLISHED_DENSITY[key[5]],
            "networks": int(sum(r["n_networks"] for r in sub))})
    return out


def _write_csv(entries, path):
    import csv

    with open(path, "w", newline="") as fh:
        cols = list(entries[0]) if entries else ["part"]
        writer = csv.DictWriter(fh, fieldnames=cols)
        writer.writeheader()
        for e in entries:
            writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v)
                             for k, v in e.items()})
    return path


def notes(config):
    out = []
    if config["runs"] < 25:
        out.append(f"parameter recovery on {config['runs']} network(s) per model, not the "
                   "thesis's 25 runs (time)")
    return out


def _log_scale(ax):
    """A log y axis when the axis shows a positive value (a sparse model's statistic may be
    0 in every network of a small quick run)."""
    ys = np.concatenate([np.asarray(line.get_ydata(), dtype=float) for line in ax.lines]
                        or [np.zeros(0)])
    if np.any(np.isfinite(ys) & (ys > 0)):
        ax.set_yscale("log")


def _scan_figure(table, config, out_dir, formats):
    plt = pyplot()
    convs = config["scan_conventions"]
    # the shared-decay rows (the per-statistic ones are in decay_scan.csv)
    scan = [e for e in table if e["part"] == "scan" and
            e["decay_star"] == e["decay_tri"] == e["decay_2p"]]
    if not scan:
        return []
    fig, axes = plt.subplots(len(config["scan_sizes"]), len(convs),
                             figsize=(3.6 * len(convs), 3.0 * len(config["scan_sizes"])),
                             squeeze=False)
    for i, n in enumerate(config["scan_sizes"]):
        for j, conv in enumerate(convs):
            ax = axes[i, j]
            for m in config["models"]:
                for start, ls in (("empty", "-"), ("dense", ":")):
                    sub = sorted((e for e in scan if e["convention"] == conv and
                                  e["n_nodes"] == n and e["model"] == m and
                                  e["start"] == start), key=lambda e: e["decay_tri"])
                    if sub:
                        ax.plot([e["decay_tri"] for e in sub],
                                [100 * e["density"] for e in sub], ls=ls, marker="o", ms=3,
                                color=f"C{m - 1}",
                                label=f"model {m}, start {start}")
                ax.axhspan(75 * PUBLISHED_DENSITY[m], 125 * PUBLISHED_DENSITY[m],
                           color=f"C{m - 1}", alpha=0.12, lw=0)
            _log_scale(ax)
            ax.set_xlabel("decay d (same for the three alternating statistics)")
            ax.set_ylabel("edge density (%)")
            ax.set_title(f"{conv}, n = {n}", fontsize=9)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=6, fontsize=8,
               bbox_to_anchor=(0.5, -0.03))
    fig.suptitle("Decay scan: mean edge density of models 1-3 after "
                 f"{config['sample_steps_per_dyad']} MH sweeps from the empty graph (solid) "
                 "and from a density-0.5 graph (dotted), "
                 f"{config['scan_networks']} network(s) each; shaded: the thesis's "
                 "6% / 1% / 0.5% +-25%; statnet and gwdegree: d is ergm's decay (gwesp, "
                 "gwdsp: lambda = e^d)", fontsize=9)
    fig.tight_layout(rect=(0, 0.05, 1, 0.96))
    return save(fig, out_dir, "ergm_decay_scan", formats)


def _design(config):
    return (f"{config['convention']}, decays {config['decay']:g} / {config['decay_tri']:g} / "
            f"{config['decay_2p']:g}")


_LABEL = {"restricted": "RS(H_k)/eps (tdadp)", "thesis": "3 RS(H_k)/eps (thesis)"}


def _rmse_figure(rows, config, out_dir, formats):
    plt = pyplot()
    nets = [r for r in rows if r.get("part") == "networks"]
    if not nets:
        return []
    models = config["models"]
    fig, axes = plt.subplots(len(models), len(TERMS), figsize=(3.8 * len(TERMS),
                                                                3.0 * len(models)),
                             squeeze=False)
    for i, model in enumerate(models):
        r = next(x for x in nets if x["model"] == model)  # replicate 0
        names = r["statistics"].split(" + ")
        for j, name in enumerate(TERMS):
            ax = axes[i, j]
            if name not in names:
                ax.set_axis_off()
                ax.text(0.5, 0.5, f"model {model}: {name}\nnot in the model\n(parameter 0)",
                        ha="center", va="center", fontsize=8, transform=ax.transAxes)
                continue
            # a statistic that is 0 in every network has no relative error
            scale = r[f"stat_{name}"] if r[f"stat_{name}"] > 0 else math.nan
            xs = np.arange(len(CUTOFFS))
            for e_i, eps in enumerate(config["epsilons"]):
                for noise, ls in (("restricted", "-"), ("thesis", "--")):
                    ys = [r[f"rmse_{noise}_{c}_{eps:g}_{name}"] / scale for c in CUTOFFS]
                    ax.plot(xs, ys, ls=ls, marker="o", ms=3, color=f"C{e_i}",
                            label=f"eps = {eps:g}, {_LABEL[noise]}")
                ax.axhline(r[f"rmse_local_{eps:g}_{name}"] / scale, color=f"C{e_i}", lw=0.8,
                           ls=":", label=f"eps = {eps:g}, private local sensitivity")
            _log_scale(ax)
            ax.set_xticks(xs)
            ax.set_xticklabels([f"{c}\nk={r[f'k_{c}']}\n{100 * r[f'removed_{c}']:.2g}% cut"
                                for c in CUTOFFS], fontsize=7)
            ax.set_xlabel("degree cutoff (of the networks' maximum degrees)", fontsize=8)
            ax.set_ylabel("RMSE / mean |statistic|", fontsize=8)
            ax.set_title(f"model {model}: {name} (mean {scale:.3g})", fontsize=9)
    handles, labels = [], []
    for row_axes in axes:
        for ax in row_axes:
            h, lab = ax.get_legend_handles_labels()
            if h:
                handles, labels = h, lab
                break
        if handles:
            break
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8,
               bbox_to_anchor=(0.5, -0.04))
    fig.suptitle(f"Relative RMSE of released ERGM statistics (edge level), n = "
                 f"{config['n_nodes']}, {config['networks']} networks per model "
                 f"({_design(config)}), total eps split over the model's statistics, one "
                 "release per network; x: the thesis's cutoffs (k, mean share of edges the "
                 "projection removes)", fontsize=9)
    fig.tight_layout(rect=(0, 0.07, 1, 0.96))
    return save(fig, out_dir, "ergm", formats)


def _recovery_figure(rows, config, out_dir, formats):
    plt = pyplot()
    fits = [r for r in rows if r.get("part") == "fit" and _has(r, "min_ess")]
    if not fits:
        return []
    models = config["models"]
    labels = [("nonprivate", math.inf)] + [(noise, eps) for eps in config["epsilons"]
                                           for noise in NOISES]
    fig, axes = plt.subplots(len(models), len(TERMS), figsize=(3.8 * len(TERMS),
                                                                3.2 * len(models)),
                             squeeze=False)
    for i, model in enumerate(models):
        sub = [r for r in fits if r["model"] == model]
        names = sub[0]["statistics"].split(" + ") if sub else []
        for j, name in enumerate(TERMS):
            ax = axes[i, j]
            if name not in names:
                ax.set_axis_off()
                ax.text(0.5, 0.5, f"model {model}: {name}\nnot in the model", ha="center",
                        va="center", fontsize=8, transform=ax.transAxes)
                continue
            data, ticks = [], []
            for method, eps in labels:
                cell = [r for r in sub if r["method"] == method and r["epsilon"] == eps]
                data.append([r[f"mean_{name}"] for r in cell])
                cover = np.mean([r[f"covered_{name}"] for r in cell]) if cell else np.nan
                ess = np.median([r["min_ess"] for r in cell]) if cell else np.nan
                head = "non-private" if method == "nonprivate" else \
                    f"{'RS' if method == 'restricted' else '3RS'}, eps {eps:g}"
                ticks.append(f"{head}\ncover {100 * cover:.0f}%\nESS {ess:.0f}")
            ax.boxplot(data, whis=(0, 100))
            ax.axhline(sub[0][f"true_{name}"], color="k", ls="--", lw=1, label="true value")
            ax.set_xticks(range(1, len(ticks) + 1))
            ax.set_xticklabels(ticks, fontsize=6)
            ax.set_ylabel(f"posterior mean of theta[{name}]", fontsize=8)
            ax.set_title(f"model {model}: {name}", fontsize=9)
    fig.suptitle(f"Parameter recovery, n = {config['n_nodes']}, {config['runs']} networks per "
                 f"model (the thesis: 25; {_design(config)}, theta in tdadp's terms), "
                 f"{config['chains']} ADS chains x {config['fit_iter']} kept draws after "
                 f"{config['fit_burn_in']}, prior "
                 f"N(0, {config['prior_variance']:g}); restricted release at the median "
                 "cutoff with tdadp's noise (RS) or the thesis's (3RS); boxes: all runs "
                 "(whiskers min-max); cover: 95% CI coverage; ESS: median smallest ESS",
                 fontsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    return save(fig, out_dir, "ergm_recovery", formats)


def make_figures(rows, config, out_dir, formats):
    paths = []
    table = scan_table(rows)
    if table:
        paths.append(_write_csv(table, Path(out_dir) / "decay_scan.csv"))
    paths += _scan_figure(table, config, out_dir, formats)
    paths += _rmse_figure(rows, config, out_dir, formats)
    paths += _recovery_figure(rows, config, out_dir, formats)
    return paths
