"""Brendan Owen's benchmark piece and solution files (sets 1 and 2; david3x3x3/eternity2
``python/pieces_set_1``, jfbucas/eternityII-viewer ``data/brendan``).

A piece file is a header ``width height`` and one line ``up right down left`` per piece (0 grey), pieces
numbered 0.. in file order; there are no hints. A solution file repeats the header and then has line i for
piece i: ``x y rot``, x the column from the left and y the row counted from the bottom (both 0-based), rot
the clockwise quarter turns (this reading makes all 171 set-1 solutions score full: instances/README.md).
A piece file differs from an e2opt puzzle file only by its header's order (width first), so content cannot
tell them apart: name it with ``--from brendan`` (square puzzles read the same either way).
"""

from __future__ import annotations

import numpy as np

from ..board import Board
from ..errors import BoardError, E2optError
from ..puzzle import Puzzle
from .common import board_number, cells_once, content_lines, no_hints, parse_width_first

SIDES = ("top", "right", "bottom", "left")


def looks_like_solution(lines: list[tuple[int, str]]) -> bool:
    """A two-number header, then lines of three numbers."""
    if len(lines) < 2:
        return False
    head, first = lines[0][1].split(), lines[1][1].split()
    return len(head) == 2 and len(first) == 3 and all(t.isdigit() for t in head + first)


def parse(text: str, path: str) -> Puzzle:
    """Read a piece file; PuzzleError names the line of anything wrong."""
    return parse_width_first(text, path, "width height", SIDES)


def format_puzzle(puzzle: Puzzle) -> str:
    """The piece file; E2optError when the puzzle has hints."""
    no_hints(puzzle, "Brendan Owen's piece")
    out = [f"{puzzle.cols} {puzzle.rows}"]
    out += [" ".join(str(puzzle.user_colour(int(c))) for c in sides) for sides in puzzle.pieces]
    return "\n".join(out) + "\n"


def parse_solution(text: str, path: str, puzzle: Puzzle) -> Board:
    """Read a solution file: its header must give the puzzle's size, then one line per piece."""
    lines = content_lines(text)
    if not lines:
        raise BoardError(f"{path}, line 1: missing header 'width height' (the file is empty)")
    no, head = lines[0]
    tokens = head.split()
    if len(tokens) != 2:
        raise BoardError(f"{path}, line {no}: bad header: expected 'width height', got {len(tokens)} tokens")
    width, height = (board_number(t, path, no, "bad header") for t in tokens)
    rows, cols, n = puzzle.rows, puzzle.cols, len(puzzle.pieces)
    if (height, width) != (rows, cols):
        raise BoardError(
            f"{path}, line {no}: header {width} {height} is not the puzzle's {cols} {rows} (width height)"
        )
    if len(lines) - 1 != n:
        where = lines[-1][0]
        raise BoardError(
            f"{path}, line {where}: a solution has one line per piece ({n}), found {len(lines) - 1}"
        )
    piece = np.empty((rows, cols), dtype=np.int64)
    rot = np.empty((rows, cols), dtype=np.int64)
    cells: dict[tuple[int, int], int] = {}
    for p, (no, line) in enumerate(lines[1:]):
        tokens = line.split()
        if len(tokens) != 3:
            raise BoardError(f"{path}, line {no}: a solution line is 'x y rot', got {len(tokens)} tokens")
        x, y, turns = (board_number(t, path, no, w) for t, w in zip(tokens, ("x", "y", "rot"), strict=True))
        if turns > 3:
            raise BoardError(f"{path}, line {no}: rot {turns} is not 0..3")
        if x >= cols or y >= rows:
            raise BoardError(
                f"{path}, line {no}: x {x} y {y} is off the {cols}x{rows} (width x height) board"
            )
        cells_once(path, cells, (rows - 1 - y, x), no, rows, cols)
        piece[rows - 1 - y, x], rot[rows - 1 - y, x] = p, turns
    return Board(piece, rot)


def format_solution(puzzle: Puzzle, board: Board) -> str:
    """The solution file; E2optError unless every piece is on the board exactly once."""
    rows, cols = board.shape
    where: dict[int, tuple[int, int]] = {}
    for r in range(rows):
        for c in range(cols):
            where.setdefault(int(board.piece[r, c]), (r, c))
    if sorted(where) != list(range(len(puzzle.pieces))) or len(where) != rows * cols:
        raise E2optError("Brendan Owen's solution files need every piece on the board exactly once")
    out = [f"{cols} {rows}"]
    for p in range(len(puzzle.pieces)):
        r, c = where[p]
        out.append(f"{c} {rows - 1 - r} {int(board.rot[r, c])}")
    return "\n".join(out) + "\n"
