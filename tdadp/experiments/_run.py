"""Run an experiment defined in ``pipelines/`` (importable as ``tdadp.pipelines``).

An experiment module defines ``NAME``, ``SUMMARY``, ``CONFIG`` (defaults, including ``seed``
and ``replicates``), ``QUICK`` (overrides for a quick run), ``validate(config)``,
``points(config) -> list of parameter dicts``, ``run_task(params, config, seed) -> metrics``
and ``make_figures(rows, config, out_dir, formats) -> list of paths`` and ``RULES``, the
declared rule of every config key (see :func:`tdadp.experiments.check_config`); optionally
``peak_memory(config) -> bytes``, the peak memory of its largest task, which a run checks
against the memory the process can use before any work starts,
``point_seconds(point, config) -> (seconds of all its replicates, seconds of its longest
task)``, an estimate on one core from which a run refuses, before any work starts, a
configuration that would run longer than ``max_hours``, and
``notes(config) -> list of str``, what a reader of that run should know (e.g. that a quick
size is below the one where the effect appears): printed by the CLI, kept in the
provenance and drawn on the figure by the experiment.

A run writes its folder whole or not at all: the table, figures and provenance go to a
temporary folder beside it (``.NAME.incomplete-XXXX``), renamed to the run folder once all
are written; a re-run replaces the previous run's folder the same way, so that a folder never
holds one run's table beside another's provenance.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import pkgutil
import secrets
import shutil
import tempfile
import time
from pathlib import Path

from ..utils._memory import check_memory
from ._backends import execution
from ._config import ConfigError, check_config, load_config_file, resolve_config
from ._results import write_provenance, write_table
from ._sweep import make_tasks, run_sweep

__all__ = ["list_experiments", "get_experiment", "run_experiment", "experiment_config",
           "check_output_dir", "check_run_memory", "check_run_cost", "experiment_notes",
           "DEFAULT_MAX_HOURS"]

# A run estimated to take longer than this (wall time on its workers) is refused unless the
# caller allows more (tdadp run --max-hours).
DEFAULT_MAX_HOURS = 24.0
# Memory of one task's row of the results and its bookkeeping (a dict of up to ~150 metrics,
# the Task, the sweep's record): generous, measured at 2 to 10 KB.
_ROW_BYTES = 16e3

EXPERIMENT_PACKAGE = "tdadp.pipelines"
_REQUIRED = ("NAME", "SUMMARY", "CONFIG", "points", "run_task", "make_figures")


def list_experiments():
    """Name -> module of every experiment in ``tdadp.pipelines``."""
    # The experiment definitions sit above this framework (they import it): they are found
    # by name at run time, as plugins, not imported by it.
    package = importlib.import_module(EXPERIMENT_PACKAGE)

    found = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{EXPERIMENT_PACKAGE}.{info.name}")
        if all(hasattr(module, attr) for attr in _REQUIRED):
            found[module.NAME] = module
    return dict(sorted(found.items()))


def get_experiment(name):
    experiments = list_experiments()
    if name not in experiments:
        raise ConfigError(f"unknown experiment {name!r} (known: {', '.join(experiments)})")
    return experiments[name]


def experiment_config(module, config_file=None, *, quick=False, replicates=None):
    """The validated configuration of a run."""
    layers = []
    if quick:
        layers.append(getattr(module, "QUICK", {}))
    if config_file is not None:
        layers.append(load_config_file(config_file))
    if replicates is not None:
        layers.append({"replicates": replicates})
    config = resolve_config(module.CONFIG, layers, experiment=module.NAME)
    rules = getattr(module, "RULES", None)
    if rules is None:
        raise KeyError(f"experiment {module.NAME} declares no RULES for its config.")
    check_config(rules, config, experiment=module.NAME)
    if config.get("replicates", 1) < 1:
        raise ConfigError(f"{module.NAME}: replicates must be at least 1, got "
                          f"{config['replicates']}")
    if config.get("seed", 0) < 0:
        raise ConfigError(f"{module.NAME}: seed must be non-negative, got {config['seed']}")
    validate = getattr(module, "validate", None)
    if validate is not None:
        validate(config)
    return config


def experiment_notes(module, config):
    """The experiment's notes on this configuration (empty when it defines none)."""
    notes = getattr(module, "notes", None)
    return [] if notes is None else [str(n) for n in notes(config)]


