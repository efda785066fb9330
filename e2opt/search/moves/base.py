"""Move: the one interface of every neighbourhood: change the current board in place, return the score change;
MoveWeight: the settings every move has (its YAML section under ``search.moves``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...config.schema import positive

if TYPE_CHECKING:
    from ..context import SearchContext


@dataclass(frozen=True)
class MoveWeight:
    """A move with no settings of its own: its share of the CPU time (fixed mix) or starting share (adaptive).

    ``cost_cpu_ms``: a nominal CPU cost per call for the schedule; None measures it (faster to adapt, but a run
    is then reproducible only up to timing). Every move section has these two keys.
    """

    weight: float = 1.0
    cost_cpu_ms: float | None = None

    def __post_init__(self):
        positive("weight", self.weight, allow_zero=True)
        positive("cost_cpu_ms", self.cost_cpu_ms)


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
