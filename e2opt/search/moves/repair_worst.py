"""Destroy the window with the most mismatched joins and repair it (the anjou ALNS's worst 5x5 window)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .repair import RepairConfig, RepairMove, rect, window_sums, worst


@dataclass(frozen=True)
class WorstRepairConfig(RepairConfig):
    """Destroy the size x size window holding the most mismatched joins (ties at random), then repair it."""

    size: int = 5  # window side

    def __post_init__(self):
        super().__post_init__()
        if self.size < 2:
            raise ValueError(f"size: must be at least 2, got {self.size}")


class WorstRepairMove(RepairMove):
    """The worst window of the current board; each call re-anneals it from a fresh shuffle."""

    name = "repair_worst"
    settings: WorstRepairConfig

    def destroy(self) -> np.ndarray:
        size = self.settings.size
        sums = window_sums(self.ctx, size, size)
        r0, c0 = divmod(worst(self.ctx, sums), sums.shape[1])
        return rect(self.ctx, r0, c0, size, size)
