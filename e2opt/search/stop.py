"""Stopping criteria: small callables on a Status, combined with AnyOf (after PyVRP's pyvrp/stop).

Each criterion answers ``criterion(status) -> bool`` and names itself in ``reason`` for
result.json's ``stop_reason``. Time budgets count from the start of the run (construction
included) plus time spent before a resume; the Clock keeps that account.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..config.sections import StopConfig


def process_age() -> float:
    """Wall seconds since this process started (its imports and set-up count in a run's wall budget); 0.0
    where the system does not say (Linux: /proc/self/stat's start time against /proc/uptime)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


class Clock:
    """Elapsed wall and CPU seconds of a run, counting time already spent before a resume."""

    def __init__(self, wall_offset: float = 0.0, cpu_offset: float = 0.0):
        self._wall0 = time.perf_counter() - wall_offset
        self._cpu0 = time.process_time() - cpu_offset

    def wall(self) -> float:
        return time.perf_counter() - self._wall0

    def cpu(self) -> float:
        return time.process_time() - self._cpu0


@dataclass
class Status:
    """What the criteria look at; the search fills it in as it goes."""

    iteration: int = 0
    score: int = 0
    best_score: int = 0
    intensifications: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0


class MaxIterations:
    def __init__(self, n: int):
        self.n = n
        self.reason = f"max_iterations ({n})"

    def __call__(self, status: Status) -> bool:
        return status.iteration >= self.n


class MaxWallTime:
    def __init__(self, seconds: float):
        self.seconds = seconds
        self.reason = f"max_wall_s ({seconds:g} s)"

    def __call__(self, status: Status) -> bool:
        return status.wall_s >= self.seconds


class MaxCpuTime:
    def __init__(self, seconds: float):
        self.seconds = seconds
        self.reason = f"max_cpu_s ({seconds:g} s)"

    def __call__(self, status: Status) -> bool:
        return status.cpu_s >= self.seconds


class TargetScore:
    def __init__(self, score: int):
        self.score = score
        self.reason = f"target_score ({score})"

    def __call__(self, status: Status) -> bool:
        return status.best_score >= self.score


class MaxIntensifications:
    def __init__(self, n: int):
        self.n = n
        self.reason = f"max_intensifications ({n})"

    def __call__(self, status: Status) -> bool:
        return status.intensifications >= self.n


class Requested:
    """Stops when ``asked()`` holds: a stop asked for from outside the search (the run's stop file)."""

    reason = "interrupted"

    def __init__(self, asked: Callable[[], bool]):
        self.asked = asked

    def __call__(self, status: Status) -> bool:
        return bool(self.asked())


class AnyOf:
    """Stops when any of its criteria does; ``reason`` then names the first one that held."""

    def __init__(self, *criteria):
        self.criteria = list(criteria)
        self.reason = ""

    def __call__(self, status: Status) -> bool:
        for criterion in self.criteria:
            if criterion(status):
                self.reason = criterion.reason
                return True
        return False


def iteration_limit(criterion) -> int | None:
    """The smallest MaxIterations bound in a criterion (looking inside AnyOf), or None.

    A search may then check the other criteria only every few moves and still stop exactly there.
    """
    if isinstance(criterion, MaxIterations):
        return criterion.n
    if isinstance(criterion, AnyOf):
        limits = [n for n in map(iteration_limit, criterion.criteria) if n is not None]
        return min(limits) if limits else None
    return None


def from_config(
    cfg: StopConfig,
    max_score: int,
    cpu_limit: float | None = None,
    moves_before: int = 0,
    intensifications_before: int = 0,
) -> AnyOf:
    """The AnyOf of every criterion set in the config; target_score defaults to max_score.

    For one worker's current search: ``cpu_limit`` is its share of ``max_cpu_s`` (default: all of it), and
    the move and intensification budgets count what its earlier searches spent; reasons name the run's budget.
    """
    criteria: list = [TargetScore(cfg.target_score if cfg.target_score is not None else max_score)]
    if cfg.max_wall_s is not None:
        criteria.append(MaxWallTime(cfg.max_wall_s))
    if cfg.max_cpu_s is not None:
        limit = MaxCpuTime(cfg.max_cpu_s if cpu_limit is None else cpu_limit)
        criteria.append(_named(limit, f"max_cpu_s ({cfg.max_cpu_s:g} s)"))
    if cfg.max_iterations is not None:
        limit = MaxIterations(cfg.max_iterations - moves_before)
        criteria.append(_named(limit, f"max_iterations ({cfg.max_iterations})"))
    if cfg.max_intensifications is not None:
        limit = MaxIntensifications(cfg.max_intensifications - intensifications_before)
        criteria.append(_named(limit, f"max_intensifications ({cfg.max_intensifications})"))
    return AnyOf(*criteria)


def _named(criterion: Any, reason: str) -> Any:
    """The criterion, its stop reason naming the run's budget rather than what is left of it."""
    criterion.reason = reason
    return criterion
