"""Pufferfish: the Markov Quilt Mechanism against GroupDP and GK16 (Song, Wang, Chaudhuri 2017).

The paper's synthetic study (Section 5.1, Fig. 4 and Table 2) in its design: one binary
Markov chain of length T = 100, the class Theta = {p, q in [alpha, 1 - alpha], every initial
distribution} (``BinaryIntervalFamily(alpha, start="any")``), alpha from 0.1 to 0.4, eps in
{0.2, 1, 5}. Each replicate draws p, q uniformly on [alpha, 1 - alpha] and the initial
distribution uniformly on the simplex, then a chain, and releases it with each method. Two
error conventions are recorded:

- ``err_<method>``: tdadp's, the L1 distance between the released relative-frequency
  histogram (both bins, Laplace noise of scale 2 sigma / T on each) and the true one;
- ``err1_<method>``: the paper's, ``|F~ - F|`` for F the frequency of state 1 released alone
  (Lipschitz 1 / T, Laplace noise of scale sigma / T): in expectation a quarter of tdadp's
  (GroupDP: 1 / eps, the paper's "around 5, 1, 0.2").

- GroupDP: the whole chain as one group.
- GK16: Ghosh and Kleinberg's influence-matrix bound, where its spectral norm is below 1
  (``err_gk16`` is empty where it does not apply).
- MQMApprox: Lemma 4.8 with pi_min = alpha and tdadp's gap (``exp(-g t)``, g = 2 alpha), and
  ``mqmapprox_paper`` with the paper's (``exp(-g t / 2)``, g = 1 - (1 - 2 alpha)^2).
- MQMExact: exact influences, the continuum covered by ``cells x cells`` cells with monotone
  bounds (an upper bound on the noise every chain of the class needs; see
  :class:`tdadp.pufferfish.BinaryIntervalFamily`); ``score_mqmexact_stationary`` is the score
  of the class with stationary starts instead (the design of tdadp's earlier runs), for
  comparison.

The paper's Table 2 times the noise scale of one theta = (p0, p1) on the grid
{0.1, 0.11, ..., 0.9}^2 at eps = 1, all initial distributions: the ``timing`` setting draws one
grid theta per replicate and times GK16, MQMApprox and MQMExact on it.

The paper's real data (physical activity, electricity) are not available offline: the
``simulated`` settings are chains of (what we take to be) the same sizes and numbers of states,
drawn from made-up transition matrices, with Theta = that one matrix started at stationarity and
the quilt length capped at ``max_quilt`` (the authors capped it too). They measure the methods'
cost at those sizes, and their errors beside the published ones for scale only.
``figures/pufferfish/published.csv`` sets every published number with a counterpart beside
tdadp's (:func:`published_rows`).
"""

from __future__ import annotations

import csv
import time
from functools import cache
from pathlib import Path

import numpy as np

from tdadp.dp import add_noise, calibrate_noise
from tdadp.experiments import ConfigError, Values
from tdadp.pufferfish import (
    BinaryIntervalFamily,
    GK16Histogram,
    GroupDPHistogram,
    MQMApprox,
    MQMExact,
    gk16_scale,
    mqm_approx_scale,
    mqm_exact_scale,
    stationary_distribution,
)
from tdadp.utils import Interval, Options

from ._common import (
    REPLICATES,
    SEED,
    check_min,
    count,
    epsilons,
    note_on_figure,
    pyplot,
    quantile_band,
    save,
)

NAME = "pufferfish"
SUMMARY = ("Song, Wang, Chaudhuri (2017) Fig. 4 / Tables 1-3: L1 error and noise-scale time of "
           "GroupDP, GK16, MQMApprox, MQMExact on Markov chains, beside the published numbers")
METHODS = ("groupdp", "gk16", "mqmapprox", "mqmapprox_paper", "mqmexact")
LABELS = {"groupdp": "GroupDP", "gk16": "GK16", "mqmapprox": "MQMApprox",
          "mqmapprox_paper": "MQMApprox (paper's gap)", "mqmexact": "MQMExact"}
CLASSES = {"groupdp": GroupDPHistogram, "gk16": GK16Histogram, "mqmapprox": MQMApprox,
           "mqmapprox_paper": MQMApprox, "mqmexact": MQMExact}
