"""The moves of the search: ``MOVES``, the one registry (name -> settings class, Move class, help, options).

A new move is one module (its settings class, a MoveWeight subclass, beside its Move subclass) and one line
here: its YAML section ``search.moves.<name>``, the checks of its settings, the list of moves in errors
and docs and the numba warm-up all come from this table; the loop does not change. ``build_moves`` makes the
moves a config enables.

One rule for which moves run: a ``search.moves`` section lists them, and a move it does not name is off; with
no such section the search runs the default mix, ``default_moves()``: every move whose line says
``default``, with its settings class's defaults (their weights are the mix's CPU shares). A dotted key
(``--set search.moves.tsr.scan=first``, a sweep's ``set:``) changes one setting of the mix in effect
(engine/loader.py fills the default mix in before it).
"""

from __future__ import annotations

from dataclasses import dataclass, field, make_dataclass, replace
from typing import Any

from ..context import SearchContext
from .assignment import AssignmentConfig, AssignmentMove, CheckerboardMove
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

SEARCH = ("e2opt.search.kernels", "e2opt.kernels.rng")  # the loop's own kernels (score, diversification)
TSR = ("e2opt.search.moves.tsr_kernel",)
REPAIR = ("e2opt.search.moves.repair_kernel",)
CLIQUE = ("e2opt.clique.kernels", "e2opt.clique.pls")
RNG = ("e2opt.kernels.rng",)  # the CP-SAT moves draw their windows with the search's random numbers


@dataclass(frozen=True)
class MoveOptions:
    """What a move's line says besides its settings: on by default, whose settings it runs with, its kernels."""

    default: bool = False  # in the default mix (a config without a search.moves section), with its defaults
    shares: str | None = (
        None  # runs with that move's settings (its own section gives weight and cost_cpu_ms only)
    )
    kernels: tuple[str, ...] = ()  # modules of the numba kernels it runs (compiled by the warm-up)
    warm: tuple[tuple[str, Any], ...] = ()  # its settings in the warm-up: the same kernels at the least cost
    # (a CP-SAT move's smallest window: 24 CP-SAT calls of its default window took 5 CPU s per process)


@dataclass(frozen=True)
class MoveEntry:
    """A registered move: its settings class (the YAML section), its Move class, one line of help, its options."""

    settings: type[MoveWeight]
    move: type[Move]
    help: str
    options: MoveOptions


MOVES: dict[str, MoveEntry] = {
    "assignment": MoveEntry(
        AssignmentConfig, AssignmentMove, "Algorithm 1 (paper 001): lift k non-adjacent holes, re-place them optimally",
        MoveOptions(default=True, kernels=SEARCH),
    ),
    "checkerboard": MoveEntry(
        MoveWeight, CheckerboardMove, "the assignment move on one checkerboard colour (BW), with its settings",
        MoveOptions(shares="assignment", kernels=SEARCH),
    ),
    "tsr": MoveEntry(TsrMoveConfig, TsrMove, "swap and rotate around mismatched cells (numba)", MoveOptions(default=True, kernels=TSR)),
    "region": MoveEntry(RegionMoveConfig, RegionMove, "CP-SAT repair of a window, warm-started (RO)", MoveOptions(default=True, kernels=RNG, warm=(("sizes", (2,)),))),
    "border": MoveEntry(BorderMoveConfig, BorderMove, "CP-SAT re-placement of a stretch of the frame (BO)", MoveOptions(default=True, kernels=RNG, warm=(("stretch", 2),))),
    "clique": MoveEntry(
        CliqueMoveConfig, CliqueMove, "paper 002's RO by max clique on a window, holes by CP-SAT",
        MoveOptions(kernels=CLIQUE, warm=(("width", 3), ("height", 3), ("selections", 1000))),
    ),
    "repair_window": MoveEntry(
        WindowRepairConfig, WindowRepairMove, "destroy a random window, repair by annealing (ALNS)", MoveOptions(kernels=REPAIR),
    ),
    "repair_worst": MoveEntry(
        WorstRepairConfig, WorstRepairMove, "destroy the worst window, repair by annealing", MoveOptions(kernels=REPAIR),
    ),
    "repair_bfs": MoveEntry(
        BfsRepairConfig, BfsRepairMove, "destroy a conflict region (BFS), repair by annealing", MoveOptions(kernels=REPAIR),
    ),
    "repair_pairs": MoveEntry(
        PairsRepairConfig, PairsRepairMove, "destroy the cells of mismatched joins, repair", MoveOptions(kernels=REPAIR),
    ),
    "repair_band": MoveEntry(
        BandRepairConfig, BandRepairMove, "destroy the worst band of rows/columns, repair", MoveOptions(kernels=REPAIR),
    ),
    "repair_chain": MoveEntry(
        ChainRepairConfig, ChainRepairMove, "destroy a chain from a mismatch, repair", MoveOptions(kernels=REPAIR),
    ),
}  # fmt: skip


def _check(self: Any) -> None:
    if not any(settings.weight > 0 for _, settings in _set(self)):
        raise ValueError(f"{next(iter(MOVES))}: at least one move needs a weight above 0")


def _set(self: Any) -> list[tuple[str, MoveWeight]]:
    return [(name, getattr(self, name)) for name in MOVES if getattr(self, name) is not None]


def _enabled(self: Any) -> list[tuple[str, MoveWeight]]:
    """(name, settings) of every move with a weight above 0, in registry order."""
    return [(name, settings) for name, settings in _set(self) if settings.weight > 0]


def _settings_of(self: Any, name: str) -> MoveWeight:
    """The settings move ``name`` runs with: its section, or the section it shares (the defaults when that
    one is off) with its own weight and cost_cpu_ms."""
    own, shares = getattr(self, name), MOVES[name].options.shares
    if shares is None:
        return own
    return replace(
        getattr(self, shares) or MOVES[shares].settings(), weight=own.weight, cost_cpu_ms=own.cost_cpu_ms
    )


def _moves_config() -> type:
    """The ``search.moves`` section: one optional field per registered move, typed by its settings class; a
    move the section does not name is off (the default mix is ``default_moves()``, SearchConfig's default)."""
    fields = [(name, entry.settings | None, field(default=None)) for name, entry in MOVES.items()]
    doc = "The moves the schedule picks from; a null (or absent) section leaves a move out.\n\n" + "\n".join(
        f"{name}: {entry.help}" for name, entry in MOVES.items()
    )
    cls = make_dataclass(
        "MovesConfig", fields, frozen=True,
        namespace={"__post_init__": _check, "enabled": _enabled, "settings_of": _settings_of, "__doc__": doc},
    )  # fmt: skip
    cls.__module__ = __name__
    return cls


MovesConfig = _moves_config()


def assignment_alone() -> MovesConfig:
    """Algorithm 1's move alone (paper 001): what a DFS completion repairs with, what bench throughput times."""
    return MovesConfig(assignment=AssignmentConfig())


def default_moves() -> MovesConfig:
    """The default mix: every move whose registry line says ``default``, with its settings class's defaults."""
    return MovesConfig(**{name: entry.settings() for name, entry in MOVES.items() if entry.options.default})


def build_moves(ctx: SearchContext, moves: MovesConfig) -> list[Move]:
    """One Move object per enabled move of ``moves`` (the ``search.moves`` section), in registry order."""
    return [MOVES[name].move(ctx, moves.settings_of(name)) for name, _ in moves.enabled()]
