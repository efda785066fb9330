"""Candidate tables: for each slot of a fill order and the colours facing its two key sides, the placements.

A placement is coded ``piece * 4 + rotation``. ``exact`` lists the placements whose key sides match both
colours; ``one_off`` those that miss exactly one key side (used only when a break is allowed); ``every``
all placements that fit a slot's rim (the last resort when nothing matches). Hinted pieces never appear.
Tables are CSR arrays built with numpy once per puzzle and order; the kernels index them by
``(slot * C + colour0) * C + colour1`` (colour 0 when the slot has fewer than two key sides).
``fitting``, ``keyed`` and ``group`` are the one way e2opt picks and buckets placements by the colours
they show: the exact searches' tables and first domains (exact/model.py, exact/domains.py) come from
them too, keyed by a cell's known sides instead of a slot.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.puzzle import GREY, Puzzle
from .order import FillOrder


@dataclass(frozen=True, eq=False)
class Tables:
    """CSR candidate lists (see module docstring); ``ocol[code, s]`` is the colour of placement code on side s."""

    colours: int
    ocol: np.ndarray
    exact_start: np.ndarray
    exact: np.ndarray
    one_off_start: np.ndarray
    one_off: np.ndarray
    every_start: np.ndarray
    every: np.ndarray

    def arrays(self) -> tuple:
        """What the kernels read, as one tuple (colours first)."""
        return (
            self.colours,
            self.ocol,
            self.exact_start,
            self.exact,
            self.one_off_start,
            self.one_off,
            self.every_start,
            self.every,
        )


def fitting(ocol: np.ndarray, rim: int, pieces: np.ndarray) -> np.ndarray:
    """Codes of the pieces' rotations with grey exactly on the sides in the rim mask, by piece then rotation."""
    codes = (pieces[:, None] * 4 + np.arange(4)).ravel()
    want = (rim >> np.arange(4)) & 1 == 1
    return codes[np.all((ocol[codes] == GREY) == want, axis=1)]


def keyed(ocol: np.ndarray, codes: np.ndarray, k0: int, k1: int, colours: int) -> np.ndarray:
    """``c0 * colours + c1``: the colours each placement shows on sides k0 and k1 (a side < 0 reads 0)."""
    c0 = ocol[codes, k0] if k0 >= 0 else np.zeros(len(codes), dtype=np.int64)
    c1 = ocol[codes, k1] if k1 >= 0 else np.zeros(len(codes), dtype=np.int64)
    return c0 * colours + c1


def group(keys: np.ndarray, codes: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Group codes by key (0..size-1): (start offsets of length size + 1, codes sorted by key, stable)."""
    order = np.argsort(keys, kind="stable")
    start = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=size), out=start[1:])
    return start, codes[order].astype(np.int64)


def build_tables(puzzle: Puzzle, order: FillOrder) -> Tables:
    """The exact, one-off and every-placement tables of every slot of ``order``."""
    colours = puzzle.n_colours
    ocol = np.ascontiguousarray(puzzle.oriented.reshape(-1, 4))
    hinted = {h.piece for h in puzzle.hints}
    free = np.array([p for p in range(len(puzzle.pieces)) if p not in hinted], dtype=np.int64)
    size = len(order.slots) * colours * colours
    ex_keys, ex_codes, off_keys, off_codes, every = [], [], [], [], []
    every_start = np.zeros(len(order.slots) + 1, dtype=np.int64)
    others = np.arange(1, colours)
    for i, (rim, k0, k1) in enumerate(order.slots):
        codes = fitting(ocol, int(rim), free)
        every.append(codes)
        every_start[i + 1] = every_start[i] + len(codes)
        key = keyed(ocol, codes, k0, k1, colours)
        c0, c1 = key // colours, key % colours
        base = i * colours * colours
        ex_keys.append(base + key)
        ex_codes.append(codes)
        for key_side, mine in ((k0, c0), (k1, c1)):
            if key_side < 0:
                continue
            wrong = np.broadcast_to(others, (len(codes), len(others)))
            keep = wrong != mine[:, None]
            rep = np.repeat(np.arange(len(codes)), keep.sum(axis=1))
            x = wrong[keep]
            key0 = x if key_side == k0 else c0[rep]
            key1 = x if key_side == k1 else c1[rep]
            off_keys.append(base + key0 * colours + key1)
            off_codes.append(codes[rep])
    exact_start, exact = group(np.concatenate(ex_keys), np.concatenate(ex_codes), size)
    empty = np.zeros(0, dtype=np.int64)
    off_k = np.concatenate(off_keys) if off_keys else empty
    off_c = np.concatenate(off_codes) if off_codes else empty
    one_off_start, one_off = group(off_k, off_c, size)
    return Tables(
        colours, ocol, exact_start, exact, one_off_start, one_off, every_start, np.concatenate(every)
    )
