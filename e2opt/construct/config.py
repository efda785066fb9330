"""The settings of the construction methods: one frozen dataclass per method (its YAML section
``construct.<method>``), each checking its ranges in ``__post_init__``. The registry (construct/__init__.py)
names which class belongs to which method and builds the ``construct:`` section from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..config.schema import positive


@dataclass(frozen=True)
class CpSatConfig:
    """The relaxed CP-SAT model of paper 001 sections 2 and 5 (construct.method: cpsat); see docs/cpsat.md.

    ``relaxed_cells`` (a list of [row, col]) overrides the random draw of ``relaxed`` cells. None for a
    presolve knob keeps CP-SAT's own default. ``fallback`` lists the steps tried, in order, when the
    first round finds nothing; a random board is always the last resort.
    """

    relaxed: int = 24
    relaxed_cells: tuple[tuple[int, int], ...] | None = None
    time_limit_wall_s: float = 10.0
    num_workers: int = 2
    table: Literal["table", "element"] = "table"
    symmetry_breaking: bool = True
    variable_strategy: Literal["default", "min_domain", "max_domain", "row_scan", "spiral"] = "default"
    value_strategy: Literal["min", "max", "random"] = "min"
    presolve: bool = True
    symmetry_level: int | None = 0
    probing_level: int | None = 0
    max_presolve_iterations: int | None = 1
    max_attempts: int = 4  # rounds of the first model (new draw of R and seed each) before any fallback
    fallback: tuple[Literal["more_relaxed", "max_matches"], ...] = ("more_relaxed", "max_matches")
    fallback_rounds: int = 1
    fallback_step: int = 8
    fallback_time_limit_wall_s: float = 20.0
    log: bool = False

    def __post_init__(self):
        positive("relaxed", self.relaxed, allow_zero=True)
        positive("time_limit_wall_s", self.time_limit_wall_s)
        positive("num_workers", self.num_workers)
        for name in ("symmetry_level", "probing_level"):
            positive(name, getattr(self, name), allow_zero=True)
        positive("max_presolve_iterations", self.max_presolve_iterations)
        positive("max_attempts", self.max_attempts)
        positive("fallback_rounds", self.fallback_rounds, allow_zero=True)
        positive("fallback_step", self.fallback_step)
        positive("fallback_time_limit_wall_s", self.fallback_time_limit_wall_s)
        if len(set(self.fallback)) != len(self.fallback):
            raise ValueError(f"fallback: a step is listed twice: {list(self.fallback)}")


ORDER_NAMES = Literal["row_scan", "frame_first", "comb", "frame_comb", "spiral"]


@dataclass(frozen=True)
class BeamConfig:
    """Beam search construction (construct.method: beam); see docs/construct.md."""

    order: ORDER_NAMES = "comb"
    teeth: int = 2
    width: int = 16384  # members kept per layer
    fanout: int = 8  # children per member, drawn from its best exact-tie class
    time_limit_cpu_s: float | None = 20.0  # repeat beams with new draws for this long (None: one beam)

    def __post_init__(self):
        positive("teeth", self.teeth)
        positive("width", self.width)
        positive("fanout", self.fanout)
        positive("time_limit_cpu_s", self.time_limit_cpu_s)


@dataclass(frozen=True)
class RegionsConfig:
    """Region-by-region construction on CP-SAT (construct.method: regions; paper 002 §3.1-3.2, docs/regions.md).

    Regions are bands of ``height`` rows (``shape: rows``) or ``height`` x ``width`` blocks, filled top
    to bottom (``order: frame_first`` solves the frame ring first, then tiles the interior). ``greedy``
    solves each region once for the most joins; ``backtracking`` asks each region for no mismatch at
    all, goes back one region (no-good cut on its placement) when none exists, and after
    ``backtrack_wall_s`` finishes greedily from the deepest partial board. ``candidates: best`` offers
    a region only the ``candidates_per_cell`` best fitting pieces of each cell (faster, not exact).
    """

    shape: Literal["rows", "blocks"] = "rows"
    height: int = 1
    width: int | None = None  # blocks only: block width (default: height)
    order: Literal["top_down", "frame_first"] = "top_down"
    mode: Literal["greedy", "backtracking"] = "greedy"
    time_limit_wall_s: float = 10.0  # CP-SAT limit of one region solve
    backtrack_wall_s: float = 60.0  # backtracking only: then the greedy rule finishes the board
    candidates: Literal["all", "best"] = "all"
    candidates_per_cell: int = 12
    warm_start: bool = True  # greedy: a region of several rows starts from its rows solved one by one
    num_workers: int = 1

    def __post_init__(self):
        positive("height", self.height)
        positive("width", self.width)
        if self.shape == "rows" and self.width is not None:
            raise ValueError("width: only blocks have a width (a band spans the whole row)")
        positive("time_limit_wall_s", self.time_limit_wall_s)
        positive("backtrack_wall_s", self.backtrack_wall_s)
        positive("candidates_per_cell", self.candidates_per_cell)
        positive("num_workers", self.num_workers)
