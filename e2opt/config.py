"""Run configuration: one frozen dataclass per YAML section, each checking its ranges in ``__post_init__``.

Files become a RunConfig in loader.py (which names the file and key of any error); this module imports
nothing above it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from .configload import to_plain


def _positive(name: str, value: float | None, allow_zero: bool = False) -> None:
    """Range check of a count, budget, interval or weight; None (not set) passes, NaN and inf do not."""
    if value is None:
        return
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name}: must be a finite number, got {value}")
    if value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{name}: must be {'non-negative' if allow_zero else 'positive'}, got {value}")


def _bounds(name: str, value: tuple[int, int], low: int = 0) -> None:
    if value[0] < low or value[1] < value[0]:
        raise ValueError(f"{name}: needs [min, max] with {low} <= min <= max, got {list(value)}")


@dataclass(frozen=True)
class CpSatConfig:
    """The relaxed CP-SAT model of paper 001 sections 2 and 5 (construct.method: cpsat); see docs/cpsat.md.

    ``relaxed_cells`` (a list of [row, col]) overrides the random draw of ``relaxed`` cells. None for a
    presolve knob keeps CP-SAT's own default. ``fallback`` lists the steps tried, in order, when the
    first round finds nothing; a random board is always the last resort.
    """

    relaxed: int = 24
    relaxed_cells: tuple[tuple[int, int], ...] | None = None
    time_limit_s: float = 10.0
    num_workers: int = 2
    table: Literal["table", "element"] = "table"
    symmetry_breaking: bool = True
    variable_strategy: Literal["default", "min_domain", "max_domain", "row_scan", "spiral"] = "default"
    value_strategy: Literal["min", "max", "random"] = "min"
    presolve: bool = True
    symmetry_level: int | None = 0
    probing_level: int | None = 0
    max_presolve_iterations: int | None = 1
    restarts: int = (
        3  # the first round again, new draw of R (unless relaxed_cells) and new seed, before any fallback
    )
    fallback: tuple[Literal["more_relaxed", "max_matches"], ...] = ("more_relaxed", "max_matches")
    fallback_rounds: int = 1
    fallback_step: int = 8
    fallback_time_limit_s: float = 20.0
    log: bool = False

    def __post_init__(self):
        _positive("relaxed", self.relaxed, allow_zero=True)
        _positive("time_limit_s", self.time_limit_s)
        _positive("num_workers", self.num_workers)
        for name in ("symmetry_level", "probing_level"):
            _positive(name, getattr(self, name), allow_zero=True)
        _positive("max_presolve_iterations", self.max_presolve_iterations)
        _positive("restarts", self.restarts, allow_zero=True)
        _positive("fallback_rounds", self.fallback_rounds, allow_zero=True)
        _positive("fallback_step", self.fallback_step)
        _positive("fallback_time_limit_s", self.fallback_time_limit_s)
        if len(set(self.fallback)) != len(self.fallback):
            raise ValueError(f"fallback: a step is listed twice: {list(self.fallback)}")


@dataclass(frozen=True)
class ConstructConfig:
    """How the initial board is made: random, the relaxed CP-SAT model, or a given .board file."""

    method: Literal["random", "cpsat", "board"] = "random"
    board: str | None = None
    cpsat: CpSatConfig = field(default_factory=CpSatConfig)

    def __post_init__(self):
        if self.method == "board" and not self.board:
            raise ValueError("board: method 'board' needs a path to a .board file")


@dataclass(frozen=True)
class SearchConfig:
    """The very large neighbourhood tabu search (paper 001, Algorithm 1).

    Defaults tuned on eternity2 from random boards (docs/search.md: 30 to 240 CPU s, seeds 1-4): large k, a
    strong preference for mismatched cells, short tabu tenures, a mild reverse-arc penalty, long plateaus,
    and cost noise of half a join, the one setting that changed the score by more than the seed noise.
    """

    holes: int | tuple[int, int] = 64  # k holes per move, or [min, max] drawn each move
    select: Literal["biased", "random", "checkerboard"] = "biased"
    bias: float = 6.0  # hole weight = 1 + bias * mismatched joins of the cell
    tabu_cells: tuple[int, int] = (0, 1)  # tabu list 1 tenure bounds (moves)
    tabu_arcs: tuple[int, int] = (10, 30)  # tabu list 2 tenure bounds (moves)
    reverse_penalty: float = 1.0  # weight removed from a reverse arc in tabu list 2
    tie_noise: bool = True  # random choice among equally good reassignments (sideways moves)
    cost_noise: float = 0.5  # extra noise per cost entry, in joins: moves may then give up joins (noising)
    plateau: int = 3000  # moves without a new best before a diversification
    diversify_swaps: int = 8  # random swap-and-rotate moves per diversification
    intensify_after: int = 4  # plateaus in a row without a new best before restoring the best board
    check: bool = False
    restart_after: int | None = None  # intensifications without a new best before a restart (run.restart_from)
    restart_after_s: float | None = None  # or wall seconds without a new best

    def __post_init__(self):
        holes = (self.holes, self.holes) if isinstance(self.holes, int) else self.holes
        _bounds("holes", holes, low=2)
        _positive("bias", self.bias, allow_zero=True)
        _bounds("tabu_cells", self.tabu_cells)
        _bounds("tabu_arcs", self.tabu_arcs)
        _positive("reverse_penalty", self.reverse_penalty, allow_zero=True)
        _positive("cost_noise", self.cost_noise, allow_zero=True)
        _positive("plateau", self.plateau)
        _positive("diversify_swaps", self.diversify_swaps, allow_zero=True)
        _positive("intensify_after", self.intensify_after)
        _positive("restart_after", self.restart_after)
        _positive("restart_after_s", self.restart_after_s)

    @property
    def holes_range(self) -> tuple[int, int]:
        """(k_min, k_max): the number of holes per move is drawn uniformly from this range."""
        return (self.holes, self.holes) if isinstance(self.holes, int) else self.holes


@dataclass(frozen=True)
class StopConfig:
    """Stopping criteria; the run stops when any one holds. Budgets include construction time."""

    max_wall_s: float | None = None
    max_cpu_s: float | None = None
    max_iterations: int | None = None
    target_score: int | None = None
    max_intensifications: int | None = None

    def __post_init__(self):
        for name in ("max_wall_s", "max_cpu_s", "max_iterations", "target_score", "max_intensifications"):
            _positive(name, getattr(self, name), allow_zero=name == "max_iterations")


@dataclass(frozen=True)
class OutputConfig:
    """Where and how a run reports: run folder, checkpoints, progress, pictures."""

    runs_dir: str = "runs"
    checkpoint_every_s: float = 60.0
    stats_every_s: float = 10.0
    progress_every_s: float = 0.5
    log_every_s: float = 30.0
    plots: bool = True

    def __post_init__(self):
        for name in ("checkpoint_every_s", "stats_every_s", "progress_every_s", "log_every_s"):
            _positive(name, getattr(self, name))
        if not self.runs_dir.strip():
            raise ValueError("runs_dir: must name a folder, got an empty string")


@dataclass(frozen=True)
class RunSection:
    """Workers of one run (docs/workers.md): how many, how they share boards, where a stagnated one restarts.

    ``sync_every_moves`` makes the workers meet every that many moves (each) instead of every
    ``share_every_s`` seconds: a run with several workers is then reproducible seed for seed.
    """

    workers: int | Literal["auto"] = 1  # search processes; auto: the usable cores / the construction's threads
    share_every_s: float = 10.0  # how often the best boards are published to the workers
    sync_every_moves: int | None = None
    restart_from: Literal["fresh", "best", "elite"] = "fresh"  # new construction, the run's best, an elite
    elite_size: int = 4  # distinct best boards kept for restarts from the elite pool

    def __post_init__(self):
        _positive("workers", self.workers if isinstance(self.workers, int) else None)
        _positive("share_every_s", self.share_every_s)
        _positive("sync_every_moves", self.sync_every_moves)
        _positive("elite_size", self.elite_size)


def _check_name(name: str) -> None:
    """A run name becomes part of a folder name: one plain path component, printable, not too long."""
    if "/" in name or "\\" in name or name in (".", "..") or not name.isprintable() or len(name) > 100:
        raise ValueError(
            f"name: {name!r} cannot be part of a folder name (no / or \\, printable, at most 100 characters)"
        )


@dataclass(frozen=True)
class RunConfig:
    """A whole run: instance, seed, construction, search, stopping criteria, output."""

    instance: str
    name: str = ""
    seed: int = 0
    construct: ConstructConfig = field(default_factory=ConstructConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    stop: StopConfig = field(default_factory=StopConfig)
    output: OutputConfig = field(default_factory=OutputConfig)
    run: RunSection = field(default_factory=RunSection)

    def __post_init__(self):
        _positive("seed", self.seed, allow_zero=True)
        if not self.name:
            object.__setattr__(self, "name", Path(self.instance).stem)
        _check_name(self.name)

    def to_dict(self) -> dict[str, Any]:
        """Plain data, as written to a run folder's config.yaml."""
        return to_plain(self)

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_dict(), sort_keys=False)
