"""The kernel's candidate lists as bitsets over code ranks, and its per-depth geometry, for one puzzle and order;
each attempt's rank of the codes and its lists in that rank (``rank_codes``, ``fill_words``, ``sort_exact``).

Lists come from fill/tables.py: per bucket (slot of the order, colour facing key side 0, colour
facing key side 1) the exact placements (a plain list ``ent``, short) and, as bitsets, the one-off placements (bitset
list ``bucket``, those breaking on a frame colour dropped unless ``frame_colour_breaks``) and, with a cap
of 2, per slot with two key sides, every placement that fits its rim (bitset list ``buckets + slot``). Codes are
grouped by kind (a slot only ever holds one kind); each group's ranks start on a word boundary, so a
list's bitset spans only its kind's words. Placed codes live in ``pc[0..m)`` by depth, the hints in
``pc[m..m+h)``, and ``pc[m+h]`` holds a sentinel code whose sides are all colour 0 (rim or no neighbour).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ...core.puzzle import Puzzle
from ...fill.order import FillOrder
from ...fill.tables import build_tables
from ...kernels.rng import below

ONE = np.uint64(1)
ZERO = np.uint64(0)

# The kernel's per-depth row (int32, G fields): the four neighbours it may check, each as (pc slot, shift
# of the code's own side in its packed colours, shift of the neighbour's facing side): key side 0, key
# side 1, then the placed extras; the bucket base, the number of extras, the slot, the rules.
G = 20
N0, O0, T0 = 0, 1, 2  # neighbour j: N0 + 3 * j, O0 + 3 * j, T0 + 3 * j
BASE, NX, SLOT, ALLOW, CAP, QMIN = 12, 13, 14, 15, 16, 17


@dataclass(frozen=True, eq=False)
class Geometry:
    """Per-depth arrays: bucket base, key neighbours (pc index, side shown), extras (pc index, own side), slot."""

    base: np.ndarray
    kn0: np.ndarray
    ks0: np.ndarray
    kn1: np.ndarray
    ks1: np.ndarray
    xn: np.ndarray
    xs: np.ndarray
    nx: np.ndarray
    slot: np.ndarray
    hint_codes: np.ndarray


@dataclass(frozen=True, eq=False)
class Lists:
    """Codes of every list (CSR ``lstart``/``lcode``), where their bitsets live, the code groups by kind."""

    colours: int
    estart: np.ndarray  # per bucket: its exact placements ``ent[estart[b]:estart[b + 1]]``
    ent: np.ndarray
    lstart: np.ndarray
    lcode: np.ndarray
    lwlo: np.ndarray  # per list: first word of its kind
    lnw: np.ndarray  # per list: words of its kind
    woff: np.ndarray  # per list: first of its word entries (room for min(codes, words) of them)
    groups: np.ndarray  # the free pieces by kind group (CSR ``gstart``)
    gstart: np.ndarray
    gbase: np.ndarray  # first code rank of each group (a multiple of 64)
    n_words: int
    n_entries: int
    nb: int  # buckets: bitset list b is bucket b's one-off list, list nb + slot the slot's every list
    ocol: np.ndarray  # ocol[code * 4 + side]; the last code is the all-zero sentinel
    frame_col: np.ndarray
    col4: np.ndarray  # col4[code]: the four side colours packed, side s at bit 8 * s (uint32)


def build_geometry(puzzle: Puzzle, order: FillOrder) -> Geometry:
    """The per-depth arrays of the module docstring."""
    m, c2 = order.depth, puzzle.n_colours**2
    sentinel = m + len(puzzle.hints)
    at = {int(cell): d for d, cell in enumerate(order.cells)}
    at.update({h.row * puzzle.cols + h.col: m + i for i, h in enumerate(puzzle.hints)})
    kn = np.full((2, m), sentinel, dtype=np.int32)
    ks = np.zeros((2, m), dtype=np.int32)
    xn = np.full((m, 2), sentinel, dtype=np.int32)
    xs = np.zeros((m, 2), dtype=np.int32)
    nx = np.zeros(m, dtype=np.int32)
    for d in range(m):
        for j in range(2):
            s = int(order.keys[d, j])
            if s >= 0:
                kn[j, d], ks[j, d] = at[int(order.nbr[d, s])], (s + 2) & 3
            s = int(order.extras[d, j])
            if s >= 0:
                xn[d, nx[d]], xs[d, nx[d]] = at[int(order.nbr[d, s])], s
                nx[d] += 1
    base = (order.slot * c2).astype(np.int32)
    hints = np.array([h.piece * 4 + h.rot for h in puzzle.hints], dtype=np.int32)
    return Geometry(base, kn[0], ks[0], kn[1], ks[1], xn, xs, nx, order.slot.astype(np.int32), hints)


def _kind_of_rim(rim: int) -> int:
    """0 inner, 1 edge, 2 corner: the number of rim sides."""
    return bin(int(rim)).count("1")


def build_lists(
    puzzle: Puzzle, order: FillOrder, frame: list[int], frame_colour_breaks: bool, cap: int
) -> Lists:
    """Exact, one-off and (cap >= 2) every-placement lists with their bitset layout (module docstring)."""
    t = build_tables(puzzle, order)
    colours = t.colours
    frame_col = np.zeros(colours, dtype=np.uint8)
    frame_col[frame] = 1
    n_buckets, n_slots = len(t.exact_start) - 1, len(order.slots)
    off_bucket = np.repeat(np.arange(n_buckets), np.diff(t.one_off_start))
    keep = np.ones(len(t.one_off), dtype=bool)
    if not frame_colour_breaks and len(t.one_off):
        slot, rest = np.divmod(off_bucket, colours * colours)
        c0, c1 = np.divmod(rest, colours)
        k0, k1 = order.slots[slot, 1], order.slots[slot, 2]
        for ks, want in ((k0, c0), (k1, c1)):
            own = t.ocol[t.one_off, np.maximum(ks, 0)]
            keep &= ~((ks >= 0) & (own != want) & ((frame_col[own] > 0) | (frame_col[want] > 0)))
    lists: list[np.ndarray] = []
    for b in range(n_buckets):
        lo, hi = t.one_off_start[b], t.one_off_start[b + 1]
        lists.append(t.one_off[lo:hi][keep[lo:hi]])
    two_keys = (order.slots[:, 1] >= 0) & (order.slots[:, 2] >= 0)
    for s in range(n_slots):
        every = t.every[t.every_start[s] : t.every_start[s + 1]]
        lists.append(every if cap >= 2 and two_keys[s] else every[:0])
    hinted = {h.piece for h in puzzle.hints}
    kinds = [
        [p for p in range(len(puzzle.pieces)) if puzzle.kinds[p] == k and p not in hinted] for k in (2, 1, 0)
    ]
    groups = [np.array(ps, dtype=np.int64) for ps in kinds]
    gsize = np.array([len(g) for g in groups])
    gwords = (4 * gsize + 63) // 64
    gbase = np.concatenate([[0], np.cumsum(gwords)[:-1]]) * 64
    slot_group = np.array([_kind_of_rim(rim) for rim in order.slots[:, 0]])  # 0 inner, 1 edge, 2 corner
    wlo = (gbase[slot_group] // 64).astype(np.int64)
    nwords = gwords[slot_group].astype(np.int64)
    list_slot = np.concatenate([np.repeat(np.arange(n_slots), colours * colours), np.arange(n_slots)])
    lens = np.array([len(x) for x in lists], dtype=np.int64)
    room = np.minimum(lens, nwords[list_slot])
    woff = np.concatenate([[0], np.cumsum(room)[:-1]]).astype(np.int64)
    lstart = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    lcode = np.concatenate(lists).astype(np.int64) if lists else np.zeros(0, dtype=np.int64)
    ocol = np.zeros((len(t.ocol) + 1) * 4, dtype=np.uint8)
    ocol[: len(t.ocol) * 4] = t.ocol.ravel()
    col4 = (ocol.reshape(-1, 4).astype(np.uint32) << np.array([0, 8, 16, 24], dtype=np.uint32)).sum(
        axis=1, dtype=np.uint32
    )
    code_dtype = np.int16 if 4 * len(puzzle.pieces) < 2**15 else np.int32
    return Lists(
        colours, t.exact_start.astype(np.int64), t.exact.astype(code_dtype), lstart, lcode, wlo[list_slot], nwords[list_slot], woff,
        np.concatenate(groups), np.concatenate([[0], np.cumsum(gsize)]).astype(np.int64),
        gbase.astype(np.int64), int(gwords.sum()), int(room.sum()), n_buckets, ocol, frame_col, col4,
    )  # fmt: skip


def depth_rows(geo: Geometry, allow: np.ndarray, cap: np.ndarray, qmin: np.ndarray, none: int) -> np.ndarray:
    """The kernel's per-depth rows (the layout above), flat; row m (the full board) only has no neighbours."""
    m = len(geo.base)
    dg = np.zeros((m + 1, G), dtype=np.int32)
    dg[:, N0 : N0 + 12 : 3] = none
    keys = ((geo.kn0, geo.ks0), (geo.kn1, geo.ks1))
    for j, (kn, ks) in enumerate(keys):
        dg[:m, N0 + 3 * j], dg[:m, O0 + 3 * j], dg[:m, T0 + 3 * j] = kn, 8 * ((ks + 2) & 3), 8 * ks
    for j in range(2):
        dg[:m, N0 + 3 * (j + 2)] = geo.xn[:, j]
        dg[:m, O0 + 3 * (j + 2)], dg[:m, T0 + 3 * (j + 2)] = 8 * geo.xs[:, j], 8 * ((geo.xs[:, j] + 2) & 3)
    dg[:m, BASE], dg[:m, NX], dg[:m, SLOT] = geo.base, geo.nx, geo.slot
    dg[:, ALLOW], dg[:, CAP], dg[:, QMIN] = allow, cap, qmin
    return dg.ravel()


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
