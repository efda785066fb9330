"""Turn symmetry of hint-free puzzles (paper 003: break it with few constraints, count it back exactly).

Turning a perfect board of a hint-free puzzle gives another perfect board: 4 turns on a square board,
2 (half turns) on others. The lowest-numbered corner piece sits in a different corner in each turned
copy, so holding it top-left (square) or in the top row (other boards) keeps exactly one board of
each orbit, and every orbit has the full size: counts are exact multiples.
"""

from __future__ import annotations

from ..core.board import Board
from ..core.puzzle import Puzzle


def rotation_group(puzzle: Puzzle) -> int:
    """How many turned copies of a perfect board are perfect boards: 1 with hints, else 4 or 2."""
    if puzzle.hints:
        return 1
    return 4 if puzzle.rows == puzzle.cols else 2


def turned(board: Board, quarter_turns: int) -> Board:
    """The whole board turned clockwise by ``quarter_turns`` (odd turns need a square board)."""
    piece, rot = board.piece, board.rot
    for _ in range(quarter_turns % 4):
        piece, rot = piece[::-1].T, (rot[::-1].T + 1) % 4
    return Board(piece.copy(), rot.copy())


def orbit(board: Board, group: int) -> list[Board]:
    """The board and its turned copies that are also solutions (group 1, 2 or 4)."""
    step = 4 // group
    return [turned(board, k * step) for k in range(group)]
