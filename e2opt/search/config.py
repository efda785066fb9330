"""The ``search:`` section of a run config: the tabu search of paper 001 (Algorithm 1), the moves it
picks from (their sections come from the moves' registry, search/moves/__init__.py), its schedule and its
acceptance rule; each class checks its ranges in ``__post_init__``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..config.schema import bounds, positive
from .moves import MovesConfig

MIN_HOLES = 2  # an assignment move re-places at least two pieces (one alone has nowhere else to go)


@dataclass(frozen=True)
class ScheduleConfig:
    """How the next move is picked: adaptive roulette by recent gain per CPU second (ALNS), or a fixed mix."""

    kind: Literal["adaptive", "fixed"] = "adaptive"
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
    period_s: float = 300.0  # CPU seconds of one cooling when the run has no such budget (then reheat)
    reheats: int = 0  # with a budget: back to t_start this many times (reheats + 1 equal coolings)

    def __post_init__(self):
        positive("reheats", self.reheats, allow_zero=True)
        positive("t_start", self.t_start)
        positive("t_end", self.t_end)
        positive("period_s", self.period_s)


@dataclass(frozen=True)
class SearchConfig:
    """The very large neighbourhood tabu search (paper 001, Algorithm 1).

    Defaults tuned on eternity2 from random boards (docs/search.md: 30 to 240 CPU s, seeds 1-4): large k, a
    strong preference for mismatched cells, short tabu tenures, a mild reverse-arc penalty, long plateaus,
    and cost noise of half a join, the one setting that changed the score by more than the seed noise.
    The top-level keys set the assignment move; ``moves``, ``schedule`` and ``acceptance`` choose which moves
    run and which changes are kept (docs/moves.md).
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
    restart_after: int | None = (
        None  # intensifications without a new best before a restart (run.restart_from)
    )
    restart_after_s: float | None = None  # or wall seconds without a new best
    moves: MovesConfig = field(default_factory=MovesConfig)  # docs/moves.md
    schedule: ScheduleConfig = field(default_factory=ScheduleConfig)
    acceptance: AcceptanceConfig = field(default_factory=AcceptanceConfig)

    def __post_init__(self):
        holes = (self.holes, self.holes) if isinstance(self.holes, int) else self.holes
        bounds("holes", holes, low=MIN_HOLES)
        positive("bias", self.bias, allow_zero=True)
        bounds("tabu_cells", self.tabu_cells)
        bounds("tabu_arcs", self.tabu_arcs)
        positive("reverse_penalty", self.reverse_penalty, allow_zero=True)
        positive("cost_noise", self.cost_noise, allow_zero=True)
        positive("plateau", self.plateau)
        positive("diversify_swaps", self.diversify_swaps, allow_zero=True)
        positive("intensify_after", self.intensify_after)
        positive("restart_after", self.restart_after)
        positive("restart_after_s", self.restart_after_s)

    @property
    def holes_range(self) -> tuple[int, int]:
        """(k_min, k_max): the number of holes per move is drawn uniformly from this range."""
        return (self.holes, self.holes) if isinstance(self.holes, int) else self.holes
