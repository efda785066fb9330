"""The run-level sections of a config: stopping criteria, output, workers. One frozen dataclass per YAML
section, each checking its ranges in ``__post_init__``; the families' sections (construct, search) live
with their families, and engine/config.py assembles them into a RunConfig. This module imports only
config/schema.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .schema import positive, process_count_problem


@dataclass(frozen=True)
class StopConfig:
    """Stopping criteria; the run stops when any one holds. Budgets include construction time."""

    max_wall_s: float | None = 3600.0  # one wall hour: a run started without a budget ends unattended
    max_cpu_s: float | None = None
    max_iterations: int | None = None
    target_score: int | None = None
    max_intensifications: int | None = None

    def __post_init__(self):
        for name in ("max_wall_s", "max_cpu_s", "max_iterations", "target_score", "max_intensifications"):
            positive(name, getattr(self, name), allow_zero=name == "max_iterations")


@dataclass(frozen=True)
class OutputConfig:
    """Where and how a run reports: run folder, checkpoints, progress, pictures."""

    runs_dir: str = "runs"
    checkpoint_every_wall_s: float = 60.0
    stats_every_wall_s: float = 10.0
    progress_every_wall_s: float = 0.5
    log_every_wall_s: float = 30.0
    plots: bool = True

    def __post_init__(self):
        for name in (
            "checkpoint_every_wall_s",
            "stats_every_wall_s",
            "progress_every_wall_s",
            "log_every_wall_s",
        ):
            positive(name, getattr(self, name))
        if not self.runs_dir.strip():
            raise ValueError("runs_dir: must name a folder, got an empty string")


@dataclass(frozen=True)
class RolesConfig:
    """Worker roles (docs/workers.md): workers 1..``producers`` only build boards for the run's pool,
    with construction ``method`` (None: ``construct.method``); the others repair the pool's most promising
    boards and leave one after ``leave_after_wall_s`` seconds (or ``leave_after_moves`` moves, the rule for runs that must
    repeat seed for seed) without a new best on it. The pool keeps ``pool_size``
    boards; ``similar``: a board sharing more than this fraction of placements with a repaired one is taken
    last. 0 producers (or a run of one worker): every worker builds its own board and searches it.
    ``auto``: a number that follows the workers (engine/roles auto_producers)."""

    producers: int | Literal["auto"] = "auto"
    method: str | None = "dfs"  # the producers' construction (None: construct.method)
    pool_size: int = 64
    leave_after_wall_s: float = 60.0  # seconds without a new best on the board a repairer works on
    leave_after_moves: int | None = (
        None  # instead of leave_after_wall_s: moves without a new best (a repeatable rule)
    )
    similar: float = 0.5

    def __post_init__(self):
        if self.producers != "auto":
            positive("producers", self.producers, allow_zero=True)
        positive("pool_size", self.pool_size)
        positive("leave_after_wall_s", self.leave_after_wall_s)
        positive("leave_after_moves", self.leave_after_moves)
        if not 0.0 <= self.similar <= 1.0:
            raise ValueError(f"similar: a fraction of the cells, 0..1, got {self.similar}")


@dataclass(frozen=True)
class RunSection:
    """Workers of one run (docs/workers.md): how many, how they share boards, where a stagnated one restarts.

    ``sync_every_moves`` makes the workers meet every that many moves (each) instead of every
    ``share_every_wall_s`` seconds: a run with several workers is then reproducible seed for seed.
    """

    workers: int | Literal["auto"] = (
        "auto"  # search processes; auto: the usable cores / the construction's threads
    )
    share_every_wall_s: float = 10.0  # how often the best boards are published to the workers
    sync_every_moves: int | None = None
    restart_from: Literal["fresh", "best", "elite"] = "elite"  # new construction, the run's best, an elite
    elite_size: int = 4  # distinct best boards kept for restarts from the elite pool
    roles: RolesConfig = field(default_factory=RolesConfig)  # producers feed a pool, the others repair

    def __post_init__(self):
        problem = process_count_problem(self.workers) if isinstance(self.workers, int) else None
        if problem:
            raise ValueError(f"workers: {problem}, got {self.workers}")
        positive("share_every_wall_s", self.share_every_wall_s)
        positive("sync_every_moves", self.sync_every_moves)
        positive("elite_size", self.elite_size)
        explicit = self.roles.producers != "auto" and self.roles.producers > 0  # auto: none in such a run
        if self.sync_every_moves is not None and explicit and self.roles.leave_after_moves is None:
            raise ValueError(
                "roles.leave_after_moves: a run that meets every sync_every_moves moves repeats seed for seed only "
                "when repairers take boards by moves; set run.roles.leave_after_moves (or producers: 0)"
            )
