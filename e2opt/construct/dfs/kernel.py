"""The numba DFS with breaks: one call runs up to ``chunk`` placements and returns; all state is in arrays.

Candidates come in a per-attempt **rank** of the placement codes (piece * 4 + rotation): within a kind,
codes are ranked by quota value (most first), ties broken by one random draw per attempt shared by every
list. Three levels per depth: exact placements (both key sides match; short plain lists of ranks in
rank order, entries whose bit in ``avail`` is clear skipped), one-off ones (one key side missed; frame-colour breaks left out unless allowed) and,
with a cap of 2, the slot's placements that miss both key sides. The two break levels are bitsets over the
ranks: a list's words ANDed with ``avail`` (one bit per code whose piece is free) give exactly its unused
candidates, so their long scans never look at a used entry; the lowest set bit is the next candidate.

Rules at depth d: a placement's breaks = its level + mismatches on extra placed sides; it needs breaks <=
``cap[d]``, cum + breaks <= ``allow[d]``, no extra-side break on a frame colour when ``frame_ok`` is 0,
qcum >= ``qmin[d]`` (lists are in quota order, so a failure ends the level), and with ``no_touch`` no
break facing a cell that already touches a break. A dead end (a depth whose scan ends without a child) at
depth >= ``hmin`` and every complete board go to the harvest buffer with their breaks; the call returns
FULL when the buffer is full, with the state ready to continue.

**Backjumping** (``jump``, the recipe's ``backjump``; Prosser's conflict-directed backjumping): when depth
d's scan ends, no break was spent before it and none was possible at it (room or cap below 1), no quota
cut its list and every child it placed failed the same way, its failure depends only on the depths in its
conflict set: its placed neighbours (they chose its list), the depths holding the pieces of its used exact
candidates (``where``) and what its children's failures named (``conf``: a bitset over the depths, ``nw``
uint64 words per depth, valid while ``infl`` is set; a depth entered afresh has none). The search goes back
to the deepest of them, j, puts back the pieces of the depths between unscanned and gives j the set minus j.
Any other failure, and a complete board, marks the parent ``allf`` (it may not jump); a set naming no depth
ends the attempt (EXHAUSTED). The skipped subtrees hold no board and no partial deeper than d.

For the rate (docs/dfs_results.md "Kernel rate"): ``avail`` alone says which pieces are free (``used`` is written
by ``Dfs.arrays()`` for the saved state, as before); a depth's geometry and rules are one int32 row
(lists.py ``G``); each placed slot's four colours are packed in one uint32 (``sc``), its rank and bucket
are kept by depth (``pr``, ``bkd``), the depth of every placed piece in ``where``: these are derived from the
saved state (``derive``), never saved;
array indices are cast to uint64 (no negative-index check); the touching rule has its own compiled loop.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...kernels.bits import clz, ctz
from .lists import ALLOW, BASE, CAP, N0, NX, O0, QMIN, SLOT, T0, G

RUNNING, BUDGET, EXHAUSTED, FULL = 0, 1, 2, 3
DEPTH, NODES, DEEPEST, HFILL = range(4)
N_COUNTERS = 4
ONE = np.uint64(1)
ZERO = np.uint64(0)
ROTATIONS = np.uint64(15)
_u = np.uint64  # an index cast to it skips numba's check for a negative index  # a piece's four codes: four adjacent rank bits


@njit(cache=True, inline="always")
def _record(hbuf, hdep, hbrk, hfill, pc, cum, d) -> None:
    for j in range(d):
        hbuf[hfill, j] = pc[j]
    hdep[hfill] = d
    hbrk[hfill] = cum[d - 1] if d > 0 else 0


@njit(cache=True, inline="always")
def _colour(sc, n, shift) -> int:
    """The colour at bit ``shift`` of the four packed side colours of placed slot n."""
    return (np.int64(sc[_u(n)]) >> shift) & 255


@njit(cache=True, inline="always")
def _bucket(dg, g, sc, colours) -> int:
    """The bucket of the depth whose geometry row starts at g: its slot and its two key colours."""
    return (
        dg[_u(g + BASE)]
        + _colour(sc, dg[_u(g + N0)], dg[_u(g + T0)]) * colours
        + _colour(sc, dg[_u(g + N0 + 3)], dg[_u(g + T0 + 3)])
    )


@njit(cache=True, inline="always")
def _touched(cw, g, d, dg, sc, none, touch, mark) -> bool:
    """Break marks: with ``mark`` 0, True when a mismatched side of the code (colours ``cw``) at depth d
    faces a cell that touches a break; else add ``mark`` to depth d's cell and to each neighbour a mismatch
    faces. Neighbours: the two key sides and the placed extras (``nx``), as (slot, own shift, their shift)."""
    hit = False
    for j in range(2 + dg[_u(g + NX)]):
        n = dg[_u(g + N0 + 3 * j)]
        if n == none:
            continue
        if (np.int64(cw) >> dg[_u(g + O0 + 3 * j)]) & 255 != _colour(sc, n, dg[_u(g + T0 + 3 * j)]):
            if mark == 0:
                hit = hit or touch[_u(n)] > 0
            else:
                touch[_u(n)] += mark
    if mark != 0:
        touch[_u(d)] += mark
    return hit


def dfs(st, aux, dg, tab, rules, harvest, budget, chunk) -> int:
    """Run up to ``chunk`` more placements (attempt budget ``budget``); see the module docstring. The
    touching rule's and backjumping's variants are compiled apart: without them the loop carries none of
    their code."""
    run = _VARIANTS[bool(rules[2])][bool(rules[4])]
    return run(st, aux, dg, tab, rules, harvest, budget, chunk)


@njit(cache=True)
def _dfs(st, aux, dg, tab, rules, harvest, budget, chunk) -> int:
    return _search(st, aux, dg, tab, rules, harvest, budget, chunk, False, False)


@njit(cache=True)
def _dfs_no_touch(st, aux, dg, tab, rules, harvest, budget, chunk) -> int:
    return _search(st, aux, dg, tab, rules, harvest, budget, chunk, True, False)


@njit(cache=True)
def _dfs_jump(st, aux, dg, tab, rules, harvest, budget, chunk) -> int:
    return _search(st, aux, dg, tab, rules, harvest, budget, chunk, False, True)


@njit(cache=True)
def _dfs_no_touch_jump(st, aux, dg, tab, rules, harvest, budget, chunk) -> int:
    return _search(st, aux, dg, tab, rules, harvest, budget, chunk, True, True)


_VARIANTS = ((_dfs, _dfs_jump), (_dfs_no_touch, _dfs_no_touch_jump))


@njit(cache=True, inline="always")
def _search(st, aux, dg, tab, rules, harvest, budget, chunk, no_touch, jump) -> int:
    lvl, px, pend, prem, cum, qcum, pc, child, ctr, best, dead, avail, _, touch, conf, infl, allf = st
    sc, pr, bkd, where = aux
    ent, estart, wi, wm, woff, wcnt, nb, code_of, col4, frame_col = tab
    qval, frame_ok, _, colours, _ = rules
    hbuf, hdep, hbrk, hmin = harvest
    hcap = hdep.shape[0]
    m = cum.shape[0] - 1
    none = pc.shape[0] - 1  # the sentinel slot: no neighbour on that side
    nw = conf.shape[0] // (m + 1)  # words per conflict set
    d = ctr[DEPTH]
    nodes = ctr[NODES]
    deepest = ctr[DEEPEST]
    hfill = ctr[HFILL]
    stop_at = min(budget, nodes + chunk)
    status = RUNNING
    lv, x, xe, rem = lvl[_u(d)], px[_u(d)], pend[_u(d)], prem[_u(d)]
    if d == m:  # a complete board: no level left to scan (its dead end is counted)
        lv, x, xe, rem = 3, 0, 0, ZERO
        child[_u(d)] = 1
    cprev = cum[_u(d - 1)] if d > 0 else 0
    qprev = qcum[_u(d - 1)] if d > 0 else 0
    g = d * G
    room, capd, nxd, need, bk = 0, 0, 0, 0, 0
    if d < m:
        room, capd, nxd, need = dg[_u(g + ALLOW)] - cprev, dg[_u(g + CAP)], dg[_u(g + NX)], dg[_u(g + QMIN)]
        bk = _bucket(dg, g, sc, colours)
    while True:
        if lv == 0:  # exact placements: a plain list of ranks, used pieces skipped
            while x < xe:
                r = np.int64(ent[_u(x)])
                if (avail[_u(r >> 6)] >> np.uint64(r & 63)) & ONE != ZERO:
                    break
                x += 1
            if x < xe:
                r = np.int64(ent[_u(x)])
                x += 1
            else:
                r = -1
        else:  # break levels: bitset words ANDed with the free codes
            if rem == ZERO:
                x += 1
                while x < xe:
                    rem = wm[_u(x)] & avail[_u(wi[_u(x)])]
                    if rem != ZERO:
                        break
                    x += 1
            if x < xe:
                r = wi[_u(x)] * 64 + np.int64(ctz(rem))
                rem &= rem - ONE
            else:
                r = -1
        if r < 0:  # this level is done: the next one if the budget lets it in, else back up (below)
            if lv == 0 and room >= 1 and capd >= 1 and wcnt[_u(bk)] > 0:
                lv = 1
                x, xe = woff[_u(bk)] - 1, woff[_u(bk)] + wcnt[_u(bk)]
                rem = ZERO
                continue
            every = nb + dg[_u(g + SLOT)]
            if lv <= 1 and room >= 2 and capd >= 2 and wcnt[_u(every)] > 0:
                lv = 2
                x, xe = woff[_u(every)] - 1, woff[_u(every)] + wcnt[_u(every)]
                rem = ZERO
                continue
            if child[_u(d)] == 0:
                dead[_u(d)] += 1
                if d >= hmin:
                    _record(hbuf, hdep, hbrk, hfill, pc, cum, d)
                    hfill += 1
            if d == 0:
                status = EXHAUSTED
                break
            if jump and d < m and allf[_u(d)] == 0 and cprev == 0 and (room < 1 or capd < 1):
                # depth d's conflict set (module docstring); j, its deepest, takes the rest. Written here,
                # not in a helper: numba counted references to a looping helper's array arguments on every
                # call, which halved the rate (docs/dfs.md "Backjumping"). Two passes over the neighbours and
                # holders (their deepest, then their bits into j's row) and not d's own row built and scanned:
                # 3-15 % faster, measured side by side (most sets are fresh)
                lo, hi = estart[_u(bk)], estart[_u(bk + 1)]
                cb, j = d * nw, -1
                for y in range(2 + nxd):  # the placed neighbours (a hint or the sentinel is no depth)
                    n = np.int64(dg[_u(g + N0 + 3 * y)])
                    if n < m:
                        j = max(j, n)
                named = infl[_u(d)] != 0  # its children's failures named depths
                if j < d - 1:  # else the parent is a neighbour (most depths): no depth named can be deeper
                    for y in range(lo, hi):  # the holders of its used exact candidates
                        r = np.int64(ent[_u(y)])
                        if (avail[_u(r >> 6)] >> np.uint64(r & 63)) & ONE == ZERO:
                            j = max(j, np.int64(where[_u(code_of[_u(r)] >> 2)]))
                    for w in range(nw - 1 if named else -1, -1, -1):
                        if conf[_u(cb + w)] != ZERO:
                            j = max(j, w * 64 + 63 - np.int64(clz(conf[_u(cb + w)])))
                            break
                if j < 0:  # no earlier placement can change why depth d fails
                    status = EXHAUSTED
                    break
                jb = j * nw
                for w in range(nw):
                    v = conf[_u(cb + w)] if named else ZERO
                    conf[_u(jb + w)] = conf[_u(jb + w)] | v if infl[_u(j)] != 0 else v
                infl[_u(j)] = 1
                for y in range(2 + nxd):
                    n = np.int64(dg[_u(g + N0 + 3 * y)])
                    if n < j:
                        conf[_u(jb + (n >> 6))] |= ONE << np.uint64(n & 63)
                for y in range(lo, hi):
                    r = np.int64(ent[_u(y)])
                    if (avail[_u(r >> 6)] >> np.uint64(r & 63)) & ONE == ZERO:
                        n = np.int64(where[_u(code_of[_u(r)] >> 2)])
                        if n < j:
                            conf[_u(jb + (n >> 6))] |= ONE << np.uint64(n & 63)
                conf[_u(jb + (j >> 6))] &= ~(ONE << np.uint64(j & 63))
                while d - 1 > j:  # the depths in between: their pieces back, their scans abandoned
                    d -= 1
                    r = np.int64(pr[_u(d)])
                    avail[_u(r >> 6)] |= ROTATIONS << np.uint64(r & 60)
                g = d * G
            elif jump:
                allf[_u(d - 1)] = 1  # a failure (or a board) that names no depths: the parent may not jump
            d -= 1
            g -= G
            r = np.int64(pr[_u(d)])
            avail[_u(r >> 6)] |= ROTATIONS << np.uint64(r & 60)
            cprev = cum[_u(d - 1)] if d > 0 else 0
            qprev = qcum[_u(d - 1)] if d > 0 else 0
            if no_touch and cum[_u(d)] > cprev:
                _touched(sc[_u(d)], g, d, dg, sc, none, touch, -1)
            lv, x, xe, rem = lvl[_u(d)], px[_u(d)], pend[_u(d)], prem[_u(d)]
            room, capd, nxd, need = (
                dg[_u(g + ALLOW)] - cprev,
                dg[_u(g + CAP)],
                dg[_u(g + NX)],
                dg[_u(g + QMIN)],
            )
            bk = bkd[_u(d)]
            if hfill >= hcap:
                status = FULL
                break
            continue
        code = code_of[_u(r)]
        cw = np.int64(col4[_u(code)])
        mism = lv
        if lv == 2:  # the slot's whole list: only placements missing both key colours are new here
            c0 = _colour(sc, dg[_u(g + N0)], dg[_u(g + T0)])
            c1 = _colour(sc, dg[_u(g + N0 + 3)], dg[_u(g + T0 + 3)])
            o0 = (cw >> dg[_u(g + O0)]) & 255
            o1 = (cw >> dg[_u(g + O0 + 3)]) & 255
            if o0 == c0 or o1 == c1:
                continue
            if frame_ok == 0 and (
                frame_col[_u(o0)] or frame_col[_u(c0)] or frame_col[_u(o1)] or frame_col[_u(c1)]
            ):
                continue
        if nxd > 0:
            bad = False
            for y in range(2, 2 + nxd):
                mine = (cw >> dg[_u(g + O0 + 3 * y)]) & 255
                theirs = _colour(sc, dg[_u(g + N0 + 3 * y)], dg[_u(g + T0 + 3 * y)])
                if mine != theirs:
                    mism += 1
                    if frame_ok == 0 and (frame_col[_u(mine)] or frame_col[_u(theirs)]):
                        bad = True
            if bad or mism > capd or mism > room:
                continue
        q = qprev + qval[_u(code >> 2)]
        if q < need:  # the list is in quota order: the rest of this level fails too
            if jump:
                allf[_u(d)] = 1  # the quota depends on every earlier depth
            rem = ZERO
            x = xe
            continue
        if no_touch and mism > 0 and _touched(cw, g, d, dg, sc, none, touch, 0):
            continue
        lvl[_u(d)], px[_u(d)], pend[_u(d)], prem[_u(d)] = lv, x, xe, rem
        child[_u(d)] = 1
        pc[_u(d)] = code
        if jump:
            where[_u(code >> 2)] = d
        sc[_u(d)] = cw
        pr[_u(d)] = r
        bkd[_u(d)] = bk
        avail[_u(r >> 6)] &= ~(ROTATIONS << np.uint64(r & 60))
        cprev += mism
        cum[_u(d)] = cprev
        qcum[_u(d)] = q
        qprev = q
        if no_touch and mism > 0:
            _touched(cw, g, d, dg, sc, none, touch, 1)
        nodes += 1
        d += 1
        g += G
        if d > deepest:
            deepest = d
            for y in range(d):
                best[_u(y)] = pc[_u(y)]
        if d == m:
            dead[_u(m)] += 1
            _record(hbuf, hdep, hbrk, hfill, pc, cum, d)
            hfill += 1
            lv, x, xe, rem = 3, 0, 0, ZERO  # nothing to scan here: the next round backs up
            child[_u(d)] = 1
            if hfill >= hcap or nodes >= stop_at:
                status = FULL if hfill >= hcap else (BUDGET if nodes >= budget else RUNNING)
                break
            continue
        child[_u(d)] = 0
        if jump:
            infl[_u(d)] = 0
            allf[_u(d)] = 0
        room, capd, nxd, need = dg[_u(g + ALLOW)] - cprev, dg[_u(g + CAP)], dg[_u(g + NX)], dg[_u(g + QMIN)]
        bk = _bucket(dg, g, sc, colours)
        lv = 0
        x, xe, rem = estart[_u(bk)], estart[_u(bk + 1)], ZERO
        if nodes >= stop_at:
            status = BUDGET if nodes >= budget else RUNNING
            break
    lvl[_u(d)], px[_u(d)], pend[_u(d)], prem[_u(d)] = lv, x, xe, rem
    ctr[DEPTH] = d
    ctr[NODES] = nodes
    ctr[DEEPEST] = deepest
    ctr[HFILL] = hfill
    return status


@njit(cache=True)
def derive(st, aux, dg, col4, rank_of, colours) -> None:
    """The kernel's derived arrays from the saved state: colours of every placed slot (hints and the
    sentinel included), ranks and buckets of the depths on the stack."""
    pc, ctr = st[6], st[8]
    sc, pr, bkd, where = aux
    for n in range(pc.shape[0]):
        sc[n] = col4[pc[n]]
    for d in range(min(ctr[DEPTH] + 1, pr.shape[0])):
        pr[d] = rank_of[pc[d]] if d < ctr[DEPTH] else 0
        bkd[d] = _bucket(dg, d * G, sc, colours)
        if d < ctr[DEPTH]:
            where[pc[d] >> 2] = d


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
        np.zeros((m + 1) * ((m + 64) // 64), dtype=np.uint64),  # conf: conflict sets (module docstring)
        np.zeros(m + 1, dtype=np.uint8),  # infl: conf of that depth valid
        np.zeros(m + 1, dtype=np.uint8),  # allf: that depth may not jump (its failure names every depth)
    )


STATE_NAMES = ("lvl", "px", "pend", "prem", "cum", "qcum", "pc", "child", "ctr", "best", "dead",
               "avail", "used", "touch", "conf", "infl", "allf")  # fmt: skip
