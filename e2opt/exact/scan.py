"""Method ``scan``: a static-order depth-first search on the construction's candidate tables (numba).

Every cell of a fill order (fill/order.py) is looked up in tables keyed by its slot (which
sides face the rim, which two placed sides key it) and the two colours it must match
(fill/tables.py), so a candidate needs no check but "tile unused" (and the rare extra sides
next to a hint): its own kernel (scan_kernel.py) runs this about 20 times faster per node than the
general kernel of dfs.py. A ``Walk`` runs the kernel
over a range of depths (the whole order here; split.py cuts it for several processes) and resumes it
after each full board. Symmetry (symmetry.py) is broken by hints: the lowest corner piece fixed
top-left (square), or top-left then top-right in two parts (other boards: one board of each
half-turn orbit has that corner in the top row). ``restarts`` limited attempts with shuffled
candidate lists and Luby node limits come first; only the final unbounded run can make the search
complete.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.board import Board
from ..core.puzzle import CORNER, Hint, Puzzle
from ..fill.order import FillOrder, make_order
from ..fill.tables import build_tables
from . import scan_kernel as sk
from .dfs import BUDGET, DONE, SOLUTION

SCAN_ORDERS = {
    "short": "",
    "row": "row_scan",
    "column": "column_scan",
    "spiral": "spiral",
    "frame": "frame_first",
}
UNBOUNDED = 1 << 62
SLICE_S = 0.25  # target CPU seconds of one kernel call, between progress, limit and stop checks


def next_chunk(chunk: int, took_s: float) -> int:
    """Nodes for the next kernel call, so that it lasts about SLICE_S CPU seconds (growing 4x at most)."""
    return int(min(max(chunk * SLICE_S / max(took_s, 1e-3), 1000), chunk * 4, 10**9))


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
class Part:
    """One puzzle of the search (see symmetry_parts) with its order, tables and kernel arrays."""

    puzzle: Puzzle
    order: FillOrder
    geo: tuple
    tab: tuple
    feasible: bool  # the hints agree with each other

    @classmethod
    def build(cls, puzzle: Puzzle, name: str) -> Part:
        """Order and tables (compact dtypes, as the construction uses them), with nothing relaxed."""
        order = make_order(puzzle, name)
        tables = build_tables(puzzle, order)
        start = tables.exact_start.astype(np.int32)
        cand = tables.exact.astype(np.int32)
        tab = (tables.colours, tables.ocol.astype(np.uint8), start, cand)
        geo = (order.cells, order.nbr, order.keys, order.extras, order.slot)
        return cls(puzzle, order, geo, tab, _hints_match(puzzle))

    def start_board(self) -> tuple[np.ndarray, np.ndarray]:
        """(codes, used) with only the hints placed."""
        codes = np.full(self.puzzle.n_cells, -1, dtype=np.int64)
        used = np.zeros(len(self.puzzle.pieces), dtype=np.uint8)
        for h in self.puzzle.hints:
            codes[h.row * self.puzzle.cols + h.col] = h.piece * 4 + h.rot
            used[h.piece] = 1
        return codes, used


def _hints_match(puzzle: Puzzle) -> bool:
    """True when no two adjacent hints show different colours to each other."""
    at = {(h.row, h.col): puzzle.oriented[h.piece, h.rot] for h in puzzle.hints}
    for (r, c), sides in at.items():
        for dr, dc, mine, theirs in ((0, 1, 1, 3), (1, 0, 2, 0)):
            other = at.get((r + dr, c + dc))
            if other is not None and sides[mine] != other[theirs]:
                return False
    return True


def build_parts(puzzle: Puzzle, order: str, symmetry: bool) -> list[Part]:
    """The parts searched in turn for an exact ``--order`` name (see symmetry_parts)."""
    return [Part.build(p, order_name(puzzle, order)) for p in symmetry_parts(puzzle, symmetry)]


def shuffle(part: Part, rng: np.ndarray) -> None:
    """Shuffle the part's candidate lists in place (``--value-order random``)."""
    if part.order.depth:
        sk.shuffle_lists(part.tab[2], part.tab[3], rng)


