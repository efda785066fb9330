"""The numba kernel of method ``domains`` (domains.py builds its arrays and drives it).

Cells hold placement bit sets (bit 4*slot + rotation; a word holds 16 tiles). ``_remove`` takes
placements out and keeps the counts the three rules need (colours per side, tiles per cell, holders per
tile); ``propagate`` runs the rules to their fixpoint; ``search`` is the explicit-stack DFS, whose levels
undo the trail of the previous value before trying the next.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .dfs import BUDGET, C_BACKTRACKS, C_DEPTH, C_DONE, C_NODES, C_SOLUTIONS, DONE, SOLUTION, _value_position
from .model import MINDOMAIN

Q_LEVELS, Q_ORDER, Q_VALUE, Q_STOP = range(4)
TILE_BITS = np.uint64(0x1111111111111111)  # the lowest rotation bit of each of a word's 16 tiles
FOUR = np.uint64(15)  # the four rotation bits of a tile
M1, M2, M4 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), np.uint64(0x0F0F0F0F0F0F0F0F)
H01 = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def _popcount(x) -> int:
    """Set bits of a uint64 (the SWAR sum: a few operations, no loop)."""
    x = x - ((x >> np.uint64(1)) & M1)
    x = (x & M2) + ((x >> np.uint64(2)) & M2)
    x = (x + (x >> np.uint64(4))) & M4
    return int((x * H01) >> np.uint64(56))


@njit(cache=True, inline="always")
def _lowest(x) -> int:
    """Index of the lowest set bit of a non-zero uint64."""
    return _popcount((x & (~x + np.uint64(1))) - np.uint64(1))


@njit(cache=True, inline="always")
def _tiles(x):
    """One bit (at 4*slot) per tile with at least one placement in word x."""
    return (x | (x >> np.uint64(1)) | (x >> np.uint64(2)) | (x >> np.uint64(3))) & TILE_BITS


# The kernel's arrays travel as plain arguments (a tuple unpacked in a hot loop costs an atomic
# reference count per array each time): model nbr, smask, pcol; state dom, cnt, lost, trail, cellv,
# tilev, heads. Columns of cellv (per cell), tilev (per tile slot) and entries of heads:
SIZE, QUEUED, NTILES, RING = range(4)  # placements left, queued?, tiles held, ring buffer slot
HOLDERS, FLAGGED, STACK = range(3)  # cells holding the tile, on the stack?, stack slot
QHEAD, QSIZE, TRAIL, TOP = range(4)  # ring head and size, trail length, stack height


@njit(cache=True, inline="always")
def _remove(j, w, rem, pcol, dom, cnt, lost, trail, cellv, tilev, heads) -> bool:
    """Take the placements ``rem`` (bits of word w) out of cell j's domain, trail them, note the
    colours j's sides stop showing and the tiles that lose a holder, and queue j; False if j is empty."""
    before = _tiles(dom[j, w])
    dom[j, w] ^= rem
    gone = before & ~_tiles(dom[j, w])
    while gone:  # tiles cell j no longer holds: one holder less each, maybe down to one or none
        t = (w * 64 + _lowest(gone)) >> 2
        gone &= gone - np.uint64(1)
        tilev[t, HOLDERS] -= 1
        cellv[j, NTILES] -= 1
        if tilev[t, HOLDERS] <= 1 and not tilev[t, FLAGGED]:
            tilev[t, FLAGGED] = 1
            tilev[heads[TOP], STACK] = t
            heads[TOP] += 1
    k = heads[TRAIL]
    trail[k, 0], trail[k, 1], trail[k, 2] = j, w, np.int64(rem)
    heads[TRAIL] = k + 1
    cellv[j, SIZE] -= _popcount(rem)
    x = rem
    while x:
        v = w * 64 + _lowest(x)
        x &= x - np.uint64(1)
        for s in range(4):
            c = pcol[s, v]
            cnt[j, s, c] -= 1
            if cnt[j, s, c] == 0:
                lost[j, s] |= np.uint64(1) << np.uint64(c)
    if not cellv[j, QUEUED]:
        cellv[j, QUEUED] = 1
        slot = heads[QHEAD] + heads[QSIZE]  # ring position, without a division
        cellv[slot - cellv.shape[0] if slot >= cellv.shape[0] else slot, RING] = j
        heads[QSIZE] += 1
    _ = pcol.shape, dom.shape, cnt.shape, lost.shape, trail.shape, tilev.shape, heads.shape  # see _settle
    return cellv[j, SIZE] > 0


