"""Numba kernel of the swap-and-rotate move: rotations, same-kind swaps, 2x2 block turns near mismatches.

Each candidate is tried on the board itself (``set_cell`` keeps colours, mismatches and the score change
exact) and undone, so the scan allocates nothing and needs no separate delta formulas. A candidate
is ``mv = (type, a, b, x, y)``: ROTATE cell a to rotation x; SWAP the pieces of a and b, the piece
arriving in a turned x and the one arriving in b turned y; BLOCK turn the 2x2 block whose top-left
cell is a by x clockwise quarter turns (inner cells only).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels import below, set_cell

ROTATE, SWAP, BLOCK = 0, 1, 2


@njit(cache=True)
def _do(mv, save, cols, piece, rot, colour, mis, nbr, oriented) -> int:
    """Apply candidate mv; keep what it replaced in save (cells, pieces, rotations, count); score change."""
    kind, a, b, x, y = mv[0], mv[1], mv[2], mv[3], mv[4]
    if kind == ROTATE:
        save[0], save[4], save[8], save[12] = a, piece[a], rot[a], 1
        return set_cell(a, piece[a], x, piece, rot, colour, mis, nbr, oriented)
    if kind == SWAP:
        pa, pb = piece[a], piece[b]
        save[0], save[1], save[4], save[5], save[8], save[9], save[12] = a, b, pa, pb, rot[a], rot[b], 2
        d = set_cell(a, pb, x, piece, rot, colour, mis, nbr, oriented)
        return d + set_cell(b, pa, y, piece, rot, colour, mis, nbr, oriented)
    ring = (a, a + 1, a + cols + 1, a + cols)  # clockwise
    for k in range(4):
        save[k], save[4 + k], save[8 + k] = ring[k], piece[ring[k]], rot[ring[k]]
    save[12] = 4
    d = 0
    for k in range(4):
        src = (k - x) & 3
        d += set_cell(ring[k], save[4 + src], (save[8 + src] + x) & 3, piece, rot, colour, mis, nbr, oriented)
    return d


@njit(cache=True)
def _undo(save, piece, rot, colour, mis, nbr, oriented) -> None:
    """Put back what _do replaced (in reverse order, so colours and mismatches return exactly)."""
    for k in range(save[12] - 1, -1, -1):
        set_cell(save[k], save[4 + k], save[8 + k], piece, rot, colour, mis, nbr, oriented)


@njit(cache=True)
def tsr_move(
    tries,
    partners,
    best_scan,
    allow_worse,
    movable,
    cell_kind,
    by_kind,
    kind_start,
    rimmask,
    greymask,
    nbr,
    cols,
    piece,
    rot,
    colour,
    mis,
    oriented,
    rng,
    cells,
    mv,
    best,
    spare,
    save,
) -> int:
    """One swap-and-rotate move around ``tries`` random mismatched cells; return the score change.

    Candidates around a mismatched cell a: its other fitting rotations; swaps with each same-kind
    neighbour and ``partners`` random same-kind cells (rotations of both pieces chosen among all
    fitting pairs); turns of the inner 2x2 blocks holding a. ``best_scan`` False applies the first
    improving candidate, True the best one scanned. With no improvement, a random candidate of change 0
    (or, with ``allow_worse``, any random candidate, for an acceptance rule to judge) is applied, else none.
    """
    n = piece.shape[0]
    count = 0
    for c in range(n):
        if mis[c] > 0 and movable[c]:
            cells[count] = c
            count += 1
    if count == 0:
        return 0
    best_delta = 0
    have_best = False
    seen = 0  # candidates eligible as the fallback (reservoir sampling)
    for _ in range(tries):
        a = cells[below(rng, count)]
        g = cell_kind[a]
        lo, size = kind_start[g], kind_start[g + 1] - kind_start[g]
        # rotations of a
        for x in range(4):
            if x == rot[a] or greymask[piece[a], x] != rimmask[a]:
                continue
            mv[0], mv[1], mv[2], mv[3], mv[4] = ROTATE, a, a, x, 0
            d = _do(mv, save, cols, piece, rot, colour, mis, nbr, oriented)
            _undo(save, piece, rot, colour, mis, nbr, oriented)
            if d > 0 and (not have_best or d > best_delta):
                best_delta, have_best = d, True
                best[:] = mv
                if not best_scan:
                    break
            if d == 0 or allow_worse:
                seen += 1
                if below(rng, seen) == 0:
                    spare[:] = mv
        if have_best and not best_scan:
            break
        # swaps with same-kind neighbours, then random same-kind partners
        for j in range(4 + partners):
            if j < 4:
                b = nbr[a, j]
                if b < 0 or not movable[b] or cell_kind[b] != g:
                    continue
            else:
                if size < 2:
                    break
                b = by_kind[lo + below(rng, size)]
                if b == a:
                    continue
            pa, pb = piece[a], piece[b]
            for x in range(4):
                if greymask[pb, x] != rimmask[a]:
                    continue
                for y in range(4):
                    if greymask[pa, y] != rimmask[b]:
                        continue
                    mv[0], mv[1], mv[2], mv[3], mv[4] = SWAP, a, b, x, y
                    d = _do(mv, save, cols, piece, rot, colour, mis, nbr, oriented)
                    _undo(save, piece, rot, colour, mis, nbr, oriented)
                    if d > 0 and (not have_best or d > best_delta):
                        best_delta, have_best = d, True
                        best[:] = mv
                    if d == 0 or allow_worse:
                        seen += 1
                        if below(rng, seen) == 0:
                            spare[:] = mv
            if have_best and not best_scan:
                break
        if have_best and not best_scan:
            break
        # 2x2 blocks of inner movable cells holding a
        if rimmask[a] != 0:
            continue
        for corner in range(4):
            q = a - (corner >> 1) * cols - (corner & 1)
            if q < 0 or q % cols == cols - 1 or q + cols + 1 >= n:
                continue
            if (corner & 1) and a % cols == 0:
                continue
            ok = True
            for c in (q, q + 1, q + cols, q + cols + 1):
                if not movable[c] or rimmask[c] != 0:
                    ok = False
            if not ok:
                continue
            for x in range(1, 4):
                mv[0], mv[1], mv[2], mv[3], mv[4] = BLOCK, q, q, x, 0
                d = _do(mv, save, cols, piece, rot, colour, mis, nbr, oriented)
                _undo(save, piece, rot, colour, mis, nbr, oriented)
                if d > 0 and (not have_best or d > best_delta):
                    best_delta, have_best = d, True
                    best[:] = mv
                if d == 0 or allow_worse:
                    seen += 1
                    if below(rng, seen) == 0:
                        spare[:] = mv
        if have_best and not best_scan:
            break
    if have_best:
        return _do(best, save, cols, piece, rot, colour, mis, nbr, oriented)
    if seen > 0:
        return _do(spare, save, cols, piece, rot, colour, mis, nbr, oriented)
    return 0


def buffers(n: int) -> tuple[np.ndarray, ...]:
    """The scratch arrays tsr_move writes: candidate cells, three candidates, the undo record."""
    return (
        np.zeros(n, dtype=np.int64),
        np.zeros(5, dtype=np.int64),
        np.zeros(5, dtype=np.int64),
        np.zeros(5, dtype=np.int64),
        np.zeros(13, dtype=np.int64),
    )
