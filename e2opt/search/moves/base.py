"""Move: the one interface of every neighbourhood: change the current board in place, return the score change."""

from __future__ import annotations

from abc import ABC, abstractmethod

from ...config.sections import MoveWeight
from ..context import SearchContext


class Move(ABC):
    """A neighbourhood of the search; subclasses implement ``__call__``.

    A move changes ``ctx.state.piece/rot`` and keeps ``ctx.colour`` and ``ctx.mis`` exact (the loop adds the
    returned change to the score and checks it in check mode). It may keep its own arrays in
    ``ctx.state.extra`` so that a checkpoint continues it exactly.
    """

    name = ""

    def __init__(self, ctx: SearchContext, settings: MoveWeight):
        self.ctx, self.settings = ctx, settings

    @abstractmethod
    def __call__(self) -> int:
        """Change the board; return the score change."""
