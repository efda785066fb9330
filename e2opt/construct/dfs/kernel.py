"""The numba DFS with breaks: one call runs up to ``chunk`` placements and returns; all state is in arrays.

Candidates come in a per-attempt **rank** of the placement codes (piece * 4 + rotation): within a kind,
codes are ranked by quota value (most first), ties broken by one random draw per attempt shared by every
list. Three levels per depth: exact placements (both key sides match; short plain lists in rank order,
used pieces skipped), one-off ones (one key side missed; frame-colour breaks left out unless allowed) and,
with a cap of 2, the slot's placements that miss both key sides. The two break levels are bitsets over the
ranks: a list's words ANDed with ``avail`` (one bit per code whose piece is free) give exactly its unused
candidates, so their long scans never look at a used entry; the lowest set bit is the next candidate.

Rules at depth d: a placement's breaks = its level + mismatches on extra placed sides; it needs breaks <=
``cap[d]``, cum + breaks <= ``allow[d]``, no extra-side break on a frame colour when ``frame_ok`` is 0,
qcum >= ``qmin[d]`` (lists are in quota order, so a failure ends the level), and with ``no_touch`` no
break facing a cell that already touches a break. A dead end (a depth whose scan ends without a child) at
depth >= ``hmin`` and every complete board go to the harvest buffer with their breaks; the call returns
FULL when the buffer is full, with the state ready to continue.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ...kernels.rng import below

RUNNING, BUDGET, EXHAUSTED, FULL = 0, 1, 2, 3
DEPTH, NODES, DEEPEST, HFILL = range(4)
N_COUNTERS = 4
ONE = np.uint64(1)
ZERO = np.uint64(0)
ROTATIONS = np.uint64(15)  # a piece's four codes: four adjacent rank bits


@intrinsic
def ctz(typingctx, x):
    """Trailing zero bits of a non-zero uint64 (one machine instruction)."""

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@njit(cache=True, inline="always")
def _record(hbuf, hdep, hbrk, hfill, pc, cum, d) -> None:
    for j in range(d):
        hbuf[hfill, j] = pc[j]
    hdep[hfill] = d
    hbrk[hfill] = cum[d - 1] if d > 0 else 0


@njit(cache=True, inline="always")
def _free(avail, rank_of, piece, on) -> None:
    """Set (on) or clear the avail bits of a piece's four codes (four adjacent bits of one word)."""
    k = rank_of[piece * 4]
    if on:
        avail[k >> 6] |= ROTATIONS << np.uint64(k & 63)
    else:
        avail[k >> 6] &= ~(ROTATIONS << np.uint64(k & 63))


@njit(cache=True, inline="always")
def _touched(code, d, pc, ocol, kn0, ks0, kn1, ks1, xn, xs, nxd, touch, mark) -> bool:
    """Break marks: with ``mark`` 0, True when a mismatched side of ``code`` at depth d faces a cell that
    touches a break; else add ``mark`` to depth d's cell and to each neighbour a mismatch faces."""
    hit = False
    none = pc.shape[0] - 1  # the sentinel: no neighbour on that key side
    for j in range(2 + nxd):
        if j == 0:
            n, s = kn0[d], (ks0[d] + 2) & 3
        elif j == 1:
            n, s = kn1[d], (ks1[d] + 2) & 3
        else:
            n, s = xn[d, j - 2], xs[d, j - 2]
        if n == none:
            continue
        if ocol[code * 4 + s] != ocol[pc[n] * 4 + ((s + 2) & 3)]:
            if mark == 0:
                hit = hit or touch[n] > 0
            else:
                touch[n] += mark
    if mark != 0:
        touch[d] += mark
    return hit


@njit(cache=True, inline="always")
def _open(lid, woff, wcnt) -> tuple:
    """(before the first, end) word entries of bitset list ``lid``."""
    x = woff[lid]
    return x - 1, x + wcnt[lid]


