"""Mesa: private ERGM fits of the Faux Mesa High network (Goldberg 2018, Section 5.2.3).

The network is statnet's Faux Mesa High (205 students, 203 friendships,
:func:`tdadp.datasets.load_faux_mesa_high`); the model is the thesis's

    edges + nodematch('Sex', diff=TRUE) + nodematch('Race') + gwesp(decay, fixed=TRUE)

(homophily by sex, one parameter for female and one for male pairs, homophily by race, and
alternating k-triangles, tdadp's ``altktriangles(e^decay)``). Fits:

- ``non-private``: the Bayesian posterior of the network itself (exchange algorithm, prior
  N(0, ``prior_variance`` I)), ``nonprivate_fits`` independent chains. Its posterior mean and
  standard deviation stand beside the thesis's statnet MCMC MLE and standard errors (Table
  5.3): with 203 edges the likelihood dominates the prior, so the two estimate the same thing.
- ``restricted`` at each of ``restricted_epsilons`` (total budgets): the statistics of the
  network projected onto H_k (k = ``max_degree``, 15 in the thesis) with Laplace noise at the
  restricted sensitivity, epsilon split equally over the 5 statistics; then the private
  posterior. The thesis does not say whether its eps = 1, 2 are totals or per statistic:
  totals 1, 2 read them as totals, totals 5, 10 as per statistic. The committed run has
  totals 1 and 2 only (25 fits each fill two shared cores for about an hour; the earlier
  8-fit run with the empty-graph start had all four); add 5 and 10 with ``--config``.
- ``local`` at ``local_epsilon``: Lu and Miklau's private local sensitivity ((eps,
  delta)-edge DP).
- ``edgeflip`` at ``flip_epsilon``: the whole network released by randomized response
  (Karwa, Krivitsky and Slavkovic), then the posterior given the release.

Each private fit is a fresh release and posterior (``replicates`` fits per method). Every fit
runs the exchange algorithm with ``aux_steps`` MH steps an auxiliary draw, the library's
default of 5 per dyad (104,550 here), not the earlier run's 20,000 (about 1 a dyad): a
draw starts at the current latent graph, a short one barely leaves it, and that biases the
triangle parameter (on a 100-node edges + k-triangles model at eps 20: 0.51 and 1.05 over
two seeds at 5 steps a dyad, 1.29 at 20, non-private 1.18). A latent-network update takes
``latent_steps`` steps. Each private chain starts where
the library's matched start puts it (a latent graph with the released statistics and theta
its pseudo-posterior mode; see :func:`tdadp.ergm.bayes_ergm`'s ``latent_start``): from the
empty graph the latent network stayed triangle-free and the triangle parameter fell to -2
to -6 in every private method of the earlier run. ``decay_scan`` refits the non-private model at
other gwesp decays, to find the one that reproduces Table 5.3 (``decay_scan.csv``,
``decay_scan.png``). The run's
``results.csv`` is in long form: one row per fit and parameter, columns ``method, epsilon,
fit, parameter, estimate, std_error`` (posterior mean and standard deviation); the per-fit
record (seed, wall time) is ``fits.csv``. ``mesa_table.csv`` / ``mesa_table.md`` give, per
method, epsilon and parameter, the average of the estimates and their MSE and MAE about the
non-private estimate, beside the thesis's Table 5.2.
"""

from __future__ import annotations

import math

import numpy as np

from tdadp.datasets import load_faux_mesa_high
from tdadp.ergm import PrivateERGM
from tdadp.experiments import ConfigError, Values, write_table
from tdadp.utils import Interval

from ._common import REPLICATES, SEED, count, epsilons, pyplot, real, save

NAME = "mesa"
SUMMARY = "Goldberg (2018) Sec. 5.2.3: private ERGM fits of Faux Mesa High beside Tables " \
          "5.2 and 5.3"
PARAMETERS = ("edges", "homophily_female", "homophily_male", "homophily_race", "altktriangles")
METHODS = ("non-private", "restricted", "local", "edgeflip")
_MECHANISM = {"restricted": "restricted", "local": "local", "edgeflip": "flip"}

