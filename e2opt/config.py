"""Run configuration: one frozen dataclass per YAML section, each checking its ranges in ``__post_init__``.

The ``construct:`` section is in config_construct.py. Files become a RunConfig in loader.py (which names
the file and key of any error); this module imports nothing above it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .config_construct import ConstructConfig
from .configload import bounds, dump_yaml, positive, to_plain


@dataclass(frozen=True)
class MoveWeight:
    """A move with no settings of its own: its share of the CPU time (fixed mix) or starting share (adaptive).

    ``cost_ms``: a nominal CPU cost per call for the schedule; None measures it (faster to adapt, but a run
    is then reproducible only up to timing). Every move section has these two keys.
    """

    weight: float = 1.0
    cost_ms: float | None = None

    def __post_init__(self):
        positive("weight", self.weight, allow_zero=True)
        positive("cost_ms", self.cost_ms)


@dataclass(frozen=True)
class TsrMoveConfig(MoveWeight):
    """Swap and rotate (docs/moves.md): rotations, same-kind swaps (adjacent pairs too), 2x2 block turns."""

    scan: Literal["first", "best"] = "best"  # best scanned candidate, or first improving one
    tries: int = 8  # mismatched cells scanned per call (all candidates around each)
    partners: int = 4  # random same-kind swap partners per scanned cell, besides its neighbours

    def __post_init__(self):
        super().__post_init__()
        positive("tries", self.tries)
        positive("partners", self.partners, allow_zero=True)


@dataclass(frozen=True)
class RegionMoveConfig(MoveWeight):
    """Region repair (RO): re-place a window's pieces optimally with CP-SAT, warm-started from the board."""

    sizes: tuple[int, ...] = (4, 5)  # window side lengths, drawn uniformly (a size s window has s*s cells)
    shape: Literal["rect", "cluster"] = "rect"  # rectangle, or a connected cluster grown around mismatches
    bias: float = 4.0  # centre cell weight = 1 + bias * mismatched joins
    tabu: int = 30  # a repaired window's cells are not drawn as a centre for this many region calls
    deterministic_limit: float | None = 0.1  # CP-SAT deterministic time per call (load-independent; 90% of
    # 4x4 windows are proved optimal within it); null: the wall limit only
    time_limit_s: float = 1.0  # CP-SAT wall limit per call (a guard when deterministic_limit is set)

    def __post_init__(self):
        super().__post_init__()
        if not self.sizes or min(self.sizes) < 2 or max(self.sizes) > 8:
            raise ValueError(f"sizes: window sides must be 2..8, got {list(self.sizes)}")
        positive("bias", self.bias, allow_zero=True)
        positive("tabu", self.tabu, allow_zero=True)
        positive("time_limit_s", self.time_limit_s)
        positive("deterministic_limit", self.deterministic_limit)


@dataclass(frozen=True)
class CliqueMoveConfig(MoveWeight):
    """Region repair by max clique (paper 002's RO): GLP's heuristic on a window's clique graph, the holes it
    leaves filled by the CP-SAT region model; the board changes only when the window loses no joins."""

    width: int = 6  # window columns (paper 002, Table 2: 6 x 6)
    height: int = 6  # window rows
    selections: int = 100_000  # the heuristic's q per call (docs/clique.md)
    bias: float = 4.0  # centre cell weight = 1 + bias * mismatched joins (as the region move)
    tabu: int = 30  # a repaired window's cells are not drawn as a centre for this many clique calls
    deterministic_limit: float | None = 0.1  # CP-SAT deterministic time for the holes; null: the wall limit only
    time_limit_s: float = 1.0  # CP-SAT wall limit for the holes

    def __post_init__(self):
        super().__post_init__()
        for name in ("width", "height"):  # 8 x 8: buffers for 16,384 nodes, a 34 MB bitset
            if not 2 <= getattr(self, name) <= 8:
                raise ValueError(f"{name}: window sides must be 2..8, got {getattr(self, name)}")
        positive("selections", self.selections)
        positive("bias", self.bias, allow_zero=True)
        positive("tabu", self.tabu, allow_zero=True)
        positive("time_limit_s", self.time_limit_s)
        positive("deterministic_limit", self.deterministic_limit)


@dataclass(frozen=True)
class BorderMoveConfig(MoveWeight):
    """Border optimisation (BO): re-place the frame, or a stretch of it, optimally against the interior."""

    stretch: int = 20  # frame cells per call, from a random start; 0 = the whole frame (slow, docs/moves.md)
    deterministic_limit: float | None = 0.5  # CP-SAT deterministic time per call; null: the wall limit only
    time_limit_s: float = 10.0  # CP-SAT wall limit per call

    def __post_init__(self):
        super().__post_init__()
        positive("stretch", self.stretch, allow_zero=True)
        positive("time_limit_s", self.time_limit_s)
        positive("deterministic_limit", self.deterministic_limit)


@dataclass(frozen=True)
class MovesConfig:
    """The moves the schedule picks from; a null (or absent) section leaves a move out."""

    assignment: MoveWeight | None = field(default_factory=MoveWeight)  # Algorithm 1's move
    checkerboard: MoveWeight | None = None  # the assignment move on one checkerboard colour (paper 002 BW)
    tsr: TsrMoveConfig | None = None
    region: RegionMoveConfig | None = None
    border: BorderMoveConfig | None = None
    clique: CliqueMoveConfig | None = None  # region repair by max clique (paper 002's RO; docs/clique.md)

    def __post_init__(self):
        if not any(getattr(self, name) and getattr(self, name).weight > 0 for name in MOVE_NAMES):
            raise ValueError("assignment: at least one move needs a weight above 0")

    def enabled(self) -> list[tuple[str, MoveWeight]]:
        """(name, settings) of every move with a weight above 0, in a fixed order."""
        return [(n, getattr(self, n)) for n in MOVE_NAMES if getattr(self, n) and getattr(self, n).weight > 0]


MOVE_NAMES = ("assignment", "checkerboard", "tsr", "region", "border", "clique")


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

    def __post_init__(self):
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
    restart_after: int | None = None  # intensifications without a new best before a restart (run.restart_from)
    restart_after_s: float | None = None  # or wall seconds without a new best
    moves: MovesConfig = field(default_factory=MovesConfig)  # docs/moves.md
    schedule: ScheduleConfig = field(default_factory=ScheduleConfig)
    acceptance: AcceptanceConfig = field(default_factory=AcceptanceConfig)

    def __post_init__(self):
        holes = (self.holes, self.holes) if isinstance(self.holes, int) else self.holes
        bounds("holes", holes, low=2)
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
            positive(name, getattr(self, name), allow_zero=name == "max_iterations")


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
            positive(name, getattr(self, name))
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
        positive("workers", self.workers if isinstance(self.workers, int) else None)
        positive("share_every_s", self.share_every_s)
        positive("sync_every_moves", self.sync_every_moves)
        positive("elite_size", self.elite_size)


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
        positive("seed", self.seed, allow_zero=True)
        if not self.name:
            object.__setattr__(self, "name", Path(self.instance).stem)
        _check_name(self.name)

    def to_dict(self) -> dict[str, Any]:
        """Plain data, as written to a run folder's config.yaml."""
        return to_plain(self)

    def to_yaml(self) -> str:
        return dump_yaml(self.to_dict())
