"""ERGM sampler steps per second and one full private fit, at n = 200 and n = 1,000.

The sampler: Metropolis-Hastings with tie/no-tie proposals and compiled incremental change
statistics, on the thesis's model 1 (edges -4.6, alternating k-triangles 1), timed after a
burn-in so that the graph is at its stationary density. The private fit: ``PrivateERGM`` on
the same model's edge-level restricted-sensitivity release (Goldberg's Algorithm 2).
"""

from __future__ import annotations

import argparse

import numpy as np

from benchmarks._common import machine, measure_in_child

STATISTICS = ["edges", ("altkstars", 1.0), ("altktriangles", 1.0), ("altktwopaths", 1.0)]
MODELS = {"model 1": [-4.6, 0.0, 1.0, 0.0], "model 2": [-4.6, 0.0, 2.0, -0.1]}


def sampler_rate(n, theta, steps, seed=0):
    """Steps per second of one chain at stationarity (compile and burn-in not timed)."""
    from benchmarks._common import timed
    from tdadp.ergm import ERGMChain, parse_terms

    terms = parse_terms(STATISTICS)
    chain = ERGMChain(np.zeros((n, n), dtype=np.uint8), terms)
    rng = np.random.default_rng(seed)
    chain.run(theta, 20 * n * (n - 1) // 2, rng)  # burn-in (compiles on first call)
    accepted, t = timed(chain.run, theta, steps, rng)
    return {"steps_per_s": steps / t, "acceptance": accepted / steps,
            "mean_degree": 2 * chain.n_edges / n}


def _child(kind, n):
    import json

    from benchmarks._common import peak_rss_gib

    n = int(n)
    out = {}
    if kind == "sampler":
        for name, theta in MODELS.items():
            out[name] = sampler_rate(n, theta, 2_000_000)
    else:
        out = private_fit(n)
    out["peak_gib"] = peak_rss_gib()
    print(json.dumps(out))


# Fit settings per size: the defaults of bayes_ergm at n = 200 (4,000 kept draws after 2,000
# of burn-in, 5 auxiliary steps a dyad; three chain runs an iteration: the latent update, the
# exchange step's auxiliary draw and the joint move's); at n = 1,000 those would take about
# 45 billion sampler steps (hours), so the benchmark times a shorter run there and says so.
FIT_SETTINGS = {200: {}, 1000: {"n_iter": 500, "burn_in": 250, "aux_steps": 499_500,
                                "latent_steps": 499_500}}


def private_fit(n, seed=0):
    """One PrivateERGM fit (edge level, restricted sensitivity) with its time."""
    from benchmarks._common import timed
    from tdadp.ergm import PrivateERGM, sample_ergm

    theta = MODELS["model 1"]
    A = sample_ergm(STATISTICS, theta, n_nodes=n, random_state=seed)
    k = int(np.ceil(1.5 * A.sum(1).max()))
    settings = FIT_SETTINGS.get(n, FIT_SETTINGS[1000])
    est = PrivateERGM(statistics=STATISTICS, epsilon=1.0, level="edge", max_degree=k,
                      random_state=seed + 1, **settings)
    _, t = timed(est.fit, A)
    post = est.posterior_result_
    return {"fit_s": t, "max_degree": k, "coef": [round(float(c), 2) for c in est.coef_],
            "settings": post.settings.get("n_iter"), "burn_in": post.settings.get("burn_in"),
            "aux_steps": post.settings.get("aux_steps"),
            "min_ess": float(np.min(post.ess())), "acceptance": float(post.acceptance.mean()),
            "joint_acceptance": float(post.joint_acceptance.mean())}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 200 only")
    parser.add_argument("--sizes", type=int, nargs="*")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(*args.child)
        return
    sizes = args.sizes or ([200] if args.quick else [200, 1000])
    print(f"# ERGM sampler (TNT, compiled change statistics), decay 1; machine: {machine()}")
    print(f"{'n':>6} {'model':>8} {'steps/s':>12} {'accept':>7} {'mean deg':>9}")
    for n in sizes:
        r = measure_in_child("benchmarks.bench_ergm", "sampler", n)
        if "error" in r:
            print(f"{n:>6}   failed: {r['error']}")
            continue
        for name in MODELS:
            m = r[name]
            print(f"{n:>6} {name:>8} {m['steps_per_s']:>12.3g} {m['acceptance']:>7.2f} "
                  f"{m['mean_degree']:>9.2f}", flush=True)
    print("# one private fit (PrivateERGM, edge level, eps = 1, k = 1.5 x max degree)")
    print(f"{'n':>6} {'fit s':>8} {'iter':>6} {'burn':>6} {'aux':>8} {'k':>4} {'minESS':>7} "
          f"{'accept':>7} {'joint':>6} {'peak GiB':>9}  posterior mean")
    for n in sizes:
        r = measure_in_child("benchmarks.bench_ergm", "fit", n)
        if "error" in r:
            print(f"{n:>6}   failed: {r['error']}")
            continue
        print(f"{n:>6} {r['fit_s']:>8.1f} {r['settings']:>6} {r['burn_in']:>6} "
              f"{r['aux_steps']:>8} {r['max_degree']:>4} {r['min_ess']:>7.1f} "
              f"{r['acceptance']:>7.2f} {r['joint_acceptance']:>6.2f} {r['peak_gib']:>9.2f}  "
              f"{r['coef']}", flush=True)


if __name__ == "__main__":
    main()