# Goldberg's thesis, Table 5.3 (statnet MCMC MLE, standard errors) and Table 5.2 (average,
# MSE, MAE over 25 private fits), in PARAMETERS order.
THESIS_MLE = (-5.86, 0.59, 0.26, 0.44, 1.39)
THESIS_SE = (0.15, 0.18, 0.23, 0.17, 0.06)
THESIS_PRIVATE = {
    ("restricted", 1.0): ((-6.30, 1.36, 0.84), (0.72, 0.48, 0.52), (-0.22, 3.20, 1.01),
                          (0.32, 2.31, 0.85), (1.56, 1.96, 0.93)),
    ("restricted", 2.0): ((-5.81, 0.30, 0.41), (0.39, 0.28, 0.37), (-0.28, 3.89, 0.74),
                          (0.59, 0.34, 0.32), (1.43, 0.44, 0.50)),
    ("local", 3.0): ((-6.13, 28.56, 3.75), (-2.36, 31.91, 4.20), (-1.86, 35.53, 4.00),
                     (-3.16, 48.89, 5.27), (-3.25, 50.75, 4.93)),
    ("edgeflip", 3.0): ((-3.00, 8.18, 2.86), (0.15, 0.20, 0.44), (0.02, 0.06, 0.23),
                        (0.09, 0.12, 0.35), (0.06, 1.76, 1.33)),
}

CONFIG = {
    "seed": 0,
    "replicates": 25,
    "decay": 0.75,
    "max_degree": 15,
    "restricted_epsilons": [1.0, 2.0],
    "local_epsilon": 3.0,
    "flip_epsilon": 3.0,
    "delta": 1e-6,
    "prior_variance": 50.0,
    "nonprivate_fits": 2,
    "decay_scan": [0.0, 0.25, 0.5, 0.6931, 0.75, 1.0, 1.0986],
    "n_iter": 1500,
    "burn_in": 500,
    "private_iter": 400,
    "private_burn_in": 200,
    "aux_steps": 104550,
    "latent_steps": 20000,
}
QUICK = {"replicates": 1, "nonprivate_fits": 1, "decay_scan": [], "n_iter": 150,
         "aux_steps": 20000, "burn_in": 75, "private_iter": 40, "private_burn_in": 20,
         "restricted_epsilons": [2.0]}

RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "decay": real(0.0, 10.0, "both"),
    "max_degree": count(1, 204),
    "restricted_epsilons": epsilons(),
    "local_epsilon": real(0.0, math.inf),
    "flip_epsilon": real(0.0, math.inf),
    "delta": real(0.0, 1.0),
    "prior_variance": real(0.0, math.inf),
    "nonprivate_fits": count(1, 100),
    "decay_scan": Values(Interval("real", 0.0, 10.0, "both"), min_len=0),
    "n_iter": count(1, 10**7),
    "burn_in": count(0, 10**7),
    "private_iter": count(1, 10**7),
    "private_burn_in": count(0, 10**7),
    "aux_steps": count(1, 10**9),
    "latent_steps": count(1, 10**9),
}


def validate(config):
    for it, burn in (("n_iter", "burn_in"), ("private_iter", "private_burn_in")):
        if config[burn] >= config[it]:
            raise ConfigError(f"{NAME}: {burn} = {config[burn]} must be below {it} = "
                              f"{config[it]}")


def formula(decay):
    return ("edges + nodematch('Sex', diff=TRUE) + nodematch('Race') + "
            f"gwesp({decay:g}, fixed=TRUE)")


def points(config):
    d = float(config["decay"])
    out = [{"method": "non-private", "epsilon": math.inf, "decay": d}]
    out += [{"method": "restricted", "epsilon": float(e), "decay": d}
            for e in config["restricted_epsilons"]]
    out.append({"method": "local", "epsilon": float(config["local_epsilon"]), "decay": d})
    out.append({"method": "edgeflip", "epsilon": float(config["flip_epsilon"]), "decay": d})
    # the non-private fit at other decays: which one gives the thesis's Table 5.3
    out += [{"method": "decay-scan", "epsilon": math.inf, "decay": float(a)}
            for a in config["decay_scan"]]
    return out


# Seconds on one core of one fit (exchange algorithm, 205 nodes): about 0.05 s an iteration
# without privacy and 0.1 s with the latent network, measured on a shared 2-core machine.
def point_seconds(point, config):
    scale = (config["aux_steps"] + config["latent_steps"]) / 2e5
    if point["method"] in ("non-private", "decay-scan"):
        each = 0.05 * scale * (config["n_iter"] + config["burn_in"])
        fits = config["nonprivate_fits"] if point["method"] == "non-private" else 1
        return fits * each, each
    each = 0.1 * scale * (config["private_iter"] + config["private_burn_in"])
    return config["replicates"] * each, each


