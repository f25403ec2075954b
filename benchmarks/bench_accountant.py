"""Time of k successive spends on one BudgetAccountant, and of k spends from 4 threads.

A pipeline of many small releases (a batch of k graphs, or k calls of ``spend``) charges one
accountant k times: each charge must cost the same whatever the ledger's length, so the
time of k spends grows like k (it grew like k^2 when every charge summed the ledger anew).
Best of three runs in one process; the threaded run checks the total spent is exact.
"""

from __future__ import annotations

import argparse
import threading

from benchmarks._common import best_of, machine
from tdadp.dp import BudgetAccountant

EPS = 1e-6  # each spend's epsilon: k of them fit a total of 1
THREADS = 4


def spends(k):
    acc = BudgetAccountant(epsilon=1.0)
    for _ in range(k):
        acc.spend(EPS)
    return acc


def threaded_spends(k):
    acc = BudgetAccountant(epsilon=1.0)

    def work():
        for _ in range(k // THREADS):
            acc.spend(EPS)

    threads = [threading.Thread(target=work) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return acc


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="k = 1,000 and 10,000 only")
    args = parser.parse_args(argv)
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    print(f"# BudgetAccountant.spend({EPS:g}) k times, best of 3; machine: {machine()}")
    print(f"{'k':>9} {'one thread s':>13} {'us/spend':>9} {f'{THREADS} threads s':>12} "
          f"{'spent':>10}")
    for k in sizes:
        acc, t = best_of(spends, k)
        shared, t_threads = best_of(threaded_spends, k)
        assert shared.n_releases == k and shared.spent == acc.spent
        print(f"{k:>9,} {t:>13.3f} {1e6 * t / k:>9.1f} {t_threads:>12.3f} "
              f"{acc.spent[0]:>10.6g}", flush=True)


if __name__ == "__main__":
    main()