EXTRA = {"mqmapprox_paper": {"gap": "paper"}}
# Simulated stand-ins for the paper's real data: (number of states, chain length, weight of
# staying put). The sizes are our reading of the paper (4 activity levels of one person over
# about a week at one record a minute; AMPds's two years of minute power readings, 51 levels).
SIMULATED = {"activity": (4, 10_000, 0.8), "electricity": (51, 1_051_200, 0.5)}
# Runs averaged for the simulated settings' scale times (Table 2: mean of 5 runs).
TIMING_RUNS = 5
CONFIG = {
    "seed": 0,
    "replicates": 500,
    "length": 100,
    "alphas": [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4],
    "epsilons": [0.2, 1.0, 5.0],
    "cells": 40,
    "start": "any",
    "simulated": ["activity", "electricity"],
    "simulated_epsilons": [0.2, 1.0, 5.0],
    "max_quilt": 100,
    "timing": True,
}
QUICK = {"replicates": 2, "alphas": [0.1, 0.4], "epsilons": [1.0], "cells": 4,
         "simulated": ["activity"], "simulated_epsilons": [1.0]}

# The paper's numbers (shared README, section 9). Fig. 4: GroupDP "around 5, 1, 0.2" in its
# convention (|F~ - F| on the frequency of state 1).
PUBLISHED_FIG4_GROUPDP = {0.2: 5.0, 1.0: 1.0, 5.0: 0.2}
# Table 1 (activity, eps = 1, individual L1 error): group -> method -> value.
PUBLISHED_TABLE1 = {
    "cyclist": {"GroupDP": 2.3157, "MQMApprox": 0.6319, "MQMExact": 0.4077},
    "older woman": {"GroupDP": 1.7860, "MQMApprox": 0.2790, "MQMExact": 0.1742},
    "overweight woman": {"GroupDP": 1.1492, "MQMApprox": 0.1967, "MQMExact": 0.1316},
}
# Table 2 (seconds for the noise scale, eps = 1, mean of 5 runs).
PUBLISHED_TABLE2 = {
    ("synthetic", "GK16"): 6.3589e-4, ("synthetic", "MQMApprox"): 1.8458e-4,
    ("synthetic", "MQMExact"): 7.6794e-4,
    ("cyclist", "MQMApprox"): 0.0064, ("older woman", "MQMApprox"): 0.0060,
    ("overweight woman", "MQMApprox"): 0.0028, ("electricity", "MQMApprox"): 0.0567,
    ("cyclist", "MQMExact"): 1.5186, ("older woman", "MQMExact"): 1.2786,
    ("overweight woman", "MQMExact"): 0.6299, ("electricity", "MQMExact"): 282.2273,
}
# Table 3 (electricity, L1 error): method -> {eps: value}.
PUBLISHED_TABLE3 = {
    "GroupDP": {0.2: 516.1555, 1.0: 102.8868, 5.0: 19.8712},
    "MQMApprox": {0.2: 0.3369, 1.0: 0.0614, 5.0: 0.0113},
    "MQMExact": {0.2: 0.1298, 1.0: 0.0188, 5.0: 0.0022},
}


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
    "start": [Options("stationary", "any")],
    "simulated": Values(Options(*SIMULATED), min_len=0, max_len=len(SIMULATED)),
    "simulated_epsilons": epsilons(),
    "max_quilt": count(1, 10**6),
    "timing": [Options(True, False)],
}


def notes(config):
    """What a reader of a reduced run should know (the figure carries it)."""
    out = []
    if config["replicates"] < CONFIG["replicates"]:
        out.append(f"{config['replicates']} replicates, not the paper's 500")
    if config["cells"] < CONFIG["cells"]:
        out.append(f"MQMExact's class covered by {config['cells']}^2 cells (full run: "
                   f"{CONFIG['cells']}^2): a looser upper bound")
    return out


def peak_memory(config):
    """The 51-state influence tables (a few arrays of max_quilt x 51^3 floats) and the
    chains (the synthetic one of ``length`` and its uniforms, the simulated ones)."""
    big = 51 if "electricity" in config["simulated"] else 4
    return (300e6 + 5 * 8.0 * (config["max_quilt"] + 1) * big ** 3 + 16.0 * 1_051_200
            + 24.0 * config["length"])


