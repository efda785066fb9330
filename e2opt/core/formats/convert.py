"""``e2opt convert``: a puzzle or a board from one format to another, every puzzle checked on the way."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..board import Board
from ..errors import E2optError
from ..puzzle import Puzzle
from .detect import (
    BOARD_READERS,
    BOARD_WRITERS,
    PUZZLE_READERS,
    PUZZLE_WRITERS,
    parse_any_board,
    parse_any_puzzle,
    read_text,
)

BY_SUFFIX = {".csv": "csv", ".json": "anjou", ".board": "e2opt"}


def _target(to: str | None, output: str | None, writers: dict, kind: str) -> str:
    """The output format: --to, else the output file's extension when it names one for this kind."""
    if to is None and output is not None:
        to = BY_SUFFIX.get(Path(output).suffix.lower())
    if to is None:
        raise E2optError(f"convert: give --to, one of the {kind} formats {', '.join(writers)}")
    if to not in writers:
        raise E2optError(f"convert: --to {to} is not a {kind} format; {kind} formats: {', '.join(writers)}")
    return to


def _check_source(fmt: str | None, readers: dict, kind: str) -> None:
    if fmt is not None and fmt not in readers:
        raise E2optError(
            f"convert: --from {fmt} is not a {kind} format; {kind} formats: {', '.join(readers)}"
        )


def _in_range(puzzle: Puzzle, board: Board, path: str) -> None:
    """E2optError naming the first cell whose piece the puzzle has not (other formats cannot say it)."""
    n = len(puzzle.pieces)
    for (r, c), p in np.ndenumerate(board.piece):
        if not 0 <= p < n:
            raise E2optError(f"{path}: cell ({r},{c}): piece {p} does not exist (pieces are 0..{n - 1})")


def convert(source: str, fmt: str | None, to: str | None, output: str | None, puzzle_path: str | None) -> str:
    """The converted text (a board when ``puzzle_path`` is given, else a puzzle)."""
    if puzzle_path is None:
        _check_source(fmt, PUZZLE_READERS, "puzzle")
        target = _target(to, output, PUZZLE_WRITERS, "puzzle")
        puzzle = parse_any_puzzle(read_text(source, board=False), source, fmt)
        return PUZZLE_WRITERS[target](puzzle)
    _check_source(fmt, BOARD_READERS, "board")
    target = _target(to, output, BOARD_WRITERS, "board")
    puzzle = parse_any_puzzle(read_text(puzzle_path, board=False), puzzle_path)
    board = parse_any_board(read_text(source, board=True), source, puzzle, fmt)
    _in_range(puzzle, board, source)
    return BOARD_WRITERS[target](puzzle, board)