@njit(cache=True)
def dfs(st, geo, tab, rules, harvest, budget, chunk) -> int:
    """Run up to ``chunk`` more placements (attempt budget ``budget``); see the module docstring."""
    lvl, px, pend, prem, cum, qcum, pc, child, ctr, best, dead, avail, used, touch = st
    base, kn0, ks0, kn1, ks1, xn, xs, nx, slot = geo
    ent, estart, wi, wm, woff, wcnt, nb, code_of, rank_of, ocol, colours, frame_col = tab
    allow, qmin, qval, cap, frame_ok, no_touch = rules
    hbuf, hdep, hbrk, hmin = harvest
    hcap = hdep.shape[0]
    m = cum.shape[0] - 1
    d = ctr[DEPTH]
    nodes = ctr[NODES]
    deepest = ctr[DEEPEST]
    hfill = ctr[HFILL]
    stop_at = min(budget, nodes + chunk)
    status = RUNNING
    back = d == m
    lv, x, xe, rem = lvl[d], px[d], pend[d], prem[d]
    cprev = cum[d - 1] if d > 0 else 0
    qprev = qcum[d - 1] if d > 0 else 0
    room, capd, nxd, need, bk = 0, 0, 0, 0, 0
    if d < m:
        room, capd, nxd, need = allow[d] - cprev, cap[d], nx[d], qmin[d]
        bk = base[d] + ocol[pc[kn0[d]] * 4 + ks0[d]] * colours + ocol[pc[kn1[d]] * 4 + ks1[d]]
    while True:
        if not back:
            if lv == 0:  # exact placements: a plain list in rank order, used pieces skipped
                while x < xe and used[ent[x] >> 2]:
                    x += 1
                if x < xe:
                    code = np.int64(ent[x])
                    x += 1
                else:
                    code = -1
            else:  # break levels: bitset words ANDed with the free codes
                if rem == ZERO:
                    x += 1
                    while x < xe:
                        rem = wm[x] & avail[wi[x]]
                        if rem != ZERO:
                            break
                        x += 1
                if x < xe:
                    t = ctz(rem)
                    rem &= rem - ONE
                    code = code_of[wi[x] * 64 + np.int64(t)]
                else:
                    code = -1
            if code < 0:  # this level is done: the next one if the budget lets it in, else back up
                if lv == 0 and room >= 1 and capd >= 1 and wcnt[bk] > 0:
                    lv = 1
                    x, xe = _open(bk, woff, wcnt)
                    rem = ZERO
                    continue
                if lv <= 1 and room >= 2 and capd >= 2 and wcnt[nb + slot[d]] > 0:
                    lv = 2
                    x, xe = _open(nb + slot[d], woff, wcnt)
                    rem = ZERO
                    continue
                back = True
                if child[d] == 0:
                    dead[d] += 1
                    if d >= hmin:
                        _record(hbuf, hdep, hbrk, hfill, pc, cum, d)
                        hfill += 1
        if back:
            back = False
            if d == 0:
                status = EXHAUSTED
                break
            d -= 1
            code = pc[d]
            _free(avail, rank_of, code >> 2, True)
            used[code >> 2] = 0
            cprev = cum[d - 1] if d > 0 else 0
            qprev = qcum[d - 1] if d > 0 else 0
            if no_touch and cum[d] > cprev:
                _touched(code, d, pc, ocol, kn0, ks0, kn1, ks1, xn, xs, nx[d], touch, -1)
            lv, x, xe, rem = lvl[d], px[d], pend[d], prem[d]
            room, capd, nxd, need = allow[d] - cprev, cap[d], nx[d], qmin[d]
            bk = base[d] + ocol[pc[kn0[d]] * 4 + ks0[d]] * colours + ocol[pc[kn1[d]] * 4 + ks1[d]]
            if hfill >= hcap:
                status = FULL
                break
            continue
        mism = lv
        if lv == 2:  # the slot's whole list: only placements missing both key colours are new here
            c0 = ocol[pc[kn0[d]] * 4 + ks0[d]]
            c1 = ocol[pc[kn1[d]] * 4 + ks1[d]]
            o0 = ocol[code * 4 + ((ks0[d] + 2) & 3)]
            o1 = ocol[code * 4 + ((ks1[d] + 2) & 3)]
            if o0 == c0 or o1 == c1:
                continue
            if frame_ok == 0 and (frame_col[o0] or frame_col[c0] or frame_col[o1] or frame_col[c1]):
                continue
        if nxd > 0:
            bad = False
            for y in range(nxd):
                s = xs[d, y]
                mine = ocol[code * 4 + s]
                theirs = ocol[pc[xn[d, y]] * 4 + ((s + 2) & 3)]
                if mine != theirs:
                    mism += 1
                    if frame_ok == 0 and (frame_col[mine] or frame_col[theirs]):
                        bad = True
            if bad or mism > capd or mism > room:
                continue
        q = qprev + qval[code >> 2]
        if q < need:  # the list is in quota order: the rest of this level fails too
            rem = ZERO
            x = xe
            continue
        if no_touch and mism > 0 and _touched(code, d, pc, ocol, kn0, ks0, kn1, ks1, xn, xs, nxd, touch, 0):
            continue
        lvl[d], px[d], pend[d], prem[d] = lv, x, xe, rem
        child[d] = 1
        pc[d] = code
        _free(avail, rank_of, code >> 2, False)
        used[code >> 2] = 1
        cprev += mism
        cum[d] = cprev
        qcum[d] = q
        qprev = q
        if no_touch and mism > 0:
            _touched(code, d, pc, ocol, kn0, ks0, kn1, ks1, xn, xs, nxd, touch, 1)
        nodes += 1
        d += 1
        if d > deepest:
            deepest = d
            for y in range(d):
                best[y] = pc[y]
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
        room, capd, nxd, need = allow[d] - cprev, cap[d], nx[d], qmin[d]
        bk = base[d] + ocol[pc[kn0[d]] * 4 + ks0[d]] * colours + ocol[pc[kn1[d]] * 4 + ks1[d]]
        lv = 0
        x, xe, rem = estart[bk], estart[bk + 1], ZERO
        if nodes >= stop_at:
            status = BUDGET if nodes >= budget else RUNNING
            break
    lvl[d], px[d], pend[d], prem[d] = lv, x, xe, rem
    ctr[DEPTH] = d
    ctr[NODES] = nodes
    ctr[DEEPEST] = deepest
    ctr[HFILL] = hfill
    return status


