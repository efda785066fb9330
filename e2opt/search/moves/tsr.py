"""Swap and rotate (TSR) around mismatched cells, in numba (see tsr_kernel)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...config.schema import positive
from ..context import SearchContext
from . import tsr_kernel
from .base import Move, MoveWeight


@dataclass(frozen=True)
class TsrMoveConfig(MoveWeight):
    """Swap and rotate (docs/moves.md): rotations, same-kind swaps (adjacent pairs too), 2x2 block turns."""

    weight: float = 0.2  # its CPU share in the default mix (docs/moves.md)
    scan: Literal["first", "best"] = "best"  # best scanned candidate, or first improving one
    tries: int = 8  # mismatched cells scanned per call (all candidates around each)
    partners: int = 4  # random same-kind swap partners per scanned cell, besides its neighbours

    def __post_init__(self):
        super().__post_init__()
        positive("tries", self.tries)
        positive("partners", self.partners, allow_zero=True)


class TsrMove(Move):
    """Rotations, same-kind swaps (adjacent pairs included) and 2x2 block turns; first or best improvement.

    When the acceptance can undo a loss (annealing) a random candidate is offered if none improves;
    otherwise only improving or sideways (change 0) candidates are applied.
    """

    name = "tsr"
    settings: TsrMoveConfig

    def __init__(self, ctx: SearchContext, settings: TsrMoveConfig):
        super().__init__(ctx, settings)
        self.allow_worse = ctx.annealing
        self._buffers = tsr_kernel.buffers(ctx.flat.n, settings.partners)

    def __call__(self) -> int:
        ctx, s, f, st = self.ctx, self.settings, self.ctx.flat, self.ctx.state
        return int(
            tsr_kernel.tsr_move(
                s.tries, s.partners, s.scan == "best", self.allow_worse, f.movable, f.cell_kind, f.by_kind,
                f.kind_start, f.rimmask, f.greymask, f.nbr, f.cols, st.piece, st.rot, ctx.colour, ctx.mis,
                f.oriented, st.rng, *self._buffers,
            )
        )  # fmt: skip
