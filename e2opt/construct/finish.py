"""Finishing a partial board: its empty cells filled with the pieces left, before the search starts.

Pairwise non-adjacent empty cells are filled exactly by one assignment (paper 001's move: each left piece
in each empty cell at its best rotation, maximum total joins). Otherwise the partial board is completed by
a beam from its depth (the placements so far kept, the remaining cells filled along the fill order) and,
given CPU seconds for it, by the CP-SAT region model placing the left pieces on the empty cells; the
better of the two is kept.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..core.board import Board
from ..core.puzzle import Puzzle
from ..fill.assignment import FORBIDDEN, best_fit, neighbour_colours


def placed_joins(puzzle: Puzzle, board: Board) -> int:
    """Matched joins between two placed cells of a partial board (empty cells are -1)."""
    col = puzzle.oriented[board.piece, board.rot % 4]
    full = board.piece >= 0
    h = full[:, :-1] & full[:, 1:] & (col[:, :-1, 1] == col[:, 1:, 3])
    v = full[:-1, :] & full[1:, :] & (col[:-1, :, 2] == col[1:, :, 0])
    return int(h.sum() + v.sum())


def non_adjacent(cells: list[tuple[int, int]]) -> bool:
    """True when no two of the cells share an edge."""
    seen = set(cells)
    return not any((r + 1, c) in seen or (r, c + 1) in seen for r, c in cells)


def fill_by_assignment(puzzle: Puzzle, board: Board, cells: list[tuple[int, int]]) -> Board:
    """The left pieces put into the non-adjacent empty ``cells`` by one maximum-joins assignment."""
    placed = set(int(p) for p in board.piece.ravel() if p >= 0)
    left = [p for p in range(len(puzzle.pieces)) if p not in placed]
    weights = np.full((len(cells), len(left)), FORBIDDEN, dtype=np.int64)
    rots = np.zeros_like(weights)
    for i, (r, c) in enumerate(cells):
        need = neighbour_colours(puzzle, board, r, c)
        for j, p in enumerate(left):
            weights[i, j], rots[i, j] = best_fit(puzzle, p, need, r, c)
    rows, cols = linear_sum_assignment(np.where(weights == FORBIDDEN, 1_000_000, -weights))
    out = board.copy()
    for i, j in zip(rows, cols, strict=True):
        r, c = cells[i]
        out.piece[r, c], out.rot[r, c] = left[j], rots[i, j]
    return out


def fill_by_cpsat(
    puzzle: Puzzle, board: Board, cells: list[tuple[int, int]], cpu_s: float, seed: int
) -> Board | None:
    """The left pieces placed on the empty ``cells`` by the CP-SAT region model (one worker); None if none found."""
    from ..cpsat.region_model import solve_region  # ortools loads only when a finish needs it

    left = np.setdiff1d(np.arange(len(puzzle.pieces)), board.piece[board.piece >= 0])
    sol = solve_region(
        puzzle,
        board,
        cells,
        pieces=left,
        time_limit_s=cpu_s,
        seed=seed,
        num_workers=1,
        deterministic_time=cpu_s / 2,
    )
    if sol.joins < 0:
        return None
    out = board.copy()
    for (r, c), p, k in zip(cells, sol.piece, sol.rot, strict=True):
        out.piece[r, c], out.rot[r, c] = p, k
    return out