def peak_memory(config):
    return 400e6


def run_task(params, config, seed):
    fit = int(seed.spawn_key[-1])
    method, eps = params["method"], params["epsilon"]
    if (method == "non-private" and fit >= config["nonprivate_fits"]) or \
            (method == "decay-scan" and fit > 0):
        return {"skipped": 1}
    G = load_faux_mesa_high()
    common = {"prior_cov": [float(config["prior_variance"])] * len(PARAMETERS),
              "aux_steps": config["aux_steps"], "random_state": seed}
    model = formula(params["decay"])
    if method in ("non-private", "decay-scan"):
        est = PrivateERGM(model, n_iter=config["n_iter"], burn_in=config["burn_in"], **common)
    else:
        est = PrivateERGM(model, epsilon=eps, mechanism=_MECHANISM[method],
                          latent_steps=config["latent_steps"],
                          max_degree=config["max_degree"] if method == "restricted" else None,
                          delta=config["delta"], n_iter=config["private_iter"],
                          burn_in=config["private_burn_in"], **common)
    est.fit(G)
    sd = est.posterior_.std(axis=0, ddof=1)
    ess = est.posterior_result_.ess()
    row = {"skipped": 0, "min_ess": float(np.min(ess))}
    for name, mean, s in zip(PARAMETERS, est.coef_, sd):
        row[f"estimate_{name}"] = float(mean)
        row[f"std_error_{name}"] = float(s)
    return row


def long_rows(rows):
    """The fits in long form: one row per fit and parameter."""
    out = []
    for r in rows:
        if r.get("skipped") == 1 or r["method"] == "decay-scan":
            continue
        for name in PARAMETERS:
            out.append({"method": r["method"], "epsilon": r["epsilon"],
                        "fit": int(r["replicate"]), "parameter": name,
                        "estimate": r[f"estimate_{name}"],
                        "std_error": r[f"std_error_{name}"]})
    return out


def summary_table(long):
    """Per method, epsilon and parameter: average estimate, MSE and MAE about the
    non-private estimate (the mean over the non-private fits), and the thesis's numbers."""
    reference = {}
    for name in PARAMETERS:
        vals = [r["estimate"] for r in long
                if r["method"] == "non-private" and r["parameter"] == name]
        reference[name] = float(np.mean(vals)) if vals else float("nan")
    out = []
    keys = sorted({(r["method"], r["epsilon"]) for r in long},
                  key=lambda k: (METHODS.index(k[0]), k[1]))
    for method, eps in keys:
        for t, name in enumerate(PARAMETERS):
            vals = np.array([r["estimate"] for r in long if r["method"] == method
                             and r["epsilon"] == eps and r["parameter"] == name])
            ses = np.array([r["std_error"] for r in long if r["method"] == method
                            and r["epsilon"] == eps and r["parameter"] == name])
            row = {"method": method, "epsilon": eps, "parameter": name, "fits": len(vals),
                   "average": float(vals.mean()), "mean_std_error": float(ses.mean())}
            if method == "non-private":
                row.update(mse=float("nan"), mae=float("nan"),
                           thesis_average=THESIS_MLE[t], thesis_mse=float("nan"),
                           thesis_mae=float("nan"), thesis_std_error=THESIS_SE[t])
            else:
                err = vals - reference[name]
                setting, thesis = thesis_counterpart(method, eps)
                row["thesis_setting"] = setting
                row.update(mse=float(np.mean(err ** 2)), mae=float(np.mean(np.abs(err))),
                           thesis_average=thesis[t][0] if thesis else float("nan"),
                           thesis_mse=thesis[t][1] if thesis else float("nan"),
                           thesis_mae=thesis[t][2] if thesis else float("nan"),
                           thesis_std_error=float("nan"))
            out.append(row)
    return out


def thesis_counterpart(method, eps):
    """(setting, Table 5.2 row) of a private fit at total ``eps``: the thesis's eps read as
    the total budget, or, for the restricted releases, as each of the 5 statistics' budget."""
    if (method, float(eps)) in THESIS_PRIVATE:
        return f"{method} eps={eps:g}", THESIS_PRIVATE[(method, float(eps))]
    per = float(eps) / len(PARAMETERS)
    if method == "restricted" and (method, per) in THESIS_PRIVATE:
        return f"{method} eps={per:g} read as per statistic", THESIS_PRIVATE[(method, per)]
    return "", None


