"""Where work runs: the caller's own process, local processes or a Dask cluster, behind one protocol.

A sweep submits its runs, and a run its workers' rounds, to an ``Executor``; the two factories below pick
one. ``processes.py`` holds the local processes (a sweep's queue of runs, a run's one process per worker),
``cluster.py`` the Dask client.

How many processes a run uses when it is itself a task of a sweep (docs/faults.md, "Process counts"):

- A run started by ``e2opt run`` / ``resume``: ``run.workers: auto`` is the usable cores divided by the
  threads of one worker's construction; one worker runs in the run's process, several in local processes
  (``--executor dask``: as Dask tasks).
- A run that is a task of a pool (``executor="task"``): the pool already gives each run its share of the
  cores, so ``auto`` means one worker. An explicit ``run.workers: N`` > 1 is kept (the run's results depend on
  it): on a Dask worker the run's task secedes from the worker's thread pool and submits its N rounds to
  the same cluster, whose slots bound the processes; in a local pool process the N workers take turns in
  that process, one round at a time (InProcess), so the run still uses one core.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Protocol

from ...core.errors import E2optError
from .cluster import DaskPool, dask_worker_client
from .processes import LocalPool, LocalSlots, WorkerDied

if TYPE_CHECKING:
    from ..config import RunConfig

__all__ = ["TASK", "Executor", "InProcess", "Pending", "WorkerDied", "check_executor", "run_executor",
           "sweep_executor"]  # fmt: skip

TASK = "task"  # the executor a sweep passes for a run that is one of its tasks


class Pending(Protocol):
    """A submitted task's answer to come: a ``concurrent.futures.Future`` or a Dask future."""

    def cancelled(self) -> bool: ...

    def exception(self) -> BaseException | None: ...

    def result(self) -> Any: ...


class Executor(Protocol):
    """What a sweep and a run need of where their tasks run: futures in the ``concurrent.futures`` style."""

    waits_for_running: bool  # on stop, wait for tasks in flight (they stop cleanly) or leave them
    stop_note: str  # what happens to tasks in flight on stop, for the user
    bound_to_run: bool  # its workers end with the run's process (else each round watches the run folder)

    def describe(self) -> str:
        """Where the tasks go, for the first line of a sweep or a run."""
        ...

    def pids(self) -> list[int]:
        """The worker processes of its own (for the ``workers`` event and the kill -9 measurement)."""
        ...

    def submit(self, fn: Callable[[Any], Any], task: Any) -> Pending:
        """Start fn(task) somewhere; its answer to come."""
        ...

    def wait(self, futures: set, timeout: float) -> set:
        """The futures done within ``timeout`` seconds (at least one, unless the time ran out)."""
        ...

    def cancel(self, futures: set) -> None:
        """Cancel the futures not started yet."""
        ...

    def lost_attempts(self, future: Pending) -> int:
        """Attempts of the future's task that died with their worker and were run again unseen (Dask only)."""
        ...

    def close(self, wait: bool = True) -> None:
        """Release the workers (``wait=False``: do not wait for tasks in flight)."""
        ...


class InProcess:
    """The one worker of a run in the run's own process: a round runs when it is submitted (no process, no
    pipe, no copy). Signals reach the round directly; the stop file they create ends it after the move."""

    waits_for_running = True
    stop_note = "the worker stops after its current move"
    bound_to_run = True

    def describe(self) -> str:
        return "this process"

    def pids(self) -> list[int]:
        return []

    def submit(self, fn: Callable[[Any], Any], task: Any) -> Future:
        """Run fn(task) now; its answer (or exception) is in the returned future."""
        future: Future = Future()
        future.set_running_or_notify_cancel()
        try:
            future.set_result(fn(task))
        except Exception as exc:  # the coordinator decides, as for a worker process
            future.set_exception(exc)
        return future

    def wait(self, futures: set, timeout: float) -> set:
        return {future for future in futures if future.done()}

    def cancel(self, futures: set) -> None:
        """Nothing is ever in flight between two calls."""

    def lost_attempts(self, future: Pending) -> int:
        return 0

    def close(self, wait: bool = True) -> None:
        """No process to end."""


def check_executor(executor: str, scheduler: str | None) -> None:
    """Refuse executor options that cannot work, before a sweep or run folder is made."""
    if executor not in ("local", "dask"):
        raise E2optError(f"--executor {executor}: expected local or dask")
    if scheduler and executor != "dask":
        raise E2optError("--scheduler needs --executor dask")
    if executor == "dask" and importlib.util.find_spec("distributed") is None:
        raise E2optError('--executor dask needs Dask: pip install "e2opt[dask]"')


def sweep_executor(executor: str, workers: int, scheduler: str | None) -> Executor:
    """The sweep's executor named on the command line: a queue of local processes, or Dask."""
    check_executor(executor, scheduler)
    return LocalPool(workers) if executor == "local" else DaskPool(workers, scheduler)


def run_executor(
    executor: str, workers: int, scheduler: str | None, run_dir: os.PathLike | None = None,
    cfg: RunConfig | None = None,
) -> Executor:  # fmt: skip
    """A run's executor: its own process for one local worker, one local process per worker for several
    (holding the run folder's lock with the run: lifeline.py), or Dask (``config``: the run's, whose kernels
    a LocalCluster's fork server warms). A run that is a task of a pool (TASK) uses the Dask cluster it runs
    on for several workers, else its own process (the module docstring)."""
    if executor == TASK:
        client = dask_worker_client() if workers > 1 else None
        return InProcess() if client is None else DaskPool(workers, None, client=client)
    config = None if cfg is None else cfg.to_dict()
    if executor == "local" and not scheduler:
        return InProcess() if workers == 1 else LocalSlots(workers, run_dir, config)
    check_executor(executor, scheduler)  # local with a scheduler is refused: what is left is Dask
    return DaskPool(workers, scheduler, config=config)
