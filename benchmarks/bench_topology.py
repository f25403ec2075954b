"""Benchmark of tdadp.topology.

1. Shift-invariant bottleneck versus what a user does today: a grid search over 1,000 shifts
   calling gudhi.bottleneck_distance. tdadp must be >= 10x faster at an error no worse than
   the grid step. Errors are measured against tdadp's certified bounds. Then the row of issue
   29: on the log H1 alpha diagrams of a 10,000-node private graph (latent circle, edgeFlip
   eps = 1, adjusted ASE; about 25,000 points a diagram), the certified W_SI (tol 1e-3) must
   be >= 100x faster than the 1,000-shift grid.
2. Alpha versus Rips diagrams of ASE point clouds (latent circle RDPG).
3. A Pipeline ending in scikit-learn: PersistentHomology -> PairwiseDistance ->
   KNeighborsClassifier(metric="precomputed") under 5-fold cross_val_score, noisy circles
   against Gaussian blobs (time and accuracy; chance is 0.5).
4. The maximum bipartite matching of the bottleneck decision (tdadp's Hopcroft-Karp) against
   scipy's maximum_bipartite_matching: the layered graphs of scipy issue 26147 (scipy's time
   doubles with each level), a random graph of 10^6 edges, and the bottleneck distance with
   its matching of two random 3,000-point diagrams (``--part matching``).

Run from the repository root: ``python -m benchmarks.bench_topology [--quick]``.
"""

from __future__ import annotations

import argparse
import time

import gudhi
import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline

from tdadp import adjacency_spectral_embedding, circle, edge_flip, sample_grdpg
from tdadp.topology import (
    PairwiseDistance,
    PersistentHomology,
    bottleneck_distance,
    dilation_invariant_bottleneck,
    log_diagram,
    persistence_diagram,
    shift_invariant_bottleneck,
)
from tdadp.topology._matching import maximum_matching
from tdadp.topology._shift_invariant import _Problem

from ._common import machine, report

GRID_SIZE = 1000
# What python -m benchmarks --targets runs: the row of the targets table alone.
TARGET_ARGV = ["--part", "graph"]


def synthetic_pair(n, seed):
    """D1 and a noisy, shifted, thinned copy D2 (log-scale-like diagrams)."""
    rng = np.random.default_rng(seed)
    b = rng.random(n) * 10
    D1 = np.c_[b, b + rng.exponential(0.5, n)]
    D2 = D1 + 0.3 + rng.normal(0, 0.05, D1.shape)
    D2[:, 1] = np.maximum(D2[:, 1], D2[:, 0] + 1e-6)
    D2 = D2[rng.random(n) > 0.05]
    return D1, D2


def grid_search(D1, D2, lo, hi, max_shifts=None):
    grid = np.linspace(lo, hi, GRID_SIZE)
    idx = np.arange(GRID_SIZE) if max_shifts is None else np.linspace(
        0, GRID_SIZE - 1, max_shifts).astype(int)
    t = time.perf_counter()
    vals = np.array([gudhi.bottleneck_distance(D1 + grid[i], D2) for i in idx])
    elapsed = time.perf_counter() - t
    best = int(np.argmin(vals))
    return float(vals[best]), float(grid[idx[best]]), elapsed * GRID_SIZE / idx.size, \
        grid[1] - grid[0], idx.size < GRID_SIZE


