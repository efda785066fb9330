"""The search's numba warm-up: each move the registry says runs numba kernels (``MoveOptions.kernels``) is run
alone for a few moves on a tiny generated puzzle, so its kernels are compiled (or loaded from numba's cache)
before a run's clock starts. Once per process and move."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..config.registry import warm_entries
from ..core.board import random_board
from ..core.generate import generate
from .config import AcceptanceConfig, SearchConfig
from .moves import MOVES, MovesConfig
from .stop import Clock, MaxIterations
from .tabu import TabuSearch

LOOP = "assignment"  # the loop's scoring and diversification run the assignment move's kernel module
WARM_MOVES = 12  # moves of the tiny search: plateau 2 makes it diversify and intensify too
_warmed: set[str] = set()


def warm_moves(names: Iterable[str]) -> list[str]:
    """Compile or load the kernels of the named moves (and of the loop); the names warmed now, in order."""
    return warm_entries(MOVES, names, _warmed, _warm_move)


def _warm_move(name: str) -> None:
    """Run the move alone (with the move whose settings it shares) for a few moves of a tiny puzzle."""
    puzzle, _ = generate(6, 6, 3, 4, 1)
    entry = MOVES[name]
    settings = {name: entry.settings(cost_cpu_ms=0.1, **dict(entry.options.warm))}
    if entry.options.shares is not None:
        settings[entry.options.shares] = MOVES[entry.options.shares].settings(weight=0.0)
    moves = MovesConfig(**{"assignment": None, **settings})
    for kind in ("tabu", "annealing"):  # some kernels take another path when a loss can be undone
        cfg = SearchConfig(moves=moves, plateau=2, intensify_after=2, acceptance=AcceptanceConfig(kind=kind))
        rng = np.random.default_rng(0)
        TabuSearch(puzzle, random_board(puzzle, rng), cfg, rng).run(MaxIterations(WARM_MOVES), Clock())


def warm_search(cfg: SearchConfig) -> list[str]:
    """Compile or load every kernel a search with ``cfg`` can run: its enabled moves' and the loop's."""
    return warm_moves([LOOP, *(name for name, _ in cfg.moves.enabled())])
