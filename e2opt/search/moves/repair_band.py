"""Destroy the band of rows or columns with the most mismatched joins and repair it (anjou's worst band)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .repair import RepairConfig, RepairMove, rect, worst


@dataclass(frozen=True)
class BandRepairConfig(RepairConfig):
    """Destroy the ``width`` consecutive rows or columns holding the most mismatched joins, then repair them."""

    width: int = 4  # rows (or columns) in the band
    steps: int = 300  # annealing steps per destroyed cell (a band is large: 64 cells on eternity2)
    shuffle: bool = False  # anneal from the board: 64 dealt pieces never climbed back in 2000 steps per cell

    def __post_init__(self):
        super().__post_init__()
        if self.width < 1:
            raise ValueError(f"width: must be at least 1, got {self.width}")


class BandRepairMove(RepairMove):
    """The worst row band or column band of the current board (ties at random)."""

    name = "repair_band"
    settings: BandRepairConfig

    def destroy(self) -> np.ndarray:
        f = self.ctx.flat
        grid = self.ctx.mis.reshape(f.rows, f.cols)
        bands = []
        for line in (grid.sum(axis=1), grid.sum(axis=0)):  # row bands, then column bands
            w = min(self.settings.width, len(line))
            cum = np.concatenate(([0], np.cumsum(line)))
            bands.append(cum[w:] - cum[:-w])
        pick = worst(self.ctx, np.concatenate(bands))
        w = min(self.settings.width, f.rows)
        if pick < len(bands[0]):
            return rect(self.ctx, pick, 0, w, f.cols)
        return rect(self.ctx, 0, pick - len(bands[0]), f.rows, min(self.settings.width, f.cols))