_PROVENANCE = "provenance.json"


def _previous_run(folder):
    """Whether ``folder`` holds a tdadp run: its provenance record names an experiment."""
    record = folder / _PROVENANCE
    try:
        if not record.is_file() or record.stat().st_size > 1 << 20:
            return False
        data = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "experiment" in data and "seeds" in data


def _run_folder(out):
    """The real path of the run folder ``out`` (a symlink followed), or a ConfigError."""
    if not isinstance(out, (str, os.PathLike)):
        raise ConfigError(f"--out must be a folder name, got {type(out).__name__}")
    text = os.fspath(out)
    if not text.strip():
        raise ConfigError("--out must name a folder, got an empty path (it would write into "
                          "the current folder)")
    try:
        real = Path(os.path.realpath(text))
    except (OSError, ValueError) as exc:  # a NUL byte, a loop of symlinks
        raise ConfigError(f"--out {text[:80]!r} is not a usable folder name "
                          f"({getattr(exc, 'strerror', None) or exc})") from None
    here = Path(os.path.realpath(os.getcwd()))
    if real == here or real in here.parents or real.parent == real:
        raise ConfigError(f"--out {text!r} is the current folder or one above it; a run "
                          "replaces its folder as a whole: name a folder of its own, e.g. "
                          "results/NAME")
    return real


def check_output_dir(out):
    """Make sure the results can be written to ``out`` before any work starts.

    ``out`` must be a new folder, an empty one, or the folder of a previous run (holding its
    ``provenance.json``), which the run replaces as a whole once it has written everything;
    its parent must be writable (the run writes beside it first).

    Raises
    ------
    ConfigError
        ``out`` is empty, the current folder (or above it), an existing file, a folder
        holding other files than a run's, or in a place that cannot be written.
    """
    real = _run_folder(out)
    text = os.fspath(out)
    if real.exists() and not real.is_dir():
        raise ConfigError(f"--out {text!r} is an existing file, not a folder")
    if real.is_dir():
        try:
            entries = sum(1 for _ in real.iterdir())
        except OSError as exc:
            raise ConfigError(f"--out {text!r} cannot be read "
                              f"({exc.strerror or type(exc).__name__})") from None
        if entries and not _previous_run(real):
            raise ConfigError(f"--out {text!r} holds {entries} entries and is not a tdadp "
                              "run folder (no provenance.json); a run replaces its folder "
                              "as a whole: choose a new or empty folder")
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        probe = tempfile.mkdtemp(prefix=f".{real.name}.tdadp-write-test-", dir=real.parent)
        os.rmdir(probe)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ConfigError(f"--out {text!r} is not a writable folder ({reason})") from None
    return Path(out)


@contextlib.contextmanager
def _staged(out):
    """Yield a new folder beside ``out``; when the block completes, it becomes ``out``
    (replacing a previous run's folder); when it fails, it is removed and ``out`` is left as
    it was."""
    real = _run_folder(out)
    real.parent.mkdir(parents=True, exist_ok=True)
    stage = real.parent / f".{real.name}.incomplete-{secrets.token_hex(4)}"
    stage.mkdir()
    try:
        yield stage
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    old = None
    if real.exists():
        old = real.parent / f".{real.name}.replaced-{secrets.token_hex(4)}"
        os.rename(real, old)
    try:
        os.rename(stage, real)
    except BaseException:
        if old is not None:
            os.rename(old, real)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def check_run_memory(module, config, workers=1):
    """Refuse a run whose largest tasks would not fit in the memory this process can use.

    ``workers`` tasks run at once on this machine (local processes); tasks on a Dask cluster
    elsewhere are the cluster's business (pass ``workers=0``).
    """
    estimate = getattr(module, "peak_memory", None)
    if estimate is None or workers < 1:
        return
    need = float(estimate(config)) * workers
    try:
        check_memory(need, f"{module.NAME}: {workers} task(s) at the configured sizes",
                     " Use smaller sizes or fewer parallel jobs.", fraction=0.8)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def _format_hours(seconds):
    hours = seconds / 3600
    return f"{hours:.3g} hours" if hours >= 1 else f"{seconds / 60:.3g} minutes"