@njit(cache=True, inline="always")
def _undo(mark, pcol, dom, cnt, trail, cellv, tilev, heads) -> None:
    """Put back every placement removed since the trail was ``mark`` long."""
    for k in range(heads[TRAIL] - 1, mark - 1, -1):
        j, w, rem = trail[k, 0], trail[k, 1], np.uint64(trail[k, 2])
        back = _tiles(rem) & ~_tiles(dom[j, w])
        while back:
            tilev[(w * 64 + _lowest(back)) >> 2, HOLDERS] += 1
            cellv[j, NTILES] += 1
            back &= back - np.uint64(1)
        dom[j, w] |= rem
        cellv[j, SIZE] += _popcount(rem)
        x = rem
        while x:
            v = w * 64 + _lowest(x)
            x &= x - np.uint64(1)
            for s in range(4):
                cnt[j, s, pcol[s, v]] += 1
    heads[TRAIL] = mark


@njit(cache=True, inline="always")
def _settle(i, pcol, dom, cnt, lost, trail, cellv, tilev, heads) -> bool:
    """Naked single: if cell i holds one tile only, no other cell may hold it. False on a wipe-out.

    One return, after a read of every array: numba counts references to an array argument whose last use
    is not on every path, on every call (x1.4 for this method, docs/exact_results.md
    "Reference counts in the exact kernels")."""
    ok = True
    if cellv[i, NTILES] == 1:
        word = 0
        while not dom[i, word]:
            word += 1
        bits = _tiles(dom[i, word]) * FOUR
        for j in range(dom.shape[0]):
            rem = dom[j, word] & bits
            if j != i and rem and not _remove(j, word, rem, pcol, dom, cnt, lost, trail, cellv, tilev, heads):
                ok = False
                break
    _ = pcol.shape, dom.shape, cnt.shape, lost.shape, trail.shape, cellv.shape, tilev.shape, heads.shape
    return ok


@njit(cache=True, inline="always")
def _hidden_singles(pcol, dom, cnt, lost, trail, cellv, tilev, heads) -> bool:
    """The tiles whose holders fell to one or none: none is a contradiction (every tile must be
    placed), one pins that cell to the tile. One return, as ``_settle``."""
    ok = True
    while heads[TOP] > 0:
        heads[TOP] -= 1
        t = tilev[heads[TOP], STACK]
        tilev[t, FLAGGED] = 0
        if tilev[t, HOLDERS] == 0:
            ok = False
            break
        w, bits = (4 * t) >> 6, FOUR << np.uint64((4 * t) & 63)
        if tilev[t, HOLDERS] == 1:
            j = 0
            while not dom[j, w] & bits:
                j += 1
            if cellv[j, NTILES] > 1:
                for ww in range(dom.shape[1]):  # keeps the tile, so the domain never empties here
                    other = dom[j, ww] & ~bits if ww == w else dom[j, ww]
                    if other:
                        _remove(j, ww, other, pcol, dom, cnt, lost, trail, cellv, tilev, heads)
    _ = pcol.shape, dom.shape, cnt.shape, lost.shape, trail.shape, cellv.shape, tilev.shape, heads.shape
    return ok


