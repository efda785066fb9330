"""Destroy and repair (ALNS, Ropke and Pisinger 2006): the shared repair of the repair_* moves.

A repair move destroys a set of cells (each ``repair_*`` module draws its own: a window, the worst window, a
conflict region, defect pairs, a band, a chain) and repairs it by a numba annealing over swaps and rotations
of the set's pieces (repair_kernel), or by the warm-started CP-SAT region model (``repair: cpsat``), or by
the annealing with CP-SAT after it when it ends below its input (``repair: fallback``). Under the tabu
acceptance a repair never returns a board below its input; under annealing it returns the best board its
annealing saw and the acceptance decides. The randomness is the search's own rng (state.rng), so runs are
reproducible seed for seed and a checkpoint continues them exactly.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ...config.schema import positive
from ...kernels.rng import below, uniform
from ..context import SearchContext
from . import repair_kernel
from .base import Move, MoveWeight
from .region import repair as cpsat_repair


@dataclass(frozen=True)
class RepairConfig(MoveWeight):
    """Settings every repair move shares: how the destroyed cells are repaired."""

    repair: Literal["anneal", "cpsat", "fallback"] = "anneal"  # fallback: anneal, then CP-SAT if below input
    steps: int = 500  # annealing steps per destroyed cell
    t_start: float = 2.0  # annealing temperature (joins) at the first step ...
    t_end: float = 0.05  # ... and at the last (geometric cooling)
    rotate: float = 0.25  # chance that a step turns an inner cell instead of swapping it
    shuffle: bool = True  # deal the set's pieces at random before annealing (false: anneal from the board)
    deterministic_limit: float | None = 0.2  # CP-SAT (cpsat, fallback): deterministic time per call
    time_limit_wall_s: float = 2.0  # CP-SAT wall limit per call

    def __post_init__(self):
        super().__post_init__()
        positive("steps", self.steps)
        positive("t_start", self.t_start)
        positive("t_end", self.t_end)
        if not 0 <= self.rotate <= 1:
            raise ValueError(f"rotate: must be in [0, 1], got {self.rotate}")
        positive("deterministic_limit", self.deterministic_limit)
        positive("time_limit_wall_s", self.time_limit_wall_s)


class RepairMove(Move):
    """Destroy (``destroy``, per subclass) and repair; the score change (>= 0 under the tabu acceptance)."""

    settings: RepairConfig

    def __init__(self, ctx: SearchContext, settings: RepairConfig):
        super().__init__(ctx, settings)
        self.floor = not ctx.annealing
        self._buffers = repair_kernel.buffers(ctx.flat.n)
        self.stats = self._buffers[-1]

    @abstractmethod
    def destroy(self) -> np.ndarray:
        """Flat movable cells to repair (distinct)."""

    def __call__(self) -> int:
        cells = self.destroy()
        if len(cells) < 2:
            return 0
        return self.repair(cells)

    def repair(self, cells: np.ndarray, floor: bool | None = None) -> int:
        """Repair and apply ``cells``; the score change. ``floor`` (default: the move's) keeps the result at or
        above the input's score; after a call, ``stats[0]`` is the annealing's best change."""
        return repair_cells(
            self.ctx, cells, self.settings, self.floor if floor is None else floor, self._buffers
        )


def repair_cells(
    ctx: SearchContext, cells: np.ndarray, s: RepairConfig, floor: bool, buffers: tuple[np.ndarray, ...]
) -> int:
    """Repair the flat movable ``cells`` as ``s.repair`` says; apply the result; the score change."""
    if s.repair == "cpsat":
        # warm-started: never below the input
        return cpsat_repair(ctx, cells, s.time_limit_wall_s, s.deterministic_limit)
    f, st = ctx.flat, ctx.state
    steps = s.steps * len(cells)
    factor = (s.t_end / s.t_start) ** (1.0 / steps)
    delta = int(
        repair_kernel.anneal(
            cells, steps, s.t_start, factor, s.rotate, s.shuffle, floor, f.cell_kind, f.rimmask, f.fit, f.nbr,
            f.oriented, st.piece, st.rot, ctx.colour, ctx.mis, st.rng, *buffers,
        )
    )  # fmt: skip
    if s.repair == "fallback" and buffers[-1][repair_kernel.BEST] < 0:
        delta += cpsat_repair(ctx, cells, s.time_limit_wall_s, s.deterministic_limit)
    return delta


# Helpers of the destroy operators (the repair_* modules)


def draw(ctx: SearchContext, weights: np.ndarray) -> int:
    """An index drawn with probability proportional to weights (from the search's rng)."""
    cum = np.cumsum(weights)
    return min(int(np.searchsorted(cum, uniform(ctx.state.rng) * cum[-1], side="right")), len(cum) - 1)


def rect(ctx: SearchContext, r0: int, c0: int, height: int, width: int) -> np.ndarray:
    """Flat movable cells of the rectangle with top-left (r0, c0), clipped to the board."""
    f = ctx.flat
    rows = np.arange(max(r0, 0), min(r0 + height, f.rows))
    cols = np.arange(max(c0, 0), min(c0 + width, f.cols))
    cells = (rows[:, None] * f.cols + cols[None, :]).ravel()
    return cells[f.movable[cells]]


def window_sums(ctx: SearchContext, height: int, width: int) -> np.ndarray:
    """Mismatched joins (counted from both sides) in every height x width window, by top-left corner."""
    f = ctx.flat
    grid = np.zeros((f.rows + 1, f.cols + 1), dtype=np.int64)
    grid[1:, 1:] = ctx.mis.reshape(f.rows, f.cols).cumsum(0).cumsum(1)
    h, w = min(height, f.rows), min(width, f.cols)
    return grid[h:, w:] - grid[:-h, w:] - grid[h:, :-w] + grid[:-h, :-w]


def worst(ctx: SearchContext, values: np.ndarray) -> int:
    """The flat index of the largest value, ties broken at random (search rng)."""
    flat = values.ravel()
    top = np.flatnonzero(flat == flat.max())
    return int(top[below(ctx.state.rng, len(top))])


def mismatched_cell(ctx: SearchContext) -> int:
    """A random movable cell with a mismatched join; a random movable cell when there is none."""
    f = ctx.flat
    cells = np.flatnonzero((ctx.mis > 0) & f.movable)
    if len(cells) == 0:
        cells = f.by_kind
    return int(cells[below(ctx.state.rng, len(cells))])