# Seconds on one core, measured on the shared 2-core machine (the full runs' task times, under
# a load of up to 10 processes): each process fits a setting's methods once, then every
# replicate samples a chain and releases it. MQMExact's class with every start searches the
# first nodes of each cell and corner chain one by one (about 2e-4 s per node, up to 130 nodes
# at alpha >= 0.1, where |lam|^t falls below 1e-12), with stationary starts about 1.1 us per
# cell and chain step.
def _fit_seconds(setting, T, config):
    if setting == "timing":
        return 0.0
    if setting == "synthetic":
        c = config["cells"]
        any_start = 2e-4 * (c * c + (c + 1) ** 2) * min(T, 130) if config["start"] == "any" \
            else 0.0
        return (0.6 + any_start + 1.1e-6 * c * c * T + 0.02 + 2.7e-9 * float(T) ** 2
                + 2e-6 * T)
    k = SIMULATED[setting][0]
    return 2.0 + TIMING_RUNS * 3 * (2.0 + 5e-7 * k ** 3 * config["max_quilt"])


def point_seconds(point, config):
    T = point["length"]
    fit = _fit_seconds(point["setting"], T, config)
    # a synthetic replicate samples its chain; a simulated one reuses the process's; a timing
    # replicate computes three scales of one chain of the grid
    each = {"synthetic": 0.005 + 1e-5 * T, "timing": 0.1}.get(point["setting"], 0.02)
    return fit + config["replicates"] * each, fit + each


def points(config):
    out = [{"setting": "synthetic", "alpha": float(a), "epsilon": float(e),
            "n_states": 2, "length": int(config["length"])}
           for e in config["epsilons"] for a in config["alphas"]]
    for s in config["simulated"]:
        k, T, _ = SIMULATED[s]
        out += [{"setting": s, "alpha": float("nan"), "epsilon": float(e), "n_states": k,
                 "length": T} for e in config["simulated_epsilons"]]
    if config["timing"]:
        out.append({"setting": "timing", "alpha": float("nan"), "epsilon": 1.0, "n_states": 2,
                    "length": int(config["length"])})
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
def _fitted(method, setting, alpha, eps, T, cells, start, max_quilt, seed):
    """(fitted release or None, seconds to fit it, reason) for one setting, once a process.

    The simulated settings' seconds are the mean of TIMING_RUNS fits (Table 2's mean of 5)."""
    if setting == "synthetic":
        thetas = BinaryIntervalFamily(alpha, cells=cells, start=start)
        ell = None
        runs = 1
    else:
        thetas = ("stationary", _simulated_chain(setting, seed)[0])
        ell = max_quilt
        runs = TIMING_RUNS if method != "groupdp" else 1
    kw = {"max_quilt": ell} if method.startswith("mqm") else {}
    kw.update(EXTRA.get(method, {}))
    mech = CLASSES[method](thetas, eps, length=T, **kw)
    begin = time.perf_counter()
    try:
        for _ in range(runs):
            mech.fit()
    except ValueError as exc:
        return None, time.perf_counter() - begin, str(exc)
    return mech, (time.perf_counter() - begin) / runs, ""


@cache
def _stationary_score(alpha, eps, T, cells):
    """MQMExact's score for the class with stationary starts (tdadp's earlier design)."""
    return float(mqm_exact_scale(BinaryIntervalFamily(alpha, cells=cells), T, eps).score)


def _frequency_error(score, count1, T, eps, rng):
    """The paper's convention: |F~ - F| for F = the frequency of state 1 released alone, with
    noise of scale ``score / T`` (Lipschitz 1 / T; exact discrete Laplace on the count)."""
    calibration = calibrate_noise(score * eps, eps, "laplace", integer=True)
    return float(abs(float(add_noise(int(count1), calibration, rng)) - int(count1)) / T)


_TIMED = {"gk16": gk16_scale, "mqmapprox": mqm_approx_scale, "mqmexact": mqm_exact_scale}


