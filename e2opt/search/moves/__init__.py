"""The moves of the search: ``MOVES``, the one registry (name -> settings class, Move class, help).

A new move is one module (its settings class, a MoveWeight subclass, beside its Move subclass) and one line
here: its YAML section ``search.moves.<name>``, the checks of its settings and the list of moves in errors
and docs all come from this table; the loop does not change. ``build_moves`` makes the moves a config enables.
"""

from __future__ import annotations

from dataclasses import dataclass, field, make_dataclass
from typing import Any

from ..context import SearchContext
from .assignment import AssignmentMove, CheckerboardMove
from .base import Move, MoveWeight
from .border import BorderMove, BorderMoveConfig
from .clique import CliqueMove, CliqueMoveConfig
from .region import RegionMove, RegionMoveConfig
from .repair_band import BandRepairConfig, BandRepairMove
from .repair_bfs import BfsRepairConfig, BfsRepairMove
from .repair_chain import ChainRepairConfig, ChainRepairMove
from .repair_pairs import PairsRepairConfig, PairsRepairMove
from .repair_window import WindowRepairConfig, WindowRepairMove
from .repair_worst import WorstRepairConfig, WorstRepairMove
from .tsr import TsrMove, TsrMoveConfig


@dataclass(frozen=True)
class MoveEntry:
    """A registered move: its settings class (the YAML section), its Move class, one line of help."""

    settings: type[MoveWeight]
    move: type[Move]
    help: str
    default: bool = False  # enabled with default settings when a config does not mention it


MOVES: dict[str, MoveEntry] = {
    "assignment": MoveEntry(
        MoveWeight, AssignmentMove, "Algorithm 1 (paper 001): lift k non-adjacent holes, re-place them optimally",
        default=True,
    ),
    "checkerboard": MoveEntry(MoveWeight, CheckerboardMove, "the assignment move on one checkerboard colour (BW)"),
    "tsr": MoveEntry(TsrMoveConfig, TsrMove, "swap and rotate around mismatched cells (numba)"),
    "region": MoveEntry(RegionMoveConfig, RegionMove, "CP-SAT repair of a window, warm-started (RO)"),
    "border": MoveEntry(BorderMoveConfig, BorderMove, "CP-SAT re-placement of a stretch of the frame (BO)"),
    "clique": MoveEntry(CliqueMoveConfig, CliqueMove, "paper 002's RO by max clique on a window, holes by CP-SAT"),
    "repair_window": MoveEntry(WindowRepairConfig, WindowRepairMove, "destroy a random window, repair by annealing (ALNS)"),
    "repair_worst": MoveEntry(WorstRepairConfig, WorstRepairMove, "destroy the worst window, repair by annealing"),
    "repair_bfs": MoveEntry(BfsRepairConfig, BfsRepairMove, "destroy a conflict region (BFS), repair by annealing"),
    "repair_pairs": MoveEntry(PairsRepairConfig, PairsRepairMove, "destroy the cells of mismatched joins, repair"),
    "repair_band": MoveEntry(BandRepairConfig, BandRepairMove, "destroy the worst band of rows/columns, repair"),
    "repair_chain": MoveEntry(ChainRepairConfig, ChainRepairMove, "destroy a chain from a mismatch, repair"),
}  # fmt: skip


def _check(self: Any) -> None:
    if not any(settings.weight > 0 for _, settings in _set(self)):
        raise ValueError(f"{next(iter(MOVES))}: at least one move needs a weight above 0")


def _set(self: Any) -> list[tuple[str, MoveWeight]]:
    return [(name, getattr(self, name)) for name in MOVES if getattr(self, name) is not None]


def _enabled(self: Any) -> list[tuple[str, MoveWeight]]:
    """(name, settings) of every move with a weight above 0, in registry order."""
    return [(name, settings) for name, settings in _set(self) if settings.weight > 0]


def _moves_config() -> type:
    """The ``search.moves`` section: one optional field per registered move, typed by its settings class."""
    fields = [
        (
            name,
            entry.settings | None,
            field(default_factory=entry.settings) if entry.default else field(default=None),
        )
        for name, entry in MOVES.items()
    ]
    doc = "The moves the schedule picks from; a null (or absent) section leaves a move out.\n\n" + "\n".join(
        f"{name}: {entry.help}" for name, entry in MOVES.items()
    )
    cls = make_dataclass(
        "MovesConfig", fields, frozen=True,
        namespace={"__post_init__": _check, "enabled": _enabled, "__doc__": doc},
    )  # fmt: skip
    cls.__module__ = __name__
    return cls


MovesConfig = _moves_config()


def build_moves(ctx: SearchContext) -> list[Move]:
    """One Move object per enabled move of ctx.cfg.moves, in registry order."""
    return [MOVES[name].move(ctx, settings) for name, settings in ctx.cfg.moves.enabled()]
