"""Destroy a random square window and repair it (the anjou ALNS's random 4x4 window)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...kernels.rng import below
from .repair import RepairConfig, RepairMove, rect


@dataclass(frozen=True)
class WindowRepairConfig(RepairConfig):
    """Destroy a size x size window at a uniformly random place, then repair it."""

    size: int = 4  # window side

    def __post_init__(self):
        super().__post_init__()
        if self.size < 2:
            raise ValueError(f"size: must be at least 2, got {self.size}")


class WindowRepairMove(RepairMove):
    """A random window: every cell of the board is as likely to be destroyed (but near the rim)."""

    name = "repair_window"
    settings: WindowRepairConfig

    def destroy(self) -> np.ndarray:
        f, size, rng = self.ctx.flat, self.settings.size, self.ctx.state.rng
        r0 = below(rng, max(f.rows - size, 0) + 1)
        c0 = below(rng, max(f.cols - size, 0) + 1)
        return rect(self.ctx, r0, c0, size, size)
