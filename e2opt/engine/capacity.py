"""How many workers this machine can serve: a larger count is refused with one line before
anything starts (no run folder, no process), rather than a run that hangs or runs out of memory.

The limit is the smaller of two figures, both read when the run starts:
- cores: ``PER_CORE`` workers per usable core (CPU affinity). A worker's round is ``run.share_every_wall_s`` wall
  seconds at most; past 32 workers a core, each gets under 1/32 of a core, a 10 s round less than 0.3 CPU s
  of search, and the run's own process (answers, checkpoints of every worker's state) falls behind;
- memory: the memory available now (``MemAvailable`` of /proc/meminfo) divided by ``WORKER_MB``, the resident
  memory of one worker process: a search-only worker of the real puzzle measured 183 MB, one that built a
  CP-SAT model 500-620 MB (docs/workers.md); 256 MB is the figure for a worker that searches.

On a Dask scheduler (``--scheduler``) the cluster's own workers serve the rounds, so this machine sets no
limit; a ``LocalCluster`` (``--executor dask`` alone) runs here and has the same limit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.cores import usable_cores
from ..core.errors import E2optError

PER_CORE = 32
WORKER_MB = 256


def available_mb() -> float | None:
    """Memory available to new processes (MB), None where the system does not say (not Linux)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def max_workers() -> tuple[int, str]:
    """The most workers this machine serves, and how that was derived (for the message)."""
    cores = usable_cores()
    limit, why = cores * PER_CORE, f"{cores} usable core(s) x {PER_CORE}"
    memory = available_mb()
    if memory is not None and memory // WORKER_MB < limit:
        limit = max(1, int(memory // WORKER_MB))
        why = f"{memory:,.0f} MB of memory available / {WORKER_MB} MB a worker"
    return limit, why


def check_workers(workers: int, executor: str, scheduler: str | None, option: str = "--workers") -> None:
    """E2optError (one line, exit 2) when this machine cannot serve ``workers`` workers."""
    if workers <= 1 or (executor == "dask" and scheduler) or executor not in ("local", "dask"):
        return
    limit, why = max_workers()
    if workers > limit:
        raise E2optError(
            f"{option} {workers}: this machine serves at most {limit} workers ({why}; docs/workers.md); "
            f"give {limit} or fewer, or run on a Dask cluster (--executor dask --scheduler ADDRESS)"
        )


def where_workers(executor: str, workers: int, scheduler: str | None) -> str:
    """Where the workers will run, said before they start (starting 48 processes takes seconds)."""
    if executor == "task":
        return "the pool this run is a task of"
    if executor == "local" and not scheduler:
        return "this process" if workers == 1 else f"{workers} local worker processes"
    return f"Dask at {scheduler}" if scheduler else "a local Dask cluster"


def _dotted(data: Any, key: str) -> Any:
    for part in key.split("."):
        data = data.get(part) if isinstance(data, dict) else None
    return data


def peek_workers(config: str | Path, sets: list[str], option: str | None) -> int | None:
    """The run's worker count read cheaply from the command line and the config file's YAML, before the
    config and the search modules load (seconds of imports): an explicit number, or ``auto``: the usable cores
    divided by the threads of one construction. None when it cannot be told this way (the run says it later)."""
    import yaml

    from ..core.fsutil import read_user_text

    try:  # a regular file of bounded size only (a named pipe would block): the loader names what is wrong
        data = yaml.safe_load(read_user_text(config, 4))
    except (OSError, ValueError, yaml.YAMLError):
        return None
    given = {}
    for text in sets:
        key, _, value = text.partition("=")
        given[key.strip()] = value.strip()
    value = option if option is not None else given.get("run.workers", _dotted(data, "run.workers") or 1)
    if value == "auto":
        method = given.get("construct.method", _dotted(data, "construct.method") or "random")
        threads = _threads(method, data, given)
        return None if threads is None else max(1, usable_cores() // threads)  # core.cores.slots_for
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _threads(method: Any, data: Any, given: dict[str, str]) -> int | None:
    """Threads of one construction (construct.threads_used) from the YAML and --set: the CP-SAT methods'
    ``num_workers`` (their defaults from construct/config.py, a light import), 1 for the others."""
    if method not in ("cpsat", "regions"):
        return 1
    from ..construct.config import CpSatConfig, RegionsConfig

    key = f"construct.{method}.num_workers"
    default = (CpSatConfig if method == "cpsat" else RegionsConfig).num_workers
    value = given.get(key, _dotted(data, key))
    try:
        threads = default if value is None else int(value)
    except (TypeError, ValueError):
        return None
    return threads if threads >= 1 else None
