"""Links to the community viewer e2.bucas.name (jfbucas/eternityII-viewer) that show a board.

The viewer reads ``name=value`` pairs split on ``&`` from the query and the hash, without URL-decoding:
``board_w`` (columns), ``board_h`` (rows), ``board_edges`` (4 letters per cell, row-major from the top
left, up/right/down/left as placed, letter 'a' + colour, 'a' grey) and optionally ``board_pieces``
(3 decimal digits per cell, 1-based piece number). For the official set the letters are the official
colour ids and ``board_pieces`` the official numbers, so the viewer recognises the set, checks the centre
clue and scores the board; any other puzzle is drawn with its own ids (dense ids when they pass 'z').
"""

from __future__ import annotations

import re

from ..board import Board
from ..puzzle import Puzzle
from .common import letters_map, placed_letters
from .official import official_numbering

VIEWER = "https://e2.bucas.name/#"


def url_name(name: str) -> str:
    """The puzzle name as the viewer can carry it: letters, digits and underscores only."""
    return re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_") or "e2opt"


def board_edges(puzzle: Puzzle, board: Board) -> str | None:
    """The ``board_edges`` value of a board, or None when it cannot be written (colours, bad cells)."""
    letters = letters_map(puzzle)
    n = len(puzzle.pieces)
    if letters is None or board.piece.min() < 0 or board.piece.max() >= n:
        return None
    rows, cols = board.shape
    return "".join(
        placed_letters(puzzle, letters, int(board.piece[r, c]), int(board.rot[r, c]))
        for r in range(rows)
        for c in range(cols)
    )


def viewer_url(puzzle: Puzzle, board: Board) -> str | None:
    """The viewer link of ``board``; None when the puzzle's colours do not fit the viewer's letters."""
    edges = board_edges(puzzle, board)
    if edges is None:
        return None
    rows, cols = board.shape
    params = [f"puzzle={url_name(puzzle.name)}", f"board_w={cols}", f"board_h={rows}", f"board_edges={edges}"]
    official = official_numbering(puzzle)
    if official is not None and board.shape == (16, 16):
        numbers = (official.number[int(p)] + 1 for p in board.piece.ravel())
        params.append("board_pieces=" + "".join(f"{n:03d}" for n in numbers))
    params.append("show_conflicts=1")
    return VIEWER + "&".join(params)