def bench_shift_invariant(sizes, grid_budget):
    print("\n## Shift-invariant bottleneck vs 1,000-shift grid search (gudhi.bottleneck_distance)")
    header = (f"{'points':>7} {'grid time':>11} {'tdadp time':>11} {'speed-up':>9} "
              f"{'grid step':>10} {'grid err<=':>11} {'tdadp err<=':>12} {'evals':>6}")
    print(header)
    for n in sizes:
        D1, D2 = synthetic_pair(n, seed=n)
        t = time.perf_counter()
        res = shift_invariant_bottleneck(D1, D2, method="certified", tol=None)
        t_si = time.perf_counter() - t
        # The grid covers the same bracket the library proves contains a minimiser.
        lo, hi = _Problem([(D1, D2)]).bracket()
        step = (hi - lo) / (GRID_SIZE - 1)
        # tolerance for the comparison run: the grid step (what the user tolerates)
        t = time.perf_counter()
        res_step = shift_invariant_bottleneck(D1, D2, method="certified", tol=step)
        t_step = time.perf_counter() - t
        # time a subset of shifts when a full grid would take too long, then extrapolate
        per_eval = _time_one(D1, D2)
        subset = None if per_eval * GRID_SIZE <= grid_budget else max(
            5, int(grid_budget / per_eval))
        g_val, g_shift, g_time, g_step, extrapolated = grid_search(D1, D2, lo, hi, subset)
        # With a subset of shifts the subset's error says nothing about the full grid; the
        # full grid's error is at most step / 2 (f is 1-Lipschitz).
        grid_err = step / 2 if extrapolated else g_val - res.lower
        print(f"{n:>7} {g_time:>10.1f}s{'*' if extrapolated else ' '} {t_si:>10.2f}s "
              f"{g_time / t_si:>8.0f}x {step:>10.2e} {grid_err:>10.2e}"
              f"{'+' if extrapolated else ' '}"
              f"{res.upper - res.lower:>12.2e} {res.n_evaluations:>6}")
        print(f"{'':>7} with tol = grid step: {t_step:.2f}s ({g_time / t_step:.0f}x), "
              f"W_SI in [{res_step.lower:.6f}, {res_step.upper:.6f}]; default tol: "
              f"[{res.lower:.9f}, {res.upper:.9f}] at shift {res.shift:.6f}; grid: "
              f"{g_val:.6f} at {g_shift:.6f}"
              + (f" (grid time extrapolated from {subset} shifts)" if extrapolated else ""))


def _time_one(D1, D2):
    t = time.perf_counter()
    gudhi.bottleneck_distance(D1 + 0.1, D2)
    return time.perf_counter() - t


def _spread_order(m):
    """0, ..., m - 1 in bit-reversed order: every prefix is spread over the whole range."""
    bits = max(1, (m - 1).bit_length())
    return [r for r in (int(format(i, f"0{bits}b")[::-1], 2) for i in range(2 ** bits))
            if r < m]


def private_graph_log_diagrams(n, seed=0, eps=1.0):
    """Log H1 alpha diagrams of the adjusted ASE of edgeFlip(A) and of the ASE of A (A a
    latent-circle RDPG, packed, d = 3): the end-to-end pipeline of bench_scale."""
    X = circle(n, random_state=seed)
    A = sample_grdpg(X, random_state=seed + 1, output="packed")
    B = edge_flip(A, eps, random_state=seed + 2, output="packed")
    embeddings = (adjacency_spectral_embedding(B, n_components=3, adjust=True),
                  adjacency_spectral_embedding(A, n_components=3))
    return tuple(log_diagram(persistence_diagram(np.asarray(Y), complex="alpha",
                                                 homology_dimensions=(1,)))[1]
                 for Y in embeddings)