def _run_timing(params, rng):
    """Table 2's synthetic column: one theta (p0, p1) of the grid {0.1, 0.11, ..., 0.9}^2,
    every initial distribution, eps = 1: the seconds of each method's noise scale."""
    grid = np.round(np.arange(10, 91) / 100.0, 2)
    p, q = rng.choice(grid, size=2)
    theta = ("any", [[p, 1 - p], [1 - q, q]])
    out = {"p": float(p), "q": float(q)}
    for method, func in _TIMED.items():
        begin = time.perf_counter()
        func(theta, params["length"], params["epsilon"])
        out[f"time_{method}"] = time.perf_counter() - begin
    return out


def run_task(params, config, seed):
    rng = np.random.default_rng(seed)
    setting, eps, T = params["setting"], params["epsilon"], params["length"]
    alpha = params["alpha"]
    if setting == "timing":
        return _run_timing(params, rng)
    if setting == "synthetic":
        p, q = rng.uniform(alpha, 1 - alpha, size=2)
        if config["start"] == "any":
            initial = rng.dirichlet(np.ones(2))         # uniform on the simplex
            first = int(rng.random() < initial[1])
            out = {"initial_1": float(initial[1])}
        else:
            first, out = None, {}
        x = sample_chain([[p, 1 - p], [1 - q, q]], T, rng, start=first)
        out.update({"p": float(p), "q": float(q)})
        out["score_mqmexact_stationary"] = _stationary_score(alpha, eps, T, config["cells"])
    else:
        x = _simulated_chain(setting, config["seed"])[1]
        out = {}
    counts = np.bincount(x, minlength=params["n_states"])
    truth = counts / T
    streams = seed.spawn(2 * len(METHODS))
    for j, method in enumerate(METHODS):
        if setting != "synthetic" and method == "gk16":
            continue
        mech, seconds, _ = _fitted(method, setting, None if np.isnan(alpha) else alpha,
                                   eps, T, config["cells"], config["start"],
                                   config["max_quilt"], config["seed"])
        out[f"time_{method}"] = seconds
        if mech is None:
            out[f"err_{method}"] = float("nan")
            out[f"err1_{method}"] = float("nan")
            out[f"scale_{method}"] = float("inf")   # GK16 does not apply (spectral norm >= 1)
            continue
        mech.set_params(random_state=np.random.default_rng(streams[2 * j]))
        released = mech.transform(x)
        out[f"err_{method}"] = float(np.abs(released - truth).sum())
        out[f"scale_{method}"] = float(mech.noise_scale_)
        out[f"score_{method}"] = float(mech.score_)
        if setting == "synthetic":
            out[f"err1_{method}"] = _frequency_error(
                mech.score_, counts[1], T, eps, np.random.default_rng(streams[2 * j + 1]))
    return out


def _finite(values):
    v = np.array([float(x) for x in values if x not in (None, "")], dtype=float)
    return v[np.isfinite(v)]


def summary(rows):
    """{(setting, alpha, eps, method): dict of mean / median errors in both conventions, the
    noise scale and score, the seconds of the scale, the count}."""
    groups = {}
    for r in rows:
        if r["setting"] == "timing":
            continue
        alpha = r.get("alpha")
        key0 = (r["setting"], None if alpha is None or (isinstance(alpha, float)
                                                         and np.isnan(alpha)) else alpha,
                r["epsilon"])
        for m in METHODS:
            if r.get(f"time_{m}") in (None, ""):
                continue
            groups.setdefault(key0 + (m,), []).append(r)
    out = {}
    for key, sub in groups.items():
        m = key[-1]
        errs = _finite(r.get(f"err_{m}") for r in sub)
        errs1 = _finite(r.get(f"err1_{m}") for r in sub)
        stat = _finite(r.get("score_mqmexact_stationary") for r in sub)
        out[key] = {
            "mean": float(errs.mean()) if errs.size else float("nan"),
            "median": float(np.median(errs)) if errs.size else float("nan"),
            "mean1": float(errs1.mean()) if errs1.size else float("nan"),
            "median1": float(np.median(errs1)) if errs1.size else float("nan"),
            "scale": float(sub[0].get(f"scale_{m}", np.nan)),
            "score": float(sub[0].get(f"score_{m}", np.nan) or np.nan),
            "score_stationary": float(stat[0]) if (m == "mqmexact" and stat.size)
            else float("nan"),
            "seconds": float(np.median([float(r[f"time_{m}"]) for r in sub])),
            "n": int(errs.size)}
    return out


