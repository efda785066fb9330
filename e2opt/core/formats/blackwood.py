"""Joshua Blackwood's board text (jblackwood345/EternityII_Solver, ``Util.Save_Board``), which the viewer's
paste box also accepts.

One line per board row, top row first; per cell ``NNN/R``: the 1-based piece number right-aligned in three
characters, a slash and the clockwise quarter turns R, each cell followed by a space (``---/-`` is an empty
cell, which e2opt boards never have). A blank line and a viewer link may follow. For the official set
N is the official number and R counts from the official orientation; otherwise N is the puzzle's file order
and R counts from the orientation in the puzzle file.
"""

from __future__ import annotations

import re

import numpy as np

from ..board import Board
from ..errors import BoardError
from ..puzzle import Puzzle
from .common import cell_error, content_lines
from .official import numbering
from .viewer import viewer_url

CELL = re.compile(r"(\d+|-+)/(\d+|-)")


def looks_like(lines: list[tuple[int, str]]) -> bool:
    """The first line is a row of ``N/R`` cells."""
    return bool(lines) and all(CELL.fullmatch(t) for t in lines[0][1].split())


def parse(text: str, path: str, puzzle: Puzzle) -> Board:
    """Read the board text; BoardError names the line of anything that is not a complete grid."""
    lines = content_lines(text, comments=False)
    grid: list[tuple[int, list[str]]] = []
    for no, line in lines:
        if line.startswith("http"):
            break
        grid.append((no, line.split()))
    else:
        no = None
    if no is not None and lines[-1][0] != no:
        raise cell_error(path, lines[-1][0], "text after the viewer link")
    if not grid:
        raise BoardError(f"{path}, line 1: no board rows 'NNN/R' (the file is empty)")
    names = numbering(puzzle)
    cols = len(grid[0][1])
    if cols != puzzle.cols:
        raise cell_error(
            path, grid[0][0], f"{cols} cells in the first row, the puzzle's rows have {puzzle.cols}"
        )
    if len(grid) != puzzle.rows:
        last = grid[min(len(grid), puzzle.rows + 1) - 1][0]
        raise cell_error(path, last, f"{len(grid)} rows of cells, the puzzle has {puzzle.rows}")
    piece = np.empty((len(grid), cols), dtype=np.int64)
    rot = np.empty((len(grid), cols), dtype=np.int64)
    for r, (no, tokens) in enumerate(grid):
        if len(tokens) != cols:
            raise cell_error(path, no, f"expected {cols} cells like the first row, got {len(tokens)}")
        for c, token in enumerate(tokens):
            match = CELL.fullmatch(token)
            if match is None:
                raise cell_error(path, no, f"'{token[:20]}' is not a cell 'NNN/R'")
            if not match.group(1).isdigit() or not match.group(2).isdigit():
                raise cell_error(path, no, f"cell {c + 1} is empty ('{token}'): e2opt boards are complete")
            number, turns = int(match.group(1)), int(match.group(2))
            p = names.piece_of(number - 1)
            if p is None:
                raise cell_error(
                    path, no, f"piece {number} does not exist (pieces are 1..{len(puzzle.pieces)})"
                )
            if turns > 3:
                raise cell_error(path, no, f"rotation {turns} of piece {number} is not 0..3")
            piece[r, c], rot[r, c] = p, (turns + names.turn[p]) % 4
    return Board(piece, rot)


def format_board(puzzle: Puzzle, board: Board) -> str:
    """The board text, then a blank line and the viewer link when there is one."""
    names = numbering(puzzle)
    rows, cols = board.shape
    out = []
    for r in range(rows):
        cells = []
        for c in range(cols):
            p, k = int(board.piece[r, c]), int(board.rot[r, c])
            cells.append(f"{names.number[p] + 1:>3}/{(k - names.turn[p]) % 4} ")
        out.append("".join(cells))
    url = viewer_url(puzzle, board)
    return "\n".join(out) + "\n" + (f"\n{url}\n" if url else "")
