"""How many processes a run uses when it is itself a task of a pool (a sweep's run on local processes or on
Dask), so that a sweep never starts cores x cores processes (docs/faults.md, "Process counts").

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
from typing import Any

TASK = "task"  # the executor a sweep passes for a run that is one of its tasks


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


def task_pool(workers: int) -> Any:
    """The pool for the workers of a run that is a task: the Dask cluster it runs on, or this process."""
    from .slots import InProcess

    if workers > 1:
        client = dask_worker_client()
        if client is not None:
            from .pools import DaskPool

            return DaskPool(workers, None, client=client)
    return InProcess()