def _timing_means(rows):
    """{method: mean seconds over the timing replicates} (Table 2's synthetic column)."""
    sub = [r for r in rows if r["setting"] == "timing"]
    return {m: float(np.mean(_finite(r.get(f"time_{m}") for r in sub))) for m in _TIMED
            if sub}, len(sub)


def write_summary(rows, out_dir):
    path = Path(out_dir) / f"{NAME}_summary.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["setting", "alpha", "epsilon", "method", "mean_l1_error",
                    "median_l1_error", "mean_freq1_error", "median_freq1_error",
                    "noise_scale_per_bin", "score", "score_stationary_start",
                    "scale_seconds", "replicates"])
        for (setting, alpha, eps, m), v in sorted(
                summary(rows).items(), key=lambda kv: (kv[0][0], kv[0][2],
                                                       kv[0][1] or 0, METHODS.index(kv[0][3]))):
            w.writerow([setting, "" if alpha is None else f"{alpha:g}", f"{eps:g}",
                        LABELS[m], f"{v['mean']:.6g}", f"{v['median']:.6g}",
                        f"{v['mean1']:.6g}", f"{v['median1']:.6g}", f"{v['scale']:.6g}",
                        f"{v['score']:.6g}", f"{v['score_stationary']:.6g}",
                        f"{v['seconds']:.4g}", v["n"]])
    return path


def published_rows(rows, config):
    """Every published number of Fig. 4's text and Tables 1-3 with a tdadp counterpart:
    (table, setting, method, epsilon, value, published). The paper's conventions are used on
    tdadp's side (|F~ - F| on the frequency of state 1 for Fig. 4, the paper's gap for
    MQMApprox); the real data are replaced by simulated chains, said in ``setting``."""
    summ = summary(rows)
    out = []
    syn = [k for k in summ if k[0] == "synthetic"]
    for eps, pub in PUBLISHED_FIG4_GROUPDP.items():
        vals = [summ[k]["mean1"] for k in syn if k[2] == eps and k[3] == "groupdp"]
        if vals:
            out.append(("Fig. 4", f"synthetic binary chains, T = {config['length']}, every "
                        "initial distribution; |F~ - F| on the frequency of state 1, mean over "
                        f"{len(vals)} alphas", "GroupDP", eps, float(np.mean(vals)), pub))
    names = {"GroupDP": "groupdp", "MQMApprox": "mqmapprox_paper", "MQMExact": "mqmexact"}
    gap = {"MQMApprox": "; MQMApprox with the paper's gap"}
    if "activity" in config["simulated"]:
        k, T, stay = SIMULATED["activity"]
        for group, table in PUBLISHED_TABLE1.items():
            for method, pub in table.items():
                v = summ.get(("activity", None, 1.0, names[method]))
                if v is not None:
                    out.append(("Table 1", f"simulated chain (k = {k}, T = {T:,}, made-up P "
                                f"staying with prob. >= {stay}) for the paper's {group} "
                                "group, individual error (L1 over the k bins)"
                                + gap.get(method, ""), method, 1.0, v["mean"], pub))
    times, n_timed = _timing_means(rows)
    for (where, method), pub in PUBLISHED_TABLE2.items():
        if where == "synthetic":
            if method.lower() in times:
                out.append(("Table 2", f"one binary chain of the grid {{0.1, ..., 0.9}}^2, "
                            f"every initial distribution, T = {config['length']}: mean over "
                            f"{n_timed} random grid thetas, seconds", method, 1.0,
                            times[method.lower()], pub))
            continue
        setting = "electricity" if where == "electricity" else "activity"
        v = summ.get((setting, None, 1.0, names[method]))
        if v is not None:
            k, T, _ = SIMULATED[setting]
            out.append(("Table 2", f"simulated {setting} chain (k = {k}, T = {T:,}, quilts up "
                        f"to {config['max_quilt']}) for the paper's {where}: mean of "
                        f"{TIMING_RUNS} runs, seconds" + gap.get(method, ""), method, 1.0,
                        v["seconds"], pub))
    if "electricity" in config["simulated"]:
        k, T, stay = SIMULATED["electricity"]
        for method, table in PUBLISHED_TABLE3.items():
            for eps, pub in table.items():
                v = summ.get(("electricity", None, eps, names[method]))
                if v is not None:
                    out.append(("Table 3", f"simulated chain (k = {k}, T = {T:,}, made-up P "
                                f"staying with prob. >= {stay}, quilts up to "
                                f"{config['max_quilt']}); L1 over the k bins"
                                + gap.get(method, ""), method, eps, v["mean"], pub))
    return out


