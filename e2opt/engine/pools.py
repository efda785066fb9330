"""Executors of sweep runs (and of a run's workers on Dask): local processes or a Dask cluster; how many
tasks fit on the usable cores."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from multiprocessing import get_context
from typing import Any, Protocol

from ..core.errors import E2optError
from ..core.signals import ignore_sigint


class Pool(Protocol):
    """What run_sweep needs of an executor: futures in the ``concurrent.futures`` style."""

    waits_for_running: bool  # on stop, wait for runs in flight (they stop cleanly) or leave them
    stop_note: str  # what happens to runs in flight on stop, for the user

    def describe(self) -> str:
        """Where the runs go, for the sweep's first line."""
        ...

    def submit(self, fn: Callable[[dict], dict], task: dict) -> Any:
        """Start fn(task) somewhere; a future."""
        ...

    def wait(self, futures: set, timeout: float) -> set:
        """The futures done within ``timeout`` seconds (at least one, unless the time ran out)."""
        ...

    def cancel(self, futures: set) -> None:
        """Cancel the futures not started yet."""
        ...

    def close(self, wait: bool = True) -> None:
        """Release the workers (``wait=False``: do not wait for runs in flight)."""
        ...


class LocalPool:
    """A process pool (spawn start method). Stopping waits for the runs in flight: they stop after their move."""

    waits_for_running = True
    stop_note = "runs in flight stop after their current move (Ctrl-C again to abandon them)"

    def __init__(self, workers: int):
        self.workers = workers
        self.pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=ignore_sigint)

    def describe(self) -> str:
        return f"{self.workers} local worker process{'es' if self.workers > 1 else ''}"

    def submit(self, fn: Callable[[dict], dict], task: dict) -> Any:
        return self.pool.submit(fn, task)

    def wait(self, futures: set, timeout: float) -> set:
        return wait_futures(futures, timeout, FIRST_COMPLETED).done

    def cancel(self, futures: set) -> None:
        for future in futures:
            future.cancel()

    def close(self, wait: bool = True) -> None:
        self.pool.shutdown(wait=wait, cancel_futures=True)


class DaskPool:
    """A Dask client, on a scheduler address or on a LocalCluster of one-thread worker processes.

    Runs in flight cannot be signalled through Dask: on Ctrl-C a LocalCluster is shut down (its runs resume
    from their last checkpoint with ``--resume``); on a remote cluster they go on until they finish.
    """

    waits_for_running = False

    def __init__(self, workers: int, scheduler: str | None, client: Any = None, config: dict | None = None):
        import distributed

        self.distributed = distributed
        self.cluster = None
        self.seceded = client is not None
        if client is not None:  # a run that is itself a task on this cluster (nested.py)
            self.client, self.where = client, "the Dask cluster this run is a task of"
            self.stop_note = "workers stop after their current move"
            return
        try:
            if scheduler:
                self.client = distributed.Client(scheduler, timeout="20s")
            else:
                self.cluster = _local_cluster(distributed, workers, config)
                self.client = distributed.Client(self.cluster)
        except (OSError, TimeoutError) as exc:
            raise E2optError(f"dask scheduler {scheduler or '(local)'}: cannot connect: {exc}") from None
        except ValueError as exc:  # distributed's answer to a malformed address or unknown scheme
            raise E2optError(f"--scheduler {scheduler!r}: not a Dask scheduler address: {exc}") from None
        self.where = scheduler or f"a local Dask cluster of {workers} worker process(es)"
        self.stop_note = (
            "runs in flight keep going on the cluster until they finish"
            if scheduler
            else "runs in flight end with the local cluster; --resume continues them from their last checkpoint"
        )

    def describe(self) -> str:
        return f"Dask on {self.where}"

    def submit(self, fn: Callable[[Any], Any], task: Any) -> Any:
        """Run fn(task) on the cluster; a sweep's task is a dict, a run's round a protocol.Task."""
        name = task["id"] if isinstance(task, dict) else task.id
        return self.client.submit(fn, task, key=f"e2opt-{name}-{os.urandom(4).hex()}", pure=False)

    def wait(self, futures: set, timeout: float) -> set:
        try:
            return set(
                self.distributed.wait(list(futures), timeout=timeout, return_when=FIRST_COMPLETED).done
            )
        except TimeoutError:
            return set()

    def cancel(self, futures: set) -> None:
        self.client.cancel(list(futures))

    def lost_attempts(self, future: Any) -> int:
        """Attempts of the future's task that died with their worker and that the scheduler ran again (its
        ``suspicious`` count): the answer came, so nothing else tells the run of the loss."""
        try:
            return int(self.client.run_on_scheduler(_suspicious, key=future.key) or 0)
        except Exception:  # a scheduler that cannot say (gone, another version): no loss seen
            return 0

    def close(self, wait: bool = True) -> None:
        if self.seceded:  # the run's task takes its thread back; the client is the worker's own
            self.distributed.rejoin()
            return
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _local_cluster(distributed: Any, workers: int, config: dict | None = None) -> Any:
    """A LocalCluster of one-thread worker processes forked from e2opt's fork server, which starts with
    Ctrl-C ignored, Dask imported and the run's kernels warmed (``config``: prewarm.py): each worker starts
    ready, and leaves Ctrl-C to the run (daskquiet.py). A Ctrl-C while it starts is handled once it has
    started (core/signals.Deferred), and the cluster is closed again."""
    import json

    import dask

    from ..core.signals import Deferred, worker_context
    from .daskquiet import PRELOAD
    from .prewarm import PREWARM_ENV, SERVER_MODULES

    preload = [*dask.config.get("distributed.worker.preload", []), PRELOAD]
    warm = {} if config is None else {PREWARM_ENV: json.dumps({"data": config})}
    worker_context([*SERVER_MODULES, "distributed"], warm)
    settings = {
        "distributed.worker.preload": preload,
        "distributed.worker.multiprocessing-method": "forkserver",
    }
    cluster = None
    try:
        with dask.config.set(settings), Deferred():
            cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
    except BaseException:  # a Ctrl-C held while it started: the cluster goes with the run
        if cluster is not None:
            cluster.close()
        raise
    return cluster


def _suspicious(key: str, dask_scheduler: Any = None) -> int:
    """On the scheduler: how many workers died while they ran task ``key``."""
    task = dask_scheduler.tasks.get(key) if dask_scheduler is not None else None
    return 0 if task is None else int(task.suspicious)


def check_executor(executor: str, scheduler: str | None) -> None:
    """Refuse executor options that cannot work, before a sweep folder is made."""
    if executor not in ("local", "dask"):
        raise E2optError(f"--executor {executor}: expected local or dask")
    if scheduler and executor != "dask":
        raise E2optError("--scheduler needs --executor dask")
    if executor == "dask" and importlib.util.find_spec("distributed") is None:
        raise E2optError('--executor dask needs Dask: pip install "e2opt[dask]"')


def make_pool(executor: str, workers: int, scheduler: str | None, config: dict | None = None) -> Pool:
    """The executor named on the command line; ``config``: a run's, whose kernels a LocalCluster's fork
    server warms for its workers."""
    check_executor(executor, scheduler)
    return LocalPool(workers) if executor == "local" else DaskPool(workers, scheduler, config=config)
