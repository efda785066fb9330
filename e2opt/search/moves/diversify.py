"""The diversification of Algorithm 1: random kind-respecting swap-and-rotate moves after a plateau."""

from __future__ import annotations

from .. import kernels
from ..context import SearchContext
from .base import Move, MoveWeight


class DiversifyMove(Move):
    """``diversify_swaps`` random swaps (each piece turned at random to fit); the loop calls it on a plateau."""

    name = "diversify"

    def __init__(self, ctx: SearchContext, swaps: int):
        super().__init__(ctx, MoveWeight())
        self.swaps = swaps

    def __call__(self) -> int:
        st, f, swaps = self.ctx.state, self.ctx.flat, self.swaps
        kernels.diversify(
            swaps, f.by_kind, f.kind_start, f.cell_kind, st.piece, st.rot, f.rimmask, f.greymask, st.rng
        )
        return self.ctx.recompute() - st.score
