"""Pufferfish: the Markov Quilt Mechanism against GroupDP and GK16 (Song, Wang, Chaudhuri 2017).

The paper's synthetic study (Section 5.1, Fig. 4 and Table 2): one binary Markov chain of
length T = 100, the class Theta = [alpha, 1 - alpha] (every transition matrix
[[p, 1 - p], [1 - q, q]] with p, q in [alpha, 1 - alpha], started at stationarity, as in the
authors' code), alpha from 0.1 to 0.4, eps in {0.2, 1, 5}. Each replicate draws (p, q) from
the class and a chain from it, and releases its relative-frequency histogram with each method;
the L1 error between the release and the true histogram is recorded, and so is the time each
method took to compute its noise scale (once per setting and process: the scale does not
depend on the data).

- GroupDP: Laplace(2 / eps) on each bin.
- GK16: Ghosh and Kleinberg's influence-matrix bound, where its spectral norm is below 1
  (``err_gk16`` is empty where it does not apply).
- MQMApprox: the paper's closed forms pi_min = alpha, g = 2 alpha.
- MQMExact: exact influences, the continuum covered by ``cells x cells`` cells with monotone
  bounds (an upper bound on the noise every chain of the class needs; see
  :class:`tdadp.pufferfish.BinaryIntervalFamily`).

The paper's real data (physical activity, electricity) are not available offline: the
``simulated`` settings are chains of (what we take to be) the same sizes and numbers of states,
drawn from made-up transition matrices, with Theta = that one matrix started at stationarity and
the quilt length capped at ``max_quilt`` (the authors capped it too). They measure the methods'
cost at those sizes, not the paper's utility on real data.
"""

from __future__ import annotations

import csv
import time
from functools import cache
from pathlib import Path

import numpy as np

from tdadp.experiments import ConfigError, Values
from tdadp.pufferfish import (
    BinaryIntervalFamily,
    GK16Histogram,
    GroupDPHistogram,
    MQMApprox,
    MQMExact,
    stationary_distribution,
)
from tdadp.utils import Interval, Options

from ._common import REPLICATES, SEED, check_min, count, epsilons, pyplot, quantile_band, save

NAME = "pufferfish"
SUMMARY = ("Song, Wang, Chaudhuri (2017) Fig. 4 / Table 2: L1 error and noise-scale time of "
           "GroupDP, GK16, MQMApprox, MQMExact on Markov chains")
METHODS = ("groupdp", "gk16", "mqmapprox", "mqmexact")
LABELS = {"groupdp": "GroupDP", "gk16": "GK16", "mqmapprox": "MQMApprox",
          "mqmexact": "MQMExact"}
CLASSES = {"groupdp": GroupDPHistogram, "gk16": GK16Histogram, "mqmapprox": MQMApprox,
           "mqmexact": MQMExact}
# Simulated stand-ins for the paper's real data: (number of states, chain length, weight of
# staying put). The sizes are our reading of the paper (4 activity levels of one person over
# about a week at one record a minute; AMPds's two years of minute power readings, 51 levels).
SIMULATED = {"activity": (4, 10_000, 0.8), "electricity": (51, 1_051_200, 0.5)}
CONFIG = {
    "seed": 0,
    "replicates": 500,
    "length": 100,
    "alphas": [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4],
    "epsilons": [0.2, 1.0, 5.0],
    "cells": 40,
    "simulated": ["activity", "electricity"],
    "simulated_epsilons": [1.0],
    "max_quilt": 100,
}
QUICK = {"replicates": 2, "alphas": [0.1, 0.4], "epsilons": [1.0], "cells": 8,
         "simulated": ["activity"]}


def validate(config):
    check_min(NAME, "length", config["length"], 2)
    check_min(NAME, "cells", config["cells"], 1)
    check_min(NAME, "max_quilt", config["max_quilt"], 1)
    for a in config["alphas"]:
        if not 0 < a <= 0.5:
            raise ConfigError(f"{NAME}: alphas must be in (0, 0.5], got {a!r}")
    for e in list(config["epsilons"]) + list(config["simulated_epsilons"]):
        if not 0 < e < np.inf:
            raise ConfigError(f"{NAME}: epsilons must be positive and finite, got {e!r}")
    for s in config["simulated"]:
        if s not in SIMULATED:
            raise ConfigError(f"{NAME}: unknown simulated setting {s!r} (known: "
                              f"{', '.join(SIMULATED)})")


