"""The kernel's candidate lists and per-depth geometry for one puzzle, fill order and rule set.

One list per bucket (slot of the order, colour facing key side 0, colour facing key side 1), built from
construct/tables.py: its exact placements, then (entry bit 0 set) its one-off placements, those breaking
on a frame colour dropped unless ``frame_colour_breaks``. An entry is ``code * 2 + breaks`` with code =
piece * 4 + rotation. Per depth: the bucket base, the index in the placed-code array of each key
neighbour and the side it shows, and the further placed sides checked one by one (next to a hint).
Placed codes live in ``pc[0..m)`` by depth, the hints in ``pc[m..m+h)``, and ``pc[m+h]`` holds a
sentinel code whose sides are all colour 0 (rim or no neighbour), so a lookup never branches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..construct.order import FillOrder
from ..construct.tables import build_tables
from ..core.puzzle import Puzzle


@dataclass(frozen=True, eq=False)
class Geometry:
    """Per-depth arrays: bucket base, key neighbours (pc index, side shown), extras (pc index, own side)."""

    base: np.ndarray
    kn0: np.ndarray
    ks0: np.ndarray
    kn1: np.ndarray
    ks1: np.ndarray
    xn: np.ndarray
    xs: np.ndarray
    nx: np.ndarray
    hint_codes: np.ndarray

    def arrays(self) -> tuple:
        return (self.base, self.kn0, self.ks0, self.kn1, self.ks1, self.xn, self.xs, self.nx)


@dataclass(frozen=True, eq=False)
class Lists:
    """CSR entry lists (``start`` by bucket, ``ent`` entries), flat colours ``ocol[code * 4 + side]``."""

    colours: int
    start: np.ndarray
    ent: np.ndarray
    ocol: np.ndarray
    frame_col: np.ndarray


def build_geometry(puzzle: Puzzle, order: FillOrder) -> Geometry:
    """The per-depth arrays of the module docstring."""
    m, c2 = order.depth, puzzle.n_colours**2
    hint_index = {h.row * puzzle.cols + h.col: m + i for i, h in enumerate(puzzle.hints)}
    sentinel = m + len(puzzle.hints)
    at = {int(cell): d for d, cell in enumerate(order.cells)}
    at.update(hint_index)
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
    return Geometry(base, kn[0], ks[0], kn[1], ks[1], xn, xs, nx, hints)


def build_lists(puzzle: Puzzle, order: FillOrder, frame: list[int], frame_colour_breaks: bool) -> Lists:
    """Exact then one-off placements per bucket (see the module docstring)."""
    t = build_tables(puzzle, order)
    colours = t.colours
    frame_col = np.zeros(colours, dtype=np.uint8)
    frame_col[frame] = 1
    n_buckets = len(t.exact_start) - 1
    ex_len = np.diff(t.exact_start)
    off_len = np.diff(t.one_off_start)
    off_bucket = np.repeat(np.arange(n_buckets), off_len)
    keep = np.ones(len(t.one_off), dtype=bool)
    if not frame_colour_breaks and len(t.one_off):
        slot, rest = np.divmod(off_bucket, colours * colours)
        c0, c1 = np.divmod(rest, colours)
        k0, k1 = order.slots[slot, 1], order.slots[slot, 2]
        for ks, want in ((k0, c0), (k1, c1)):
            own = t.ocol[t.one_off, np.maximum(ks, 0)]
            bad = (ks >= 0) & (own != want) & ((frame_col[own] > 0) | (frame_col[want] > 0))
            keep &= ~bad
    off_len = np.bincount(off_bucket[keep], minlength=n_buckets)
    start = np.zeros(n_buckets + 1, dtype=np.int64)
    np.cumsum(ex_len + off_len, out=start[1:])
    ent = np.empty(int(start[-1]), dtype=np.int16 if 2 * 4 * len(puzzle.pieces) <= 2**15 else np.int32)
    ex_codes = t.exact * 2
    off_codes = t.one_off[keep] * 2 + 1
    ex_pos = start[:-1].repeat(ex_len) + _ranks(ex_len)
    off_pos = (start[:-1] + ex_len).repeat(off_len) + _ranks(off_len)
    ent[ex_pos] = ex_codes
    ent[off_pos] = off_codes
    ocol = np.zeros((len(t.ocol) + 1) * 4, dtype=np.uint8)  # the last code is the all-zero sentinel
    ocol[: len(t.ocol) * 4] = t.ocol.ravel()
    return Lists(colours, start.astype(np.int32), ent, ocol, frame_col)


def _ranks(lengths: np.ndarray) -> np.ndarray:
    """0, 1, ..., n_i - 1 for each group length n_i, concatenated."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    firsts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.arange(total) - firsts
