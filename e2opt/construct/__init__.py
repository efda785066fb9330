"""Initial boards: random, the relaxed CP-SAT model, a given .board file, a beam, the depth-first search with
breaks (dfs/), or region by region on CP-SAT (paper 002).

``METHODS`` is the one registry of construction methods (name -> settings class, build, help, options: puzzle
check, threads, numba kernels). A new construction is one module and one line there: its YAML section ``construct.<name>``
(the ``construct:`` section, ConstructConfig, is built from the registry), the choices of
``construct.method`` and its checks come from it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, make_dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from ..config.registry import NoSettings
from ..core.board import Board, random_board, rule_violations, score
from ..core.errors import BoardError, E2optError
from ..core.formats.read import read_board, read_puzzle
from ..core.puzzle import Puzzle
from .config import BeamConfig, CpSatConfig, RegionsConfig
from .dfs.config import DfsConfig


def board_from_file(puzzle: Puzzle, path: str) -> Board:
    """A warm start: the .board file, checked against the puzzle's hard rules first."""
    board = read_board(path, puzzle)
    problems = rule_violations(puzzle, board)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise BoardError(f"{path}: not a valid board for {puzzle.name}: {problems[0]}{more}")
    return board


def _check_board(cfg: ConstructConfig, puzzle: Puzzle) -> list[tuple[str, str]]:
    try:
        board_from_file(puzzle, cfg.board)
    except BoardError as exc:
        return [("construct.board", str(exc))]
    return []


def _check_cpsat(cfg: ConstructConfig, puzzle: Puzzle) -> list[tuple[str, str]]:
    from ..cpsat.relaxed_model import check_relaxed, max_relaxed  # ortools loads only when CP-SAT is used

    if cfg.cpsat.relaxed_cells is not None:
        try:
            check_relaxed(puzzle, cfg.cpsat.relaxed_cells)
        except E2optError as exc:
            return [("construct.cpsat.relaxed_cells", str(exc))]
    elif cfg.cpsat.relaxed > max_relaxed(puzzle):
        return [
            (
                "construct.cpsat.relaxed",
                f"at most {max_relaxed(puzzle)} pairwise non-adjacent cells fit on the "
                f"{puzzle.rows}x{puzzle.cols} board of {puzzle.name}, got {cfg.cpsat.relaxed}",
            )
        ]
    return []


def _build_random(puzzle, cfg, rng, deadline_s, log_dir, stop_requested, report) -> tuple[Board, dict]:
    return random_board(puzzle, rng), {}


def _build_board(puzzle, cfg, rng, deadline_s, log_dir, stop_requested, report) -> tuple[Board, dict]:
    return board_from_file(puzzle, cfg.board), {"board": cfg.board}


def _build_cpsat(puzzle, cfg, rng, deadline_s, log_dir, stop_requested, report) -> tuple[Board, dict]:
    from .cpsat import construct_cpsat

    log_path = str(log_dir / "cpsat.log") if (log_dir is not None and cfg.cpsat.log) else None
    return construct_cpsat(puzzle, cfg.cpsat, rng, deadline_s, log_path, stop_requested)


def _build_beam(puzzle, cfg, rng, deadline_s, log_dir, stop_requested, report) -> tuple[Board, dict]:
    from .scan import build_beam

    return build_beam(puzzle, cfg.beam, rng, deadline_s, stop_requested, report)


def _check_regions(cfg: ConstructConfig, puzzle: Puzzle) -> list[tuple[str, str]]:
    problems = []
    for key, size, limit in (
        ("height", cfg.regions.height, puzzle.rows),
        ("width", cfg.regions.width, puzzle.cols),
    ):
        if size is not None and size > limit:
            problems.append(
                (
                    f"construct.regions.{key}",
                    f"{size} is more than the {limit} of the {puzzle.rows}x{puzzle.cols} board",
                )
            )
    return problems


def _build_regions(puzzle, cfg, rng, deadline_s, log_dir, stop_requested, report) -> tuple[Board, dict]:
    from .regions import construct_regions

    return construct_regions(puzzle, cfg.regions, rng, deadline_s, stop_requested, report)


def _build_dfs(puzzle, cfg, rng, deadline_s, log_dir, stop_requested, report) -> tuple[Board, dict]:
    from .dfs.build import build_dfs

    return build_dfs(puzzle, cfg.dfs, rng, deadline_s, log_dir, stop_requested, report)


