"""Which format a puzzle or board file is in (from its content, or named), and the reader and writer of
each: the one place the format modules are listed."""

from __future__ import annotations

import os
from collections.abc import Callable

from ..board import Board, format_board, parse_board
from ..errors import BoardError, E2optError, PuzzleError
from ..fsutil import UnreadableFile, read_user_text
from ..puzzle import PUZZLE_LIMIT_MB, Puzzle, format_puzzle, parse_puzzle
from . import anjou, blackwood, brendan, clark, csvfmt, viewer
from .common import content_lines

NATIVE = "e2opt"
PUZZLE_READERS: dict[str, Callable[[str, str], Puzzle]] = {
    NATIVE: parse_puzzle,
    "csv": csvfmt.parse,
    "clark": clark.parse,
    "brendan": brendan.parse,
}
PUZZLE_WRITERS: dict[str, Callable[[Puzzle], str]] = {
    NATIVE: format_puzzle,
    "csv": csvfmt.format_puzzle,
    "clark": clark.format_puzzle,
    "brendan": brendan.format_puzzle,
}
BOARD_READERS: dict[str, Callable[[str, str, Puzzle], Board]] = {
    NATIVE: lambda text, path, puzzle: parse_board(text, path),
    "blackwood": blackwood.parse,
    "anjou": anjou.parse,
    "clark": clark.parse_solution,
    "brendan": brendan.parse_solution,
    "url": viewer.parse_link,
}
BOARD_WRITERS: dict[str, Callable[[Puzzle, Board], str]] = {
    NATIVE: lambda puzzle, board: format_board(board),
    "blackwood": blackwood.format_board,
    "anjou": anjou.format_board,
    "clark": clark.format_solution,
    "brendan": brendan.format_solution,
    "url": lambda puzzle, board: _url(puzzle, board) + "\n",
}


def _url(puzzle: Puzzle, board: Board) -> str:
    url = viewer.viewer_url(puzzle, board)
    if url is None:
        raise E2optError(
            f"{puzzle.name}: no viewer link: the puzzle has more colours than the viewer's 26 letters"
        )
    return url


def puzzle_format(text: str) -> str:
    """The puzzle format of ``text``: csv, clark, else e2opt (whose parser then names what is wrong).
    Brendan Owen's piece files read as e2opt's (only the header order differs): name them."""
    lines = content_lines(text, comments=False)
    if csvfmt.looks_like(lines):
        return "csv"
    if clark.looks_like(content_lines(text)):
        return "clark"
    return NATIVE


def board_format(text: str) -> str:
    """The board format of ``text``: anjou JSON, a viewer link, Blackwood text, Brendan or Clark solution,
    else e2opt."""
    if anjou.looks_like(text):
        return "anjou"
    if viewer.looks_like(text) and not blackwood.looks_like(content_lines(text, comments=False)):
        return "url"
    lines = content_lines(text, comments=False)
    if blackwood.looks_like(lines):
        return "blackwood"
    lines = content_lines(text)
    if brendan.looks_like_solution(lines):
        return "brendan"
    if clark.looks_like_solution(lines):
        return "clark"
    return NATIVE


def parse_any_puzzle(text: str, path: str, fmt: str | None = None) -> Puzzle:
    """The puzzle in ``text``, in format ``fmt`` or the one its content shows."""
    return PUZZLE_READERS[fmt or puzzle_format(text)](text, path)


def parse_any_board(text: str, path: str, puzzle: Puzzle, fmt: str | None = None) -> Board:
    """The board in ``text`` for ``puzzle``, in format ``fmt`` or the one its content shows."""
    return BOARD_READERS[fmt or board_format(text)](text, path, puzzle)


def read_text(path: str | os.PathLike, board: bool) -> str:
    """A user's puzzle or board file as text, or the one-line error naming it."""
    try:
        return read_user_text(path, PUZZLE_LIMIT_MB)
    except UnreadableFile as exc:
        if board:
            raise BoardError(f"{path}: cannot read board file: {exc}") from None
        raise PuzzleError(str(path), None, str(exc)) from None


def verifier_puzzle_text(puzzle_path: str) -> str:
    """The puzzle as e2opt-format text for the independent verifier: the file's own text when it is
    e2opt's format, else the puzzle read from its format and written in e2opt's."""
    text = read_text(puzzle_path, board=False)
    if puzzle_format(text) == NATIVE:
        return text
    return format_puzzle(parse_any_puzzle(text, puzzle_path))


def verifier_texts(puzzle_path: str, board_path: str) -> tuple[str, str] | None:
    """e2opt-format texts of a puzzle and board given in other formats, for the independent verifier;
    None when both files are e2opt's own (the verifier then reads them as they are)."""
    puzzle_text = read_text(puzzle_path, board=False)
    board_text = read_text(board_path, board=True)
    if puzzle_format(puzzle_text) == NATIVE and board_format(board_text) == NATIVE:
        return None
    puzzle = parse_any_puzzle(puzzle_text, puzzle_path)
    board = parse_any_board(board_text, board_path, puzzle)
    return format_puzzle(puzzle), format_board(board)
