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
def _do(cand, i, save, cols, piece, rot, colour, mis, nbr, oriented) -> int:
    """Apply candidate row cand[i]; keep what it replaced in save (cells, pieces, rotations, count); score change.

    The branches only write the plan into save (the cells, what they hold, what they get: save[13:17] pieces,
    save[17:21] rotations) and one loop applies it. With set_cell calls in each branch, numba counted references
    to the array arguments on every call (7 atomic increments and decrements), and to the row view when cand[i]
    was passed: a sixth of a scan's time (docs/moves.md)."""
    kind, a, b, x, y = cand[i, 0], cand[i, 1], cand[i, 2], cand[i, 3], cand[i, 4]
    if kind == ROTATE:
        save[0], save[4], save[8], save[12] = a, piece[a], rot[a], 1
        save[13], save[17] = piece[a], x
    elif kind == SWAP:
        pa, pb = piece[a], piece[b]
        save[0], save[1], save[4], save[5], save[8], save[9], save[12] = a, b, pa, pb, rot[a], rot[b], 2
        save[13], save[14], save[17], save[18] = pb, pa, x, y
    else:
        ring = (a, a + 1, a + cols + 1, a + cols)  # clockwise
        for k in range(4):
            save[k], save[4 + k], save[8 + k] = ring[k], piece[ring[k]], rot[ring[k]]
        save[12] = 4
        for k in range(4):
            src = (k - x) & 3
            save[13 + k], save[17 + k] = save[4 + src], (save[8 + src] + x) & 3
    d = 0
    for k in range(save[12]):
        d += set_cell(save[k], save[13 + k], save[17 + k], piece, rot, colour, mis, nbr, oriented)
    return d


@njit(cache=True)
def _undo(save, piece, rot, colour, mis, nbr, oriented) -> None:
    """Put back what _do replaced (in reverse order, so colours and mismatches return exactly)."""
    for k in range(save[12] - 1, -1, -1):
        set_cell(save[k], save[4 + k], save[8 + k], piece, rot, colour, mis, nbr, oriented)


@njit(cache=True)
def _candidates(a, partners, movable, cell_kind, by_kind, kind_start, rimmask, greymask, nbr, cols, piece, rot, rng, out, top) -> int:  # fmt: skip
    """Write the candidates around cell a into out[top:top + count] (rows mv); return count.

    Writes from row ``top`` of the whole table: a view out[top:] per call made numba count its references."""
    n = piece.shape[0]
    g = cell_kind[a]
    lo, size = kind_start[g], kind_start[g + 1] - kind_start[g]
    count = top
    for x in range(4):  # other fitting rotations of a
        if x != rot[a] and greymask[piece[a], x] == rimmask[a]:
            out[count, 0], out[count, 1], out[count, 2], out[count, 3], out[count, 4] = ROTATE, a, a, x, 0
            count += 1
    for j in range(4 + partners):  # swaps with same-kind neighbours, then random same-kind partners
        if j < 4:
            b = nbr[a, j]
            if b < 0 or not movable[b] or cell_kind[b] != g:
                continue
        else:
            b = by_kind[lo + below(rng, size)]
            if b == a:
                continue
        for x in range(4):
            if greymask[piece[b], x] != rimmask[a]:
                continue
            for y in range(4):
                if greymask[piece[a], y] == rimmask[b]:
                    out[count, 0], out[count, 1], out[count, 2], out[count, 3], out[count, 4] = (
                        SWAP,
                        a,
                        b,
                        x,
                        y,
                    )
                    count += 1
    if rimmask[a] != 0:
        return count - top
    for corner in range(4):  # turns of the 2x2 blocks of inner movable cells holding a
        q = a - (corner >> 1) * cols - (corner & 1)
        if q < 0 or q % cols == cols - 1 or q + cols + 1 >= n:
            continue
        ok = True
        for c in (q, q + 1, q + cols, q + cols + 1):
            if not movable[c] or rimmask[c] != 0:
                ok = False
        if ok:
            for x in range(1, 4):
                out[count, 0], out[count, 1], out[count, 2], out[count, 3], out[count, 4] = BLOCK, q, q, x, 0
                count += 1
    return count - top


@njit(cache=True)
def tsr_move(
    tries,
    partners,
    best_scan,
    worse,
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
    cand,
    save,
) -> int:
    """One swap-and-rotate move around ``tries`` random mismatched cells; return the score change.

    Candidates around a mismatched cell a: its other fitting rotations; swaps with each same-kind
    neighbour and ``partners`` random same-kind cells (rotations of both pieces chosen among all
    fitting pairs); turns of the inner 2x2 blocks holding a. ``best_scan`` False applies the first
    improving candidate, True the best one scanned. With no improvement, a random candidate of change 0
    (or, with ``worse``, any random candidate, for an acceptance rule to judge) is applied, else none.
    """
    n = piece.shape[0]
    count = 0
    for c in range(n):
        if mis[c] > 0 and movable[c]:
            cells[count] = c
            count += 1
    if count == 0:
        return 0
    best, spare = -1, -1  # rows of cand: the best improving candidate, the fallback (reservoir sampled)
    best_delta, seen = 0, 0
    top = 2  # rows 0 and 1 hold the kept best and fallback; a cell's candidates go from row 2
    for _ in range(tries):
        a = cells[below(rng, count)]
        k = _candidates(a, partners, movable, cell_kind, by_kind, kind_start, rimmask, greymask, nbr, cols, piece, rot, rng, cand, top)  # fmt: skip
        for i in range(top, top + k):
            d = _do(cand, i, save, cols, piece, rot, colour, mis, nbr, oriented)
            _undo(save, piece, rot, colour, mis, nbr, oriented)
            if d > best_delta:
                best_delta, best = d, 0
                for j in range(5):  # not a slice copy: its views would be reference counted
                    cand[0, j] = cand[i, j]
            if d == 0 or worse:
                seen += 1
                if below(rng, seen) == 0:
                    spare = 1
                    for j in range(5):
                        cand[1, j] = cand[i, j]
            if best >= 0 and not best_scan:
                break
        if best >= 0 and not best_scan:
            break
    if best >= 0:
        return _do(cand, 0, save, cols, piece, rot, colour, mis, nbr, oriented)
    if spare >= 0:
        return _do(cand, 1, save, cols, piece, rot, colour, mis, nbr, oriented)
    return 0


def buffers(n: int, partners: int) -> tuple[np.ndarray, ...]:
    """The scratch arrays tsr_move writes: candidate cells, candidate rows (kept best, fallback, one cell's
    candidates: 3 rotations, 16 rotation pairs per swap partner, 12 block turns), the undo record and plan of _do."""
    return (
        np.zeros(n, dtype=np.int64),
        np.zeros((2 + 3 + 16 * (4 + partners) + 12, 5), dtype=np.int64),
        np.zeros(21, dtype=np.int64),
    )
