"""Destroy the two cells of random mismatched joins, several at once, and repair them (anjou's defect pairs)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...kernels.rng import below
from .repair import RepairConfig, RepairMove


@dataclass(frozen=True)
class PairsRepairConfig(RepairConfig):
    """Destroy both cells of random mismatched joins until ``cells`` cells are taken, then repair them."""

    cells: int = 12  # destroyed cells (about half as many mismatched joins)

    def __post_init__(self):
        super().__post_init__()
        if self.cells < 2:
            raise ValueError(f"cells: must be at least 2, got {self.cells}")


class PairsRepairMove(RepairMove):
    """Scattered defects repaired together: pieces trade places across the board, as in the assignment move,
    but with rotations, adjacent cells and losses allowed inside the annealing."""

    name = "repair_pairs"
    settings: PairsRepairConfig

    def destroy(self) -> np.ndarray:
        ctx, f = self.ctx, self.ctx.flat
        rng = ctx.state.rng
        cols = f.cols
        grid = ctx.colour.reshape(f.rows, cols, 4)
        right = np.flatnonzero((grid[:, :-1, 1] != grid[:, 1:, 3]).ravel())  # join (r, c)-(r, c+1)
        down = np.flatnonzero((grid[:-1, :, 2] != grid[1:, :, 0]).ravel())  # join (r, c)-(r+1, c)
        a = np.concatenate((right // (cols - 1) * cols + right % (cols - 1), down))
        b = np.concatenate((a[: len(right)] + 1, down + cols))
        taken: list[int] = []
        inside = np.zeros(f.n, dtype=bool)
        count = len(a)
        order = np.arange(count)
        while count and len(taken) < self.settings.cells:
            i = below(rng, count)  # draw a join without replacement
            j = order[i]
            count -= 1
            order[i] = order[count]
            for c in (int(a[j]), int(b[j])):
                if f.movable[c] and not inside[c] and len(taken) < self.settings.cells:
                    inside[c] = True
                    taken.append(c)
        return np.array(sorted(taken), dtype=np.int64)
