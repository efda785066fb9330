"""Destroy a conflict region grown breadth-first from a mismatched cell and repair it (anjou's conflict BFS)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from ...kernels.rng import below
from .repair import RepairConfig, RepairMove, mismatched_cell


@dataclass(frozen=True)
class BfsRepairConfig(RepairConfig):
    """Destroy up to ``cells`` cells reached breadth-first from a mismatched cell, then repair them."""

    cells: int = 30  # cap on the destroyed set

    def __post_init__(self):
        super().__post_init__()
        if self.cells < 2:
            raise ValueError(f"cells: must be at least 2, got {self.cells}")


class BfsRepairMove(RepairMove):
    """Breadth-first over movable cells; a neighbour across a mismatched join is queued before the others,
    so the region follows the conflicts first; sides are scanned from a random one."""

    name = "repair_bfs"
    settings: BfsRepairConfig

    def destroy(self) -> np.ndarray:
        ctx, f = self.ctx, self.ctx.flat
        start = mismatched_cell(ctx)
        taken, inside = [start], {start}
        conflict: deque[int] = deque([start])
        plain: deque[int] = deque()
        while (conflict or plain) and len(taken) < self.settings.cells:
            c = conflict.popleft() if conflict else plain.popleft()
            first = below(ctx.state.rng, 4)
            for k in range(4):
                s = (first + k) & 3
                d = int(f.nbr[c, s])
                if d < 0 or not f.movable[d] or d in inside or len(taken) >= self.settings.cells:
                    continue
                inside.add(d)
                taken.append(d)
                (conflict if ctx.colour[c, s] != ctx.colour[d, (s + 2) & 3] else plain).append(d)
        return np.array(sorted(taken), dtype=np.int64)
