"""ColorPair bookkeeping of paper 000 in numba: board state, offer/demand counts, O(1) per placement.

Offer(p) = unused tiles showing pair p; Demand(p) = empty cells whose known sides (placed neighbours
or the rim, colour 0) form pair p. ``place`` and ``unplace`` update both in O(1); ``pair_failure``
finds a pair with more demand than offer among the few whose counts just changed; ``explain_pair``
names the levels responsible (the neighbours forming the demands, the cells of the used tiles), as
in paper 000 section 5.2, for conflict-directed backjumping. The model tuple M and state tuple S are
built by search.py; their layouts are the unpacking lines below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# params indices (M[-1])
P_K, P_LEVELS, P_ORDER, P_VALUE, P_FILTER, P_BACKJUMP, P_TRACK, P_CHESS, P_STOP, P_WORDS, P_SHAVE = range(11)
ONE = np.uint64(1)


@njit(cache=True)
def add_level(mask: np.ndarray, level: int) -> None:
    """Put ``level`` into the bit set ``mask`` (levels < 0 are fixed cells and never blamed)."""
    if level >= 0:
        mask[level >> 6] |= ONE << np.uint64(level & 63)


@njit(cache=True)
def _remove_slot(i, j, slot, dem, dem_list, dem_pos):
    """Cell i stops demanding through slot j; it leaves Demand(p) if no other slot still asks for p.

    The slot helpers return in one place and end by reading every array they were given: numba counts
    references to an array argument whose last use is under a condition (or differs between returns) on
    every call, and these run a few times per node (x1.4 colorpairs' rate, docs/exact_results.md
    "Reference counts in the exact kernels")."""
    p = slot[i, j]
    slot[i, j] = -1
    asked = False
    for jj in range(6):
        if slot[i, jj] == p:
            asked = True
    if not asked:
        pos = dem_pos[i, p]
        last = dem_list[p, dem[p] - 1]
        dem_list[p, pos] = last
        dem_pos[last, p] = pos
        dem[p] -= 1
    _ = dem.shape, dem_list.shape, dem_pos.shape  # the last use of each array (see the docstring)


@njit(cache=True)
def _add_slot(i, j, p, slot, dem, dem_list, dem_pos):
    """Cell i demands pair p through slot j (counted once per cell)."""
    present = False
    for jj in range(6):
        if slot[i, jj] == p:
            present = True
    slot[i, j] = p
    if not present:
        dem_list[p, dem[p]] = i
        dem_pos[i, p] = dem[p]
        dem[p] += 1
    _ = dem.shape, dem_list.shape, dem_pos.shape  # the last use of each array (see _remove_slot)


@njit(cache=True)
def refresh_slots(i, K, kc, slot, dem, dem_list, dem_pos):
    """Recompute the pairs empty cell i demands from its known sides: 4 clockwise, 2 opposite slots."""
    for j in range(6):
        p = -1
        if j < 4:
            a, b = kc[i, j], kc[i, (j + 1) & 3]
            if a >= 0 and b >= 0:
                p = a * K + b
        else:
            a, b = kc[i, j - 4], kc[i, j - 2]
            if a >= 0 and b >= 0:
                p = K * K + min(a, b) * K + max(a, b)
        if slot[i, j] != p:
            if slot[i, j] >= 0:
                _remove_slot(i, j, slot, dem, dem_list, dem_pos)
            if p >= 0:
                _add_slot(i, j, p, slot, dem, dem_list, dem_pos)
    _ = kc.shape, dem.shape, dem_list.shape, dem_pos.shape  # the last use of each array (see _remove_slot)


@njit(cache=True)
def clear_slots(i, slot, dem, dem_list, dem_pos):
    """Cell i is filled: it demands nothing."""
    for j in range(6):
        if slot[i, j] >= 0:
            _remove_slot(i, j, slot, dem, dem_list, dem_pos)
    _ = dem.shape, dem_list.shape, dem_pos.shape  # the last use of each array (see _remove_slot)


@njit(cache=True)
def place(i, t, r, level, M, S):
    """Put tile t turned r at cell i (search level ``level``); neighbours learn the colours it shows."""
    pieces, nbr, tile_pairs, params = M[0], M[1], M[5], M[-1]
    cell_tile, cell_rot, tile_cell, lev, kc, nknown, offer, dem, slot, dem_list, dem_pos = S[:11]
    cell_tile[i] = t
    cell_rot[i] = r
    tile_cell[t] = i
    lev[i] = level
    for s in range(4):
        nb = nbr[i, s]
        if nb >= 0 and cell_tile[nb] < 0:
            kc[nb, (s + 2) & 3] = pieces[t, (s - r) & 3]
            nknown[nb] += 1
    if params[P_TRACK]:
        K = params[P_K]
        for j in range(6):
            q = tile_pairs[t, j]
            if q >= 0:
                offer[q] -= 1
        clear_slots(i, slot, dem, dem_list, dem_pos)
        for s in range(4):
            nb = nbr[i, s]
            if nb >= 0 and cell_tile[nb] < 0:
                refresh_slots(nb, K, kc, slot, dem, dem_list, dem_pos)


@njit(cache=True)
def unplace(i, M, S):
    """Take the tile off cell i: the exact reverse of place."""
    nbr, tile_pairs, params = M[1], M[5], M[-1]
    cell_tile, cell_rot, tile_cell, lev, kc, nknown, offer, dem, slot, dem_list, dem_pos = S[:11]
    t = cell_tile[i]
    cell_tile[i] = -1
    cell_rot[i] = -1
    tile_cell[t] = -1
    lev[i] = -1
    for s in range(4):
        nb = nbr[i, s]
        if nb >= 0 and cell_tile[nb] < 0:
            kc[nb, (s + 2) & 3] = -1
            nknown[nb] -= 1
    if params[P_TRACK]:
        K = params[P_K]
        for j in range(6):
            q = tile_pairs[t, j]
            if q >= 0:
                offer[q] += 1
        refresh_slots(i, K, kc, slot, dem, dem_list, dem_pos)
        for s in range(4):
            nb = nbr[i, s]
            if nb >= 0 and cell_tile[nb] < 0:
                refresh_slots(nb, K, kc, slot, dem, dem_list, dem_pos)


@njit(cache=True)
def pair_failure(i, M, S) -> int:
    """A pair with Offer < Demand among those the placement at cell i changed, or -1."""
    nbr, tile_pairs = M[1], M[5]
    cell_tile, offer, dem, slot = S[0], S[6], S[7], S[8]
    t = cell_tile[i]
    for j in range(6):
        q = tile_pairs[t, j]
        if q >= 0 and offer[q] < dem[q]:
            return q
    for s in range(4):
        nb = nbr[i, s]
        if nb >= 0 and cell_tile[nb] < 0:
            for j in range(6):
                q = slot[nb, j]
                if q >= 0 and offer[q] < dem[q]:
                    return q
    return -1


@njit(cache=True)
def any_pair_failure(M, S) -> int:
    """A pair with Offer < Demand anywhere, or -1 (checked once after the fixed cells are placed)."""
    offer, dem = S[6], S[7]
    for q in range(offer.shape[0]):
        if offer[q] < dem[q]:
            return q
    return -1


@njit(cache=True)
def explain_pair(q, mask, M, S) -> None:
    """Add to ``mask`` the levels that make Offer(q) < Demand(q): the neighbours forming each demand
    and the cells holding the used tiles with pair q (paper 000 section 5.2)."""
    nbr, ptile_start, ptile = M[1], M[6], M[7]
    tile_cell, lev, dem, slot, dem_list = S[2], S[3], S[7], S[8], S[9]
    for e in range(dem[q]):
        c = dem_list[q, e]
        for j in range(6):
            if slot[c, j] != q:
                continue
            s1, s2 = (j, (j + 1) & 3) if j < 4 else (j - 4, j - 2)
            for s in (s1, s2):
                nb = nbr[c, s]
                if nb >= 0:
                    add_level(mask, lev[nb])
    for e in range(ptile_start[q], ptile_start[q + 1]):
        c = tile_cell[ptile[e]]
        if c >= 0:
            add_level(mask, lev[c])
