"""Dave Clark's sample puzzles and solutions (eternity2.net, 2007; the groups.io "Sample Puzzles" files).

No full specification was found in public code; this is the reading e2opt implements (docs/formats.md):
a puzzle file is a header ``width height borders`` and then one line ``left top right bottom`` per piece
(0 grey), pieces numbered 1.. in file order. What ``borders`` counts is not documented anywhere found:
e2opt writes the number of colours besides grey there and reads any number (it is not needed). The format has no hints. A solution file has one line
``piece x y orientation`` per cell: the 1-based piece, x the 1-based column from the left, y the 1-based
row from the top (as the eternity2.net-era status and hint files count), orientation the clockwise quarter
turns (0-3) from the piece as listed.
"""

from __future__ import annotations

import numpy as np

from ..board import Board
from ..errors import BoardError
from ..puzzle import Puzzle
from .common import board_number, cells_once, content_lines, no_hints, parse_width_first

SIDES = ("left", "top", "right", "bottom")


def looks_like(lines: list[tuple[int, str]]) -> bool:
    """Three numbers on the first line, four on the second."""
    return len(lines) >= 2 and len(lines[0][1].split()) == 3 and len(lines[1][1].split()) == 4


def looks_like_solution(lines: list[tuple[int, str]]) -> bool:
    """Lines of four numbers from the first on."""
    return bool(lines) and all(
        len(t) == 4 and all(x.isdigit() for x in t) for t in (ln.split() for _, ln in lines[:2])
    )


def parse(text: str, path: str) -> Puzzle:
    """Read a sample puzzle; PuzzleError names the line of anything wrong."""
    return parse_width_first(text, path, "width height borders", SIDES)


def format_puzzle(puzzle: Puzzle) -> str:
    """The sample-puzzle text; E2optError when the puzzle has hints (the format has none)."""
    no_hints(puzzle, "Dave Clark's sample puzzle")
    used = len(set(puzzle.pieces.ravel().tolist()) - {0})
    out = [f"{puzzle.cols} {puzzle.rows} {used}"]
    for p in range(len(puzzle.pieces)):
        t, r, b, left = (puzzle.user_colour(int(c)) for c in puzzle.pieces[p])
        out.append(f"{left} {t} {r} {b}")
    return "\n".join(out) + "\n"


def parse_solution(text: str, path: str, puzzle: Puzzle) -> Board:
    """Read a solution: one ``piece x y orientation`` line per cell of the puzzle's board."""
    lines = content_lines(text)
    rows, cols, n = puzzle.rows, puzzle.cols, len(puzzle.pieces)
    if len(lines) != rows * cols:
        where = lines[-1][0] if lines else 1
        raise BoardError(
            f"{path}, line {where}: a {rows}x{cols} solution has {rows * cols} lines, found {len(lines)}"
        )
    piece = np.empty((rows, cols), dtype=np.int64)
    rot = np.empty((rows, cols), dtype=np.int64)
    cells: dict[tuple[int, int], int] = {}
    for no, line in lines:
        tokens = line.split()
        if len(tokens) != 4:
            raise BoardError(
                f"{path}, line {no}: a solution line is 'piece x y orientation', got {len(tokens)} tokens"
            )
        number, x, y, turns = (
            board_number(t, path, no, w)
            for t, w in zip(tokens, ("piece", "x", "y", "orientation"), strict=True)
        )
        if not 1 <= number <= n:
            raise BoardError(f"{path}, line {no}: piece {number} does not exist (pieces are 1..{n})")
        if turns > 3:
            raise BoardError(f"{path}, line {no}: orientation {turns} is not 0..3")
        cells_once(path, cells, (y - 1, x - 1), no, rows, cols)
        piece[y - 1, x - 1], rot[y - 1, x - 1] = number - 1, turns
    return Board(piece, rot)


def format_solution(puzzle: Puzzle, board: Board) -> str:
    """One ``piece x y orientation`` line per cell, row by row from the top left."""
    rows, cols = board.shape
    return "".join(
        f"{int(board.piece[r, c]) + 1} {c + 1} {r + 1} {int(board.rot[r, c])}\n"
        for r in range(rows)
        for c in range(cols)
    )
