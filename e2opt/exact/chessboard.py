"""The chessboard scheme of paper 001 section 5: place only the black cells, complete the white ones.

The kernel searches over the black cells (row + col even) and rejects a placement as soon as a white
cell with all neighbours placed has no unused tile that fits. At each complete black placement the
white cells, pairwise non-adjacent, are refilled by the assignment move (fill/assignment.py): a
perfect board with these black cells exists iff the assignment reaches the full score. Only then are
the perfect completions enumerated (all, or the first), honouring the symmetry-breaking rule.
"""

from __future__ import annotations

import numpy as np

from ..core.board import Board, score
from ..core.puzzle import Puzzle
from ..fill.assignment import reassign


def _fill_arbitrarily(puzzle: Puzzle, board: Board, whites: list[tuple[int, int]]) -> Board:
    """The board with the unused tiles dropped into the white cells, kind by kind (rotations ignored)."""
    out = board.copy()
    used = set(int(p) for p in board.piece.ravel() if p >= 0)
    free = {kind: [t for t in np.flatnonzero(puzzle.kinds == kind) if t not in used] for kind in range(3)}
    for r, c in whites:
        out.piece[r, c] = free[puzzle.cell_kind(r, c)].pop()
        out.rot[r, c] = 0
    return out


def _options(
    puzzle: Puzzle, board: Board, forbid: np.ndarray, r: int, c: int, free: set[int]
) -> list[tuple[int, int]]:
    """(tile, rot) of free tiles that match every side of white cell (r, c): neighbours and rim."""
    col = board.colours(puzzle)
    need = []
    for dr, dc, side in ((-1, 0, 2), (0, 1, 3), (1, 0, 0), (0, -1, 1)):
        rr, cc = r + dr, c + dc
        need.append(int(col[rr, cc, side]) if 0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols else 0)
    cell = r * puzzle.cols + c
    return [
        (t, k)
        for t in sorted(free)
        if t != forbid[cell]
        for k in range(4)
        if [int(x) for x in puzzle.oriented[t, k]] == need
    ]


def complete(puzzle: Puzzle, board: Board, forbid: np.ndarray, find_all: bool) -> list[Board]:
    """Perfect completions of a board whose black cells are placed (empty cells hold -1)."""
    whites = [(int(r), int(c)) for r, c in zip(*np.nonzero(board.piece < 0), strict=True)]
    if score(puzzle, reassign(puzzle, _fill_arbitrarily(puzzle, board, whites), whites)) < puzzle.max_score:
        return []
    free = set(range(len(puzzle.pieces))) - set(int(p) for p in board.piece.ravel() if p >= 0)
    options = [_options(puzzle, board, forbid, r, c, free) for r, c in whites]
    out: list[Board] = []
    chosen: list[tuple[int, int]] = []
    used: set[int] = set()

    def extend(i: int) -> bool:
        """Depth-first over the white cells; True once the first completion is enough."""
        if i == len(whites):
            done = board.copy()
            for (r, c), (t, k) in zip(whites, chosen, strict=True):
                done.piece[r, c], done.rot[r, c] = t, k
            out.append(done)
            return not find_all
        for t, k in options[i]:
            if t not in used:
                used.add(t)
                chosen.append((t, k))
                stop = extend(i + 1)
                chosen.pop()
                used.discard(t)
                if stop:
                    return True
        return False

    extend(0)
    return out
