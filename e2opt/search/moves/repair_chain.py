"""Destroy a short chain of neighbouring cells walked from a mismatched cell and repair it (anjou's chains)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...kernels.rng import below
from .repair import RepairConfig, RepairMove, draw, mismatched_cell


@dataclass(frozen=True)
class ChainRepairConfig(RepairConfig):
    """Destroy a self-avoiding walk of one of ``lengths`` cells from a mismatched cell, then repair it."""

    lengths: tuple[int, ...] = (12, 16)  # chain lengths, drawn uniformly
    bias: float = 4.0  # the walk's next cell is drawn with weight 1 + bias * its mismatched joins

    def __post_init__(self):
        super().__post_init__()
        if not self.lengths or min(self.lengths) < 2:
            raise ValueError(f"lengths: chains need at least 2 cells, got {list(self.lengths)}")
        if self.bias < 0:
            raise ValueError(f"bias: must be >= 0, got {self.bias}")


class ChainRepairMove(RepairMove):
    """A walk through movable cells, each step to an unvisited neighbour of the last cell (of any chain cell
    when the last one has none), mismatched ones preferred."""

    name = "repair_chain"
    settings: ChainRepairConfig

    def destroy(self) -> np.ndarray:
        ctx, f, s = self.ctx, self.ctx.flat, self.settings
        want = s.lengths[below(ctx.state.rng, len(s.lengths))]
        taken = [mismatched_cell(ctx)]
        inside = np.zeros(f.n, dtype=bool)
        inside[taken[0]] = True
        while len(taken) < want:
            nxt = self._next(taken[-1:], inside)
            if not nxt:
                nxt = self._next(taken, inside)
            if not nxt:
                break
            c = nxt[draw(ctx, 1.0 + s.bias * ctx.mis[nxt])]
            inside[c] = True
            taken.append(c)
        return np.array(sorted(taken), dtype=np.int64)

    def _next(self, cells: list[int], inside: np.ndarray) -> list[int]:
        """Unvisited movable neighbours of ``cells``, without repeats, in a fixed order."""
        f = self.ctx.flat
        out: list[int] = []
        for c in cells:
            for d in f.nbr[c]:
                if d >= 0 and f.movable[d] and not inside[d] and int(d) not in out:
                    out.append(int(d))
        return out