RULES = {
    "seed": SEED,
    "replicates": REPLICATES,
    "length": count(2, 10**8),
    "alphas": Values(Interval("real", 0, 0.5, "right")),
    "epsilons": epsilons(),
    "cells": count(1, 1000),
    "simulated": Values(Options(*SIMULATED), min_len=0, max_len=len(SIMULATED)),
    "simulated_epsilons": epsilons(),
    "max_quilt": count(1, 10**6),
}


def peak_memory(config):
    """The 51-state influence tables (a few arrays of max_quilt x 51^3 floats) and the
    chains (the synthetic one of ``length`` and its uniforms, the simulated ones)."""
    big = 51 if "electricity" in config["simulated"] else 4
    return (300e6 + 5 * 8.0 * (config["max_quilt"] + 1) * big ** 3 + 16.0 * 1_051_200
            + 24.0 * config["length"])


# Seconds on one core, measured on a shared 2-core machine (benchmarks/bench_pufferfish.py
# and the full run's task times): each process fits a setting's methods once (MQMExact
# about 1.1 us per cell and chain step, GK16's eigenvalue quadratic in the length), then
# every replicate samples a chain and releases it.
def _fit_seconds(setting, T, config):
    if setting == "synthetic":
        return (0.6 + 1.1e-6 * config["cells"] ** 2 * T + 0.02 + 2.7e-9 * float(T) ** 2
                + 2e-6 * T)
    k = SIMULATED[setting][0]
    return 2.0 + 5e-7 * k ** 3 * config["max_quilt"]


def point_seconds(point, config):
    T = point["length"]
    fit = _fit_seconds(point["setting"], T, config)
    # a synthetic replicate samples its chain; a simulated one reuses the process's
    each = 0.005 + 1e-5 * T if point["setting"] == "synthetic" else 0.02
    return fit + config["replicates"] * each, fit + each


def points(config):
    out = [{"setting": "synthetic", "alpha": float(a), "epsilon": float(e),
            "n_states": 2, "length": int(config["length"])}
           for e in config["epsilons"] for a in config["alphas"]]
    for s in config["simulated"]:
        k, T, _ = SIMULATED[s]
        out += [{"setting": s, "alpha": float("nan"), "epsilon": float(e), "n_states": k,
                 "length": T} for e in config["simulated_epsilons"]]
    return out


def simulated_transition(name, seed):
    """A made-up transition matrix: ``stay * I + (1 - stay) * Dirichlet(1) rows``."""
    k, _, stay = SIMULATED[name]
    rng = np.random.default_rng([seed, k])
    return stay * np.eye(k) + (1 - stay) * rng.dirichlet(np.ones(k), size=k)


def sample_chain(P, T, rng, start=None):
    """A chain of length T (start drawn from the stationary distribution unless given)."""
    P = np.asarray(P)
    k = P.shape[0]
    cum = np.cumsum(P, axis=1)
    cum[:, -1] = 1.0
    u = rng.random(T)
    x = np.empty(T, dtype=np.int64)
    if start is None:
        pi = stationary_distribution(P)
        start = int(np.searchsorted(np.cumsum(pi), u[0] * (1 - 1e-12)))
    x[0] = min(start, k - 1)
    state = x[0]
    for t in range(1, T):
        state = int(np.searchsorted(cum[state], u[t]))
        x[t] = state
    return x


@cache
def _simulated_chain(name, seed):
    k, T, _ = SIMULATED[name]
    P = simulated_transition(name, seed)
    return P, sample_chain(P, T, np.random.default_rng([seed, 7, k]))


