"""Slow, obvious references for the construction kernels: a recursive DFS and the best-gain placements."""

from __future__ import annotations

import contextlib
import itertools

import numpy as np

from e2opt.construct.order import DC, DR, FillOrder
from e2opt.core.board import Board, score
from e2opt.core.puzzle import Puzzle


class _Enough(Exception):
    """The reference DFS made the nodes it was asked for."""


def reference_dfs(
    puzzle: Puzzle, order: FillOrder, ex_start, off_start, cand, rules, max_nodes: int, two_start=None
):
    """Placements (depth, code) in the order a plain recursive DFS makes them, at most ``max_nodes``.

    Same rules as backtrack_kernel.dfs, written from its docstring: exact list first, then the one-off
    list when one more break is allowed at a non-frame cell with a key side, then (cap >= 2) the slot's
    rim-fitting list when two more breaks are allowed at a cell with two key sides, taking only the
    placements that miss both key colours; a placement has at most ``cap`` mismatched sides, stays
    within allow[d], never faces with a break a cell that touches an earlier break, keeps the quota.
    """
    allow, frame_ok, no_touch, qsides, qmin, _, _, cap = rules
    cols, colours = puzzle.cols, puzzle.n_colours
    ocol = puzzle.oriented.reshape(-1, 4)
    board = {h.row * cols + h.col: h.piece * 4 + h.rot for h in puzzle.hints}
    used = {h.piece for h in puzzle.hints}
    touch: dict[int, int] = {}
    visits: list[tuple[int, int]] = []

    def colour_facing(d: int, s: int) -> int:
        return int(ocol[board[int(order.nbr[d, s])], (s + 2) % 4])

    def mismatched_neighbours(d: int, code: int) -> list[int]:
        return [
            int(order.nbr[d, s])
            for s in range(4)
            if order.nbr[d, s] >= 0 and ocol[code, s] != colour_facing(d, s)
        ]

    def go(d: int, breaks: int, quota: int) -> None:
        if d == order.depth:
            raise _Enough
        k0, k1 = (int(k) for k in order.keys[d])
        c0 = colour_facing(d, k0) if k0 >= 0 else 0
        c1 = colour_facing(d, k1) if k1 >= 0 else 0
        bucket = (int(order.slot[d]) * colours + c0) * colours + c1
        lists = [(0, range(ex_start[bucket], ex_start[bucket + 1]))]
        if breaks < allow[d] and frame_ok[d] and k0 >= 0:
            lists.append((1, range(off_start[bucket], off_start[bucket + 1])))
            if cap >= 2 and breaks + 2 <= allow[d] and k1 >= 0:
                slot = int(order.slot[d])
                lists.append((2, range(two_start[slot], two_start[slot + 1])))
        for level, span in lists:
            for i in span:
                code = int(cand[i])
                if code // 4 in used:
                    continue
                if level == 2 and (ocol[code, k0] == c0 or ocol[code, k1] == c1):
                    continue
                bad = mismatched_neighbours(d, code)
                if len(bad) > cap or len(bad) < level:
                    continue
                if bad and (breaks + len(bad) > allow[d] or not frame_ok[d]):
                    continue
                if bad and no_touch and any(touch.get(b, 0) > 0 for b in bad):
                    continue
                if quota + qsides[code // 4] < qmin[d]:
                    continue
                cell = int(order.cells[d])
                board[cell], touch_cells = code, [cell, *bad] if bad else []
                used.add(code // 4)
                for t in touch_cells:
                    touch[t] = touch.get(t, 0) + 1
                visits.append((d, code))
                if len(visits) == max_nodes:
                    raise _Enough
                go(d + 1, breaks + len(bad), quota + int(qsides[code // 4]))
                for t in touch_cells:
                    touch[t] -= 1
                used.discard(code // 4)
                del board[cell]

    with contextlib.suppress(_Enough):
        go(0, 0, 0)
    return visits


def stack_after(visits: list[tuple[int, int]]) -> list[int]:
    """The placements on the board (codes by depth) after replaying the visits."""
    stack: list[int] = []
    for d, code in visits:
        del stack[d:]
        stack.append(code)
    return stack


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
