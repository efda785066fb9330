"""The numba DFS with breaks: one call runs up to ``chunk`` placements and returns; all state is in arrays.

State ``st`` = (pos, end, cum, qcum, pc, child, used, ctr, best, dead): per depth the scan position and
end in the entry list, cumulative breaks and quota count once that depth is placed, the placed code,
whether the depth has had a child; ``used`` per piece; counters; the deepest partial of the attempt by
depth; dead ends per depth. Rules per depth d (0-based placement index): a placement adds ``breaks`` =
its entry bit plus mismatches on extra sides; it needs breaks <= ``cap`` (per piece), cum + breaks <=
``allow[d]``, no extra-side break on a frame colour when ``frame_ok`` is 0, and qcum >= ``qmin[d]``.
Lists are sorted by (breaks, quota value desc), so a break entry past the budget ends the scan, and so
does a quota failure when no break is possible. A dead end (a depth whose scan ends without any child)
at depth >= ``hmin`` and every complete board are copied into the harvest buffer with their breaks; the call returns FULL
when the buffer is full, with the state ready to continue.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..search.kernels import below

RUNNING, BUDGET, EXHAUSTED, FULL = 0, 1, 2, 3
DEPTH, NODES, DEEPEST, HFILL = range(4)
N_COUNTERS = 4


@njit(cache=True, inline="always")
def _record(hbuf, hdep, hbrk, hfill, pc, cum, d) -> None:
    for j in range(d):
        hbuf[hfill, j] = pc[j]
    hdep[hfill] = d
    hbrk[hfill] = cum[d - 1] if d > 0 else 0


@njit(cache=True, inline="always")
def _bucket(d, base, kn0, ks0, kn1, ks1, pc, ocol, colours) -> int:
    return base[d] + ocol[pc[kn0[d]] * 4 + ks0[d]] * colours + ocol[pc[kn1[d]] * 4 + ks1[d]]


@njit(cache=True)
def begin(st, geo, tab) -> None:
    """A fresh attempt at depth 0 (pc's hint and sentinel slots already set by the caller)."""
    pos, end, pc, child, ctr = st[0], st[1], st[4], st[5], st[7]
    base, kn0, ks0, kn1, ks1 = geo[:5]
    start, ocol, colours = tab[0], tab[2], tab[3]
    ctr[DEPTH] = 0
    ctr[DEEPEST] = 0
    child[0] = 0
    b = _bucket(0, base, kn0, ks0, kn1, ks1, pc, ocol, colours)
    pos[0] = start[b]
    end[0] = start[b + 1]


@njit(cache=True)
def dfs(st, geo, tab, rules, harvest, budget, chunk) -> int:
    """Run up to ``chunk`` more placements (attempt budget ``budget``); see the module docstring."""
    pos, end, cum, qcum, pc, child, used, ctr, best, dead = st
    base, kn0, ks0, kn1, ks1, xn, xs, nx = geo
    start, ent, ocol, colours, frame_col = tab
    allow, qmin, qval, cap, frame_ok = rules
    hbuf, hdep, hbrk, hmin = harvest
    hcap = hdep.shape[0]
    m = pos.shape[0] - 1
    d = ctr[DEPTH]
    nodes = ctr[NODES]
    deepest = ctr[DEEPEST]
    hfill = ctr[HFILL]
    stop_at = min(budget, nodes + chunk)
    status = RUNNING
    back = d == m
    p = pos[d] if d < m else 0
    e = end[d] if d < m else 0
    cprev = cum[d - 1] if d > 0 else 0
    qprev = qcum[d - 1] if d > 0 else 0
    room = allow[d] - cprev
    nxd = nx[d] if d < m else 0  # per-depth values kept in locals while the scan stays at depth d
    need = qmin[d]
    while True:
        if back or p >= e:
            if not back and child[d] == 0:
                dead[d] += 1
                if d >= hmin:
                    _record(hbuf, hdep, hbrk, hfill, pc, cum, d)
                    hfill += 1
            back = False
            if d == 0:
                status = EXHAUSTED
                break
            d -= 1
            used[pc[d] >> 2] = 0
            p = pos[d]
            e = end[d]
            cprev = cum[d - 1] if d > 0 else 0
            qprev = qcum[d - 1] if d > 0 else 0
            room = allow[d] - cprev
            nxd = nx[d]
            need = qmin[d]
            if hfill >= hcap:
                status = FULL
                break
            continue
        while used[ent[p] >> 3]:  # skip the used pieces in a tight loop (most of a list, late in the board)
            p += 1
            if p >= e:
                break
        if p >= e:
            continue
        x = ent[p]
        p += 1
        code = x >> 1
        piece = code >> 2
        mism = x & 1
        if mism > room:
            p = e  # the rest of the list breaks too
            continue
        if nxd > 0:
            bad = False
            for j in range(nxd):
                s = xs[d, j]
                mine = ocol[code * 4 + s]
                theirs = ocol[pc[xn[d, j]] * 4 + ((s + 2) & 3)]
                if mine != theirs:
                    mism += 1
                    if frame_ok == 0 and (frame_col[mine] or frame_col[theirs]):
                        bad = True
            if bad or mism > cap or mism > room:
                continue
        q = qprev + qval[piece]
        if q < need:
            if room == 0:
                p = e  # lower quota values follow, and no break entry may be used
            continue
        pos[d] = p
        end[d] = e
        child[d] = 1
        pc[d] = code
        used[piece] = 1
        cprev += mism
        cum[d] = cprev
        qcum[d] = q
        qprev = q
        nodes += 1
        d += 1
        if d > deepest:
            deepest = d
            for j in range(d):
                best[j] = pc[j]
        if d == m:
            dead[m] += 1
            _record(hbuf, hdep, hbrk, hfill, pc, cum, d)
            hfill += 1
            back = True
            if hfill >= hcap or nodes >= stop_at:
                status = FULL if hfill >= hcap else (BUDGET if nodes >= budget else RUNNING)
                break
            continue
        child[d] = 0
        b = _bucket(d, base, kn0, ks0, kn1, ks1, pc, ocol, colours)
        p = start[b]
        e = start[b + 1]
        room = allow[d] - cprev
        nxd = nx[d]
        need = qmin[d]
        if nodes >= stop_at:
            status = BUDGET if nodes >= budget else RUNNING
            break
    if d < m:
        pos[d] = p
        end[d] = e
    ctr[DEPTH] = d
    ctr[NODES] = nodes
    ctr[DEEPEST] = deepest
    ctr[HFILL] = hfill
    return status


@njit(cache=True)
def sort_lists(start, ent, qval, rng) -> None:
    """Order every list by (breaks, quota value desc, a fresh random tag): the attempt's opening."""
    tag = np.empty(int(np.max(np.diff(start))) if start.shape[0] > 1 else 0, dtype=np.int64)
    for b in range(start.shape[0] - 1):
        lo, hi = start[b], start[b + 1]
        for i in range(lo, hi):  # sort key in the high bits, random tie-break in the low 32
            x = ent[i]
            tag[i - lo] = (((x & 1) * 1000 - qval[x >> 3] + 100_000) << 32) + below(rng, 1 << 32)
        for i in range(1, hi - lo):  # insertion sort: lists are short
            t, x = tag[i], ent[lo + i]
            j = i - 1
            while j >= 0 and tag[j] > t:
                tag[j + 1] = tag[j]
                ent[lo + j + 1] = ent[lo + j]
                j -= 1
            tag[j + 1] = t
            ent[lo + j + 1] = x


def new_state(m: int, n_pc: int, n_pieces: int) -> tuple:
    """Zeroed state arrays for a search of m depths."""
    return (
        np.zeros(m + 1, dtype=np.int32),
        np.zeros(m + 1, dtype=np.int32),
        np.zeros(m + 1, dtype=np.int32),
        np.zeros(m + 1, dtype=np.int32),
        np.zeros(n_pc, dtype=np.int32),
        np.zeros(m + 1, dtype=np.uint8),
        np.zeros(n_pieces, dtype=np.uint8),
        np.zeros(N_COUNTERS, dtype=np.int64),
        np.zeros(m, dtype=np.int32),
        np.zeros(m + 1, dtype=np.int64),
    )