@cache
def _fitted(method, setting, alpha, eps, T, cells, max_quilt, seed):
    """(fitted release or None, seconds to fit it, reason) for one setting, once a process."""
    if setting == "synthetic":
        thetas = BinaryIntervalFamily(alpha, cells=cells)
        ell = None
    else:
        thetas = ("stationary", _simulated_chain(setting, seed)[0])
        ell = max_quilt
    kw = {"max_quilt": ell} if method in ("mqmexact", "mqmapprox") else {}
    mech = CLASSES[method](thetas, eps, length=T, **kw)
    start = time.perf_counter()
    try:
        mech.fit()
    except ValueError as exc:
        return None, time.perf_counter() - start, str(exc)
    return mech, time.perf_counter() - start, ""


def run_task(params, config, seed):
    rng = np.random.default_rng(seed)
    setting, eps, T = params["setting"], params["epsilon"], params["length"]
    alpha = params["alpha"]
    if setting == "synthetic":
        p, q = rng.uniform(alpha, 1 - alpha, size=2)
        x = sample_chain([[p, 1 - p], [1 - q, q]], T, rng)
        out = {"p": float(p), "q": float(q)}
    else:
        x = _simulated_chain(setting, config["seed"])[1]
        out = {}
    truth = np.bincount(x, minlength=params["n_states"]) / T
    streams = seed.spawn(len(METHODS))
    for method, stream in zip(METHODS, streams):
        if setting != "synthetic" and method == "gk16":
            continue
        mech, seconds, _ = _fitted(method, setting, None if np.isnan(alpha) else alpha,
                                        eps, T, config["cells"], config["max_quilt"],
                                        config["seed"])
        out[f"time_{method}"] = seconds
        if mech is None:
            out[f"err_{method}"] = float("nan")
            out[f"scale_{method}"] = float("inf")   # GK16 does not apply (spectral norm >= 1)
            continue
        mech.set_params(random_state=np.random.default_rng(stream))
        released = mech.transform(x)
        out[f"err_{method}"] = float(np.abs(released - truth).sum())
        out[f"scale_{method}"] = float(mech.noise_scale_)
        out[f"score_{method}"] = float(mech.score_)
    return out


def summary(rows):
    """{(setting, alpha, eps, method): (mean error, median error, scale, seconds, count)}."""
    groups = {}
    for r in rows:
        alpha = r.get("alpha")
        key0 = (r["setting"], None if alpha is None or (isinstance(alpha, float)
                                                         and np.isnan(alpha)) else alpha,
                r["epsilon"])
        for m in METHODS:
            if f"time_{m}" not in r or r.get(f"time_{m}") in (None, ""):
                continue
            groups.setdefault(key0 + (m,), []).append(r)
    out = {}
    for key, sub in groups.items():
        m = key[-1]
        errs = np.array([float(r.get(f"err_{m}", np.nan)) for r in sub], dtype=float)
        errs = errs[np.isfinite(errs)]
        out[key] = (float(errs.mean()) if errs.size else float("nan"),
                    float(np.median(errs)) if errs.size else float("nan"),
                    float(sub[0].get(f"scale_{m}", np.nan)),
                    float(np.median([float(r[f"time_{m}"]) for r in sub])), errs.size)
    return out


def write_summary(rows, out_dir):
    path = Path(out_dir) / f"{NAME}_summary.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["setting", "alpha", "epsilon", "method", "mean_l1_error", "median_l1_error",
                    "noise_scale_per_bin", "scale_seconds", "replicates"])
        for (setting, alpha, eps, m), (mean, med, scale, sec, n) in sorted(
                summary(rows).items(), key=lambda kv: (kv[0][0], kv[0][2],
                                                       kv[0][1] or 0, METHODS.index(kv[0][3]))):
            w.writerow([setting, "" if alpha is None else f"{alpha:g}", f"{eps:g}",
                        LABELS[m], f"{mean:.6g}", f"{med:.6g}", f"{scale:.6g}", f"{sec:.4g}",
                        n])
    return path