@njit(cache=True)
def sort_exact(estart, ent, rank_of) -> None:
    """Every exact list in rank order (insertion sort: the lists are short)."""
    for b in range(estart.shape[0] - 1):
        for i in range(estart[b] + 1, estart[b + 1]):
            v = ent[i]
            r = rank_of[v]
            j = i - 1
            while j >= estart[b] and rank_of[ent[j]] > r:
                ent[j + 1] = ent[j]
                j -= 1
            ent[j + 1] = v


@njit(cache=True)
def rank_codes(groups, gstart, gbase, qval, rank_of, code_of, rng) -> None:
    """A fresh rank for every code: the pieces of each kind group (``groups``, ranks from ``gbase[g]``)
    ordered by quota value, most first, ties by one random draw; a piece's rotations take four adjacent
    ranks in rotation order."""
    code_of[:] = -1
    for g in range(gstart.shape[0] - 1):
        lo, hi = gstart[g], gstart[g + 1]
        n = hi - lo
        if n == 0:
            continue
        tag = np.empty(n, dtype=np.int64)
        for i in range(n):
            tag[i] = ((100_000 - qval[groups[lo + i]]) << 32) + below(rng, 1 << 32)
        idx = np.argsort(tag)
        for i in range(n):
            p = groups[lo + idx[i]]
            for r in range(4):
                rank_of[p * 4 + r] = gbase[g] + 4 * i + r
                code_of[gbase[g] + 4 * i + r] = p * 4 + r


@njit(cache=True)
def fill_words(lstart, lcode, lwlo, lnw, woff, wcnt, wi, wm, rank_of) -> None:
    """Every list's non-zero bitset words, in word order, from its codes' ranks (``wcnt`` per list)."""
    dense = np.zeros(max(int(lnw.max()), 1) if lnw.shape[0] else 1, dtype=np.uint64)
    for i in range(lstart.shape[0] - 1):
        wcnt[i] = 0
        if lstart[i + 1] == lstart[i]:
            continue
        lo, n = lwlo[i], lnw[i]
        dense[:n] = 0
        for y in range(lstart[i], lstart[i + 1]):
            r = rank_of[lcode[y]]
            dense[(r >> 6) - lo] |= ONE << np.uint64(r & 63)
        c = 0
        for w in range(n):
            if dense[w] != ZERO:
                wi[woff[i] + c] = lo + w
                wm[woff[i] + c] = dense[w]
                c += 1
        wcnt[i] = c


def new_state(m: int, n_pc: int, n_words: int, n_pieces: int) -> tuple:
    """Zeroed state arrays for m depths (placed-code slots ``n_pc``, avail words ``n_words``)."""
    return (
        np.zeros(m + 1, dtype=np.int64),  # lvl: the level being scanned (0 exact, 1 one-off, 2 two-off)
        np.zeros(m + 1, dtype=np.int64),  # px: entry (level 0) or word entry (levels 1, 2) being scanned
        np.zeros(m + 1, dtype=np.int64),  # pend
        np.zeros(m + 1, dtype=np.uint64),  # prem: the word's candidates not tried yet
        np.zeros(m + 1, dtype=np.int32),  # cum
        np.zeros(m + 1, dtype=np.int32),  # qcum
        np.zeros(n_pc, dtype=np.int32),  # pc
        np.zeros(m + 1, dtype=np.uint8),  # child
        np.zeros(N_COUNTERS, dtype=np.int64),  # ctr
        np.zeros(m, dtype=np.int32),  # best
        np.zeros(m + 1, dtype=np.int64),  # dead
        np.zeros(n_words, dtype=np.uint64),  # avail
        np.zeros(n_pieces, dtype=np.uint8),  # used
        np.zeros(n_pc, dtype=np.int32),  # touch
    )


STATE_NAMES = ("lvl", "px", "pend", "prem", "cum", "qcum", "pc", "child", "ctr", "best", "dead",
               "avail", "used", "touch")  # fmt: skip