def write_published(rows, config, out_dir):
    path = Path(out_dir) / "published.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["table", "setting", "method", "epsilon", "value", "published"])
        for table, setting, method, eps, value, pub in published_rows(rows, config):
            w.writerow([table, setting, method, f"{eps:g}", f"{value:.6g}", f"{pub:g}"])
    return path


STYLE = {"groupdp": ("C7", "s", "--"), "gk16": ("C3", "^", ":"),
         "mqmapprox": ("C1", "D", "-."), "mqmapprox_paper": ("C5", "v", (0, (3, 1, 1, 1))),
         "mqmexact": ("C0", "o", "-")}


def _means(sub, x, y, xs):
    """Mean of ``y`` at each ``x`` (the paper's numbers are means over its trials)."""
    return np.array([np.mean(_finite(r.get(y) for r in sub if r[x] == v)) for v in xs])


def _error_panel(ax, sub, key, eps, ylabel, title):
    for m in METHODS:
        xs, _, lo, hi = quantile_band(sub, "alpha", f"{key}_{m}")
        color, marker, ls = STYLE[m]
        if not len(xs):
            ax.plot([], [], color=color, ls=ls, label=f"{LABELS[m]} (never applies)")
            continue
        label = LABELS[m] + (" (only where it applies)" if m == "gk16" else "")
        ax.plot(xs, _means(sub, "alpha", f"{key}_{m}", xs), color=color, marker=marker, ms=4,
                ls=ls, label=label)
        ax.fill_between(xs, lo, hi, color=color, alpha=0.15, lw=0)
    ax.set_yscale("log")
    ax.set_xlabel("alpha (Theta: p, q in [alpha, 1 - alpha], every start)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)


def make_figures(rows, config, out_dir, formats):
    plt = pyplot()
    write_summary(rows, out_dir)
    write_published(rows, config, out_dir)
    syn = [r for r in rows if r["setting"] == "synthetic"]
    eps_list = sorted({r["epsilon"] for r in syn})
    sims = [s for s in SIMULATED if any(r["setting"] == s for r in rows)]
    ncol = max(len(eps_list), 1 + len(sims), 2)
    fig, axes = plt.subplots(3, ncol, figsize=(4.8 * ncol, 12.5), squeeze=False)
    start = "every initial distribution" if config["start"] == "any" else "stationary start"
    for j, eps in enumerate(eps_list):
        sub = [r for r in syn if r["epsilon"] == eps]
        ax = axes[0][j]
        _error_panel(ax, sub, "err1", eps, "|F~ - F|, frequency of state 1 (paper's L1)",
                     f"paper's convention: T = {config['length']}, {start}, eps = {eps:g}")
        if eps in PUBLISHED_FIG4_GROUPDP:
            ax.axhline(PUBLISHED_FIG4_GROUPDP[eps], color="k", lw=1.2, ls=(0, (1, 2)),
                       label=f"published GroupDP (text: around {PUBLISHED_FIG4_GROUPDP[eps]:g})")
        ax.legend(fontsize=6.5)
        ax = axes[1][j]
        _error_panel(ax, sub, "err", eps, "L1 error of the histogram, both bins (tdadp's)",
                     f"tdadp's convention (4x the paper's in expectation), eps = {eps:g}")
        ax.legend(fontsize=6.5)
    for row in (0, 1):
        for ax in axes[row][len(eps_list):]:
            ax.axis("off")
    # Table 2: seconds of the noise scale for one chain of the grid, and for the classes
    ax = axes[2][0]
    times, n_timed = _timing_means(rows)
    names = ["GK16", "MQMApprox", "MQMExact"]
    pos = np.arange(len(names))
    if times:
        ax.bar(pos - 0.2, [times[n.lower()] for n in names], 0.4, color="C0",
               label=f"tdadp (mean over {n_timed} grid thetas)")
    ax.bar(pos + 0.2, [PUBLISHED_TABLE2[("synthetic", n)] for n in names], 0.4, color="C7",
           label="published (Table 2; MATLAB, mean over the grid)")
    cls_eps = 1.0 if 1.0 in eps_list else (eps_list[0] if eps_list else None)
    for m, marker in (("mqmexact", "o"), ("mqmapprox", "D")):
        t = [float(r[f"time_{m}"]) for r in syn if r["epsilon"] == cls_eps]
        if t:
            ax.plot([names.index(LABELS[m])], [np.median(t)], marker=marker, color="C3",
                    ls="", label=f"{LABELS[m]} for the whole class (median over alphas)")
    ax.set_xticks(pos, names)
    ax.set_yscale("log")
    ax.set_ylabel("seconds to compute the noise scale")
    ax.set_title(f"Table 2, synthetic: one theta of {{0.1, ..., 0.9}}^2, T = "
                 f"{config['length']}, eps = 1", fontsize=9)
    ax.legend(fontsize=6.5)
    for ax, s in zip(axes[2][1:], sims):
        _simulated_panel(ax, rows, s, config)
    for ax in axes[2][1 + len(sims):]:
        ax.axis("off")
    fig.suptitle("Markov Quilt Mechanism vs GroupDP and GK16 (Song, Wang, Chaudhuri 2017, "
                 f"Fig. 4 / Tables 1-3 design); {config['replicates']} replicates: mean (as the "
                 f"paper's numbers) and 10-90% quantiles; MQMExact's class covered by "
                 f"{config['cells']}^2 cells",
                 fontsize=10)
    note_on_figure(fig, notes(config))
    fig.tight_layout(rect=(0, 0.02, 1, 0.98))
    return save(fig, out_dir, NAME, formats)


def _simulated_panel(ax, rows, s, config):
    sub = [r for r in rows if r["setting"] == s]
    k, T, _ = SIMULATED[s]
    eps_list = sorted({r["epsilon"] for r in sub})
    methods = ("groupdp", "mqmapprox", "mqmapprox_paper", "mqmexact")
    width = 0.8 / len(methods)
    for j, m in enumerate(methods):
        med, lo, hi = [], [], []
        for e in eps_list:
            v = np.array([float(r[f"err_{m}"]) for r in sub if r["epsilon"] == e])
            med.append(np.mean(v))
            lo.append(np.quantile(v, 0.1))
            hi.append(np.quantile(v, 0.9))
        times = [float(r[f"time_{m}"]) for r in sub]
        pos = np.arange(len(eps_list)) + (j - (len(methods) - 1) / 2) * width
        med = np.array(med)
        ax.bar(pos, med, width, color=STYLE[m][0],
               label=f"{LABELS[m]} (scale in {np.median(times):.3g} s)",
               yerr=[med - np.array(lo), np.array(hi) - med], capsize=2)
    # the published values, for scale: Table 1 (three groups, eps = 1) or Table 3
    first = True
    for i, e in enumerate(eps_list):
        for j, m in enumerate(methods):
            label = {"groupdp": "GroupDP", "mqmapprox_paper": "MQMApprox",
                     "mqmexact": "MQMExact"}.get(m)
            if label is None:
                continue
            if s == "electricity":
                pubs = [PUBLISHED_TABLE3[label].get(e)]
            else:
                pubs = [g[label] for g in PUBLISHED_TABLE1.values()] if e == 1.0 else []
            pos = i + (j - (len(methods) - 1) / 2) * width
            for pub in pubs:
                if pub is None:
                    continue
                ax.plot([pos], [pub], marker="_", ms=14, mew=2, color="k", ls="",
                        label="published (Table 3)" if s == "electricity" and first else
                        ("published (Table 1, 3 groups)" if first else None))
                first = False
    ax.set_xticks(np.arange(len(eps_list)), [f"eps = {e:g}" for e in eps_list])
    ax.set_yscale("log")
    ax.set_ylabel("L1 error of the released histogram (all k bins)")
    ax.set_title(f"simulated '{s}' chain: k = {k}, T = {T:,}\n(not the paper's data; "
                 f"made-up P; quilts up to {config['max_quilt']})", fontsize=9)
    ax.legend(fontsize=6.5)
