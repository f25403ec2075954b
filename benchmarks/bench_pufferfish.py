"""Time to compute the Markov Quilt Mechanism's noise scale (MQMExact, MQMApprox, GK16).

The paper's running example class (two binary chains, arbitrary starts: the node-by-node
exact search), one binary chain started at stationarity (the node-free search), the interval
family [alpha, 1 - alpha] (its cell cover), and a 51-state chain of a million records with the
quilt length capped at 100, as the paper's electricity data; T from 100 up; and GK16's noise
scale alone (its influence matrix's spectral norm, O(T)) up to a million records. Best of
three runs, in a fresh process per case (the first run includes numpy's warm-up).
``--only TEXT`` runs the cases whose name contains TEXT (``--only gk16``).
"""

from __future__ import annotations

import argparse

import numpy as np

from benchmarks._common import machine, measure_in_child

RUNNING_EXAMPLE = [([1.0, 0.0], [[0.9, 0.1], [0.4, 0.6]]),
                   ([0.9, 0.1], [[0.8, 0.2], [0.3, 0.7]])]
CASES = {
    # name: (thetas kind, T values, max_quilt)
    "example (2 thetas, node by node)": ("example", [100, 1000], None),
    "stationary binary chain": ("stationary", [100, 10_000, 1_000_000], None),
    "interval family alpha = 0.2, 40^2 cells": ("family", [100, 1000], None),
    "51 states, stationary, l = 100": ("big", [10_000, 1_051_200], 100),
    "gk16 only, weakly correlated binary chain": ("gk16", [10_000, 100_000, 1_000_000], None),
}


def _thetas(kind):
    from tdadp.pufferfish import BinaryIntervalFamily

    if kind == "example":
        return RUNNING_EXAMPLE
    if kind == "stationary":
        return ("stationary", RUNNING_EXAMPLE[0][1])
    if kind == "gk16":
        return ("stationary", [[0.6, 0.4], [0.4, 0.6]])       # GK16 applies
    if kind == "family":
        return BinaryIntervalFamily(0.2, cells=40)
    rng = np.random.default_rng(0)
    return ("stationary", 0.5 * np.eye(51) + 0.5 * rng.dirichlet(np.ones(51), size=51))


def _child(name, T):
    import json

    from benchmarks._common import best_of, peak_rss_gib
    from tdadp.pufferfish import gk16_scale, mqm_approx_scale, mqm_exact_scale

    kind, _, ell = CASES[name]
    T = int(T)
    thetas = _thetas(kind)
    out = {}
    if kind == "gk16":
        gk, out["gk16_s"] = best_of(gk16_scale, thetas, T, 1.0, repeat=3)
        out["gk16_score"] = gk.score
        out["peak_gib"] = peak_rss_gib()
        print(json.dumps(out))
        return
    # the exact node-by-node search on a million-record chain is out of reach: T <= 1,000
    repeat = 1 if T > 100_000 or kind == "family" else 3
    exact, out["exact_s"] = best_of(mqm_exact_scale, thetas, T, 1.0, max_quilt=ell, repeat=repeat)
    approx, out["approx_s"] = best_of(mqm_approx_scale, thetas, T, 1.0, max_quilt=ell,
                                    repeat=repeat)
    out["exact_score"], out["approx_score"] = exact.score, approx.score
    # GK16's spectral norm is O(T) (bisection and a banded Cholesky certificate)
    if kind != "big":
        gk, out["gk16_s"] = best_of(gk16_scale, thetas, T, 1.0, repeat=repeat)
        out["gk16_score"] = gk.score
    out["peak_gib"] = peak_rss_gib()
    print(json.dumps(out))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smallest T of each case")
    parser.add_argument("--only", default="", help="the cases whose name contains this text")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(*args.child)
        return
    print(f"# noise-scale time at eps = 1 (best of 3; 1 run for the family and T > 1e5, but "
          f"always 3 for gk16 alone); "
          f"machine: {machine()}")
    print(f"{'case':>42} {'T':>9} {'exact s':>9} {'approx s':>9} {'gk16 s':>8} "
          f"{'sigma exact':>12} {'sigma approx':>13} {'peak GiB':>9}")
    for name, (_, sizes, _) in CASES.items():
        if args.only not in name:
            continue
        for T in sizes[:1] if args.quick else sizes:
            r = measure_in_child("benchmarks.bench_pufferfish", name, T)
            if "error" in r:
                print(f"{name:>42} {T:>9}   failed: {r['error']}")
                continue
            gk = f"{r['gk16_s']:>8.3g}" if "gk16_s" in r else f"{'-':>8}"
            cols = [f"{r[c]:>{w}.3g}" if c in r else f"{'-':>{w}}"
                    for c, w in (("exact_s", 9), ("approx_s", 9))]
            scores = [f"{r[c]:>{w}.5g}" if c in r else f"{'-':>{w}}"
                      for c, w in (("exact_score", 12), ("approx_score", 13))]
            print(f"{name:>42} {T:>9} {cols[0]} {cols[1]} {gk} {scores[0]} {scores[1]} "
                  f"{r['peak_gib']:>9.2f}", flush=True)


if __name__ == "__main__":
    main()