def _check_dfs(cfg: ConstructConfig, puzzle: Puzzle) -> list[tuple[str, str]]:
    from .dfs.build import check_dfs

    return check_dfs(cfg.dfs, puzzle, cfg.method)


@dataclass(frozen=True)
class MethodOptions:
    """What a construction's line says besides its settings: what it checks against the puzzle, how many
    threads it burns, the modules of the numba kernels it runs (compiled by the warm-up)."""

    check: Callable[[Any, Puzzle], list[tuple[str, str]]] | None = None
    threads: Callable[[Any], int] = lambda cfg: 1
    kernels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Method:
    """A construction method: its settings (NoSettings: none of its own), how it builds, one line of help,
    its options."""

    settings: type
    build: Callable[..., tuple[Board, dict]]
    help: str
    options: MethodOptions


BEAM = ("e2opt.construct.beam", "e2opt.kernels.rng")
DFS = ("e2opt.construct.dfs.kernel", "e2opt.kernels.rng")

METHODS: dict[str, Method] = {
    "random": Method(NoSettings, _build_random, "a random board that keeps the kinds and hints", MethodOptions()),
    "cpsat": Method(
        CpSatConfig, _build_cpsat, "paper 001's relaxed CP-SAT model",
        MethodOptions(_check_cpsat, lambda cfg: cfg.cpsat.num_workers),
    ),
    "board": Method(
        NoSettings, _build_board, "a warm start from the .board file construct.board", MethodOptions(_check_board),
    ),
    "beam": Method(BeamConfig, _build_beam, "beam search along a fill order (docs/construct.md)", MethodOptions(kernels=BEAM)),
    "dfs": Method(
        DfsConfig, _build_dfs, "depth-first search with breaks: a recipe from the puzzle or a preset, harvest and "
        "completion (docs/dfs.md)", MethodOptions(_check_dfs, kernels=DFS),
    ),
    "regions": Method(
        RegionsConfig, _build_regions, "paper 002: region by region on CP-SAT",
        MethodOptions(_check_regions, lambda cfg: cfg.regions.num_workers),
    ),
}  # fmt: skip


def _post_init(self: Any) -> None:
    if self.method == "board" and not self.board:
        raise ValueError("board: method 'board' needs a path to a .board file")


def _construct_config() -> type:
    """The ``construct:`` section: the method's name, the warm-start board, one section per method with settings."""
    fields: list = [("method", Literal[tuple(METHODS)], field(default="beam")), ("board", str | None, None)]
    fields += [
        (name, m.settings, field(default_factory=m.settings))
        for name, m in METHODS.items()
        if m.settings is not NoSettings
    ]
    doc = "How the initial board is made (construct.method):\n" + "\n".join(
        f"{name}: {m.help}" for name, m in METHODS.items()
    )
    cls = make_dataclass(
        "ConstructConfig", fields, frozen=True, namespace={"__post_init__": _post_init, "__doc__": doc}
    )
    cls.__module__ = __name__
    return cls


ConstructConfig = _construct_config()


def threads_used(cfg: ConstructConfig) -> int:
    """Threads the configured construction runs on (its CPU seconds per wall second)."""
    return METHODS[cfg.method].options.threads(cfg)


def check_against_puzzle(cfg: ConstructConfig, instance: str) -> list[tuple[str, str]]:
    """What in the construct section cannot work on the puzzle file, as (dotted key, problem) pairs.

    Checked when the config is loaded, so that a run or a sweep stops before any work starts; the
    puzzle is read only for the methods that depend on it.
    """
    check = METHODS[cfg.method].options.check
    return [] if check is None else check(cfg, read_puzzle(instance))


def construct(
    puzzle: Puzzle,
    cfg: ConstructConfig,
    rng: np.random.Generator,
    deadline_s: float | None = None,
    log_dir: Path | None = None,
    stop_requested: Callable[[], bool] | None = None,
    report: Callable[[str], None] | None = None,
) -> tuple[Board, dict]:
    """The initial board and an info dict for result.json (method, score, seconds, method details).

    ``stop_requested`` (a signal arrived) cuts a CP-SAT, beam, backtrack or regions construction short;
    ``report`` shows progress lines of long constructions (regions).
    """
    start = time.perf_counter()
    info: dict = {"method": cfg.method}
    board, details = METHODS[cfg.method].build(puzzle, cfg, rng, deadline_s, log_dir, stop_requested, report)
    info.update(details)
    info["score"] = score(puzzle, board)
    info["seconds"] = round(time.perf_counter() - start, 3)
    return board, info
