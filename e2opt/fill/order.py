"""Fill orders for the constructions: the cells in the order they are placed, and what each one faces.

An order is a list of cells computed once (hint cells left out: they are placed before depth 0). For
every depth the arrays say which neighbours are already placed, which two of those sides key the
candidate tables and which are checked one by one, and where a compact beam member keeps the
placement of each cell that a later cell will still face (its frontier slot). A new order is one
function returning the cells; ``ORDERS`` names them for the config.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core.puzzle import Puzzle
from .teeth_order import blackwood

DR = (-1, 0, 1, 0)  # row step toward side t, r, b, l
DC = (0, 1, 0, -1)
KEY_PRIORITY = (3, 0, 1, 2)  # left, top, right, bottom: the first two placed ones key the tables


def row_scan(rows: int, cols: int, teeth: int = 2) -> list[tuple[int, int]]:
    """Row by row, left to right."""
    return [(r, c) for r in range(rows) for c in range(cols)]


def column_scan(rows: int, cols: int, teeth: int = 2) -> list[tuple[int, int]]:
    """Column by column, top to bottom: the row scan along the shorter side of a wide board."""
    return [(r, c) for c in range(cols) for r in range(rows)]


def _ring(rows: int, cols: int, top: int, left: int, bottom: int, right: int) -> list[tuple[int, int]]:
    """The cells of a rectangle's outline, clockwise from its top-left corner."""
    out = [(top, c) for c in range(left, right + 1)]
    out += [(r, right) for r in range(top + 1, bottom + 1)]
    if bottom > top:
        out += [(bottom, c) for c in range(right - 1, left - 1, -1)]
    if right > left:
        out += [(r, left) for r in range(bottom - 1, top, -1)]
    return out


def frame_first(rows: int, cols: int, teeth: int = 2) -> list[tuple[int, int]]:
    """The border ring clockwise, then the interior row by row."""
    inner = [(r, c) for r in range(1, rows - 1) for c in range(1, cols - 1)]
    return _ring(rows, cols, 0, 0, rows - 1, cols - 1) + inner


def comb(rows: int, cols: int, teeth: int = 2) -> list[tuple[int, int]]:
    """Rows top to bottom, the last ``teeth`` rows as vertical teeth (column by column, top down)."""
    flat = max(rows - teeth, 1)
    out = [(r, c) for r in range(flat) for c in range(cols)]
    return out + [(r, c) for c in range(cols) for r in range(flat, rows)]


def frame_comb(rows: int, cols: int, teeth: int = 2) -> list[tuple[int, int]]:
    """The border ring first, then the interior as a comb (rows, the last ``teeth`` inner rows as teeth)."""
    ring = _ring(rows, cols, 0, 0, rows - 1, cols - 1)
    inner_rows, inner_cols = rows - 2, cols - 2
    if inner_rows <= 0 or inner_cols <= 0:
        return ring
    return ring + [(r + 1, c + 1) for r, c in comb(inner_rows, inner_cols, teeth)]


def spiral(rows: int, cols: int, teeth: int = 2) -> list[tuple[int, int]]:
    """Ring after ring from the outside in, each clockwise from its top-left corner."""
    out: list[tuple[int, int]] = []
    top, left, bottom, right = 0, 0, rows - 1, cols - 1
    while top <= bottom and left <= right:
        out += _ring(rows, cols, top, left, bottom, right)
        top, left, bottom, right = top + 1, left + 1, bottom - 1, right - 1
    return out


ORDERS: dict[str, Callable[[int, int, int], list[tuple[int, int]]]] = {
    "row_scan": row_scan,
    "column_scan": column_scan,
    "frame_first": frame_first,
    "comb": comb,
    "frame_comb": frame_comb,
    "spiral": spiral,
    "blackwood": blackwood,
}


@dataclass(frozen=True, eq=False)
class FillOrder:
    """A fill order with its per-depth neighbour arrays (m = cells to place, hints excluded).

    ``cells[d]`` flat cell (r * cols + c) placed at depth d; ``nbr[d, s]`` the flat neighbour on side s
    if it is placed before depth d (or a hint), else -1; ``rim[d]`` bit s set when side s faces the rim;
    ``keys[d]`` the two sides looked up in the candidate tables (-1: none), ``extras[d]`` further placed
    sides checked one by one; ``slot[d]`` the candidate-table slot of (rim, keys); ``slots`` its rows
    (rim, key0, key1); ``fpos[d]`` the frontier slot that keeps cell d's placement while a later cell
    still faces it, ``fnbr[d, s]`` the frontier slot of neighbour s (-1 when not placed); ``frontier``
    the number of frontier slots; ``hint_cells`` the hint cells, which hold the first slots for good.
    """

    name: str
    rows: int
    cols: int
    cells: np.ndarray
    nbr: np.ndarray
    rim: np.ndarray
    keys: np.ndarray
    extras: np.ndarray
    slot: np.ndarray
    slots: np.ndarray
    fpos: np.ndarray
    fnbr: np.ndarray
    frontier: int
    hint_cells: np.ndarray

    @property
    def depth(self) -> int:
        return len(self.cells)

    def arrays(self) -> tuple:
        """(nbr-frontier slots, keys, extras, slot, fpos): what the kernels read, as one tuple."""
        return (self.fnbr, self.keys, self.extras, self.slot, self.fpos)