def bench_shift_invariant_graph(n, grid_budget, tol=1e-3):
    """The certified W_SI against the 1,000-shift grid on the diagrams of a private graph.

    The grid spans the bracket the library proves holds a minimiser. A call costs far more at
    its ends, where the value is large, than near the minimum, so the grid is timed on shifts
    spread over all of it (bit-reversed order) for ``grid_budget`` seconds and extrapolated
    linearly. Beside it, the grid priced at 1,000 calls at the returned shift, where calls
    are among the cheapest: about the least a grid of that size around the minimum costs.
    """
    print(f"\n## Shift-invariant vs 1,000-shift grid on a private graph (n = {n:,}; log H1 "
          f"alpha, adjusted ASE of edgeFlip(A) vs ASE(A), eps = 1; tol = {tol:g})")
    D1, D2 = private_graph_log_diagrams(n)
    t = time.perf_counter()
    res = shift_invariant_bottleneck(D1, D2, method="certified", tol=tol)
    t_si = time.perf_counter() - t
    lo, hi = _Problem([(D1, D2)]).bracket()
    grid = np.linspace(lo, hi, GRID_SIZE)
    t = time.perf_counter()
    gudhi.bottleneck_distance(D1 + res.shift, D2)
    at_min = time.perf_counter() - t
    times, vals = [], []
    for i in _spread_order(GRID_SIZE):
        if len(times) >= 5 and sum(times) > grid_budget:
            break
        t = time.perf_counter()
        vals.append(gudhi.bottleneck_distance(D1 + grid[i], D2))
        times.append(time.perf_counter() - t)
    g_time = float(np.mean(times)) * GRID_SIZE
    floor = at_min * GRID_SIZE
    print(f"{'row':<48} {'points':>13} {'tdadp':>8} {'grid':>9} {'ratio':>7} "
          f"{'grid floor':>11} {'ratio':>7} {'gap':>8} {'evals':>5}")
    print(f"{'shift-invariant vs 1,000-shift grid, n = ' + format(n, ','):<48} "
          f"{f'{len(D1)}/{len(D2)}':>13} {t_si:>7.2f}s {g_time:>8.0f}s* {g_time / t_si:>6.0f}x "
          f"{floor:>10.0f}s {floor / t_si:>6.0f}x {res.upper - res.lower:>8.1e} "
          f"{res.n_evaluations:>5}")
    print(f"{'':<48} W_SI in [{res.lower:.6f}, {res.upper:.6f}] at shift {res.shift:.6f}; "
          f"grid best of the {len(times)} timed shifts {min(vals):.6f} (step "
          f"{grid[1] - grid[0]:.2e}); grid time extrapolated from {len(times)} of "
          f"{GRID_SIZE} shifts ({min(times):.2f}-{max(times):.2f} s a call)")
    report("si_grid_ratio", g_time / t_si,
           f"n = {n:,}, {len(D1):,}/{len(D2):,} diagram points: certified {t_si:.2f} s "
           f"(gap {res.upper - res.lower:.1e}) vs grid {g_time:.0f} s (extrapolated from "
           f"{len(times)} of {GRID_SIZE} gudhi calls spread over the bracket; at the minimum's "
           f"cost {floor / t_si:.0f}x)")


def ase_cloud(n, seed):
    X = circle(n, random_state=seed)
    A = sample_grdpg(X, random_state=seed + 1)
    return adjacency_spectral_embedding(A, n_components=3)


def bench_persistence(sizes, rips_max_n):
    print("\n## Alpha vs Rips diagrams of ASE point clouds (latent circle, d = 3), H0 and H1")
    print(f"{'n':>7} {'complex':>8} {'time':>9} {'H0':>7} {'H1':>7}  note")
    for n in sizes:
        Y = ase_cloud(n, seed=n)
        for complex in ("alpha", "rips"):
            note = ""
            if complex == "rips" and n > rips_max_n:
                print(f"{n:>7} {complex:>8} {'-':>9} {'-':>7} {'-':>7}  skipped (n > "
                      f"--rips-max-n {rips_max_n})")
                continue
            t = time.perf_counter()
            try:
                D = persistence_diagram(Y, complex=complex)
            except ValueError as exc:
                print(f"{n:>7} {complex:>8} {'refused':>9} {'-':>7} {'-':>7}  {exc}")
                continue
            elapsed = time.perf_counter() - t
            print(f"{n:>7} {complex:>8} {elapsed:>8.2f}s {D[0].shape[0]:>7} "
                  f"{D[1].shape[0]:>7}  {note}")


def _circles_and_blobs(n_clouds, n_points, seed=0):
    rng = np.random.default_rng(seed)
    clouds = []
    for i in range(n_clouds):
        if i % 2:
            t = rng.uniform(0, 2 * np.pi, n_points)
            clouds.append(np.c_[np.cos(t), np.sin(t)] + rng.normal(0, 0.1, (n_points, 2)))
        else:
            clouds.append(rng.normal(0, 0.6, (n_points, 2)))
    return clouds, np.arange(n_clouds) % 2


