"""Region repair (RO): lift a window's pieces and re-place them optimally with CP-SAT, warm-started.

The window is a rectangle of a configured side, or a connected cluster of as many cells, around a
centre cell drawn with weight 1 + bias * (its mismatched joins) among cells not repaired in the last
``tabu`` region calls. CP-SAT gets the current placement as its hint and an objective bound at the
incumbent (e2opt.region_model), so the move never lowers the score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from ...config.schema import positive
from ...kernels.rng import below, next_u64, uniform
from ..context import SearchContext
from .base import Move, MoveWeight


@dataclass(frozen=True)
class RegionMoveConfig(MoveWeight):
    """Region repair (RO): re-place a window's pieces optimally with CP-SAT, warm-started from the board."""

    weight: float = 0.3  # its CPU share in the default mix (docs/moves.md)
    sizes: tuple[int, ...] = (4, 5)  # window side lengths, drawn uniformly (a size s window has s*s cells)
    shape: Literal["rect", "cluster"] = "rect"  # rectangle, or a connected cluster grown around mismatches
    bias: float = 4.0  # centre cell weight = 1 + bias * mismatched joins
    tabu: int = 30  # a repaired window's cells are not drawn as a centre for this many region calls
    deterministic_limit: float | None = 0.1  # CP-SAT deterministic time per call (load-independent; 90% of
    # 4x4 windows are proved optimal within it); null: the wall limit only
    time_limit_wall_s: float = 1.0  # CP-SAT wall limit per call (a guard when deterministic_limit is set)

    def __post_init__(self):
        super().__post_init__()
        if not self.sizes or min(self.sizes) < 2 or max(self.sizes) > 8:
            raise ValueError(f"sizes: window sides must be 2..8, got {list(self.sizes)}")
        positive("bias", self.bias, allow_zero=True)
        positive("tabu", self.tabu, allow_zero=True)
        positive("time_limit_wall_s", self.time_limit_wall_s)
        positive("deterministic_limit", self.deterministic_limit)


def repair(
    ctx: SearchContext, cells: np.ndarray, time_limit_s: float, deterministic_limit: float | None
) -> int:
    """Re-place the pieces of flat ``cells`` with the region model within the CP-SAT limits (wall seconds,
    deterministic time); apply the result; the score change."""
    from ...cpsat.region_model import solve_region  # ortools loads only when a CP-SAT move runs

    seed = int(next_u64(ctx.state.rng) >> np.uint64(33))
    sol = solve_region(
        ctx.puzzle,
        ctx.board_view(),
        cells,
        time_limit_s=time_limit_s,
        deterministic_time=deterministic_limit,
        seed=seed,
    )
    return ctx.place(cells, sol.piece, sol.rot)


class RegionMove(Move):
    """CP-SAT repair of one window per call."""

    name = "region"
    settings: RegionMoveConfig

    def __init__(self, ctx: SearchContext, settings: RegionMoveConfig):
        super().__init__(ctx, settings)
        extra, n = ctx.state.extra, ctx.flat.n
        if extra.get("region_tabu", np.zeros(0)).shape != (n,):
            extra["region_tabu"] = np.zeros(n, dtype=np.int64)  # cell is no centre while value > calls
            extra["region_calls"] = np.zeros(1, dtype=np.int64)
        self._tabu, self._calls = extra["region_tabu"], extra["region_calls"]
        self._sizes = np.array(settings.sizes, dtype=np.int64)

    def __call__(self) -> int:
        cells = self.window()
        delta = self.repair(cells)
        self.mark_window(cells)
        return delta

    def repair(self, cells: np.ndarray) -> int:
        """CP-SAT repair of flat ``cells`` (the window), applied when it gains; the score change."""
        return repair(self.ctx, cells, self.settings.time_limit_wall_s, self.settings.deterministic_limit)

    def mark_window(self, cells: np.ndarray) -> None:
        """Count a call on ``cells``: none of them is a window centre for the next ``tabu`` calls."""
        self._tabu[cells] = self._calls[0] + 1 + self.settings.tabu
        self._calls[0] += 1

    def _draw(self, weights: np.ndarray) -> int:
        """An index drawn with probability proportional to weights (from the search's rng)."""
        cum = np.cumsum(weights)
        return int(np.searchsorted(cum, uniform(self.ctx.state.rng) * cum[-1], side="right"))

    def window(self) -> np.ndarray:
        """Flat movable cells of the next window (see the module docstring)."""
        ctx, f, rng = self.ctx, self.ctx.flat, self.ctx.state.rng
        movable = f.movable
        weights = (1.0 + self.settings.bias * ctx.mis) * movable
        free = weights * (self._tabu <= self._calls[0])
        centre = self._draw(free if free.sum() > 0 else weights)
        size = int(self._sizes[below(rng, len(self._sizes))])
        if self.settings.shape == "cluster":
            return self._cluster(centre, size * size)
        r, c = divmod(centre, f.cols)
        r0 = min(max(r - below(rng, size), 0), max(f.rows - size, 0))
        c0 = min(max(c - below(rng, size), 0), max(f.cols - size, 0))
        rows = np.arange(r0, min(r0 + size, f.rows))
        cols = np.arange(c0, min(c0 + size, f.cols))
        cells = (rows[:, None] * f.cols + cols[None, :]).ravel()
        return cells[movable[cells]]

    def _cluster(self, centre: int, want: int) -> np.ndarray:
        """Grow a connected set of movable cells from centre, next cells drawn by mismatch weight."""
        f = self.ctx.flat
        taken = [centre]
        inside = np.zeros(f.n, dtype=bool)
        inside[centre] = True
        frontier: list[int] = []
        while len(taken) < want:
            for d in f.nbr[taken[-1]]:
                if d >= 0 and f.movable[d] and not inside[d] and d not in frontier:
                    frontier.append(int(d))
            if not frontier:
                break
            weights = 1.0 + self.settings.bias * self.ctx.mis[frontier]
            nxt = frontier.pop(self._draw(weights))
            inside[nxt] = True
            taken.append(nxt)
        return np.array(sorted(taken), dtype=np.int64)