STYLE = {"groupdp": ("C7", "s", "--"), "gk16": ("C3", "^", ":"),
         "mqmapprox": ("C1", "D", "-."), "mqmexact": ("C0", "o", "-")}


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    write_summary(rows, out_dir)
    syn = [r for r in rows if r["setting"] == "synthetic"]
    epsilons = sorted({r["epsilon"] for r in syn})
    sims = [s for s in SIMULATED if any(r["setting"] == s for r in rows)]
    ncol = max(len(epsilons), 1 + len(sims))
    fig, axes = plt.subplots(2, ncol, figsize=(4.6 * ncol, 8.0), squeeze=False)
    for ax, eps in zip(axes[0], epsilons):
        sub = [r for r in syn if r["epsilon"] == eps]
        for m in METHODS:
            xs, med, lo, hi = quantile_band(sub, "alpha", f"err_{m}")
            color, marker, ls = STYLE[m]
            if not len(xs):
                ax.plot([], [], color=color, ls=ls, label=f"{LABELS[m]} (never applies)")
                continue
            label = LABELS[m] + (" (only where it applies)" if m == "gk16" else "")
            ax.plot(xs, med, color=color, marker=marker, ms=4, ls=ls, label=label)
            ax.fill_between(xs, lo, hi, color=color, alpha=0.15, lw=0)
        ax.set_yscale("log")
        ax.set_xlabel("alpha (Theta = [alpha, 1 - alpha])")
        ax.set_ylabel("L1 error of the released histogram")
        ax.set_title(f"binary chain, T = {config['length']}, eps = {eps:g}", fontsize=10)
        ax.legend(fontsize=7)
    for ax in axes[0][len(epsilons):]:
        ax.axis("off")
    # run time of the noise scale (synthetic, one eps)
    ax = axes[1][0]
    eps0 = 1.0 if 1.0 in epsilons else (epsilons[0] if epsilons else None)
    for m in METHODS:
        sub = [r for r in syn if r["epsilon"] == eps0 and r.get(f"time_{m}") not in (None, "")]
        xs, med, lo, hi = quantile_band(sub, "alpha", f"time_{m}")
        color, marker, ls = STYLE[m]
        if len(xs):
            ax.plot(xs, med, color=color, marker=marker, ms=4, ls=ls, label=LABELS[m])
    ax.set_yscale("log")
    ax.set_xlabel("alpha")
    ax.set_ylabel("seconds to compute the noise scale")
    ax.set_title(f"noise-scale time, T = {config['length']}, eps = {eps0:g}\n"
                 f"(MQMExact: {config['cells']}^2 cells of the class)", fontsize=10)
    ax.legend(fontsize=7, loc="center right")
    for ax, s in zip(axes[1][1:], sims):
        sub = [r for r in rows if r["setting"] == s]
        k, T, _ = SIMULATED[s]
        eps_list = sorted({r["epsilon"] for r in sub})
        width = 0.8 / 3
        for j, m in enumerate(("groupdp", "mqmapprox", "mqmexact")):
            med = []
            lo = []
            hi = []
            for e in eps_list:
                v = np.array([float(r[f"err_{m}"]) for r in sub if r["epsilon"] == e])
                med.append(np.median(v))
                lo.append(np.quantile(v, 0.1))
                hi.append(np.quantile(v, 0.9))
            times = [float(r[f"time_{m}"]) for r in sub]
            pos = np.arange(len(eps_list)) + (j - 1) * width
            med = np.array(med)
            ax.bar(pos, med, width, color=STYLE[m][0],
                   label=f"{LABELS[m]} (scale in {np.median(times):.3g} s)",
                   yerr=[med - np.array(lo), np.array(hi) - med], capsize=3)
        ax.set_xticks(np.arange(len(eps_list)), [f"eps = {e:g}" for e in eps_list])
        ax.set_yscale("log")
        ax.set_ylabel("L1 error of the released histogram")
        ax.set_title(f"simulated '{s}' chain: k = {k}, T = {T:,}\n(not the paper's data; "
                     f"quilts up to {config['max_quilt']})", fontsize=10)
        ax.legend(fontsize=7)
    for ax in axes[1][1 + len(sims):]:
        ax.axis("off")
    fig.suptitle("Markov Quilt Mechanism vs GroupDP and GK16 (Song, Wang, Chaudhuri 2017, "
                 f"Fig. 4 design); {config['replicates']} replicates: median and 10-90% "
                 "quantiles", fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, NAME, formats)
