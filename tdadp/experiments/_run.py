"""Run an experiment defined in ``pipelines/`` (importable as ``tdadp.pipelines``).

An experiment module defines ``NAME``, ``SUMMARY``, ``CONFIG`` (defaults, including ``seed``
and ``replicates``), ``QUICK`` (overrides for a quick run), ``validate(config)``,
``points(config) -> list of parameter dicts``, ``run_task(params, config, seed) -> metrics``
and ``make_figures(rows, config, out_dir, formats) -> list of paths``; optionally
``peak_memory(config) -> bytes``, the peak memory of its largest task, which a run checks
against the memory the process can use before any work starts, and
``notes(config) -> list of str``, what a reader of that run should know (e.g. that a quick
size is below the one where the effect appears): printed by the CLI, kept in the
provenance and drawn on the figure by the experiment.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import tempfile
import time
from pathlib import Path

from ..utils._memory import check_memory
from ._backends import execution
from ._config import ConfigError, load_config_file, resolve_config
from ._results import write_provenance, write_table
from ._sweep import make_tasks, run_sweep

__all__ = ["list_experiments", "get_experiment", "run_experiment", "experiment_config",
           "check_output_dir", "check_run_memory", "experiment_notes"]

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


def check_output_dir(out):
    """Make sure the results can be written to ``out`` before any work starts.

    Raises
    ------
    ConfigError
        ``out`` is an existing file, cannot be created, or is not writable.
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {str(out)!r} is an existing file, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".tdadp-write-test-", dir=out)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ConfigError(f"--out {str(out)!r} is not a writable folder ({reason})") from None
    return out


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


def run_experiment(name, *, config_file=None, out=None, replicates=None, quick=False,
                   n_jobs=None, local_cluster=None, scheduler=None, formats=("png",),
                   progress=True, argv=None):
    """Run one experiment end to end; return the output folder.

    Writes ``results.csv`` (one row per parameter point and replicate), ``provenance.json``
    and the figures into ``out`` (default ``results/<name>``).
    """
    module = get_experiment(name)
    config = experiment_config(module, config_file, quick=quick, replicates=replicates)
    # Tasks that run on this machine at once (a remote scheduler's workers are elsewhere).
    local = 0 if scheduler else (local_cluster or n_jobs or 1)
    check_run_memory(module, config, workers=local)
    out = check_output_dir(out if out is not None else Path("results") / name)
    points = module.points(config)
    tasks = make_tasks(points, config["replicates"])
    start = time.perf_counter()
    with execution(n_jobs=n_jobs, local_cluster=local_cluster, scheduler=scheduler) as par:
        rows = run_sweep(module.run_task, tasks, config, config["seed"], par,
                         progress=progress, label=name)
        backend = par.get("backend") or "in-process"
    out.mkdir(parents=True, exist_ok=True)
    write_table(rows, out / "results.csv")
    figures = module.make_figures(rows, config, out, tuple(formats))
    write_provenance(out / "provenance.json", experiment=name, config=config,
                     root_seed=config["seed"], n_tasks=len(tasks), backend=backend,
                     argv=argv, wall_time_s=time.perf_counter() - start,
                     notes=experiment_notes(module, config))
    return out, rows, figures
