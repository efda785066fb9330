"""A slow, obvious reference of the repair annealing (e2opt/search/moves/repair_kernel.anneal): the same
steps and the same draws from the same splitmix64 stream, every score change taken from a full recount of
the board's joins, every best rotation found by trying each fitting rotation and recounting."""

from __future__ import annotations

import math

import numpy as np

from e2opt.kernels.rng import below, uniform
from e2opt.search.flat import FlatPuzzle


def joins(flat: FlatPuzzle, piece: np.ndarray, rot: np.ndarray) -> int:
    """Matched joins of the whole board, counted from scratch."""
    total = 0
    for c in range(flat.n):
        here = flat.oriented[piece[c], rot[c]]
        r, col = divmod(c, flat.cols)
        if col + 1 < flat.cols and here[1] == flat.oriented[piece[c + 1], rot[c + 1]][3]:
            total += 1
        if r + 1 < flat.rows and here[2] == flat.oriented[piece[c + flat.cols], rot[c + flat.cols]][0]:
            total += 1
    return total


def _fitting(flat: FlatPuzzle, p: int, c: int) -> list[int]:
    return [r for r in range(4) if flat.greymask[p, r] == flat.rimmask[c]]


def _best_rotation(flat: FlatPuzzle, piece, rot, p: int, c: int) -> int:
    """Put p on c at each fitting rotation and recount the board; the best (lowest on ties)."""
    best, best_r = -1, 0
    for r in _fitting(flat, p, c):
        piece[c], rot[c] = p, r
        value = joins(flat, piece, rot)
        if value > best:
            best, best_r = value, r
    return best_r


def anneal_reference(flat, cells, steps, t_start, factor, rotate_p, shuffle, floor, piece, rot, rng) -> int:
    """The annealing of repair_kernel.anneal, step by step; changes piece, rot and rng; the score change."""
    group = [int(c) for g in range(3) for c in cells if flat.cell_kind[c] == g]
    members = {g: [c for c in group if flat.cell_kind[c] == g] for g in range(3)}
    start = joins(flat, piece, rot)
    saved = [(piece[c], rot[c]) for c in group]
    if shuffle:
        deal = [p for p, _ in saved]
        lo = 0
        for g in range(3):
            hi = lo + len(members[g])
            for i in range(hi - 1, lo, -1):
                j = lo + below(rng, i - lo + 1)
                deal[i], deal[j] = deal[j], deal[i]
            lo = hi
        for c, p in zip(group, deal, strict=True):
            options = _fitting(flat, p, c)
            piece[c], rot[c] = p, (below(rng, 4) if len(options) == 4 else options[0])
    cur = joins(flat, piece, rot)
    best, best_cfg = cur, [(piece[c], rot[c]) for c in group]
    t = t_start
    for _ in range(steps):
        a = group[below(rng, len(group))]
        same = members[int(flat.cell_kind[a])]
        pa, ra = piece[a], rot[a]
        if flat.rimmask[a] == 0 and (len(same) == 1 or uniform(rng) < rotate_p):
            rot[a] = (ra + 1 + below(rng, 3)) & 3
            undo = [(a, pa, ra)]
        elif len(same) > 1:
            b = same[below(rng, len(same))]
            if b == a:
                t *= factor
                continue
            pb, rb = piece[b], rot[b]
            piece[a], rot[a] = pb, _best_rotation(flat, piece, rot, pb, a)
            piece[b], rot[b] = pa, _best_rotation(flat, piece, rot, pa, b)
            undo = [(a, pa, ra), (b, pb, rb)]
        else:
            t *= factor
            continue
        value = joins(flat, piece, rot)
        d = value - cur
        if d < 0 and uniform(rng) >= math.exp(d / t):
            for c, p, r in undo:
                piece[c], rot[c] = p, r
        else:
            cur = value
        t *= factor
        if cur > best:
            best, best_cfg = cur, [(piece[c], rot[c]) for c in group]
    for c, (p, r) in zip(group, best_cfg, strict=True):
        piece[c], rot[c] = p, r
    if floor and best < start:
        for c, (p, r) in zip(group, saved, strict=True):
            piece[c], rot[c] = p, r
    return joins(flat, piece, rot) - start
