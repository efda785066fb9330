"""e2opt: edge-matching puzzles (Eternity II): CP-SAT construction + very large neighbourhood tabu search."""

from .core.board import Board, read_board, score, write_board
from .core.puzzle import Puzzle, read_puzzle, write_puzzle
from .engine.config import RunConfig
from .engine.loader import load_config

__all__ = [
    "Board",
    "Puzzle",
    "RunConfig",
    "load_config",
    "read_board",
    "read_puzzle",
    "score",
    "solve",
    "write_board",
    "write_puzzle",
]


def solve(config, **kwargs):
    """Run construct + search for a RunConfig (or a config file path); returns the run's Result."""
    from .engine.run import solve as _solve

    return _solve(config, **kwargs)