def _markdown(table):
    lines = ["| method | total eps | parameter | fits | tdadp avg | tdadp MSE | tdadp MAE | "
             "thesis setting | thesis avg | thesis MSE | thesis MAE |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]

    def f(v):
        return "" if v != v else f"{v:.2f}"

    for r in table:
        eps = "" if math.isinf(r["epsilon"]) else f"{r['epsilon']:g}"
        if r["method"] == "non-private":
            ours = f"{r['average']:.2f} ({r['mean_std_error']:.2f})"
            theirs = f"{r['thesis_average']:.2f} ({r['thesis_std_error']:.2f})"
            lines.append(f"| {r['method']} | {eps} | {r['parameter']} | {r['fits']} | {ours} "
                         f"| | | MLE (SE), Table 5.3 | {theirs} | | |")
        else:
            lines.append(f"| {r['method']} | {eps} | {r['parameter']} | {r['fits']} | "
                         f"{f(r['average'])} | {f(r['mse'])} | {f(r['mae'])} | "
                         f"{r['thesis_setting']} | {f(r['thesis_average'])} | "
                         f"{f(r['thesis_mse'])} | {f(r['thesis_mae'])} |")
    return "\n".join(lines) + "\n"


def notes(config):
    out = []
    if config["replicates"] < 25:
        out.append(f"{config['replicates']} private fit(s) per method (the thesis: 25)")
    if config["private_iter"] < 300:
        out.append(f"short chains ({config['private_iter']} kept iterations a private fit): a "
                   "smoke test, not estimates")
    return out


def make_figures(rows, config, out_dir, formats):
    # The sweep's table (one row per fit) becomes fits.csv; results.csv is the long form.
    fits = [r for r in rows if r.get("skipped") != 1]
    write_table(fits, out_dir / "fits.csv")
    long = long_rows(rows)
    write_table(long, out_dir / "results.csv")
    table = summary_table(long)
    write_table(table, out_dir / "mesa_table.csv")
    (out_dir / "mesa_table.md").write_text(_markdown(table), encoding="utf-8")

    plt = pyplot()
    groups = sorted({(r["method"], r["epsilon"]) for r in long},
                    key=lambda k: (METHODS.index(k[0]), k[1]))
    short = {"non-private": "non-priv.", "restricted": "restr.", "local": "local",
             "edgeflip": "edgeFlip"}
    labels = [short[m] if math.isinf(e) else f"{short[m]}\n{e:g}" for m, e in groups]
    fig, axes = plt.subplots(1, len(PARAMETERS), figsize=(3.6 * len(PARAMETERS), 4.2),
                             squeeze=False)
    for t, name in enumerate(PARAMETERS):
        ax = axes[0, t]
        for g, (method, eps) in enumerate(groups):
            vals = [r["estimate"] for r in long if r["method"] == method
                    and r["epsilon"] == eps and r["parameter"] == name]
            jitter = np.linspace(-0.15, 0.15, len(vals)) if len(vals) > 1 else [0.0]
            ax.plot(g + np.asarray(jitter), vals, "o", color="C0", ms=3, alpha=0.6,
                    label="tdadp fit (posterior mean)" if g == 0 else None)
            ax.plot([g - 0.3, g + 0.3], [np.mean(vals)] * 2, color="C0", lw=2,
                    label="tdadp average" if g == 0 else None)
            counterpart = thesis_counterpart(method, eps)[1]
            thesis = (THESIS_MLE[t] if method == "non-private"
                      else counterpart[t][0] if counterpart else math.nan)
            ax.plot(g, thesis, "x", color="C3", ms=9, mew=2,
                    label="thesis average (Tables 5.2, 5.3)" if g == 0 else None)
        ref = THESIS_MLE[t]
        ax.axhspan(ref - 2 * THESIS_SE[t], ref + 2 * THESIS_SE[t], color="C3", alpha=0.12,
                   label="thesis MLE +- 2 SE")
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(labels, fontsize=7, rotation=60)
        ax.set_xlabel("method (total epsilon)")
        ax.set_ylabel(f"estimate of theta ({name})")
        ax.set_title(name, fontsize=9)
    handles, lab = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, lab, loc="lower center", ncol=4, fontsize=8,
               bbox_to_anchor=(0.5, -0.03))
    n_priv = max([sum(1 for r in long if r["method"] == m and r["epsilon"] == e
                      and r["parameter"] == PARAMETERS[0]) for m, e in groups
                  if m != "non-private"] or [0])
    ess = np.array([r["min_ess"] for r in fits if r["method"] in _MECHANISM
                    and "min_ess" in r], dtype=float)
    # A chain that never accepted a move has no ESS (its draws are constant): counted apart.
    frozen = int(np.isnan(ess).sum())
    ess = ess[~np.isnan(ess)]
    mixing = (f"; private fits' smallest ESS {ess.min():.0f}-{ess.max():.0f} of "
              f"{config['private_iter']} kept draws (median "
              f"{np.median(ess):.0f})" if ess.size else "")
    if frozen:
        mixing += f", {frozen} fit(s) whose chain never moved"
    fig.suptitle(f"Faux Mesa High, {formula(config['decay'])}: {n_priv} private fit(s) per method "
                 f"(thesis: 25), restricted k = {config['max_degree']}, prior N(0, "
                 f"{config['prior_variance']:g} I){mixing}", fontsize=9)
    fig.tight_layout(rect=(0, 0.07, 1, 0.93))
    paths = [out_dir / "fits.csv", out_dir / "mesa_table.csv", out_dir / "mesa_table.md",
             *save(fig, out_dir, "mesa", formats)]
    scan = scan_rows(rows)
    if scan:
        write_table(scan, out_dir / "decay_scan.csv")
        paths.append(out_dir / "decay_scan.csv")
        paths += _scan_figure(plt, scan, config, out_dir, formats)
    return paths


