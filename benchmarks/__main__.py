"""Run every benchmark and write the targets table: ``python -m benchmarks [--quick]``.

Each ``benchmarks/bench_*.py`` prints its own tables and reports the rows of issue 29's targets
it measures (``benchmarks._common.report``). A full run records each row in
``benchmarks/results.csv`` as soon as it is measured and rewrites ``benchmarks/results.md``,
the table the README shows: a row measured again replaces the recorded one, the others keep
their own date and load. ``--only`` runs some modules alone; ``--targets`` runs only the parts
that measure the table's rows (each module's ``TARGET_ARGV``). ``--quick`` runs small sizes,
which are not the targets' sizes: it prints the table and writes nothing. ``--suite`` also
times ``make test`` on a clean clone (the last row; several minutes).
"""

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path

from benchmarks import _common
from benchmarks._common import RESULTS, markdown_table, read_rows

# The modules that measure the targets' rows run first: a long run (an hour or more on a
# shared machine) stopped early has the table.
_TARGET_MODULES = ("bench_secure", "bench_end_to_end", "bench_noisy_release", "bench_topology",
                   "bench_cluster")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="small sizes (a smoke run): the table is printed, not written")
    parser.add_argument("--only", action="append", metavar="MODULE",
                        help="run only this benchmark module (e.g. bench_secure); repeatable")
    parser.add_argument("--targets", action="store_true",
                        help="only the parts of the benchmarks that measure the table's rows")
    parser.add_argument("--suite", action="store_true",
                        help="also time make test on a clean clone (the last target row)")
    parser.add_argument("--results", default=str(Path(__file__).parent / "results"),
                        help="path of the table without extension (default: "
                        "benchmarks/results)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    here = Path(__file__).parent
    names = sorted((m.name for m in pkgutil.iter_modules([str(here)])
                    if m.name.startswith("bench_")),
                   key=lambda name: (name not in _TARGET_MODULES,
                                     _TARGET_MODULES.index(name)
                                     if name in _TARGET_MODULES else 0, name))
    if args.only:
        unknown = sorted(set(args.only) - set(names))
        if unknown:
            parser.error(f"no benchmark module {', '.join(unknown)} (have: {', '.join(names)})")
        names = [n for n in names if n in args.only]
    if args.targets:
        names = [n for n in names if n in _TARGET_MODULES]
    child_argv = ["--quick"] if args.quick else []
    csv_path, md_path = args.results + ".csv", args.results + ".md"
    if not args.quick:
        _common.RESULTS_PATH = args.results
    for name in names:
        print(f"\n=== {name} ===", flush=True)
        module = importlib.import_module(f"benchmarks.{name}")
        module.main(child_argv + (list(getattr(module, "TARGET_ARGV", []))
                                  if args.targets else []))
    if args.suite:
        print("\n=== make test on a clean clone ===", flush=True)
        importlib.import_module("benchmarks._suite").run_suite()
    print("\n=== targets (issue 29) ===")
    if args.quick:
        print("quick run: small sizes, not the targets' sizes; nothing written\n")
        print(markdown_table(RESULTS))
        return
    # The file, not this run's rows alone: a run started meanwhile (--only) may have
    # recorded newer ones.
    print(markdown_table(read_rows(csv_path)))
    print(f"written: {md_path}, {csv_path}")


if __name__ == "__main__":
    main()
