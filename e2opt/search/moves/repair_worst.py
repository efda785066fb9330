"""Destroy the window with the most mismatched joins and repair it (the anjou ALNS's worst 5x5 window)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .repair import RepairMove, rect, window_sums, worst
from .repair_window import WindowRepairConfig


@dataclass(frozen=True)
class WorstRepairConfig(WindowRepairConfig):
    """Destroy the size x size window holding the most mismatched joins (ties at random), then repair it."""

    size: int = 5  # window side


class WorstRepairMove(RepairMove):
    """The worst window of the current board; each call re-anneals it from a fresh shuffle."""

    name = "repair_worst"
    settings: WorstRepairConfig

    def destroy(self) -> np.ndarray:
        size = self.settings.size
        sums = window_sums(self.ctx, size, size)
        r0, c0 = divmod(worst(self.ctx, sums), sums.shape[1])
        return rect(self.ctx, r0, c0, size, size)