def bench_classification(settings):
    print("\n## Cross-validated 1-NN on H1 bottleneck distances (circles vs blobs, 5 folds)")
    print(f"{'clouds':>7} {'points':>7} {'metric':>27} {'time':>8} {'accuracy':>9}")
    for n_clouds, n_points, metric in settings:
        clouds, y = _circles_and_blobs(n_clouds, n_points)
        pipe = make_pipeline(PersistentHomology(complex="alpha", homology_dimensions=1),
                             # log scale: the shift-invariant metric then ignores units
                             PairwiseDistance(metric, homology_dimensions=1,
                                              log_scale=metric != "bottleneck"),
                             KNeighborsClassifier(n_neighbors=1, metric="precomputed"))
        t = time.perf_counter()
        scores = cross_val_score(pipe, clouds, y, cv=5)
        elapsed = time.perf_counter() - t
        print(f"{n_clouds:>7} {n_points:>7} {metric:>27} {elapsed:>7.2f}s "
              f"{scores.mean():>9.3f}")


def bench_dilation_invariant(sizes):
    """W_DI of H1 alpha diagrams of ASE(A) and ASE(edgeFlip(A)), latent circle, eps = 2:
    the comparison of Prop. 2 on raw diagrams (certified to the default tolerance)."""
    print("\n## dilation_invariant_bottleneck: H1 of ASE(A) vs ASE(edgeFlip(A)), circle, "
          "eps = 2")
    print(f"{'n':>6} {'points':>13} | {'W_inf':>7} {'W_DI':>9} {'scale':>6} {'gap':>8} "
          f"{'evals':>5} {'s':>6}")
    for n in sizes:
        seeds = np.random.SeedSequence(n).spawn(3)
        X = circle(n, random_state=seeds[0])
        A = sample_grdpg(X, random_state=seeds[1])
        B = edge_flip(A, 2.0, random_state=seeds[2])
        D1 = persistence_diagram(adjacency_spectral_embedding(A, 3), complex="alpha",
                                 homology_dimensions=(1,))
        D2 = persistence_diagram(adjacency_spectral_embedding(B, 3), complex="alpha",
                                 homology_dimensions=(1,))
        t0 = time.perf_counter()
        res = dilation_invariant_bottleneck(D1, D2, homology_dimension=1)
        t = time.perf_counter() - t0
        w = bottleneck_distance(D1, D2, homology_dimension=1)
        sizes_txt = f"{len(D1[1])}/{len(D2[1])}"
        print(f"{n:>6} {sizes_txt:>13} | {w:7.4f} {res.distance:9.6f} {res.scale:6.3f} "
              f"{res.upper - res.lower:8.1e} {res.n_evaluations:>5} {t:6.2f}", flush=True)


def layered_edges(levels):
    """The edges of scipy issue 26147's layered graph (as in tests/topology/test_matching):
    two rows a level, adjacent to their level's two columns and the next level's, a dead end
    at the last level, a chain as long as the levels ending in a free column, and two rows
    left free by the greedy start. Returns (rows, cols, n_rows, n_cols)."""
    n_level = 2 * levels
    rows, cols = [], []
    for d in range(levels):
        for r in (2 * d, 2 * d + 1):
            c = np.arange(2 * d, min(2 * d + 4, n_level))
            rows.append(np.full(c.size, r))
            cols.append(c)
    k = np.arange(levels)
    rows += [n_level + k, n_level + k, [n_level + levels] * 2, [n_level + levels + 1]]
    cols += [n_level + k, n_level + k + 1, [0, 1], [n_level]]
    return (np.concatenate(rows).astype(np.int64), np.concatenate(cols).astype(np.int64),
            n_level + levels + 2, n_level + levels + 1)


def _both_matchings(i, j, n_rows, n_cols, scipy_too=True):
    """(matched rows, tdadp seconds, scipy seconds or None) on the edges (i, j)."""
    t = time.perf_counter()
    size = int((maximum_matching(i, j, n_rows, n_cols) >= 0).sum())
    t_hk = time.perf_counter() - t
    if not scipy_too:
        return size, t_hk, None
    G = coo_matrix((np.ones(i.size, dtype=np.int8), (i, j)), shape=(n_rows, n_cols)).tocsr()
    t = time.perf_counter()
    ref = int((maximum_bipartite_matching(G, perm_type="column") >= 0).sum())
    t_sp = time.perf_counter() - t
    if ref != size:
        raise AssertionError(f"matching sizes differ: tdadp {size}, scipy {ref}")
    return size, t_hk, t_sp


