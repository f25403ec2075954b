"""ToMATo fit time and agreement: tdadp's ToMATo against gudhi's Tomato and k-means.

Run from the repository root: ``python -m benchmarks.bench_cluster [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import platform

import numpy as np
from sklearn.cluster import KMeans
from sklearn.metrics import adjusted_rand_score

from benchmarks._common import best_of
from tdadp import PrivateClustering, from_networkx
from tdadp.cluster import ToMATo
from tdadp.datasets import load_polblogs, load_polbooks


def _mixture(n, dim, seed):
    """Four Gaussian clusters of different spreads plus 5% uniform noise."""
    rng = np.random.default_rng(seed)
    axes = np.vstack([np.eye(dim), -np.eye(dim)])
    centers = 4.0 * axes[:4]
    n_noise = n // 20
    sizes = np.full(4, (n - n_noise) // 4)
    sizes[0] += n - n_noise - sizes.sum()
    parts = [rng.normal(c, s, (m, dim)) for c, s, m in zip(centers, (0.5, 0.7, 0.9, 0.6), sizes)]
    parts.append(rng.uniform(-3, 7, (n_noise, dim)))
    y = np.concatenate([np.repeat(np.arange(4), sizes), np.full(n_noise, -1)])
    return np.concatenate(parts), y


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    args = parser.parse_args(argv)
    sizes = (2_000,) if args.quick else (10_000, 100_000)
    repeat = 1 if args.quick else 2
    k, density_k = 15, 30
    try:
        from gudhi.clustering.tomato import Tomato
    except ImportError:  # pragma: no cover
        Tomato = None

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cpus, "
          f"python {platform.python_version()}")
    print(f"ToMATo k={k}, density_k={density_k}, logDTM, 4 clusters (n_clusters=4); gudhi "
          f"Tomato with the same graph and density (k={k + 1}, k_DTM={density_k + 1}, "
          "symmetrize_graph=True, as gudhi counts the point itself); KMeans(4, n_init=1).")
    print("best of", repeat, "runs; ARI against the truth on the clustered (non-noise) points")
    header = (f"{'n':>8} {'dim':>3} | {'tdadp s':>8} {'gudhi s':>8} {'kmeans s':>8} | "
              f"{'recut ms':>8} | {'ARI(tdadp,gudhi)':>16} {'ARI tdadp':>9} {'ARI km':>7}")
    print(header)
    print("-" * len(header))
    for n in sizes:
        for dim in (3, 4):
            X, y = _mixture(n, dim, seed=n + dim)
            est = ToMATo(k=k, density_k=density_k, n_clusters=4, metric="euclidean")
            _, t_ours = best_of(lambda est=est, X=X: est.fit(X), repeat=repeat)
            _, t_recut = best_of(lambda est=est: est.recut(n_clusters=5), repeat=3)
            ours = est.recut(n_clusters=4)
            km, t_km = best_of(lambda X=X: KMeans(4, n_init=1, random_state=0).fit_predict(X),
                                repeat=repeat)
            if Tomato is not None:
                ref = Tomato(k=k + 1, k_DTM=density_k + 1, symmetrize_graph=True, n_clusters=4)
                _, t_g = best_of(lambda ref=ref, X=X: ref.fit(X), repeat=repeat)
                agree = adjusted_rand_score(ours, ref.labels_)
            else:
                t_g, agree = float("nan"), float("nan")
            core = y >= 0
            print(f"{n:>8} {dim:>3} | {t_ours:8.2f} {t_g:8.2f} {t_km:8.2f} | "
                  f"{1e3 * t_recut:8.1f} | {agree:16.4f} "
                  f"{adjusted_rand_score(y[core], ours[core]):9.3f} "
                  f"{adjusted_rand_score(y[core], km[core]):7.3f}", flush=True)
    _defaults(sizes=(2_000,) if args.quick else (10_000, 100_000, 1_000_000))
    _automatic(sizes=(2_000,) if args.quick else (10_000, 100_000, 1_000_000))
    _real_network(quick=args.quick)


def _defaults(sizes):
    """ToMATo with its defaults given the number of clusters: the stability selection of
    metric and scale (12 settings on 10 subsamples of at most 2,000 points), then the fit."""
    print("\nToMATo() with n_clusters=4 and its defaults (metric, k and density_k chosen), "
          "dim 3, one run")
    print(f"{'n':>9} | {'fit s':>7} | {'metric':>9} {'k':>4} {'density_k':>9} | {'ARI':>6}")
    for n in sizes:
        X, y = _mixture(n, 3, seed=n)
        est = ToMATo(n_clusters=4, random_state=0)
        _, t = best_of(lambda est=est, X=X: est.fit(X), repeat=1)
        core = y >= 0
        print(f"{n:>9} | {t:7.2f} | {est.metric_:>9} {est.k_:>4} {est.density_k_:>9} | "
              f"{adjusted_rand_score(y[core], est.labels_[core]):6.3f}", flush=True)



def _automatic(sizes):
    """ToMATo() with no cluster count: the bootstrap band (100 replicates, each a weighted
    density and a merge tree), in both metrics, on 2 threads."""
    print("\nToMATo(n_jobs=2) with no cluster count (bootstrap-tested modes, 100 replicates "
          "per metric), dim 3, one run")
    print(f"{'n':>9} | {'fit s':>7} | {'clusters':>8} {'significant':>11} {'metric':>9} | "
          f"{'ARI':>6}")
    for n in sizes:
        X, y = _mixture(n, 3, seed=n)
        est = ToMATo(random_state=0, n_jobs=2)
        _, t = best_of(lambda est=est, X=X: est.fit(X), repeat=1)
        core = y >= 0
        print(f"{n:>9} | {t:7.2f} | {est.n_clusters_:>8} {str(est.significant_):>11} "
              f"{est.metric_:>9} | {adjusted_rand_score(y[core], est.labels_[core]):6.3f}",
              flush=True)


def _real_network(quick):
    """PrivateClustering on a real network, one release per fit (target: <= 2 s a release
    on polblogs, 1,222 nodes, on 2 cores): release, adjusted embedding and clusterer."""
    name, G = (("polbooks", load_polbooks()) if quick
               else ("polblogs", load_polblogs(largest_component=True)))
    A = from_networkx(G)
    k = len({G.nodes[v]["label"] for v in G})
    releases = 2 if quick else 5
    print(f"\nPrivateClustering(epsilon=4) on {name} ({A.shape[0]} nodes, K={k}): seconds per "
          f"release (fit = release + embedding + clustering), median and max of {releases}")
    print(f"{'clusterer':>30} | {'median s':>8} {'max s':>7}")
    cases = [(c, k) for c in ("auto", "tomato", "kmeans", "gmm", "spectral", "spherical",
                              "score")]
    cases += [("auto", None), ("tomato", None)]
    for clusterer, n_clusters in cases:
        times = []
        for r in range(releases):
            model = PrivateClustering(epsilon=4.0, n_clusters=n_clusters, clusterer=clusterer,
                                      random_state=r)
            _, t = best_of(lambda model=model: model.fit(A), repeat=1)
            times.append(t)
        label = ("default (auto)" if clusterer == "auto" else clusterer) + (
            " (count tested)" if n_clusters is None else "")
        print(f"{label:>30} | {np.median(times):8.2f} {max(times):7.2f}", flush=True)


if __name__ == "__main__":
    main()
