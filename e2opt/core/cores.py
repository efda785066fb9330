"""How many cores this process may use, and the one meaning of ``auto`` for a count of processes (run.workers,
solve --workers, a sweep's worker count): kept in core so every layer can resolve it."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def slots_for(threads: int) -> int:
    """How many tasks of ``threads`` threads each fit on the usable cores at once (at least one): the one
    meaning of ``auto`` (run.workers, solve --workers, a sweep's default worker count)."""
    return max(1, usable_cores() // threads)
