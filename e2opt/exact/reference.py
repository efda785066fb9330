"""Slow, obvious exact search in plain Python: the reference the numba kernel is tested against.

Recursive over a static cell order (row scan or spiral), every (tile, rotation) tried in turn; with
``filtering`` the ColorPair offer and demand counts are recomputed from scratch after each placement.
It counts nodes exactly as the kernel does (one per placement tried), so with the same order and no
backjumping both must report the same nodes and the same solutions.
"""

from __future__ import annotations

from collections import Counter

from ..board import Board
from ..puzzle import CORNER, Puzzle
from .model import spiral_cells

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _pairs(sides: list[int | None]) -> set[tuple]:
    """Clockwise and opposite colour pairs formed by the known entries of four sides (t, r, b, l)."""
    out: set[tuple] = set()
    for s in range(4):
        a, b = sides[s], sides[(s + 1) % 4]
        if a is not None and b is not None:
            out.add(("cw", a, b))
    for s in range(2):
        a, b = sides[s], sides[s + 2]
        if a is not None and b is not None:
            out.add(("op", min(a, b), max(a, b)))
    return out


class _Reference:
    def __init__(self, puzzle: Puzzle, order: str, filtering: bool, symmetry: bool):
        self.p, self.filtering = puzzle, filtering
        rows, cols = puzzle.rows, puzzle.cols
        self.cells: dict[tuple[int, int], tuple[int, int]] = {}
        self.forbid: dict[tuple[int, int], int] = {}
        for h in puzzle.hints:
            self.cells[(h.row, h.col)] = (h.piece, h.rot)
        if symmetry and not puzzle.hints:
            first = min(t for t in range(len(puzzle.pieces)) if puzzle.kinds[t] == CORNER)
            if rows == cols:
                self.cells[(0, 0)] = (first, puzzle.valid_rotations(first, 0, 0)[0])
            else:
                self.forbid = {(rows - 1, 0): first, (rows - 1, cols - 1): first}
        sequence = spiral_cells(rows, cols) if order == "spiral" else range(rows * cols)
        self.order = [divmod(i, cols) for i in sequence if divmod(i, cols) not in self.cells]
        self.nodes = 0
        self.solutions: list[Board] = []

    def seen(self, r: int, c: int) -> list[int | None]:
        """What each side of (r, c) must show: 0 at the rim, the neighbour's colour, or None."""
        out: list[int | None] = []
        for s, (dr, dc) in enumerate(STEPS):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < self.p.rows and 0 <= cc < self.p.cols):
                out.append(0)
            elif (rr, cc) in self.cells:
                t, k = self.cells[(rr, cc)]
                out.append(int(self.p.oriented[t, k, (s + 2) % 4]))
            else:
                out.append(None)
        return out

    def fits(self, r: int, c: int, t: int, k: int) -> bool:
        if self.forbid.get((r, c)) == t:
            return False
        sides = self.p.oriented[t, k]
        need = self.seen(r, c)
        return all((sides[s] == need[s]) if need[s] is not None else sides[s] != 0 for s in range(4))

    def consistent(self) -> bool:
        """Every colour pair has at least as many unused tiles offering it as empty cells demanding it."""
        if not self.filtering:
            return True
        used = {t for t, _ in self.cells.values()}
        offer: Counter = Counter()
        for t, sides in enumerate(self.p.pieces):
            if t not in used:
                offer.update(_pairs([int(x) for x in sides]))
        demand: Counter = Counter()
        for r in range(self.p.rows):
            for c in range(self.p.cols):
                if (r, c) not in self.cells:
                    demand.update(_pairs(self.seen(r, c)))
        return all(offer[q] >= n for q, n in demand.items())

    def run(self, i: int = 0) -> None:
        if i == len(self.order):
            board = Board([[0] * self.p.cols] * self.p.rows, [[0] * self.p.cols] * self.p.rows)
            for (r, c), (t, k) in self.cells.items():
                board.piece[r, c], board.rot[r, c] = t, k
            self.solutions.append(board)
            return
        r, c = self.order[i]
        used = {t for t, _ in self.cells.values()}
        for t in range(len(self.p.pieces)):
            for k in range(4):
                if t in used or not self.fits(r, c, t, k):
                    continue
                self.nodes += 1
                self.cells[(r, c)] = (t, k)
                if self.consistent():
                    self.run(i + 1)
                del self.cells[(r, c)]


def reference_search(
    puzzle: Puzzle, order: str = "row", filtering: bool = False, symmetry: bool = False
) -> tuple[list[Board], int]:
    """All perfect boards (canonical ones with ``symmetry``) and the nodes spent finding them."""
    ref = _Reference(puzzle, order, filtering, symmetry)
    if _fixed_ok(ref) and ref.consistent():
        ref.run()
    return ref.solutions, ref.nodes


def _fixed_ok(ref: _Reference) -> bool:
    """The fixed cells (hints, symmetry corner) agree with each other and with the rim."""
    fixed = dict(ref.cells)
    ref.cells.clear()
    ok = True
    for (r, c), (t, k) in fixed.items():
        ok = ok and ref.fits(r, c, t, k) and t not in {tt for tt, _ in ref.cells.values()}
        ref.cells[(r, c)] = (t, k)
    return ok