def scan_rows(rows):
    """The non-private fit at each decay of the scan, against Table 5.3 (in long form)."""
    out = []
    for r in sorted((r for r in rows if r["method"] == "decay-scan" and r.get("skipped") != 1),
                    key=lambda r: r["decay"]):
        for t, name in enumerate(PARAMETERS):
            est = r[f"estimate_{name}"]
            out.append({"decay": r["decay"], "lambda": math.exp(r["decay"]), "parameter": name,
                        "estimate": est, "std_error": r[f"std_error_{name}"],
                        "thesis_estimate": THESIS_MLE[t], "thesis_std_error": THESIS_SE[t],
                        "within_2_thesis_se": int(abs(est - THESIS_MLE[t]) <= 2 * THESIS_SE[t])})
    return out


def _scan_figure(plt, scan, config, out_dir, formats):
    fig, axes = plt.subplots(1, len(PARAMETERS), figsize=(3.4 * len(PARAMETERS), 3.4),
                             squeeze=False)
    for t, name in enumerate(PARAMETERS):
        ax = axes[0, t]
        sub = [r for r in scan if r["parameter"] == name]
        a = [r["decay"] for r in sub]
        ax.errorbar(a, [r["estimate"] for r in sub], yerr=[2 * r["std_error"] for r in sub],
                    fmt="o-", color="C0", ms=4, capsize=2,
                    label="tdadp posterior mean +- 2 sd")
        ax.axhspan(THESIS_MLE[t] - 2 * THESIS_SE[t], THESIS_MLE[t] + 2 * THESIS_SE[t],
                   color="C3", alpha=0.15, label="thesis MLE +- 2 SE (Table 5.3)")
        ax.axhline(THESIS_MLE[t], color="C3", lw=1)
        ax.axvline(config["decay"], color="grey", ls=":", lw=1, label="decay of the study")
        ax.set_xlabel("gwesp decay a (lambda = e^a)")
        ax.set_ylabel(f"estimate of theta ({name})")
        ax.set_title(name, fontsize=9)
    handles, lab = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, lab, loc="lower center", ncol=3, fontsize=8,
               bbox_to_anchor=(0.5, -0.04))
    fig.suptitle("Faux Mesa High, non-private fit at each k-triangle decay against the "
                 f"thesis's Table 5.3 ({config['n_iter']} iterations a fit)", fontsize=9)
    fig.tight_layout(rect=(0, 0.08, 1, 0.93))
    return save(fig, out_dir, "decay_scan", formats)
