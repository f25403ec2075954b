"""Private graphs at scale: sample -> edgeFlip -> adjusted ASE -> alpha H1 -> ToMATo, packed.

The packed path (one bit per dyad) against the dense path and graspologic (its rdpg sampler,
a numpy flip and its ASE on the dense float64 matrix, plain: it has no privacy adjustment),
at n = 10,000 to 100,000 where each fits, every size in a fresh subprocess so that peak memory
is per pipeline. Then edgeFlip of a sparse graph (100,000 nodes, 1M edges) into packed form.
Targets (issue 10): the packed pipeline at n = 100,000 in at most 3 minutes with a peak of at
most 4 GiB; the sparse flip in at most 30 s.
"""

from __future__ import annotations

import argparse
import json

from benchmarks._common import available_bytes, machine, measure_in_child

EPS = 1.0
N_COMPONENTS = 3


SPARSE_N, SPARSE_EDGES = 100_000, 1_000_000


def _graspologic_embedding(n, seed):
    from graspologic.embed import AdjacencySpectralEmbed

    from benchmarks._common import timed
    from benchmarks.bench_core import graspologic_release

    B, t_sample, t_flip = graspologic_release(n, seed)
    ase = AdjacencySpectralEmbed(n_components=N_COMPONENTS, diag_aug=False)
    Y, t_embed = timed(ase.fit_transform, B)
    return Y, t_sample, t_flip, t_embed


def run(n, path, seed=0):
    import numpy as np

    import tdadp
    from benchmarks._common import peak_rss_gib, timed

    if path == "graspologic":
        Y, t_sample, t_flip, t_embed = _graspologic_embedding(n, seed)
    else:
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


def run_sparse_flip(n=SPARSE_N, m=SPARSE_EDGES, seed=0):
    """edgeFlip at eps = 1 of a sparse graph with ``m`` uniformly random edges, into packed."""
    import tdadp
    from benchmarks._common import peak_rss_gib, random_sparse_graph, timed

    A = random_sparse_graph(n, m, seed)
    B, t_flip = timed(tdadp.edge_flip, A, EPS, random_state=seed + 1, output="packed")
    return {"edges": int(A.nnz // 2), "flip": t_flip, "released_edges": B.count_edges(),
            "peak_gib": peak_rss_gib()}


# Bytes a path needs, from its n x n arrays: the dense path a uint8 release and its float32
# copy (measured 12.2 GiB of peak at n = 50,000); graspologic's float64 matrices (rdpg's P,
# its uniforms, the graph, the SVD's copies: measured 16.9 GiB at n = 20,000).
_NEEDS = {"dense": lambda n: 5.0 * n * n, "graspologic": lambda n: 45.0 * n * n}


def _measure(n, path):
    return measure_in_child("benchmarks.bench_scale", path, n)


def _graspologic_installed():
    try:
        import graspologic  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 10,000 only")
    parser.add_argument("--sizes", type=int, nargs="*")
    parser.add_argument("--paths", nargs="*", default=["packed", "dense", "graspologic"])
    parser.add_argument("--figure", help="write a figure of time and peak memory against n "
                        "(default: figures/scale.png for the full sizes)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        path, n = args.child[0], int(args.child[1])
        print(json.dumps(run_sparse_flip(n) if path == "sparse" else run(n, path)))
        return
    sizes = args.sizes or ([10_000] if args.quick else [10_000, 20_000, 40_000, 50_000,
                                                          100_000])
    paths = list(args.paths)
    if "graspologic" in paths and not _graspologic_installed():
        print("graspologic is not installed: skipped (make bench installs it)")
        paths.remove("graspologic")
    print(f"machine: {machine()}")
    results = []
    print(f"{'path':<8} {'n':>8} {'sample':>8} {'flip':>8} {'embed':>8} {'alpha':>8} "
          f"{'tomato':>8} {'total':>8} {'peak GiB':>9}")
    for n in sizes:
        for path in paths:
            free = available_bytes()
            if path in _NEEDS and _NEEDS[path](n) > 0.9 * free:
                print(f"{path:<8} {n:>8}  skipped: needs more than "
                      f"{_NEEDS[path](n) / 2**30:.0f} GiB ({free / 2**30:.0f} GiB available)")
                continue
            r = _measure(n, path)
            if "error" in r:
                print(f"{path:<8} {n:>8}  error: {r['error']}")
                continue
            results.append(dict(r, path=path, n=n))
            print(f"{path:<8} {n:>8} {r['sample']:8.1f} {r['flip']:8.1f} {r['embed']:8.1f} "
                  f"{r['alpha_h1']:8.1f} {r['tomato']:8.1f} {r['total']:8.1f} "
                  f"{r['peak_gib']:9.2f}", flush=True)
    if not args.quick:
        r = measure_in_child("benchmarks.bench_scale", "sparse", SPARSE_N)
        if "error" in r:
            print(f"sparse flip: error: {r['error']}")
        else:
            print(f"edgeFlip (eps = {EPS:g}) of a sparse graph, n = {SPARSE_N:,} with "
                  f"{r['edges']:,} edges, into packed form: {r['flip']:.1f} s, "
                  f"{r['released_edges']:,} edges released, peak {r['peak_gib']:.2f} GiB")
    figure = args.figure or (None if (args.quick or args.sizes) else "figures/scale.png")
    if figure and results:
        _figure(results, figure)
        print(f"figure: {figure}")


def _figure(results, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(9, 3.6))
    for kind, style, color in (("packed", "o-", "C0"), ("dense", "s--", "C1"),
                               ("graspologic", "^:", "C2")):
        rows = sorted((r for r in results if r["path"] == kind), key=lambda r: r["n"])
        if not rows:
            continue
        n = [r["n"] for r in rows]
        name = "graspologic (plain ASE)" if kind == "graspologic" else kind
        ax_t.plot(n, [r["total"] for r in rows], style, color=color, label=f"{name}: total")
        ax_t.plot(n, [r["embed"] for r in rows], style, color=color, alpha=0.4,
                  label=f"{name}: embedding")
        ax_m.plot(n, [r["peak_gib"] for r in rows], style, color=color, label=name)
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