def _rim_mask(rows: int, cols: int, r: int, c: int) -> int:
    return (r == 0) | ((c == cols - 1) << 1) | ((r == rows - 1) << 2) | ((c == 0) << 3)


def make_order(puzzle: Puzzle, name: str, teeth: int = 2) -> FillOrder:
    """The named order on the puzzle's board, hint cells taken out (they count as placed from the start)."""
    rows, cols = puzzle.rows, puzzle.cols
    hinted = {(h.row, h.col) for h in puzzle.hints}
    seq = [rc for rc in ORDERS[name](rows, cols, teeth) if rc not in hinted]
    if sorted(seq + list(hinted)) != [(r, c) for r in range(rows) for c in range(cols)]:
        raise AssertionError(f"order {name} does not visit every cell once")
    m = len(seq)
    when = {rc: -1 for rc in hinted}
    when.update({rc: d for d, rc in enumerate(seq)})
    nbr = np.full((m, 4), -1, dtype=np.int64)
    keys = np.full((m, 2), -1, dtype=np.int64)
    extras = np.full((m, 2), -1, dtype=np.int64)
    rim = np.zeros(m, dtype=np.int64)
    last_use = {rc: when[rc] for rc in when}  # the last depth at which a cell is faced by the one placed
    for d, (r, c) in enumerate(seq):
        rim[d] = _rim_mask(rows, cols, r, c)
        placed = []
        for s in range(4):
            rr, cc = r + DR[s], c + DC[s]
            if 0 <= rr < rows and 0 <= cc < cols and when[(rr, cc)] < d:
                nbr[d, s] = rr * cols + cc
                placed.append(s)
                last_use[(rr, cc)] = max(last_use[(rr, cc)], d)
        ranked = [s for s in KEY_PRIORITY if s in placed]
        keys[d, : min(2, len(ranked))] = ranked[:2]
        extras[d, : len(ranked) - min(2, len(ranked))] = ranked[2:]
    slot_of: dict[tuple[int, int, int], int] = {}
    slot = np.array([slot_of.setdefault((int(rim[d]), *map(int, keys[d])), len(slot_of)) for d in range(m)])
    slots = np.array(list(slot_of), dtype=np.int64).reshape(-1, 3)
    fpos, fnbr, frontier = _frontier(seq, sorted(hinted), nbr, last_use, cols)
    hint_cells = np.array([r * cols + c for r, c in sorted(hinted)], dtype=np.int64)
    return FillOrder(
        name,
        rows,
        cols,
        np.array([r * cols + c for r, c in seq], dtype=np.int64),
        nbr,
        rim,
        keys,
        extras,
        slot,
        slots,
        fpos,
        fnbr,
        frontier,
        hint_cells,
    )


def _frontier(seq, hints, nbr, last_use, cols) -> tuple[np.ndarray, np.ndarray, int]:
    """Frontier slots: a placed cell holds one from its depth until the last depth that faces it."""
    slot_of = {r * cols + c: i for i, (r, c) in enumerate(hints)}
    free: list[int] = []
    size = len(hints)
    m = len(seq)
    fpos = np.full(m, -1, dtype=np.int64)
    fnbr = np.full((m, 4), -1, dtype=np.int64)
    release: dict[int, list[int]] = {}
    for d, (r, c) in enumerate(seq):
        for s in range(4):
            if nbr[d, s] >= 0:
                fnbr[d, s] = slot_of[int(nbr[d, s])]
        for cell in release.pop(d, []):  # cells last faced at depth d: their slots are free after reading
            free.append(slot_of[cell])
        if last_use[(r, c)] > d:
            if free:
                fpos[d] = free.pop()
            else:
                fpos[d] = size
                size += 1
            slot_of[r * cols + c] = int(fpos[d])
            release.setdefault(last_use[(r, c)], []).append(r * cols + c)
    return fpos, fnbr, max(size, 1)
