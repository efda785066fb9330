"""The assignment move of paper 001 section 3, written plainly (numpy + scipy).

Lift the pieces of a set of pairwise non-edge-adjacent holes and put them back optimally,
rotation included, by a maximum-weight assignment. This version is the readable reference:
the CP-SAT completion uses it directly and the numba kernels are tested against it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..core.board import Board
from ..core.puzzle import Puzzle

FORBIDDEN = -1  # weight of a piece that cannot sit in a hole (wrong kind or grey not to the rim)


def check_holes(puzzle: Puzzle, holes: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The holes as a list; ValueError if two share an edge, one is a hint or off the board."""
    holes = [(int(r), int(c)) for r, c in holes]
    hinted = puzzle.hint_map()
    seen = set(holes)
    if len(seen) != len(holes):
        raise ValueError("a hole is listed twice")
    for r, c in holes:
        if not (0 <= r < puzzle.rows and 0 <= c < puzzle.cols):
            raise ValueError(f"hole ({r},{c}) is off the board")
        if (r, c) in hinted:
            raise ValueError(f"hole ({r},{c}) is a hint cell")
        if (r + 1, c) in seen or (r, c + 1) in seen:
            raise ValueError(f"holes at ({r},{c}) and a neighbour share an edge")
    return holes


def neighbour_colours(puzzle: Puzzle, board: Board, r: int, c: int) -> list[int | None]:
    """For each side of (r, c): the colour the neighbour shows toward it, or None at the rim."""
    col = board.colours(puzzle)
    out: list[int | None] = []
    for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
        rr, cc = r + dr, c + dc
        inside = 0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols
        out.append(int(col[rr, cc, (side + 2) % 4]) if inside else None)
    return out


def best_fit(puzzle: Puzzle, piece: int, need: list[int | None], r: int, c: int) -> tuple[int, int]:
    """(weight, rotation) of piece at (r, c) against neighbour colours ``need``.

    (FORBIDDEN, -1) if it cannot fit there.

    Ties between rotations go to the lowest rotation.
    """
    best = (FORBIDDEN, -1)
    for rot in puzzle.valid_rotations(piece, r, c):
        sides = puzzle.oriented[piece, rot]
        w = sum(1 for s in range(4) if need[s] is not None and sides[s] == need[s])
        if w > best[0]:
            best = (w, rot)
    return best


def weight_matrix(
    puzzle: Puzzle, board: Board, holes: list[tuple[int, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """W[i, j], R[i, j]: weight and best rotation of the piece lifted from holes[j] put into holes[i]."""
    k = len(holes)
    weights = np.full((k, k), FORBIDDEN, dtype=np.int64)
    rots = np.full((k, k), -1, dtype=np.int64)
    pieces = [int(board.piece[r, c]) for r, c in holes]
    for i, (r, c) in enumerate(holes):
        need = neighbour_colours(puzzle, board, r, c)
        for j, p in enumerate(pieces):
            weights[i, j], rots[i, j] = best_fit(puzzle, p, need, r, c)
    return weights, rots


def reassign(puzzle: Puzzle, board: Board, holes: Iterable[tuple[int, int]]) -> Board:
    """A new board with the pieces of ``holes`` put back in the best way (score never drops)."""
    holes = check_holes(puzzle, holes)
    if not holes:
        return board.copy()
    weights, rots = weight_matrix(puzzle, board, holes)
    cost = np.where(weights == FORBIDDEN, 1_000_000, -weights).astype(np.float64)
    rows, cols = linear_sum_assignment(cost)
    out = board.copy()
    for i, j in zip(rows, cols, strict=True):
        r, c = holes[i]
        pr, pc = holes[j]
        out.piece[r, c] = board.piece[pr, pc]
        out.rot[r, c] = rots[i, j]
    return out