def board_of(puzzle: Puzzle, codes: np.ndarray) -> Board:
    """The Board of a full array of codes (piece * 4 + rotation per cell)."""
    shape = (puzzle.rows, puzzle.cols)
    return Board((codes // 4).reshape(shape), (codes % 4).reshape(shape))


class Walk:
    """The kernel over depths ``start`` to ``end`` - 1 of a part's order, from a board (``codes``,
    ``used``, updated in place) that holds the hints and the cells placed before ``start``.

    With ``keep`` every full board is returned (sk.COMPLETE) and left on ``codes`` until the next step;
    without, the kernel only counts them (``leaves``). A walk of no depth is one leaf; a walk of an
    infeasible part (clashing hints) has none. Splitting a search into a walk of the first D depths and
    one walk per partial board it reaches gives the same nodes, backtracks and leaves as one walk of
    the whole order (split.py relies on it).
    """

    def __init__(
        self,
        part: Part,
        codes: np.ndarray,
        used: np.ndarray,
        start: int = 0,
        end: int | None = None,
        budget: int = UNBOUNDED,
        keep: bool = True,
    ):
        end = part.order.depth if end is None else end
        self.part, self.codes, self.used, self.budget, self.keep = part, codes, used, budget, keep
        self.m = end - start
        self.geo = tuple(a[start:end] for a in part.geo)
        self.stack = np.zeros((2, self.m + 1), dtype=np.int64)
        self.counters = np.zeros(4, dtype=np.int64)
        self.exhausted = not part.feasible
        if self.m > 0 and part.feasible:
            sk.open_root(self.stack, codes, self.geo, part.tab)

    @property
    def nodes(self) -> int:
        return int(self.counters[sk.NODES])

    @property
    def leaves(self) -> int:
        return int(self.counters[sk.LEAVES])

    @property
    def depth(self) -> int:
        return int(self.counters[sk.DEPTH])

    @property
    def backtracks(self) -> int:
        """Levels given up: opened (root + non-leaf placements) minus those still open."""
        if not self.part.feasible:
            return 0
        still = 0 if self.exhausted else min(self.depth + 1, self.m)
        return 1 + self.nodes - self.leaves - still

    def step(self, chunk: int) -> int:
        """Run up to ``chunk`` nodes: sk.COMPLETE (the board is full), sk.EXHAUSTED, sk.BUDGET or sk.RUNNING."""
        if self.exhausted:
            return sk.EXHAUSTED
        if self.m == 0:  # nothing to place: the board is the one leaf
            first = self.leaves == 0
            self.counters[sk.LEAVES] = 1
            self.exhausted = not (first and self.keep)
            return sk.COMPLETE if first and self.keep else sk.EXHAUSTED
        status = sk.walk(
            self.stack,
            self.counters,
            self.codes,
            self.used,
            self.geo,
            self.part.tab,
            self.budget,
            max(chunk, 1),
            self.keep,
        )
        self.exhausted = status == sk.EXHAUSTED
        return status


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
        keep: bool = True,
    ):
        self.puzzle, self.keep = puzzle, keep
        self.parts = build_parts(puzzle, order, symmetry)
        self.levels = max(p.order.depth for p in self.parts)
        self.shuffle, self.restarts, self.restart_nodes = shuffle or restarts > 0, restarts, restart_nodes
        self.rng = np.array([np.random.default_rng(seed).integers(2**63)], dtype=np.uint64)
        self.last = np.full(puzzle.n_cells, -1, dtype=np.int64)  # the last full board reached
        self.attempt = 0  # attempts started; the ones after ``restarts`` limited ones are the final run
        self.part = -1
        self.walk: Walk | None = None
        self.done = False
        self.closed_nodes = self.closed_backtracks = self.closed_leaves = 0
        self._next()

    @property
    def final(self) -> bool:
        """True in the unbounded run, the only one whose end proves anything."""
        return self.attempt > self.restarts

    @property
    def nodes(self) -> int:
        return self.closed_nodes + (self.walk.nodes if self.walk else 0)

    @property
    def backtracks(self) -> int:
        return self.closed_backtracks + (self.walk.backtracks if self.walk else 0)

    @property
    def solutions(self) -> int:
        """Full boards reached (returned one by one with ``keep``, else only counted)."""
        return self.closed_leaves + (self.walk.leaves if self.walk else 0)

    @property
    def depth(self) -> int:
        return self.walk.depth if self.walk else 0

    def _next(self) -> None:
        """Close the attempt and start the next (part, or restart); ``done`` once the final run is over."""
        self.closed_nodes, self.closed_backtracks, self.closed_leaves = (
            self.nodes,
            self.backtracks,
            self.solutions,
        )
        self.walk = None
        if self.final:
            self.part += 1
        else:
            self.attempt += 1
            self.part = 0 if self.final else (self.attempt - 1) % len(self.parts)
        if self.part == len(self.parts):
            self.done = True
            return
        part = self.parts[self.part]
        if self.shuffle:
            shuffle(part, self.rng)
        budget = UNBOUNDED if self.final else luby(self.attempt) * self.restart_nodes
        self.walk = Walk(part, *part.start_board(), budget=budget, keep=self.keep)

    def step(self, budget: int) -> int:
        """Advance by at most ``budget`` nodes: BUDGET, SOLUTION (a full board) or DONE."""
        while not self.done:
            walk = self.walk
            before = walk.nodes
            status = walk.step(budget)
            budget -= walk.nodes - before
            if status == sk.COMPLETE:
                self.last = walk.codes.copy()
                return SOLUTION
            if status in (sk.EXHAUSTED, sk.BUDGET):  # the part is searched, or a limited attempt is over
                self._next()
            if budget <= 0:
                return DONE if self.done else BUDGET
        return DONE

    def board(self) -> Board:
        """The last full board reached."""
        return board_of(self.puzzle, self.last)
