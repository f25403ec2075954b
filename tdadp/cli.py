"""The ``tdadp`` command: list and run the paper's experiments.

    tdadp list
    tdadp run EXPERIMENT [--config FILE] [--out DIR] [--replicates R] [--quick]
                         [--n-jobs N | --local-cluster WORKERS | --scheduler ADDRESS]
                         [--max-hours H] [--pdf] [--no-progress]

Bad configurations and command lines end with a one-line message and exit code 2, before any
work starts: every config key is checked against its declared rule, the largest task's memory
against the memory left, and the run's estimated time against ``--max-hours`` (default 24).
The run folder is written whole or not at all (see :func:`tdadp.experiments.run_experiment`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .experiments import (
    DEFAULT_MAX_HOURS,
    ConfigError,
    check_output_dir,
    check_run_cost,
    check_run_memory,
    experiment_config,
    experiment_notes,
    get_experiment,
    list_experiments,
    run_experiment,
)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        # one line, exit 2, no usage dump
        self.exit(2, f"tdadp: error: {message}\n")


def _positive(kind):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{kind} must be an integer, got {text!r}") \
                from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{kind} must be at least 1, got {value}")
        return value

    return parse


def _hours(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--max-hours must be a number, got {text[:40]!r}") \
            from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"--max-hours must be positive and finite, got "
                                         f"{text[:40]!r}")
    return value


def build_parser():
    parser = _Parser(prog="tdadp", description="Topological inference on edge-DP networks: "
                     "reproduce the paper's experiments.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("list", help="list the experiments")
    run = sub.add_parser("run", help="run an experiment")
    run.add_argument("experiment")
    run.add_argument("--config", help="JSON or TOML file overriding the experiment's config")
    run.add_argument("--out", help="output folder (default: results/EXPERIMENT)")
    run.add_argument("--replicates", type=_positive("--replicates"))
    run.add_argument("--quick", action="store_true", help="small sizes, few replicates")
    place = run.add_mutually_exclusive_group()
    place.add_argument("--n-jobs", type=_positive("--n-jobs"), help="local worker processes")
    place.add_argument("--local-cluster", type=_positive("--local-cluster"),
                       metavar="WORKERS", help="start a Dask LocalCluster with WORKERS")
    place.add_argument("--scheduler", metavar="ADDRESS", help="join a running Dask cluster")
    run.add_argument("--max-hours", type=_hours, default=DEFAULT_MAX_HOURS,
                     help="refuse a run estimated to take longer (default: %(default)g)")
    run.add_argument("--pdf", action="store_true", help="also write PDF figures")
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        if args.command == "list":
            for name, module in list_experiments().items():
                print(f"{name:<12} {module.SUMMARY}")
            return 0
        # Validate everything before any work starts: the configuration, the memory its
        # largest tasks need on this machine, and the output folder.
        module = get_experiment(args.experiment)
        config = experiment_config(module, args.config, quick=args.quick,
                                   replicates=args.replicates)
        local = 0 if args.scheduler else (args.local_cluster or args.n_jobs or 1)
        check_run_memory(module, config, workers=local)
        check_run_cost(module, config, workers=local, max_hours=args.max_hours)
        check_output_dir(args.out if args.out is not None
                         else Path("results") / args.experiment)
        out, rows, figures = run_experiment(
            args.experiment, config_file=args.config, out=args.out,
            replicates=args.replicates, quick=args.quick, n_jobs=args.n_jobs,
            local_cluster=args.local_cluster, scheduler=args.scheduler,
            formats=("png", "pdf") if args.pdf else ("png",),
            progress=not args.no_progress, argv=["tdadp"] + list(argv or sys.argv[1:]),
            max_hours=args.max_hours)
    except ConfigError as exc:
        print(f"tdadp: error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.experiment}: {len(rows)} rows -> {out / 'results.csv'}")
    for path in figures:
        print(f"  figure: {path}")
    for note in experiment_notes(module, config):
        print(f"  note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
