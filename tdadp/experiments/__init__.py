"""Experiment sweeps: configuration, placement (joblib / Dask), results and provenance."""

from ._backends import execution
from ._config import ConfigError, Values, check_config, load_config_file, resolve_config
from ._results import read_table, versions, write_provenance, write_table
from ._run import (
    DEFAULT_MAX_HOURS,
    check_output_dir,
    check_run_cost,
    check_run_memory,
    experiment_config,
    experiment_notes,
    get_experiment,
    list_experiments,
    run_experiment,
)
from ._sweep import Task, make_tasks, run_sweep, task_seed

__all__ = [
    "ConfigError",
    "DEFAULT_MAX_HOURS",
    "Task",
    "Values",
    "check_config",
    "check_output_dir",
    "check_run_cost",
    "check_run_memory",
    "execution",
    "experiment_config",
    "experiment_notes",
    "get_experiment",
    "list_experiments",
    "load_config_file",
    "make_tasks",
    "read_table",
    "resolve_config",
    "run_experiment",
    "run_sweep",
    "task_seed",
    "versions",
    "write_provenance",
    "write_table",
]