def bench_matching(scipy_levels, levels):
    print("\n## Maximum bipartite matching: tdadp (Hopcroft-Karp, dead ends marked) vs scipy")
    maximum_matching(*layered_edges(2))     # compiled or loaded from numba's cache
    print(f"{'graph':<44} {'edges':>9} {'matched':>8} {'tdadp':>9} {'scipy':>9}")
    for lv in levels:
        i, j, n_rows, n_cols = layered_edges(lv)
        size, t_hk, t_sp = _both_matchings(i, j, n_rows, n_cols, lv in scipy_levels)
        sp = "-" if t_sp is None else f"{t_sp:.4f}s"
        print(f"{f'layered, {lv} levels':<44} {i.size:>9,} {size:>8,} {t_hk:>8.4f}s {sp:>9}",
              flush=True)
    rng = np.random.default_rng(0)
    n, m = 100_000, 1_000_000
    i, j = rng.integers(0, n, m), rng.integers(0, n, m)
    size, t_hk, t_sp = _both_matchings(i, j, n, n)
    print(f"{'random, 100,000 x 100,000':<44} {m:>9,} {size:>8,} {t_hk:>8.4f}s "
          f"{t_sp:>8.4f}s")
    b = rng.random((2, 3000)) * 3.0
    X, Y = (np.c_[c, c + rng.exponential(0.5, c.size)] for c in b)
    t = time.perf_counter()
    value, _ = bottleneck_distance(X, Y, matching=True)
    print(f"bottleneck_distance(matching=True), two random 3,000-point diagrams: "
          f"{time.perf_counter() - t:.2f}s (W_inf = {value:.6f})")
    print("scipy's time on the layered graphs doubles with each level: about 2^(levels - 20) "
          "times its 20-level time.")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--grid-budget", type=float, default=120.0,
                        help="seconds allowed for one grid search before extrapolating")
    parser.add_argument("--rips-max-n", type=int, default=10000,
                        help="largest n for which Rips is attempted")
    parser.add_argument("--graph-n", type=int, default=10000,
                        help="nodes of the private graph of the shift-invariant row")
    parser.add_argument("--part", default="all",
                        choices=("all", "distance", "graph", "persistence", "classification",
                                 "matching"))
    args = parser.parse_args(argv)
    print("# bench_topology")
    print(f"machine: {machine()}; gudhi {gudhi.__version__}")
    if args.quick:
        bench_shift_invariant([300], grid_budget=10.0)
        bench_shift_invariant_graph(1000, grid_budget=10.0)
        bench_dilation_invariant([500])
        bench_persistence([300], rips_max_n=300)
        bench_classification([(20, 60, "bottleneck")])
        bench_matching(scipy_levels=(12, 16), levels=(12, 16, 40))
        return
    if args.part == "graph":
        bench_shift_invariant_graph(args.graph_n, grid_budget=args.grid_budget)
    if args.part in ("all", "distance"):
        bench_shift_invariant([1000, 20000], grid_budget=args.grid_budget)
        bench_shift_invariant_graph(args.graph_n, grid_budget=args.grid_budget)
        bench_dilation_invariant([1000, 4000, 8000])
    if args.part in ("all", "persistence"):
        bench_persistence([2000, 10000], rips_max_n=args.rips_max_n)
    if args.part in ("all", "matching"):
        bench_matching(scipy_levels=(16, 20, 22, 24), levels=(16, 20, 22, 24, 40, 100_000))
    if args.part in ("all", "classification"):
        bench_classification([(20, 60, "bottleneck"), (60, 100, "bottleneck"),
                              (20, 60, "shift_invariant_bottleneck")])
    print("\n* grid time extrapolated linearly from a subset of the shifts; + full-grid error "
          "bounded by step / 2 (1-Lipschitz), not measured.")


if __name__ == "__main__":
    main()
