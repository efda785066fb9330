"""Reading puzzle and board files in any format e2opt reads: the readers every command and run use.

They sit above the formats (which build core's ``Puzzle`` and ``Board``), so puzzle.py and board.py keep
only the types and e2opt's own text format, and no import runs back from them to the formats.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from ..board import Board, parse_board
from ..errors import BoardError, PuzzleError
from ..fsutil import UnreadableFile, read_user_text
from ..puzzle import PUZZLE_LIMIT_MB, Puzzle
from .detect import parse_any_board, parse_any_puzzle


def read_puzzle(path: str | os.PathLike) -> Puzzle:
    """Read and validate a puzzle file in any format e2opt reads (formats/: detected from the content);
    raise PuzzleError naming the file and line."""
    path = str(path)
    try:
        text = read_user_text(path, PUZZLE_LIMIT_MB)
    except UnreadableFile as exc:
        raise PuzzleError(path, None, str(exc)) from None
    return parse_any_puzzle(text, path)


def read_puzzle_cached(path: str | os.PathLike) -> Puzzle:
    """read_puzzle, once per file version in a process: config checks of a sweep's runs share one read."""
    stat = Path(path).stat() if Path(path).is_file() else None
    return _read_cached(str(path), stat.st_mtime_ns if stat else 0, stat.st_size if stat else 0)


@lru_cache(maxsize=8)
def _read_cached(path: str, mtime_ns: int, size: int) -> Puzzle:
    return read_puzzle(path)


def read_board(path: str | os.PathLike, puzzle: Puzzle | None = None) -> Board:
    """Read a .board file; with the puzzle, any board format e2opt reads (formats/: detected from the
    content); raise BoardError on a missing or malformed file."""
    try:
        text = read_user_text(path, PUZZLE_LIMIT_MB)
    except UnreadableFile as exc:
        raise BoardError(f"{path}: cannot read board file: {exc}") from None
    if puzzle is not None:
        return parse_any_board(text, str(path), puzzle)
    return parse_board(text, str(path))
