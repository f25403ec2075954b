"""Where sweep tasks run: in process, local processes, or a Dask cluster (via joblib)."""

from __future__ import annotations

import contextlib

from ._config import ConfigError

__all__ = ["execution"]


@contextlib.contextmanager
def execution(n_jobs=None, local_cluster=None, scheduler=None):
    """Yield joblib ``Parallel`` keyword arguments for the chosen place of execution.

    Parameters
    ----------
    n_jobs : int, optional
        Local worker processes (joblib's loky backend); None or 1 runs in process.
    local_cluster : int, optional
        Start a ``distributed.LocalCluster`` with this many single-threaded worker processes.
    scheduler : str, optional
        Address of a running Dask scheduler to join.
    """
    chosen = [x is not None for x in (n_jobs, local_cluster, scheduler)]
    if sum(chosen) > 1:
        raise ConfigError("choose one of --n-jobs, --local-cluster and --scheduler")
    if local_cluster is None and scheduler is None:
        if n_jobs is not None and n_jobs < 1:
            raise ConfigError(f"--n-jobs must be at least 1, got {n_jobs}")
        yield {"n_jobs": n_jobs or 1, "backend": "loky" if (n_jobs or 1) > 1 else None}
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ConfigError("Dask is not installed: pip install 'dask[distributed]'") from None
    if local_cluster is not None:
        if local_cluster < 1:
            raise ConfigError(f"--local-cluster must be at least 1, got {local_cluster}")
        cluster = LocalCluster(n_workers=local_cluster, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        cluster = None
        try:
            client = Client(scheduler, timeout="10s")
        except OSError as exc:
            raise ConfigError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        yield {"n_jobs": -1, "backend": "dask"}
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
