"""Slow, obvious exact search in plain Python: the reference the numba kernel is tested against.

Recursive over a static cell order (row scan or spiral), every (tile, rotation) tried in turn; with
``filtering`` the ColorPair offer and demand counts are recomputed from scratch after each placement.
It counts nodes exactly as the kernel does (one per placement tried), so with the same order and no
backjumping both must report the same nodes and the same solutions.
"""

from __future__ import annotations

from collections import Counter

from ..core.board import Board
from ..core.puzzle import CORNER, Puzzle
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


def _fixpoint(p: Puzzle, dom: dict[tuple[int, int], set[tuple[int, int]]]) -> bool:
    """The ``domains`` rules applied from scratch until nothing changes; False on a contradiction."""
    changed = True
    while changed:
        changed = False
        for (r, c), d in dom.items():
            for s, (dr, dc) in enumerate(STEPS):
                other = dom.get((r + dr, c + dc))
                if other is None:
                    continue
                shown = {int(p.oriented[t, k, s]) for t, k in d}
                kept = {(t, k) for t, k in other if int(p.oriented[t, k, (s + 2) % 4]) in shown}
                changed |= kept != other
                other &= kept
            if len({t for t, _ in d}) == 1:
                (tile,) = {t for t, _ in d}
                for cell, other in dom.items():
                    if cell != (r, c) and any(t == tile for t, _ in other):
                        other -= {(t, k) for t, k in other if t == tile}
                        changed = True
        for tile in range(len(p.pieces)):
            holders = [cell for cell, d in dom.items() if any(t == tile for t, _ in d)]
            if not holders:
                return False
            d = dom[holders[0]]
            if len(holders) == 1 and len({t for t, _ in d}) > 1:
                d -= {(t, k) for t, k in d if t != tile}
                changed = True
        if any(not d for d in dom.values()):
            return False
    return True


def reference_domains(
    puzzle: Puzzle, order: str = "mindomain", symmetry: bool = False
) -> tuple[list[Board], int]:
    """All perfect boards and the nodes of the ``domains`` method, recomputed slowly: fixpoint from
    scratch at every node; ``mindomain`` branches on the unbranched cell with the fewest placements
    (lowest cell on ties), ``row`` and ``spiral`` follow their static order."""
    ref = _Reference(puzzle, "spiral" if order == "spiral" else "row", False, symmetry)
    rows, cols = puzzle.rows, puzzle.cols
    fixed, ref.cells = ref.cells, {}  # every cell starts from the rim and forbid rules alone
    dom = {
        (r, c): {(t, k) for t in range(len(puzzle.pieces)) for k in range(4) if ref.fits(r, c, t, k)}
        for r in range(rows)
        for c in range(cols)
    }
    for cell, placement in fixed.items():
        dom[cell] &= {placement}
    boards: list[Board] = []
    nodes = 0

    def walk(dom: dict, branched: set) -> None:
        nonlocal nodes
        free = [cell for cell in ref.order if cell not in branched]
        if not free:
            board = Board([[0] * cols] * rows, [[0] * cols] * rows)
            for (r, c), d in dom.items():
                ((board.piece[r, c], board.rot[r, c]),) = d
            boards.append(board)
            return
        cell = min(sorted(free), key=lambda rc: len(dom[rc])) if order == "mindomain" else free[0]
        for value in sorted(dom[cell], key=lambda tk: 4 * tk[0] + tk[1]):
            nodes += 1
            trial = {key: set(d) for key, d in dom.items()}
            trial[cell] = {value}
            if _fixpoint(puzzle, trial):
                walk(trial, branched | {cell})

    if all(dom.values()) and _fixpoint(puzzle, dom):
        walk(dom, set())
    return boards, nodes
