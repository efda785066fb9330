"""Border optimisation (BO, paper 002): re-place the frame, or a stretch of it, optimally against the interior."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...config.schema import positive
from ...kernels.rng import below
from ..context import SearchContext
from .base import Move, MoveWeight
from .region import repair


@dataclass(frozen=True)
class BorderMoveConfig(MoveWeight):
    """Border optimisation (BO): re-place the frame, or a stretch of it, optimally against the interior."""

    weight: float = 0.05  # its CPU share in the default mix (docs/moves.md)
    stretch: int = 20  # frame cells per call, from a random start; 0 = the whole frame (slow, docs/moves.md)
    deterministic_limit: float | None = 0.5  # CP-SAT deterministic time per call; null: the wall limit only
    time_limit_wall_s: float = 10.0  # CP-SAT wall limit per call

    def __post_init__(self):
        super().__post_init__()
        positive("stretch", self.stretch, allow_zero=True)
        positive("time_limit_wall_s", self.time_limit_wall_s)
        positive("deterministic_limit", self.deterministic_limit)


def frame_ring(rows: int, cols: int) -> np.ndarray:
    """Flat cells of the frame in clockwise order from the top-left corner."""
    top = [c for c in range(cols)]
    right = [r * cols + cols - 1 for r in range(1, rows)]
    bottom = [(rows - 1) * cols + c for c in range(cols - 2, -1, -1)]
    left = [r * cols for r in range(rows - 2, 0, -1)]
    return np.array(top + right + bottom + left, dtype=np.int64)


class BorderMove(Move):
    """CP-SAT on the whole frame (``stretch`` 0) or on ``stretch`` consecutive frame cells from a random start."""

    name = "border"
    settings: BorderMoveConfig

    def __init__(self, ctx: SearchContext, settings: BorderMoveConfig):
        super().__init__(ctx, settings)
        ring = frame_ring(ctx.flat.rows, ctx.flat.cols)
        self._ring = ring[ctx.flat.movable[ring]]

    def __call__(self) -> int:
        ring, stretch = self._ring, self.settings.stretch
        if 0 < stretch < len(ring):
            start = below(self.ctx.state.rng, len(ring))
            cells = np.sort(np.take(ring, np.arange(start, start + stretch), mode="wrap"))
        else:
            cells = ring
        return repair(self.ctx, cells, self.settings.time_limit_wall_s, self.settings.deterministic_limit)
