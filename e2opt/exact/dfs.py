"""The shared numba depth-first search: explicit stack, candidate tables, variable and value orders.

One kernel serves plain DFS (no filtering), colorpairs (paper 000 filtering + backjumping) and the
black-cell search of the chessboard scheme. ``search`` runs until a node budget is spent, a
solution (or chessboard leaf) is reached, or the tree is exhausted, and keeps its whole state in the
arrays of S, so Python can print progress, check limits and handle Ctrl-C between calls.
A node is one placement tried; a backtrack is one level given up (a backjump counts once).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .colorpairs import (
    P_BACKJUMP,
    P_CHESS,
    P_FILTER,
    P_K,
    P_LEVELS,
    P_ORDER,
    P_SHAVE,
    P_STOP,
    P_VALUE,
    add_level,
    explain_pair,
    pair_failure,
    place,
    unplace,
)
from .model import MINDOMAIN, MINGAP, VMAX, VMID

C_DEPTH, C_NODES, C_BACKTRACKS, C_SOLUTIONS, C_PHASE, C_DONE = range(6)
BUDGET, SOLUTION, DONE = 0, 1, 2  # what search() returns


@njit(cache=True)
def candidates(i, out, write, mask, M, S) -> int:
    """Placements fitting cell i's known sides with an unused tile; written at ``out`` if ``write``.

    The table key is the first known clockwise pair, else an opposite pair, else one colour. With a
    ``mask`` (size > 0) the levels that exclude a placement are added: placed neighbours and the
    cells of used tiles that would fit.
    """
    pieces, nbr, tab_start, tab_tile, tab_k, forbid, params = M[0], M[1], M[2], M[3], M[4], M[8], M[-1]
    tile_cell, lev, kc, ctile, crot = S[2], S[3], S[4], S[15], S[16]
    K = params[P_K]
    key, s0 = -1, 0
    for s in range(4):
        if kc[i, s] >= 0 and kc[i, (s + 1) & 3] >= 0:
            key, s0 = kc[i, s] * K + kc[i, (s + 1) & 3], s
            break
    if key < 0:
        for s in range(2):
            if kc[i, s] >= 0 and kc[i, s + 2] >= 0:
                key, s0 = K * K + kc[i, s] * K + kc[i, s + 2], s
                break
    if key < 0:
        for s in range(4):
            if kc[i, s] >= 0:
                key, s0 = 2 * K * K + kc[i, s], s
                break
    if key < 0:
        key = 2 * K * K + K
    explain = mask.shape[0] > 0
    count = 0
    for e in range(tab_start[key], tab_start[key + 1]):
        t = tab_tile[e]
        r = (s0 - tab_k[e]) & 3
        if forbid[i] == t:
            continue
        ok = True
        for s in range(4):
            colour = pieces[t, (s - r) & 3]
            if (kc[i, s] >= 0 and colour != kc[i, s]) or (kc[i, s] < 0 and colour == 0):
                ok = False
                break
        if not ok:
            continue
        if tile_cell[t] >= 0:
            if explain:
                add_level(mask, lev[tile_cell[t]])
            continue
        if write:
            ctile[out + count] = t
            crot[out + count] = r
        count += 1
    if explain:
        for s in range(4):
            nb = nbr[i, s]
            if nb >= 0 and S[0][nb] >= 0:
                add_level(mask, lev[nb])
    return count


@njit(cache=True)
def _expected_gap_cell(M, S) -> int:
    """MinExpectedGap (paper 000 section 5.1): the demanded clockwise pair minimising
    E|Offer| - |Demand|, and its lowest demanding cell; -1 if no pair is demanded."""
    tile_pairs, ptile_start, ptile, params = M[5], M[6], M[7], M[-1]
    tile_cell, offer, dem, dem_list = S[2], S[6], S[7], S[9]
    K = params[P_K]
    best_p, best_gap = -1, np.inf
    for p in range(K * K):
        if dem[p] == 0:
            continue
        expected = 0.0
        for e in range(ptile_start[p], ptile_start[p + 1]):
            t = ptile[e]
            if tile_cell[t] >= 0:
                continue
            prob = 1.0
            for j in range(6):
                q = tile_pairs[t, j]
                if q >= 0 and q != p and dem[q] > 0:
                    prob *= 1.0 - dem[q] / offer[q]
            expected += prob
        gap = expected - dem[p]
        if gap < best_gap:
            best_p, best_gap = p, gap
    if best_p < 0:
        return -1
    cell = dem_list[best_p, 0]
    for e in range(1, dem[best_p]):
        cell = min(cell, dem_list[best_p, e])
    return cell


@njit(cache=True)
def select(level, M, S) -> int:
    """The cell to branch on at ``level``: static order, min domain, or patterns + MinExpectedGap."""
    branch, order, params = M[9], M[10], M[-1]
    cell_tile, nknown = S[0], S[5]
    mode = params[P_ORDER]
    if mode != MINDOMAIN and mode != MINGAP:
        return order[level]
    empty = S[17][0, :0]  # a zero-size view: no mask wanted, and no allocation per node
    best, best_key = -1, 1 << 40
    for i in range(branch.shape[0]):
        if not branch[i] or cell_tile[i] >= 0:
            continue
        if mode == MINDOMAIN:  # cells with fewer than two known sides only when no other is left
            key = (1 << 30) - nknown[i] if nknown[i] < 2 else candidates(i, 0, False, empty, M, S)
        else:
            key = 4 - nknown[i] if nknown[i] >= 3 else 1 << 30
        if key < best_key:
            best, best_key = i, key
            if key == 0:
                break
    if mode == MINGAP and best_key >= 1 << 30:
        cell = _expected_gap_cell(M, S)
        if cell >= 0:
            return cell
        best, best_key = -1, 1 << 40
        for i in range(branch.shape[0]):
            if branch[i] and cell_tile[i] < 0 and 4 - nknown[i] < best_key:
                best, best_key = i, 4 - nknown[i]
    return best


@njit(cache=True)
def _value_position(idx, count, mode) -> int:
    """Where the idx-th value tried sits in the candidate list: ascending, descending, middle-out."""
    if mode == VMAX:
        return count - 1 - idx
    if mode == VMID:
        centre, k = (count - 1) // 2, (idx + 1) // 2
        return centre + k if idx % 2 == 1 else centre - k
    return idx


@njit(cache=True)
def dead_neighbour(i, mask, M, S) -> bool:
    """Chessboard: a white neighbour of cell i, all four sides known, that no unused tile fits.

    (The black search never branches on white cells, so they are checked here; the levels to blame
    go to ``mask``, size 0 when not wanted.)
    """
    nbr, branch = M[1], M[9]
    cell_tile, nknown = S[0], S[5]
    for s in range(4):
        nb = nbr[i, s]
        if nb < 0 or cell_tile[nb] >= 0 or branch[nb] or nknown[nb] < 4:
            continue
        if candidates(nb, 0, False, mask, M, S) == 0:
            return True
    return False


@njit(cache=True)
def shaved(i, d, mask, M, S) -> bool:
    """Shaving (paper 000 section 6.2), for contradictions: an empty neighbour of cell i with two or
    more known sides and at most P_SHAVE candidates, each of which fails the ColorPair check once
    placed. The levels to blame go to ``mask`` (size 0 when not wanted); the trial placements are
    not counted as nodes. Needs d + 1 < levels: the next level's candidate space and conflict set
    are its scratch (the next level resets both when it opens)."""
    nbr, branch, params = M[1], M[9], M[-1]
    cell_tile, nknown, cstart, ccount, ctile, crot = S[0], S[5], S[12], S[13], S[15], S[16]
    base = cstart[d] + ccount[d]
    explain = mask.shape[0] > 0
    why = S[17][d + 1] if explain else mask
    for s in range(4):
        c = nbr[i, s]
        if c < 0 or cell_tile[c] >= 0 or not branch[c] or nknown[c] < 2:
            continue
        why[:] = 0
        count = candidates(c, base, True, why, M, S)
        if count > params[P_SHAVE]:
            continue
        alive = False
        for e in range(base, base + count):
            place(c, ctile[e], crot[e], d, M, S)
            q = pair_failure(c, M, S)
            if q >= 0 and explain:
                explain_pair(q, why, M, S)
            unplace(c, M, S)
            if q < 0:
                alive = True
                break
        if not alive:
            if explain:
                for w in range(mask.shape[0]):
                    mask[w] |= why[w]
            return True
    return False


@njit(cache=True)
def open_level(level, M, S) -> None:
    """Choose the cell of ``level`` and push its candidates (and, with backjumping, why others are out)."""
    params = M[-1]
    lcell, cstart, ccount, cidx, conf = S[11], S[12], S[13], S[14], S[17]
    cell = select(level, M, S)
    lcell[level] = cell
    cstart[level] = 0 if level == 0 else cstart[level - 1] + ccount[level - 1]
    conf[level, :] = 0
    mask = conf[level] if params[P_BACKJUMP] else conf[level, :0]
    ccount[level] = candidates(cell, cstart[level], True, mask, M, S)
    cidx[level] = 0


@njit(cache=True)
def _highest_below(mask, level) -> int:
    """The highest level < ``level`` in the bit set, or -1."""
    for h in range(level - 1, -1, -1):
        if (mask[h >> 6] >> np.uint64(h & 63)) & np.uint64(1):
            return h
    return -1


@njit(cache=True)
def search(M, S, budget) -> int:
    """Run at most ``budget`` nodes; return BUDGET, SOLUTION (board full, or chessboard leaf) or DONE."""
    params = M[-1]
    lcell, cstart, ccount, cidx, ctile, crot, conf, ctl = S[11:19]
    levels, vmode = params[P_LEVELS], params[P_VALUE]
    filtering, backjump, chess, stop = params[P_FILTER], params[P_BACKJUMP], params[P_CHESS], params[P_STOP]
    if ctl[C_DONE]:
        return DONE
    empty = conf[0, :0]
    d = ctl[C_DEPTH]
    if ctl[C_PHASE] == 1:
        unplace(lcell[d], M, S)
        ctl[C_PHASE] = 0
    spent = 0
    while True:
        if cidx[d] < ccount[d]:
            if spent >= budget:
                ctl[C_DEPTH] = d
                return BUDGET
            pos = cstart[d] + _value_position(cidx[d], ccount[d], vmode)
            cidx[d] += 1
            i = lcell[d]
            place(i, ctile[pos], crot[pos], d, M, S)
            ctl[C_NODES] += 1
            spent += 1
            if filtering:
                q = pair_failure(i, M, S)
                if q >= 0:
                    if backjump:
                        explain_pair(q, conf[d], M, S)
                    unplace(i, M, S)
                    continue
            if chess and dead_neighbour(i, conf[d] if backjump else empty, M, S):
                unplace(i, M, S)
                continue
            if params[P_SHAVE] > 0 and d + 1 < levels and shaved(i, d, conf[d] if backjump else empty, M, S):
                unplace(i, M, S)
                continue
            if d + 1 == levels:
                ctl[C_SOLUTIONS] += 1
                if backjump:
                    for h in range(d):
                        add_level(conf[d], h)
                if stop:
                    ctl[C_PHASE] = 1
                    ctl[C_DEPTH] = d
                    return SOLUTION
                unplace(i, M, S)
                continue
            d += 1
            open_level(d, M, S)
        else:
            ctl[C_BACKTRACKS] += 1
            h = _highest_below(conf[d], d) if backjump else d - 1
            if h < 0:
                ctl[C_DONE] = 1
                ctl[C_DEPTH] = 0
                return DONE
            for level in range(d - 1, h - 1, -1):
                unplace(lcell[level], M, S)
            if backjump:
                for w in range(conf.shape[1]):
                    conf[h, w] |= conf[d, w]
                for level in range(h, d + 1):
                    conf[h, level >> 6] &= ~(np.uint64(1) << np.uint64(level & 63))
            d = h
    return DONE
