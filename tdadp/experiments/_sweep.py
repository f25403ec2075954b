"""Sweeps: (parameter point x replicate) tasks with seeds that do not depend on placement.

Task (i, r) draws from ``SeedSequence(root_seed, spawn_key=(i, r))`` and runs with BLAS held
to one thread, so a task gives the same numbers in process, in a local worker process, or on a
Dask worker. Tasks return metrics only: graphs and embeddings stay where they were made.
"""

from __future__ import annotations

import sys
import time
import warnings
from collections import Counter
from dataclasses import dataclass

import numpy as np
from joblib import Parallel, delayed, parallel_config

__all__ = ["Task", "make_tasks", "task_seed", "run_sweep"]


@dataclass(frozen=True)
class Task:
    point: int
    replicate: int
    params: dict


def task_seed(root_seed, point, replicate):
    """The SeedSequence of task (point, replicate)."""
    return np.random.SeedSequence(int(root_seed), spawn_key=(int(point), int(replicate)))


def make_tasks(points, replicates):
    return [Task(i, r, dict(p)) for i, p in enumerate(points) for r in range(replicates)]


def _execute(func, task, config, root_seed):
    from threadpoolctl import threadpool_limits

    # A task's warnings are recorded, not printed: a sweep of hundreds of tasks would print
    # the same condition hundreds of times (run_sweep states each once).
    with threadpool_limits(limits=1), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.perf_counter()
        metrics = func(dict(task.params), dict(config), task_seed(root_seed, task.point,
                                                                  task.replicate))
        wall = time.perf_counter() - start
    raised = sorted({f"{w.category.__name__}: {w.message}" for w in caught})
    return task, dict(metrics, task_warnings=len(caught),
                      task_warning_messages=" | ".join(raised)), wall


def run_sweep(func, tasks, config, root_seed, parallel_kwargs, progress=True, label="sweep"):
    """Run ``func(params, config, seed) -> dict`` on every task; rows in task order.

    Each row: ``point``, ``replicate``, the parameters, ``seed`` ("root:point:replicate"),
    the metrics, ``task_warnings`` (warnings the task raised) and ``task_warning_messages``
    (the distinct ones), and ``wall_time_s``. Each distinct warning is printed once, with the
    number of tasks that raised it.
    """
    calls = (delayed(_execute)(func, t, config, root_seed) for t in tasks)
    kwargs = dict(parallel_kwargs)
    backend = kwargs.pop("backend", None)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(tasks), desc=label, unit="task", leave=True)
    done = []
    try:
        # parallel_config (not Parallel's backend argument) also resolves "dask", which
        # joblib registers lazily.
        with parallel_config(backend=backend or "loky", n_jobs=kwargs.pop("n_jobs", 1)):
            for item in Parallel(return_as="generator_unordered", **kwargs)(calls):
                done.append(item)
                if bar is not None:
                    bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    done.sort(key=lambda item: (item[0].point, item[0].replicate))
    rows = []
    for task, metrics, wall in done:
        row = {"point": task.point, "replicate": task.replicate}
        row.update(task.params)
        row["seed"] = f"{root_seed}:{task.point}:{task.replicate}"
        row.update(metrics)
        row["wall_time_s"] = wall
        rows.append(row)
    _state_warnings_once(rows, label)
    return rows


def _state_warnings_once(rows, label):
    tasks = Counter()
    for row in rows:
        for message in filter(None, row["task_warning_messages"].split(" | ")):
            tasks[message] += 1
    for message, count in sorted(tasks.items()):
        print(f"{label}: {count} of {len(rows)} tasks warned: {message}", file=sys.stderr)
