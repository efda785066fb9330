"""Initial boards: random (kind-respecting), the relaxed CP-SAT model, or a given .board file."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..board import Board, random_board, read_board, rule_violations, score
from ..config import ConstructConfig
from ..errors import BoardError, E2optError
from ..puzzle import Puzzle, read_puzzle


def board_from_file(puzzle: Puzzle, path: str) -> Board:
    """A warm start: the .board file, checked against the puzzle's hard rules first."""
    board = read_board(path)
    problems = rule_violations(puzzle, board)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise BoardError(f"{path}: not a valid board for {puzzle.name}: {problems[0]}{more}")
    return board


def check_against_puzzle(cfg: ConstructConfig, instance: str) -> list[tuple[str, str]]:
    """What in the construct section cannot work on the puzzle file, as (dotted key, problem) pairs.

    Checked when the config is loaded, so that a run or a sweep stops before any work starts; the
    puzzle is read only for the methods that depend on it.
    """
    problems: list[tuple[str, str]] = []
    if cfg.method == "random":
        return problems
    puzzle = read_puzzle(instance)
    if cfg.method == "board":
        try:
            board_from_file(puzzle, cfg.board)
        except BoardError as exc:
            problems.append(("construct.board", str(exc)))
    if cfg.method == "regions":
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
    if cfg.method == "cpsat":
        from .cpsat_model import check_relaxed, max_relaxed  # ortools loads only when CP-SAT is used

        if cfg.cpsat.relaxed_cells is not None:
            try:
                check_relaxed(puzzle, cfg.cpsat.relaxed_cells)
            except E2optError as exc:
                problems.append(("construct.cpsat.relaxed_cells", str(exc)))
        elif cfg.cpsat.relaxed > max_relaxed(puzzle):
            problems.append(
                (
                    "construct.cpsat.relaxed",
                    f"at most {max_relaxed(puzzle)} pairwise non-adjacent cells fit on the "
                    f"{puzzle.rows}x{puzzle.cols} board of {puzzle.name}, got {cfg.cpsat.relaxed}",
                )
            )
    return problems


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

    ``stop_requested`` (a signal arrived) cuts a CP-SAT construction short; see construct_cpsat.
    ``report`` shows progress lines of long constructions (regions).
    """
    start = time.perf_counter()
    info: dict = {"method": cfg.method}
    if cfg.method == "random":
        board = random_board(puzzle, rng)
    elif cfg.method == "board":
        board = board_from_file(puzzle, cfg.board)
        info["board"] = cfg.board
    elif cfg.method == "regions":
        from .regions import construct_regions

        board, details = construct_regions(puzzle, cfg.regions, rng, deadline_s, stop_requested, report)
        info.update(details)
    else:
        from .cpsat import construct_cpsat

        log_path = str(log_dir / "cpsat.log") if (log_dir is not None and cfg.cpsat.log) else None
        board, details = construct_cpsat(puzzle, cfg.cpsat, rng, deadline_s, log_path, stop_requested)
        info.update(details)
    info["score"] = score(puzzle, board)
    info["seconds"] = round(time.perf_counter() - start, 3)
    return board, info
