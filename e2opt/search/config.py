"""The ``search:`` section of a run config: the tabu search of paper 001 (Algorithm 1), the moves it
picks from (their sections come from the moves' registry, search/moves/__init__.py), its schedule and its
acceptance rule; each class checks its ranges in ``__post_init__``."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from ..config.schema import positive
from .moves import MovesConfig, default_moves
from .moves.assignment import AssignmentConfig
from .moves.base import MoveWeight

# paper 001's names of the assignment move's settings, read at the top of ``search:`` as well (docs/search.md)
ASSIGNMENT_KEYS = tuple(
    f.name for f in fields(AssignmentConfig) if f.name not in {f.name for f in fields(MoveWeight)}
)


@dataclass(frozen=True)
class ScheduleConfig:
    """How the next move is picked: adaptive roulette by recent gain per CPU second (ALNS), or a fixed mix."""

    kind: Literal["adaptive", "fixed"] = "fixed"
    segment: int = 500  # moves between two updates of the adaptive shares
    reaction: float = 0.3  # weight of the last segment in the new share (ALNS reaction factor)
    floor: float = 0.05  # a move keeps at least this fraction of its configured share

    def __post_init__(self):
        positive("segment", self.segment)
        if not 0 < self.reaction <= 1:
            raise ValueError(f"reaction: must be in (0, 1], got {self.reaction}")
        if not 0 < self.floor <= 1:
            raise ValueError(f"floor: must be in (0, 1], got {self.floor}")


@dataclass(frozen=True)
class AcceptanceConfig:
    """Which changes are kept: all (Algorithm 1's tabu rules) or simulated annealing on the score."""

    kind: Literal["tabu", "annealing"] = "tabu"
    t_start: float = 1.0  # temperature in joins: a loss of d joins is kept with probability exp(-d / T)
    t_end: float = 0.1  # geometric cooling from t_start to t_end over the run's CPU or iteration budget
    period_cpu_s: float = 300.0  # CPU seconds of one cooling when the run has no such budget (then reheat)
    reheats: int = 0  # with a budget: back to t_start this many times (reheats + 1 equal coolings)

    def __post_init__(self):
        positive("reheats", self.reheats, allow_zero=True)
        positive("t_start", self.t_start)
        positive("t_end", self.t_end)
        positive("period_cpu_s", self.period_cpu_s)


@dataclass(frozen=True)
class SearchConfig:
    """The very large neighbourhood tabu search (paper 001, Algorithm 1).

    Defaults tuned on eternity2 from random boards (docs/search.md: 30 to 240 CPU s, seeds 1-4): long
    plateaus; the assignment move's settings are its section ``moves.assignment`` (AssignmentConfig).
    ``moves``, ``schedule`` and ``acceptance`` choose which moves run and which changes are kept (docs/moves.md).
    """

    plateau: int = 3000  # moves without a new best before a diversification
    diversify_swaps: int = 8  # random swap-and-rotate moves per diversification
    intensify_after: int = 4  # plateaus in a row without a new best before restoring the best board
    check: bool = False
    restart_after: int | None = (
        None  # intensifications without a new best before a restart (run.restart_from)
    )
    restart_after_wall_s: float | None = None  # or wall seconds without a new best
    moves: MovesConfig = field(default_factory=default_moves)  # the default mix; docs/moves.md
    schedule: ScheduleConfig = field(default_factory=ScheduleConfig)
    acceptance: AcceptanceConfig = field(default_factory=AcceptanceConfig)

    def __post_init__(self):
        positive("plateau", self.plateau)
        positive("diversify_swaps", self.diversify_swaps, allow_zero=True)
        positive("intensify_after", self.intensify_after)
        positive("restart_after", self.restart_after)
        positive("restart_after_wall_s", self.restart_after_wall_s)

    @classmethod
    def of(cls, **settings: Any) -> SearchConfig:
        """A config from keyword settings, the assignment move's among them under paper 001's names (as
        at the top of ``search:`` in YAML): ``SearchConfig.of(holes=8, plateau=100)``."""
        assignment = {key: settings.pop(key) for key in ASSIGNMENT_KEYS if key in settings}
        cfg = cls(**settings)
        return cfg.with_assignment(**assignment) if assignment else cfg

    @property
    def assignment(self) -> AssignmentConfig:
        """The assignment move's settings (when its section is off: the defaults, weight 0)."""
        return self.moves.assignment or AssignmentConfig(weight=0.0)

    def with_assignment(self, **settings: Any) -> SearchConfig:
        """This config with the assignment move's settings changed (its section created when off)."""
        return replace(self, moves=replace(self.moves, assignment=replace(self.assignment, **settings)))