def check_run_cost(module, config, workers=1, max_hours=DEFAULT_MAX_HOURS):
    """Refuse a run whose tasks' results would not fit in memory, or that would take longer
    than ``max_hours`` on ``workers`` local workers (its own estimate, ``point_seconds``).

    ``workers=0`` (a remote Dask cluster of unknown size): only its longest task is checked.
    """
    check_config({"max_hours": [float, int]}, {"max_hours": max_hours},
                 experiment=module.NAME)
    if not max_hours > 0:
        raise ConfigError(f"--max-hours must be positive, got {max_hours!r}")
    points = module.points(config)
    n_tasks = len(points) * int(config.get("replicates", 1))
    try:
        check_memory(_ROW_BYTES * n_tasks, f"{module.NAME}: the results of {n_tasks:,} "
                     "tasks", " Use fewer replicates or parameter values.")
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    estimate = getattr(module, "point_seconds", None)
    if estimate is None:
        return
    total = longest = 0.0
    for point in points:
        seconds, task = estimate(point, config)
        total += float(seconds)
        longest = max(longest, float(task))
    wall = longest if workers < 1 else max(longest, total / workers)
    if wall > 3600.0 * max_hours:
        on = "its longest task" if workers < 1 else f"{workers} worker(s)"
        raise ConfigError(
            f"{module.NAME}: the run would take about {_format_hours(wall)} on {on} "
            f"(estimated from the configured sizes and replicates; the longest task about "
            f"{_format_hours(longest)}), more than --max-hours {max_hours:g}. Use smaller "
            "sizes or fewer replicates, more workers, or raise --max-hours")


def run_experiment(name, *, config_file=None, out=None, replicates=None, quick=False,
                   n_jobs=None, local_cluster=None, scheduler=None, formats=("png",),
                   progress=True, argv=None, max_hours=DEFAULT_MAX_HOURS):
    """Run one experiment end to end; return ``(out, rows, figure paths)``.

    Writes ``results.csv`` (one row per parameter point and replicate), the figures and
    ``provenance.json`` into ``out`` (default ``results/<name>``), all at once: they are
    written beside it first and the folder renamed into place when complete (replacing a
    previous run's folder), so an interrupted run leaves ``out`` as it was.
    """
    module = get_experiment(name)
    config = experiment_config(module, config_file, quick=quick, replicates=replicates)
    # Tasks that run on this machine at once (a remote scheduler's workers are elsewhere).
    local = 0 if scheduler else (local_cluster or n_jobs or 1)
    check_run_memory(module, config, workers=local)
    check_run_cost(module, config, workers=local, max_hours=max_hours)
    out = check_output_dir(out if out is not None else Path("results") / name)
    points = module.points(config)
    tasks = make_tasks(points, config["replicates"])
    start = time.perf_counter()
    with execution(n_jobs=n_jobs, local_cluster=local_cluster, scheduler=scheduler) as par:
        rows = run_sweep(module.run_task, tasks, config, config["seed"], par,
                         progress=progress, label=name)
        backend = par.get("backend") or "in-process"
    with _staged(out) as stage:
        write_table(rows, stage / "results.csv")
        figures = module.make_figures(rows, config, stage, tuple(formats))
        # the provenance last: a folder with it holds everything the run wrote
        write_provenance(stage / _PROVENANCE, experiment=name, config=config,
                         root_seed=config["seed"], n_tasks=len(tasks), backend=backend,
                         argv=argv, wall_time_s=time.perf_counter() - start,
                         notes=experiment_notes(module, config))
    figures = [out / Path(p).relative_to(stage) if Path(p).is_relative_to(stage) else Path(p)
               for p in figures]
    return out, rows, figures
