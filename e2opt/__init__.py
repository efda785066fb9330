"""e2opt: edge-matching puzzles (Eternity II): CP-SAT construction + very large neighbourhood tabu search.

The public API: ``run`` a config (a run folder, like ``e2opt run``), ``resume`` a run folder, ``solve_exact``
a puzzle (like ``e2opt solve``), and the readers and writers of puzzles, boards and configs.
"""

from __future__ import annotations

from .cli import guard as _guard

if _guard.is_command():  # before anything slow: Ctrl-C while the command imports prints no traceback
    _guard.install()

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core.board import Board, score, write_board
from .core.formats.read import read_board, read_puzzle
from .core.puzzle import Puzzle, write_puzzle

if TYPE_CHECKING:
    from .engine.config import RunConfig
    from .engine.loader import load_config

# names that load numba and OR-Tools: imported on first use (PEP 562), so ``import e2opt`` stays light
_LAZY = {"RunConfig": ".engine.config", "load_config": ".engine.loader"}


def __getattr__(name: str) -> Any:
    """The public names of ``_LAZY``, imported when first asked for (then cached in the module)."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "Board",
    "Puzzle",
    "RunConfig",
    "load_config",
    "read_board",
    "read_puzzle",
    "resume",
    "run",
    "score",
    "solve_exact",
    "write_board",
    "write_puzzle",
]


def run(config: RunConfig | str | Path, quiet: bool = True, **overrides: Any):
    """Construct + search for a RunConfig or a config file, in a new run folder; returns the run's Result.

    Keyword overrides by dotted key, ``__`` for dots: ``run("config/quick.yaml", stop__max_iterations=1000)``.
    """
    from .engine.run import run_api

    return run_api(config, quiet, **overrides)


def resume(run_dir: str | Path, quiet: bool = True, overrides: tuple[str, ...] = ()):
    """Continue a run folder from its checkpoint (``--set``-style ``overrides`` extend its budgets)."""
    from .engine.resume import resume_run

    return resume_run(run_dir, quiet, overrides)


def solve_exact(puzzle: Puzzle | str | Path, **options: Any):
    """Exact search of a puzzle (or puzzle file): ``solve_exact(p, find_all=True, method="scan")``; options
    are those of exact.solve.SolveOptions and the method's settings (exact.solve.options). Returns the method's
    result (a SolveResult for the perfect-board searches: boards, count, complete)."""
    from .exact.solve import default_method
    from .exact.solve import options as exact_options
    from .exact.solve import solve as exact_solve

    if not isinstance(puzzle, Puzzle):
        puzzle = read_puzzle(puzzle)
    method = options.pop("method", None) or default_method(puzzle)
    return exact_solve(puzzle, exact_options(method, **options), progress=None)
