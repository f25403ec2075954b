"""Sample -> edgeFlip -> ASE at n = 2,000 / 10,000 / 20,000, tdadp against graspologic.

graspologic has no edgeFlip: its column flips the dense matrix with numpy, as a user would.
Each size runs in a fresh subprocess so that peak memory is per pipeline.
Target: tdadp at least as fast as graspologic at every n, and n = 20,000 under 60 s.
"""

from __future__ import annotations

import argparse
import json

from benchmarks._common import available_bytes, machine, measure_in_child

EPS = 1.0
N_COMPONENTS = 3


def run_tdadp(n, seed=0):
    import tdadp
    from benchmarks._common import peak_rss_gib, timed

    X, t_latent = timed(tdadp.circle, n, random_state=seed)
    A, t_sample = timed(tdadp.sample_grdpg, X, random_state=seed + 1)
    B, t_flip = timed(tdadp.edge_flip, A, EPS, random_state=seed + 2)
    del A
    _, t_embed = timed(tdadp.adjacency_spectral_embedding, B, n_components=N_COMPONENTS,
                       epsilon=EPS)
    return {"sample": t_latent + t_sample, "flip": t_flip, "embed": t_embed,
            "peak_gib": peak_rss_gib()}


def graspologic_release(n, seed=0):
    """graspologic's rdpg graph of a latent circle and a numpy edgeFlip of it (graspologic
    has no mechanism), with their times."""
    import numpy as np
    from graspologic.simulations import rdpg

    import tdadp
    from benchmarks._common import timed

    X = np.asarray(tdadp.circle(n, random_state=seed))
    np.random.seed(seed)  # noqa: NPY002 - graspologic's samplers use the global state
    A, t_sample = timed(rdpg, X, rescale=False, directed=False, loops=False)

    def flip(A):
        rng = np.random.default_rng(seed + 2)
        F = np.triu(rng.random(A.shape) < tdadp.flip_probability(EPS), 1)
        F |= F.T
        A[F] = 1 - A[F]  # in place: no second n x n float64 matrix
        return A

    B, t_flip = timed(flip, A)
    return B, t_sample, t_flip


def run_graspologic(n, seed=0):
    from graspologic.embed import AdjacencySpectralEmbed

    from benchmarks._common import peak_rss_gib, timed

    B, t_sample, t_flip = graspologic_release(n, seed)
    ase = AdjacencySpectralEmbed(n_components=N_COMPONENTS, diag_aug=False)
    _, t_embed = timed(ase.fit_transform, B)
    return {"sample": t_sample, "flip": t_flip, "embed": t_embed, "peak_gib": peak_rss_gib()}


def _child(which, n):
    func = run_tdadp if which == "tdadp" else run_graspologic
    print(json.dumps(func(n)))


# Peak bytes of a run, from its n x n arrays: tdadp's dense uint8 graph, release and float32
# copy; graspologic's float64 matrices (measured 16.9 GiB of peak at n = 20,000).
_NEEDS = {"tdadp": lambda n: 7.0 * n * n, "graspologic": lambda n: 45.0 * n * n}


def _measure(which, n):
    return measure_in_child("benchmarks.bench_core", which, n)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 500 and 2,000 only")
    parser.add_argument("--sizes", type=int, nargs="*")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child[0], int(args.child[1]))
        return
    sizes = args.sizes or ([500, 2000] if args.quick else [2000, 10000, 20000])
    try:
        import graspologic  # noqa: F401
        libraries = ["tdadp", "graspologic"]
    except ImportError:
        libraries = ["tdadp"]
        print("graspologic is not installed: timing tdadp only (make bench installs it)")
    print(f"# sample -> edgeFlip(eps={EPS}) -> ASE(d={N_COMPONENTS}) on a latent circle")
    print(f"# machine: {machine()}")
    print(f"{'n':>7} {'library':>12} {'sample s':>9} {'flip s':>8} {'embed s':>8} "
          f"{'total s':>8} {'peak GiB':>9}")
    for n in sizes:
        for lib in libraries:
            need, free = _NEEDS[lib](n), available_bytes()
            if need > 0.9 * free:
                print(f"{n:>7} {lib:>12}   skipped: needs about {need / 2**30:.0f} GiB "
                      f"({free / 2**30:.0f} GiB available)")
                continue
            r = _measure(lib, n)
            if "error" in r:
                print(f"{n:>7} {lib:>12}   failed: {r['error']}")
                continue
            total = r["sample"] + r["flip"] + r["embed"]
            print(f"{n:>7} {lib:>12} {r['sample']:>9.2f} {r['flip']:>8.2f} {r['embed']:>8.2f} "
                  f"{total:>8.2f} {r['peak_gib']:>9.2f}", flush=True)


if __name__ == "__main__":
    main()
