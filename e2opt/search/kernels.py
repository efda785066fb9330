"""Numba hot loops of the tabu search: random numbers, choosing holes, the cost matrix, applying a move.

All kernels work on the flat arrays of ``FlatPuzzle`` and ``SearchState`` and write into buffers
allocated once by the caller, so a move allocates nothing. ``colour[c, s]`` (the colour cell c shows
on side s) and ``mis[c]`` (mismatched joins of cell c) are kept up to date move by move.
Randomness comes from the shared splitmix64 stream (kernels/rng.py), one integer that checkpoints with
the state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.rng import below, between, next_u64, uniform
from .flat import ANY_ROTATION

FORBIDDEN = 1.0e6  # cost of a piece in a hole it cannot fit (wrong kind / grey not to the rim)
RANDOM, BIASED, CHECKERBOARD = 0, 1, 2  # hole selection modes
CLASSES = 5  # a cell has 0..4 mismatched joins: the biased selection keeps one pool per count

_LOW16 = np.uint64(0xFFFF)


@njit(cache=True)
def recompute(piece, rot, oriented, nbr, colour, mis) -> int:
    """Fill colour and mis from scratch and return the score (matched joins, each counted once)."""
    n = piece.shape[0]
    for c in range(n):
        for s in range(4):
            colour[c, s] = oriented[piece[c], rot[c], s]
    score = 0
    for c in range(n):
        bad = 0
        for s in range(4):
            d = nbr[c, s]
            if d >= 0:
                if colour[c, s] != colour[d, (s + 2) & 3]:
                    bad += 1
                elif s == 1 or s == 2:
                    score += 1
        mis[c] = bad
    return score


@njit(cache=True)
def select_holes(
    mode, kmin, kmax, bias, it, movable, parity, mis, tabu_cells, nbr, rng, pool, count, mark, holes
):
    """Choose pairwise non-edge-adjacent, movable, non-tabu cells into holes[:k]; return k.

    RANDOM and BIASED draw cells one at a time without replacement, a cell with m mismatched joins
    with weight 1 + bias * m (RANDOM: weight 1), skipping cells next to one already taken, until k
    (uniform in [kmin, kmax]) are taken or none is left. Cells are pooled by m, so one draw is O(1).
    CHECKERBOARD takes every movable non-tabu cell with (r + c) % 2 == it % 2 (paper 002's BW).
    """
    n = movable.shape[0]
    if mode == CHECKERBOARD:
        k = 0
        side = it % 2
        for c in range(n):
            if movable[c] and tabu_cells[c] <= it and parity[c] == side:
                holes[k] = c
                k += 1
        return k
    for m in range(CLASSES):
        count[m] = 0
    for c in range(n):
        if movable[c] and tabu_cells[c] <= it:
            m = mis[c] if mode == BIASED else 0
            pool[m, count[m]] = c
            count[m] += 1
    k = between(rng, kmin, kmax)
    stamp = it + 1  # unique per move: mark[c] == stamp means taken or next to a taken cell
    taken = 0
    while taken < k:
        total = 0.0
        for m in range(CLASSES):
            total += count[m] * (1.0 + bias * m)
        if total <= 0.0:
            break
        x = uniform(rng) * total
        m = 0
        while m < CLASSES - 1 and x >= count[m] * (1.0 + bias * m):
            x -= count[m] * (1.0 + bias * m)
            m += 1
        while count[m] == 0:  # rounding can land past the last non-empty pool
            m -= 1
        i = below(rng, count[m])
        c = pool[m, i]
        count[m] -= 1
        pool[m, i] = pool[m, count[m]]
        if mark[c] == stamp:
            continue
        holes[taken] = c
        taken += 1
        mark[c] = stamp
        for s in range(4):
            if nbr[c, s] >= 0:
                mark[nbr[c, s]] = stamp
    return taken


def _rotation_counts() -> np.ndarray:
    """COUNTS[t, m]: for a piece side t whose colour is needed on the sides in mask m, the matches it
    makes at rotation r = 0..3, packed as one 4-bit count per rotation (side t lands on (t + r) % 4)."""
    table = np.zeros((4, 16), dtype=np.int64)
    for t in range(4):
        for m in range(16):
            table[t, m] = sum(((m >> ((t + r) % 4)) & 1) << (4 * r) for r in range(4))
    return table


COUNTS = _rotation_counts()


@njit(cache=True)
def build_costs(
    k,
    it,
    penalty,
    noise_amp,
    holes,
    piece,
    colour,
    nbr,
    rimmask,
    fit,
    sides,
    tabu_arcs,
    rng,
    need,
    lifted,
    rots,
    cost,
):
    """Cost matrix of the assignment: cost[i*k + j] for the piece lifted from holes[j] put in holes[i].

    Weight = matched joins at the piece's best fitting rotation (kept in rots, lowest rotation on
    ties) against the fixed neighbours; cost = -weight, + penalty when the arc holes[j] -> holes[i]
    is in tabu list 2, FORBIDDEN when the piece cannot fit. Each cost also gets -u * noise_amp, u uniform
    in [0, 1) (16 random bits). With noise_amp = 1/k (tie noise) the noise of a whole assignment is below
    one join, so it only breaks ties between assignments of equal (penalised) weight, at random, and never
    trades away a matched join; a larger amplitude (cost noise) lets a move give up joins now and then.
    Matches of all four rotations are counted at once: need[colour] = mask of the hole's sides whose
    neighbour shows that colour, and COUNTS turns it into packed per-rotation counts.
    """
    for j in range(k):
        lifted[j] = piece[holes[j]]
    scale = noise_amp / 65536.0  # noise: 16 random bits per entry, four entries per 64-bit draw
    bits = np.uint64(0)
    left = 0
    for i in range(k):
        c = holes[i]
        rm = rimmask[c]
        for s in range(4):
            if nbr[c, s] >= 0:
                need[colour[nbr[c, s], (s + 2) & 3]] |= 1 << s
        row = i * k
        for j in range(k):
            p = lifted[j]
            f = fit[p, rm]
            if f < 0:
                cost[row + j] = FORBIDDEN
                rots[row + j] = 0
                continue
            packed = (
                COUNTS[0, need[sides[p, 0]]]
                + COUNTS[1, need[sides[p, 1]]]
                + COUNTS[2, need[sides[p, 2]]]
                + COUNTS[3, need[sides[p, 3]]]
            )
            if f == ANY_ROTATION:
                best, best_rot = packed & 15, 0
                for r in range(1, 4):
                    w = (packed >> (4 * r)) & 15
                    if w > best:
                        best, best_rot = w, r
            else:
                best, best_rot = (packed >> (4 * f)) & 15, f
            rots[row + j] = best_rot
            x = -float(best)
            if tabu_arcs[c, holes[j]] > it:
                x += penalty
            if noise_amp > 0.0:
                if left == 0:
                    bits = next_u64(rng)
                    left = 4
                x -= float(bits & _LOW16) * scale
                bits >>= np.uint64(16)
                left -= 1
            cost[row + j] = x
        for s in range(4):
            if nbr[c, s] >= 0:
                need[colour[nbr[c, s], (s + 2) & 3]] = 0


@njit(cache=True)
def apply_assignment(
    k,
    it,
    assign,
    holes,
    lifted,
    rots,
    piece,
    rot,
    colour,
    mis,
    nbr,
    oriented,
    tabu_cells,
    tabu_arcs,
    tenures,
    rng,
) -> int:
    """Put lifted[assign[i]] into holes[i] at its best rotation; update colour, mis and both tabu lists.

    Returns the score change. Holes are pairwise non-adjacent, so each join touches at most one hole
    and only holes and their neighbours change. ``tenures`` = (t1min, t1max, t2min, t2max): each hole
    becomes tabu (list 1) and each moved piece's reverse arc is penalised (list 2) for a tenure drawn
    in those bounds.
    """
    delta = 0
    for i in range(k):
        c = holes[i]
        j = assign[i]
        p = lifted[j]
        r = rots[i * k + j]
        delta += set_cell(c, p, r, piece, rot, colour, mis, nbr, oriented)
        tabu_cells[c] = it + 1 + between(rng, tenures[0], tenures[1])
        if j != i:
            tabu_arcs[holes[j], c] = it + 1 + between(rng, tenures[2], tenures[3])
    return delta


@njit(cache=True)
def diversify(swaps, by_kind, kind_start, cell_kind, piece, rot, rimmask, greymask, rng):
    """Make ``swaps`` random swap-and-rotate moves between movable cells of the same kind.

    Each swapped piece gets a random rotation among those that fit its new cell. The caller
    recomputes colour, mis and score afterwards.
    """
    total = by_kind.shape[0]
    if total == 0:
        return
    for _ in range(swaps):
        a = by_kind[below(rng, total)]
        g = cell_kind[a]
        b = by_kind[kind_start[g] + below(rng, kind_start[g + 1] - kind_start[g])]
        pa = piece[a]
        piece[a] = piece[b]
        piece[b] = pa
        for c in (a, b):
            options = 0
            for r in range(4):
                if greymask[piece[c], r] == rimmask[c]:
                    options += 1
            pick = below(rng, options)
            for r in range(4):
                if greymask[piece[c], r] == rimmask[c]:
                    if pick == 0:
                        rot[c] = r
                        break
                    pick -= 1


@njit(cache=True)
def set_cell(c, p, r, piece, rot, colour, mis, nbr, oriented) -> int:
    """Put piece p at rotation r on cell c; update colour and mis; return the score change.

    Exact for any sequence of calls, adjacent cells included: each call compares c's four sides with
    the colours its neighbours show at that moment.
    """
    delta = 0
    bad = 0
    for s in range(4):
        new = oriented[p, r, s]
        d = nbr[c, s]
        if d >= 0:
            facing = colour[d, (s + 2) & 3]
            was = colour[c, s] == facing
            now = new == facing
            if was != now:
                delta += 1 if now else -1
                mis[d] += -1 if now else 1
            if not now:
                bad += 1
        colour[c, s] = new
    mis[c] = bad
    piece[c] = p
    rot[c] = r
    return delta


@njit(cache=True)
def place_cells(cells, pieces, rots, piece, rot, colour, mis, nbr, oriented) -> int:
    """set_cell for each (cells[i], pieces[i], rots[i]) in turn; the total score change."""
    delta = 0
    for i in range(cells.shape[0]):
        delta += set_cell(cells[i], pieces[i], rots[i], piece, rot, colour, mis, nbr, oriented)
    return delta
