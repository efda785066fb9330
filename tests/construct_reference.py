"""Slow, obvious references for the beam: the best-gain placements and the brute-force best board."""

from __future__ import annotations

import itertools

import numpy as np

from e2opt.core.board import Board, score
from e2opt.core.puzzle import Puzzle
from e2opt.fill.order import DC, DR, FillOrder


def best_gain_codes(puzzle: Puzzle, order: FillOrder, placed: list[int], d: int) -> tuple[int, set[int]]:
    """(best gain, placements reaching it) at depth d after the placements ``placed`` (codes by depth)."""
    cols = puzzle.cols
    board = {h.row * cols + h.col: (h.piece, h.rot) for h in puzzle.hints}
    board.update({int(order.cells[i]): (code // 4, code % 4) for i, code in enumerate(placed)})
    used = {p for p, _ in board.values()}
    r, c = divmod(int(order.cells[d]), cols)
    best, codes = -1, set()
    for p in range(len(puzzle.pieces)):
        if p in used:
            continue
        for rot in puzzle.valid_rotations(p, r, c):
            mine = puzzle.oriented[p, rot]
            gain = 0
            for s in range(4):
                rr, cc = r + DR[s], c + DC[s]
                if (rr * cols + cc) in board and 0 <= rr < puzzle.rows and 0 <= cc < cols:
                    q, k = board[rr * cols + cc]
                    gain += int(mine[s] == puzzle.oriented[q, k][(s + 2) % 4])
            if gain > best:
                best, codes = gain, set()
            if gain == best:
                codes.add(p * 4 + rot)
    return best, codes


def brute_force_best(puzzle: Puzzle) -> int:
    """The best score of a 3x3 puzzle without hints, over every arrangement (rim rotations forced)."""
    corners = [(0, 0), (0, 2), (2, 2), (2, 0)]
    edges = [(0, 1), (1, 2), (2, 1), (1, 0)]
    by_kind = {k: [p for p in range(9) if puzzle.kinds[p] == k] for k in range(3)}
    best = -1
    for cp in itertools.permutations(by_kind[0]):
        for ep in itertools.permutations(by_kind[1]):
            piece = np.zeros((3, 3), dtype=np.int64)
            rot = np.zeros((3, 3), dtype=np.int64)
            for (r, c), p in zip(corners + edges, cp + ep, strict=True):
                piece[r, c], rot[r, c] = p, puzzle.valid_rotations(p, r, c)[0]
            piece[1, 1] = by_kind[2][0]
            for k in range(4):
                rot[1, 1] = k
                best = max(best, score(puzzle, Board(piece, rot)))
    return best
