"""Method ``scan``: a static-order depth-first search on the construction's candidate tables (numba).

Every cell of a fill order (construct/order.py) is looked up in tables keyed by its slot (which
sides face the rim, which two placed sides key it) and the two colours it must match
(construct/tables.py), so a candidate needs no check but "tile unused" (and the rare extra sides
next to a hint): the construction's kernel (construct/backtrack_kernel.py, no breaks allowed) runs
this about 11 times faster per node than the general kernel of dfs.py. Enumeration resumes the kernel
after each full board. Symmetry (symmetry.py) is broken by hints: the lowest corner piece fixed
top-left (square), or top-left then top-right in two parts (other boards: one board of each
half-turn orbit has that corner in the top row). ``restarts`` limited attempts with shuffled
candidate lists and Luby node limits come first; only the final unbounded run can make the search
complete.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board import Board
from ..construct import backtrack_kernel as k
from ..construct.backtrack import breaks_of
from ..construct.order import FillOrder, make_order
from ..construct.tables import build_tables
from ..puzzle import CORNER, Hint, Puzzle
from .dfs import BUDGET, DONE, SOLUTION

SCAN_ORDERS = {
    "short": "",
    "row": "row_scan",
    "column": "column_scan",
    "spiral": "spiral",
    "frame": "frame_first",
}
UNBOUNDED = 1 << 62


def luby(i: int) -> int:
    """The i-th term (1-based) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..."""
    size, power = 1, 0
    while size < i:
        power += 1
        size = 2 * size + 1
    while size != i:
        size = (size - 1) // 2
        power -= 1
        i = i - size if i > size else i
    return 1 << power


def order_name(puzzle: Puzzle, order: str) -> str:
    """The construction order for an exact ``--order`` name: ``short`` scans along the shorter side."""
    if order == "short":
        return "column_scan" if puzzle.cols > puzzle.rows else "row_scan"
    return SCAN_ORDERS[order]


def symmetry_parts(puzzle: Puzzle, symmetry: bool) -> list[Puzzle]:
    """The puzzles searched in turn: the puzzle itself, or copies with the lowest corner piece hinted."""
    if not symmetry or puzzle.hints:
        return [puzzle]
    first = int(np.flatnonzero(puzzle.kinds == CORNER)[0])
    cells = [(0, 0)] if puzzle.rows == puzzle.cols else [(0, 0), (0, puzzle.cols - 1)]
    return [
        Puzzle(
            puzzle.rows,
            puzzle.cols,
            puzzle.pieces,
            (Hint(first, r, c, puzzle.valid_rotations(first, r, c)[0]),),
            puzzle.name,
        )
        for r, c in cells
    ]


@dataclass
class _Part:
    """One puzzle of the search (see symmetry_parts) with its order, tables and kernel arrays."""

    puzzle: Puzzle
    order: FillOrder
    geo: tuple
    tab: tuple
    rules: tuple
    feasible: bool  # the hints agree with each other

    @classmethod
    def build(cls, puzzle: Puzzle, name: str) -> _Part:
        """Order, tables (compact dtypes, as the construction uses them) and rules with nothing relaxed."""
        order = make_order(puzzle, name)
        tables = build_tables(puzzle, order)
        start = tables.exact_start.astype(np.int32)
        cand = tables.exact.astype(np.int32)
        off = np.full_like(start, len(cand))  # no one-off candidates: no break is ever allowed
        tab = (tables.colours, tables.ocol.astype(np.uint8), start, off, cand)
        m, zero = order.depth, np.zeros(0, dtype=np.int64)
        no = np.zeros(m, dtype=np.int64)
        rules = (
            no,
            np.ones(m, dtype=np.bool_),
            False,
            np.zeros(len(puzzle.pieces), dtype=np.int64),
            no,
            zero,
            zero,
        )
        geo = (order.cells, order.nbr, order.keys, order.extras, order.slot)
        return cls(puzzle, order, geo, tab, rules, breaks_of(puzzle, order, zero) == 0)


class ScanSearch:
    """The scan method over its parts; ``step`` and the counters work as in search.KernelSearch."""

    def __init__(
        self,
        puzzle: Puzzle,
        order: str,
        symmetry: bool,
        shuffle: bool,
        seed: int,
        restarts: int = 0,
        restart_nodes: int = 100_000,
    ):
        self.puzzle = puzzle
        self.parts = [_Part.build(p, order_name(puzzle, order)) for p in symmetry_parts(puzzle, symmetry)]
        m = max(p.order.depth for p in self.parts)
        self.levels = m
        self.shuffle, self.restarts, self.restart_nodes = shuffle or restarts > 0, restarts, restart_nodes
        self.rng = np.array([np.random.default_rng(seed).integers(2**63)], dtype=np.uint64)
        self.stack = np.zeros((6, m + 1), dtype=np.int64)
        self.counters = np.zeros(4, dtype=np.int64)
        self.codes = np.full(puzzle.n_cells, -1, dtype=np.int64)
        self.used = np.zeros(len(puzzle.pieces), dtype=np.uint8)
        self.touch = np.zeros(puzzle.n_cells, dtype=np.int64)
        self.deepest = np.zeros(m + 1, dtype=np.int64)
        self.last = self.codes.copy()  # the last full board reached
        self.attempt = 0  # attempts started; the ones after ``restarts`` limited ones are the final run
        self.part = -1
        self.budget = UNBOUNDED
        self.scanning = False  # the current part runs the kernel (not a hint-only board)
        self.exhausted = self.resume = self.done = False
        self.closed_nodes = self.closed_backtracks = self.leaves = self.solutions = 0
        self._next()

    @property
    def final(self) -> bool:
        """True in the unbounded run, the only one whose end proves anything."""
        return self.attempt > self.restarts

    @property
    def nodes(self) -> int:
        return self.closed_nodes + int(self.counters[k.NODES])

    @property
    def backtracks(self) -> int:
        return self.closed_backtracks + self._given_up()

    @property
    def depth(self) -> int:
        return max(int(self.counters[k.DEPTH]), 0)

    def _given_up(self) -> int:
        """Levels of this attempt exhausted: opened (root + non-leaf placements) minus still open."""
        if not self.scanning:
            return 0
        still = (
            0 if self.exhausted else min(int(self.counters[k.DEPTH]) + 1, self.parts[self.part].order.depth)
        )
        return 1 + int(self.counters[k.NODES]) - self.leaves - still

    def _next(self) -> None:
        """Close the attempt and start the next (part, or restart); ``done`` once the final run is over."""
        self.closed_nodes, self.closed_backtracks = self.nodes, self.backtracks
        self.counters[:] = 0
        self.leaves = 0
        if self.final:
            self.part += 1
        else:
            self.attempt += 1
            self.part = 0 if self.final else (self.attempt - 1) % len(self.parts)
            self.budget = UNBOUNDED if self.final else luby(self.attempt) * self.restart_nodes
        self.scanning = self.exhausted = self.resume = False
        if self.part == len(self.parts):
            self.done = True
            return
        part = self.parts[self.part]
        self.codes[:] = -1
        self.used[:] = 0
        for h in part.puzzle.hints:
            self.codes[h.row * self.puzzle.cols + h.col] = h.piece * 4 + h.rot
            self.used[h.piece] = 1
        if not part.feasible or part.order.depth == 0:
            return  # nothing to scan: the hinted board is the only leaf (if the hints agree)
        if self.shuffle:
            k.shuffle_lists(part.tab[2], part.tab[4], part.rules[3], self.rng)
        self.stack[:] = 0
        o = part.order
        k.enter(0, self.codes, self.stack, o.nbr, o.keys, o.slot, part.tab[0], part.tab[1], part.tab[2])
        self.scanning = True

    def step(self, budget: int) -> int:
        """Advance by at most ``budget`` nodes: BUDGET, SOLUTION (a full board) or DONE."""
        while not self.done:
            part = self.parts[self.part]
            if not self.scanning:
                leaf = part.feasible
                if leaf:
                    self.last = self.codes.copy()
                self._next()
                if leaf:
                    self.solutions += 1
                    return SOLUTION
                continue
            if self.resume:  # take the last piece off and scan on at the last depth
                d = part.order.depth - 1
                cell = part.order.cells[d]
                self.used[self.codes[cell] >> 2] = 0
                self.codes[cell] = -1
                self.counters[k.DEPTH] = d
                self.resume = False
            before = int(self.counters[k.NODES])
            status = k.dfs(
                self.stack,
                self.counters,
                self.codes,
                self.used,
                self.touch,
                self.deepest,
                part.geo,
                part.tab,
                part.rules,
                self.budget,
                max(budget, 1),
            )
            budget -= int(self.counters[k.NODES]) - before
            if status == k.COMPLETE:
                self.solutions += 1
                self.leaves += 1
                self.last = self.codes.copy()
                self.resume = True
                return SOLUTION
            if status == k.EXHAUSTED:
                self.exhausted = True
                self._next()
            elif status == k.BUDGET:  # a limited attempt is over: restart
                self._next()
            if budget <= 0:
                return DONE if self.done else BUDGET
        return DONE

    def board(self) -> Board:
        """The last full board reached."""
        shape = (self.puzzle.rows, self.puzzle.cols)
        return Board((self.last // 4).reshape(shape), (self.last % 4).reshape(shape))
