"""Look-ahead beside the hints: a placement is refused when it leaves a later cell next to a hint without any
free piece, so that the search does not fill every cell in between before it finds out.

A cell e next to a hint where no break is allowed (the schedule's allowance or the per-placement cap below 1
at its depth) must match the hint exactly. For each other placed neighbour of e placed at a depth k before
e - 1, the kernel checks at depth k, for each candidate, that some free piece other than the candidate's
fits e's rim, every hint beside e and the candidate's side facing e. Without the check, chronological
backtracking fills every depth between k and e first (on a 16x16 board in row order, a row), and the whole
subtree of those depths holds no placement at e or beyond. The check removes only such subtrees: every
placement at depth e or deeper is made in the same order as without it (docs/dfs.md "Look-ahead beside the
hints").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.puzzle import Puzzle
from ...fill.order import FillOrder
from ...fill.tables import fitting


@dataclass(frozen=True, eq=False)
class Looks:
    """The checks by depth (CSR ``start``: depth d's are ``start[d]:start[d + 1]``), each with the shift of the
    candidate's side facing the later cell in its packed colours (``shift``) and, per colour c shown there,
    the later cell's placements that fit it: ``codes[off[i * colours + c]:off[i * colours + c + 1]]``."""

    start: np.ndarray
    shift: np.ndarray
    off: np.ndarray
    codes: np.ndarray


def build_looks(puzzle: Puzzle, order: FillOrder, allow: np.ndarray, cap: np.ndarray) -> Looks:
    """The checks of the module docstring for ``order`` under the per-depth ``allow`` and ``cap``."""
    m, colours = order.depth, puzzle.n_colours
    ocol = np.ascontiguousarray(puzzle.oriented.reshape(-1, 4))
    hint_code = {h.row * puzzle.cols + h.col: h.piece * 4 + h.rot for h in puzzle.hints}
    hinted = {h.piece for h in puzzle.hints}
    free = np.array([p for p in range(len(puzzle.pieces)) if p not in hinted], dtype=np.int64)
    at = {int(cell): d for d, cell in enumerate(order.cells)}
    by_depth: list[list[tuple[int, list[np.ndarray]]]] = [[] for _ in range(m)]
    for e in range(m):
        if allow[e] >= 1 and cap[e] >= 1:
            continue  # a break may be spent at e: it need not match the hint
        sides = [(s, int(order.nbr[e, s])) for s in range(4) if order.nbr[e, s] >= 0]
        fixed = [(s, int(ocol[hint_code[n], (s + 2) & 3])) for s, n in sides if n in hint_code]
        if not fixed:
            continue
        codes = fitting(ocol, int(order.rim[e]), free)
        for s, colour in fixed:
            codes = codes[ocol[codes, s] == colour]
        for s, n in sides:
            k = at.get(n, m)
            if k < e - 1:
                by_depth[k].append((8 * ((s + 2) & 3), [codes[ocol[codes, s] == c] for c in range(colours)]))
    looks = [look for d in range(m) for look in by_depth[d]]
    start = np.concatenate([[0], np.cumsum([len(x) for x in by_depth])]).astype(np.int64)
    lists = [lst for _, per_colour in looks for lst in per_colour]
    off = np.concatenate([[0], np.cumsum([len(x) for x in lists])]).astype(np.int64)
    return Looks(
        start,
        np.array([shift for shift, _ in looks], dtype=np.int64),
        off,
        np.concatenate(lists).astype(np.int64) if lists else np.zeros(0, dtype=np.int64),
    )