@njit(cache=True)
def propagate(nbr, smask, pcol, dom, cnt, lost, trail, cellv, tilev, heads) -> bool:
    """Run the three rules to their fixpoint from the queued cells; False on a contradiction
    (the cell queue, the pending colour losses and the tile stack are then cleared)."""
    n, W = dom.shape
    ok = True
    while ok:
        while heads[QSIZE] > 0 and ok:
            i = cellv[heads[QHEAD], RING]
            heads[QHEAD] = heads[QHEAD] + 1 if heads[QHEAD] + 1 < n else 0
            heads[QSIZE] -= 1
            cellv[i, QUEUED] = 0
            ok = _settle(i, pcol, dom, cnt, lost, trail, cellv, tilev, heads)
            for s in range(4):
                gone = lost[i, s]
                if not ok or not gone:
                    continue
                lost[i, s] = 0
                j, o = nbr[i, s], (s + 2) & 3
                if j < 0:
                    continue
                for w in range(W):
                    drop = np.uint64(0)
                    x = gone
                    while x:
                        drop |= smask[o, _lowest(x), w]
                        x &= x - np.uint64(1)
                    drop &= dom[j, w]
                    if drop and not _remove(j, w, drop, pcol, dom, cnt, lost, trail, cellv, tilev, heads):
                        ok = False
                        break
        if ok:
            ok = _hidden_singles(pcol, dom, cnt, lost, trail, cellv, tilev, heads)
            if ok and heads[QSIZE] == 0:
                return True
    cellv[:, QUEUED] = 0
    heads[QHEAD], heads[QSIZE] = 0, 0
    lost[:, :] = 0
    tilev[:, FLAGGED] = 0
    heads[TOP] = 0
    return False


@njit(cache=True)
def open_level(d, order, params, dom, cellv, heads, levels_state) -> None:
    """Choose level d's cell (fewest placements, or the static order), mark the trail, list its values."""
    branched, lcell, mark, cstart, ccount, cidx, cand = levels_state
    if params[Q_ORDER] == MINDOMAIN:
        cell, best = -1, 1 << 40
        for i in range(dom.shape[0]):
            if not branched[i] and cellv[i, SIZE] < best:
                cell, best = i, cellv[i, SIZE]
    else:
        cell = order[d]
    branched[cell] = 1
    lcell[d] = cell
    mark[d] = heads[TRAIL]
    cstart[d] = 0 if d == 0 else cstart[d - 1] + ccount[d - 1]
    count = 0
    for w in range(dom.shape[1]):
        x = dom[cell, w]
        while x:
            cand[cstart[d] + count] = w * 64 + _lowest(x)
            x &= x - np.uint64(1)
            count += 1
    ccount[d] = count
    cidx[d] = 0


@njit(cache=True)
def search(M, S, budget) -> int:
    """Run at most ``budget`` nodes; return BUDGET, SOLUTION (every cell placed) or DONE."""
    nbr, smask, pcol, order, params = M
    dom, cnt, lost, trail, cellv, tilev, heads, levels_state, ctl = S
    branched, lcell, mark, cstart, ccount, cidx, cand = levels_state
    levels, vmode, stop = params[Q_LEVELS], params[Q_VALUE], params[Q_STOP]
    if ctl[C_DONE]:
        return DONE
    d = ctl[C_DEPTH]
    spent = 0
    while True:
        if cidx[d] < ccount[d]:
            if spent >= budget:
                ctl[C_DEPTH] = d
                return BUDGET
            v = cand[cstart[d] + _value_position(cidx[d], ccount[d], vmode)]
            cidx[d] += 1
            i = lcell[d]
            _undo(mark[d], pcol, dom, cnt, trail, cellv, tilev, heads)
            for w in range(dom.shape[1]):
                other = dom[i, w] & ~(np.uint64(1) << np.uint64(v & 63)) if w == v >> 6 else dom[i, w]
                if other:
                    _remove(i, w, other, pcol, dom, cnt, lost, trail, cellv, tilev, heads)
            ctl[C_NODES] += 1
            spent += 1
            if not propagate(nbr, smask, pcol, dom, cnt, lost, trail, cellv, tilev, heads):
                continue
            if d + 1 == levels:
                ctl[C_SOLUTIONS] += 1
                if stop:
                    ctl[C_DEPTH] = d
                    return SOLUTION
                continue
            d += 1
            open_level(d, order, params, dom, cellv, heads, levels_state)
        else:
            ctl[C_BACKTRACKS] += 1
            branched[lcell[d]] = 0
            if d == 0:
                ctl[C_DONE] = 1
                return DONE
            d -= 1
