"""Numba kernel of the repair moves: simulated annealing over swaps and rotations of a destroyed cell set.

The annealing works on the board itself (``set_cell`` keeps colours, mismatches and the score change exact,
joins with the fixed cells around the set included), so a step costs a few array reads. Pieces move only
between cells of the same kind (corner, edge, inner) and each lands at a rotation that fits its cell, so the
board always obeys the kind and rim rules; hint cells are never in the set. A cell may end with any number of
mismatched sides: nothing caps them (the strongest public 460 boards hold cells with two).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..flat import ANY_ROTATION
from ..kernels import below, set_cell, uniform

KINDS = 3  # corner, edge, inner (FlatPuzzle.cell_kind)
BEST, ACCEPTED = 0, 1  # entries of the kernel's stats array


@njit(cache=True)
def best_rotation(p, c, rimmask, fit, nbr, colour, oriented) -> int:
    """The rotation of piece p on cell c matching most of the colours c's neighbours show now (lowest on ties)."""
    f = fit[p, rimmask[c]]
    if f != ANY_ROTATION:
        return f
    best, best_r = -1, 0
    for r in range(4):
        m = 0
        for s in range(4):
            d = nbr[c, s]
            if d >= 0 and oriented[p, r, s] == colour[d, (s + 2) & 3]:
                m += 1
        if m > best:
            best, best_r = m, r
    return best_r


@njit(cache=True)
def group_by_kind(cells, cell_kind, group, gstart) -> None:
    """Write cells into group ordered by kind (stable); the cells of kind g are group[gstart[g]:gstart[g+1]]."""
    for g in range(KINDS + 1):
        gstart[g] = 0
    for i in range(cells.shape[0]):
        gstart[cell_kind[cells[i]] + 1] += 1
    for g in range(KINDS):
        gstart[g + 1] += gstart[g]
    fill = gstart[:KINDS].copy()
    for i in range(cells.shape[0]):
        g = cell_kind[cells[i]]
        group[fill[g]] = cells[i]
        fill[g] += 1


@njit(cache=True)
def anneal(
    cells,
    steps,
    t_start,
    factor,
    rotate_p,
    shuffle,
    floor,
    cell_kind,
    rimmask,
    fit,
    nbr,
    oriented,
    piece,
    rot,
    colour,
    mis,
    rng,
    group,
    gstart,
    saved,
    best_cfg,
    stats,
) -> int:
    """Repair ``cells`` (movable, distinct) by annealing; leave the best configuration seen; the score change.

    ``shuffle``: first deal the set's pieces at random among its cells of their kind (random rotations on inner
    cells): the destroy. Then ``steps`` steps at temperature t_start * factor**step: pick a cell a of the set;
    an inner cell is turned to one of its other three rotations with probability ``rotate_p`` (always when it
    is the set's only inner cell), otherwise its piece is swapped with that of a random set cell of its kind,
    each piece at its best rotation against the colours around it then. A loss of d joins is kept with
    probability exp(-d / T). The best configuration seen after the shuffle is put back at the end; with
    ``floor`` (tabu acceptance) the input is put back instead when that best is below it, so the change is
    never negative. stats[BEST]: the best seen (relative to the input), stats[ACCEPTED]: steps kept.
    Buffers: group (len(cells)), gstart (4), saved and best_cfg (2, len(cells)), stats (2).
    """
    k = cells.shape[0]
    group_by_kind(cells, cell_kind, group, gstart)
    for i in range(k):
        saved[0, i], saved[1, i] = piece[group[i]], rot[group[i]]
    cur = 0
    if shuffle:
        for i in range(k):
            best_cfg[0, i] = saved[0, i]
        for g in range(KINDS):
            lo = gstart[g]
            for i in range(gstart[g + 1] - 1, lo, -1):  # Fisher-Yates within the kind
                j = lo + below(rng, i - lo + 1)
                best_cfg[0, i], best_cfg[0, j] = best_cfg[0, j], best_cfg[0, i]
        for i in range(k):
            c, p = group[i], best_cfg[0, i]
            f = fit[p, rimmask[c]]
            cur += set_cell(
                c, p, below(rng, 4) if f == ANY_ROTATION else f, piece, rot, colour, mis, nbr, oriented
            )
    best = cur
    for i in range(k):
        best_cfg[0, i], best_cfg[1, i] = piece[group[i]], rot[group[i]]
    accepted = 0
    t = t_start
    for _ in range(steps):
        a = group[below(rng, k)]
        g = cell_kind[a]
        lo, size = gstart[g], gstart[g + 1] - gstart[g]
        pa, ra = piece[a], rot[a]
        if rimmask[a] == 0 and (size == 1 or uniform(rng) < rotate_p):
            d = set_cell(a, pa, (ra + 1 + below(rng, 3)) & 3, piece, rot, colour, mis, nbr, oriented)
            if d < 0 and uniform(rng) >= math.exp(d / t):
                set_cell(a, pa, ra, piece, rot, colour, mis, nbr, oriented)
            else:
                cur += d
                accepted += 1
        elif size > 1:
            b = group[lo + below(rng, size)]
            if b != a:
                pb, rb = piece[b], rot[b]
                d = set_cell(a, pb, best_rotation(pb, a, rimmask, fit, nbr, colour, oriented), piece, rot, colour, mis, nbr, oriented)  # fmt: skip
                d += set_cell(b, pa, best_rotation(pa, b, rimmask, fit, nbr, colour, oriented), piece, rot, colour, mis, nbr, oriented)  # fmt: skip
                if d < 0 and uniform(rng) >= math.exp(d / t):
                    set_cell(b, pb, rb, piece, rot, colour, mis, nbr, oriented)
                    set_cell(a, pa, ra, piece, rot, colour, mis, nbr, oriented)
                else:
                    cur += d
                    accepted += 1
        t *= factor
        if cur > best:
            best = cur
            for i in range(k):
                best_cfg[0, i], best_cfg[1, i] = piece[group[i]], rot[group[i]]
    for i in range(k):
        cur += set_cell(group[i], best_cfg[0, i], best_cfg[1, i], piece, rot, colour, mis, nbr, oriented)
    if floor and cur < 0:
        for i in range(k):
            cur += set_cell(group[i], saved[0, i], saved[1, i], piece, rot, colour, mis, nbr, oriented)
    stats[BEST], stats[ACCEPTED] = best, accepted
    return cur


def buffers(n: int) -> tuple[np.ndarray, ...]:
    """The scratch arrays of anneal for sets of up to n cells: group, gstart, saved, best_cfg, stats."""
    return (
        np.zeros(n, dtype=np.int64),
        np.zeros(KINDS + 1, dtype=np.int64),
        np.zeros((2, n), dtype=np.int64),
        np.zeros((2, n), dtype=np.int64),
        np.zeros(2, dtype=np.int64),
    )
