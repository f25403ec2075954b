"""A packed private graph on a Dask ``LocalCluster``: the same release and embedding as in process.

Samples a latent circle gRDPG and flips it at eps = 1 on the workers, partitioned in row
blocks (:func:`tdadp.recipes.distributed_private_grdpg`), embeds it with the adjusted ASE at
d = 3 by block products run where the rows live (:func:`tdadp.recipes.distributed_embedding`),
then does the same in process with the same seeds and compares: the release bit for bit, the
embedding's Gram matrix (largest entry difference on 2,000 random rows, and the Frobenius
distance of the whole n x n Gram matrices from d x d products).

It reports what the README's recipe for a real cluster needs: the worker-seconds a row block
takes to sample and flip, the wall time of one distributed product, and each worker's peak
memory. Each worker runs one thread (its numba kernels too), so the two workers use the two
cores as the in-process run does.
"""

from __future__ import annotations

import argparse
import time

from benchmarks._common import machine, peak_rss_gib, timed

EPS = 1.0
N_COMPONENTS = 3


def _worker_peak_gib():
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def _gram_gap(X, Y, rng, rows=2000):
    """Largest entry of |X X^T - Y Y^T| on ``rows`` random rows, and the Frobenius norm of
    X X^T - Y Y^T relative to that of Y Y^T (from d x d products: never n x n)."""
    import numpy as np

    idx = rng.choice(X.shape[0], size=min(rows, X.shape[0]), replace=False)
    sub = np.abs(X[idx] @ X[idx].T - Y[idx] @ Y[idx].T).max()
    # X X^T - Y Y^T = B diag(I, -I) B^T for B = [X Y] = Q R: the norm of R diag(I, -I) R^T,
    # without the cancellation of expanding the squares.
    d = X.shape[1]
    R = np.linalg.qr(np.hstack([X, Y]), mode="r")
    Ry = np.linalg.qr(Y, mode="r")
    signs = np.r_[np.ones(d), -np.ones(d)]
    frob = np.linalg.norm((R * signs) @ R.T)
    return float(sub), float(frob / np.linalg.norm(Ry @ Ry.T))


def run(n, n_workers=2, seed=0):
    import numpy as np
    from distributed import Client, LocalCluster, wait

    import tdadp
    from tdadp.graphs._dyads import row_blocks
    from tdadp.recipes import distributed_embedding, distributed_private_grdpg

    out = {"n": n, "workers": n_workers, "blocks": len(list(row_blocks(n)))}
    X = tdadp.circle(n, random_state=seed)
    # One numba thread in each single-threaded worker (read when numba starts there).
    with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                      dashboard_address=None, env={"NUMBA_NUM_THREADS": "1"}) as cluster, \
            Client(cluster) as client:
        start = time.perf_counter()
        G = distributed_private_grdpg(client, X, EPS, graph_random_state=seed + 1,
                                      flip_random_state=seed + 2)
        wait(G.futures)
        out["release_s"] = time.perf_counter() - start
        out["partitions"] = len(G.partitions)
        out["block_worker_s"] = out["release_s"] * n_workers / out["blocks"]
        V = np.random.default_rng(seed).standard_normal((n, 16))
        G.matmat(V)  # compile the kernel on every worker
        times = [timed(G.matmat, V)[1] for _ in range(3)]
        out["product_k16_s"] = float(np.median(times))
        Y, out["embed_s"] = timed(distributed_embedding, G, N_COMPONENTS, adjust=True)
        Y = np.asarray(Y)
        out["worker_peak_gib"] = max(client.run(_worker_peak_gib).values())
        gathered = G.gather()
    # The same in process, with the same seeds: both kernels' threads on the two cores.
    start = time.perf_counter()
    A = tdadp.sample_grdpg(X, random_state=seed + 1, output="packed")
    P = tdadp.edge_flip(A, EPS, random_state=seed + 2, output="packed")
    del A
    out["in_process_release_s"] = time.perf_counter() - start
    out["release_identical"] = bool(gathered == P)
    del gathered
    Z, out["in_process_embed_s"] = timed(tdadp.adjacency_spectral_embedding, P, N_COMPONENTS,
                                         adjust=True)
    out["gram_max_gap"], out["gram_rel_frobenius"] = _gram_gap(
        Y, np.asarray(Z), np.random.default_rng(seed))
    out["driver_peak_gib"] = peak_rss_gib()
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 10,000")
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    args, _ = parser.parse_known_args(argv)
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("dask.distributed is not installed: skipped (make bench installs it)")
        return
    n = 10_000 if args.quick else args.n
    print(f"machine: {machine()}")
    r = run(n, args.workers)
    print(f"n = {r['n']:,}: {r['blocks']} row blocks in {r['partitions']} partitions on "
          f"{r['workers']} single-threaded workers")
    print(f"  release on the workers   {r['release_s']:8.1f} s  "
          f"({r['block_worker_s']:.2f} worker-s a row block)   in process "
          f"{r['in_process_release_s']:.1f} s")
    print(f"  one product, k = 16      {r['product_k16_s']:8.2f} s")
    print(f"  adjusted ASE, d = {N_COMPONENTS}      {r['embed_s']:8.1f} s   in process "
          f"{r['in_process_embed_s']:.1f} s")
    print(f"  release identical: {r['release_identical']}; Gram matrices: largest gap "
          f"{r['gram_max_gap']:.1e} (2,000 rows), relative Frobenius {r['gram_rel_frobenius']:.1e}")
    print(f"  peak memory: worker {r['worker_peak_gib']:.2f} GiB, driver (with the in-process "
          f"run) {r['driver_peak_gib']:.2f} GiB")


if __name__ == "__main__":
    main()
