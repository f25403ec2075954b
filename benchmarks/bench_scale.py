"""Private graphs at scale: sample -> edgeFlip -> adjusted ASE -> alpha H1 -> ToMATo, packed.

The packed path (one bit per dyad) against the dense path, at n = 10,000 to 100,000, each
size in a fresh subprocess so that peak memory is per pipeline. Targets (issue 10): the
packed pipeline at n = 100,000 in at most 3 minutes with a peak of at most 4 GiB.
"""

from __future__ import annotations

import argparse
import json

from benchmarks._common import machine, measure_in_child

EPS = 1.0
N_COMPONENTS = 3


def run(n, path, seed=0):
    import numpy as np

    import tdadp
    from benchmarks._common import peak_rss_gib, timed

    output = "packed" if path == "packed" else "dense"
    X = tdadp.circle(n, random_state=seed)
    A, t_sample = timed(tdadp.sample_grdpg, X, random_state=seed + 1, output=output)
    B, t_flip = timed(tdadp.edge_flip, A, EPS, random_state=seed + 2, output=output)
    del A
    Y, t_embed = timed(tdadp.adjacency_spectral_embedding, B, n_components=N_COMPONENTS,
                       adjust=True)
    del B
    Y = np.asarray(Y)
    _, t_alpha = timed(tdadp.persistence_diagram, Y, complex="alpha",
                       homology_dimensions=(1,))
    _, t_tomato = timed(tdadp.ToMATo(n_clusters=1).fit, Y)
    times = {"sample": t_sample, "flip": t_flip, "embed": t_embed, "alpha_h1": t_alpha,
             "tomato": t_tomato}
    times["total"] = sum(times.values())
    times["peak_gib"] = peak_rss_gib()
    return times


def _measure(n, path):
    return measure_in_child("benchmarks.bench_scale", path, n)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 10,000 only")
    parser.add_argument("--sizes", type=int, nargs="*")
    parser.add_argument("--paths", nargs="*", default=["packed", "dense"])
    parser.add_argument("--figure", help="write a figure of time and peak memory against n "
                        "(default: figures/scale.png for the full sizes)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(run(int(args.child[1]), args.child[0])))
        return
    sizes = args.sizes or ([10_000] if args.quick else [10_000, 20_000, 40_000, 100_000])
    print(f"machine: {machine()}")
    results = []
    print(f"{'path':<8} {'n':>8} {'sample':>8} {'flip':>8} {'embed':>8} {'alpha':>8} "
          f"{'tomato':>8} {'total':>8} {'peak GiB':>9}")
    for n in sizes:
        for path in args.paths:
            if path == "dense" and n > 40_000:
                print(f"{path:<8} {n:>8}  skipped: the dense path needs ~{10 * n * n / 1e9:.0f}"
                      " GB")
                continue
            r = _measure(n, path)
            if "error" in r:
                print(f"{path:<8} {n:>8}  error: {r['error']}")
                continue
            results.append(dict(r, path=path, n=n))
            print(f"{path:<8} {n:>8} {r['sample']:8.1f} {r['flip']:8.1f} {r['embed']:8.1f} "
                  f"{r['alpha_h1']:8.1f} {r['tomato']:8.1f} {r['total']:8.1f} "
                  f"{r['peak_gib']:9.2f}", flush=True)
    figure = args.figure or (None if (args.quick or args.sizes) else "figures/scale.png")
    if figure and results:
        _figure(results, figure)
        print(f"figure: {figure}")


def _figure(results, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(9, 3.6))
    for kind, style, color in (("packed", "o-", "C0"), ("dense", "s--", "C1")):
        rows = sorted((r for r in results if r["path"] == kind), key=lambda r: r["n"])
        if not rows:
            continue
        n = [r["n"] for r in rows]
        ax_t.plot(n, [r["total"] for r in rows], style, color=color, label=f"{kind}: total")
        ax_t.plot(n, [r["embed"] for r in rows], style, color=color, alpha=0.4,
                  label=f"{kind}: embedding")
        ax_m.plot(n, [r["peak_gib"] for r in rows], style, color=color, label=kind)
    ax_t.axhline(180, color="grey", lw=0.8, ls=":", label="target at n = 100,000")
    ax_m.axhline(4, color="grey", lw=0.8, ls=":", label="target at n = 100,000")
    for ax in (ax_t, ax_m):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("nodes n")
        ax.legend(fontsize=7)
    ax_t.set_ylabel("wall time (s), 2 cores")
    ax_m.set_ylabel("peak resident memory (GiB)")
    fig.suptitle("sample -> edgeFlip(eps = 1) -> adjusted ASE (d = 3) -> alpha H1 -> ToMATo",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
