"""The Dask executor: a client on a scheduler address, on a LocalCluster, or the cluster a run is a task of."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED
from typing import TYPE_CHECKING, Any

from ...core.errors import E2optError

if TYPE_CHECKING:
    from . import Pending


class DaskPool:
    """A Dask client, on a scheduler address or on a LocalCluster of one-thread worker processes.

    Runs in flight cannot be signalled through Dask: on Ctrl-C a LocalCluster is shut down (its runs resume
    from their last checkpoint with ``--resume``); on a remote cluster they go on until they finish.
    """

    waits_for_running = False
    bound_to_run = False

    def __init__(self, workers: int, scheduler: str | None, client: Any = None, config: dict | None = None):
        import distributed

        self.distributed = distributed
        self.cluster = None
        self.seceded = client is not None
        if client is not None:  # a run that is itself a task on this cluster
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

    def pids(self) -> list[int]:
        return []

    def submit(self, fn: Callable[[Any], Any], task: Any) -> Pending:
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

    def lost_attempts(self, future: Any) -> int:  # a Dask future: its key names the task
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

    from ...core.signals import Deferred, worker_context
    from ..daskquiet import PRELOAD
    from ..prewarm import PREWARM_ENV, SERVER_MODULES

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


def dask_worker_client() -> Any:
    """This thread's Dask client when it runs a Dask task (the task then secedes); None elsewhere."""
    if importlib.util.find_spec("distributed") is None:
        return None
    import distributed

    try:
        distributed.get_worker()
    except ValueError:
        return None
    client = distributed.get_client()
    distributed.secede()  # the run waits for its rounds: its thread must not hold a slot they need
    return client
