"""Flat arrays of a puzzle for the exact searches: neighbours, placement tables keyed by known colours.

A placement is (tile, rot). Every table entry is (tile, k): the tile's own sides k, k+1 (clockwise
pair), k, k+2 (opposite pair) or k (single colour) show the key colours, so at a cell whose known
sides s, s+1 (or s, s+2, or s) show them, the entry gives rotation (s - k) mod 4. The rim counts as
a known side of colour 0. The tables are fill/tables.py's buckets of the placements (tile, -k mod 4),
which show the key colours on sides 0, 1 (0, 2; 0): the one table builder of e2opt. Pair ids: a*K+b for the clockwise pair (a, b), K*K + min*K+max for an
opposite pair; both feed the ColorPair counters of paper 000.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.errors import E2optError
from ..core.puzzle import CORNER, Puzzle
from ..fill.order import spiral
from ..fill.tables import group, keyed

ROW, SPIRAL, MINDOMAIN, MINGAP = 0, 1, 2, 3
ORDERS = {"row": ROW, "spiral": SPIRAL, "mindomain": MINDOMAIN, "mingap": MINGAP}
VMIN, VMAX, VMID, VRANDOM = 0, 1, 2, 3
VALUE_ORDERS = {"min": VMIN, "max": VMAX, "mid": VMID, "random": VRANDOM}
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # neighbour offsets of sides t, r, b, l


def spiral_cells(rows: int, cols: int) -> list[int]:
    """Cell indices clockwise from the top-left corner, rim first, then ring after ring inward."""
    return [r * cols + c for r, c in spiral(rows, cols)]


def key_tables(ocol: np.ndarray, T: int, K: int, seed: int | None) -> tuple[np.ndarray, ...]:
    """CSR (start, tile, k) over the keys of the module docstring; a key's entries by tile (``seed``: a
    random tile order), then k."""
    tiles = np.arange(T) if seed is None else np.random.default_rng(seed).permutation(T)
    codes = (tiles[:, None] * 4 + (-np.arange(4)) % 4).ravel()  # (tile, k): the placement (tile, -k)
    kk = K * K
    keys = [
        keyed(ocol, codes, 0, 1, K),
        kk + keyed(ocol, codes, 0, 2, K),
        2 * kk + keyed(ocol, codes, -1, 0, K),
        np.full(len(codes), 2 * kk + K),
    ]
    start, grouped = group(np.concatenate(keys), np.tile(codes, 4), 2 * kk + K + 1)
    return start, grouped >> 2, -grouped % 4


@dataclass
class ExactModel:
    """Everything the numba kernels read: static arrays built once per puzzle and options."""

    rows: int
    cols: int
    K: int  # colours incl. grey (array size)
    pieces: np.ndarray  # (T, 4)
    ocol: np.ndarray  # (4T, 4) colour of placement tile * 4 + rot on each side (Puzzle.oriented)
    nbr: np.ndarray  # (n, 4) neighbour cell or -1 at the rim
    tab_start: np.ndarray  # CSR over keys: clockwise pairs, opposite ordered pairs, single colours, "all"
    tab_tile: np.ndarray
    tab_k: np.ndarray
    tile_pairs: np.ndarray  # (T, 6) distinct pair ids of each tile, -1 padded
    ptile_start: np.ndarray  # CSR: tiles having pair p
    ptile: np.ndarray
    forbid: np.ndarray  # (n,) a tile that may not sit in the cell (symmetry breaking), or -1
    fixed: list[tuple[int, int, int]]  # (cell, tile, rot) placed before the search: hints, symmetry
    branch: np.ndarray  # (n,) 1 for the cells the search branches on
    order: np.ndarray  # static order of the branch cells (row scan or spiral)

    @property
    def n(self) -> int:
        return self.rows * self.cols


def build_model(
    puzzle: Puzzle,
    order: str = "row",
    symmetry: bool = True,
    chess: bool = False,
    shuffle_seed: int | None = None,
) -> ExactModel:
    """The arrays of ``puzzle``; ``symmetry`` applies only without hints (see symmetry_group)."""
    rows, cols = puzzle.rows, puzzle.cols
    n, pieces = rows * cols, puzzle.pieces
    T, K = len(pieces), puzzle.n_colours
    nbr = np.full((n, 4), -1, dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            for s, (dr, dc) in enumerate(STEPS):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    nbr[r * cols + c, s] = (r + dr) * cols + c + dc
    ocol = np.ascontiguousarray(puzzle.oriented.reshape(-1, 4))
    tab_start, tab_tile, tab_k = key_tables(ocol, T, K, shuffle_seed)
    tile_pairs = np.full((T, 6), -1, dtype=np.int64)
    having_key, having_tile = [], []
    kk = K * K
    for t in range(T):
        p = [int(x) for x in pieces[t]]
        ids = [p[k] * K + p[(k + 1) % 4] for k in range(4)]
        ids += [kk + min(p[k], p[k + 2]) * K + max(p[k], p[k + 2]) for k in range(2)]
        distinct = list(dict.fromkeys(ids))
        tile_pairs[t, : len(distinct)] = distinct
        having_key += distinct
        having_tile += [t] * len(distinct)
    ptile_start, ptile = group(
        np.array(having_key, dtype=np.int64), np.array(having_tile, dtype=np.int64), 2 * kk
    )

    fixed = [(h.row * cols + h.col, h.piece, h.rot) for h in puzzle.hints]
    forbid = np.full(n, -1, dtype=np.int64)
    if symmetry and not puzzle.hints:
        first = int(np.flatnonzero(puzzle.kinds == CORNER)[0])
        corners = [0, cols - 1, (rows - 1) * cols, n - 1]
        if rows == cols:
            fixed.append((0, first, puzzle.valid_rotations(first, 0, 0)[0]))
        else:
            for cell in corners[2:]:
                forbid[cell] = first
    fixed_cells = {cell for cell, _, _ in fixed}
    branch = np.array(
        [
            cell not in fixed_cells and (not chess or (cell // cols + cell % cols) % 2 == 0)
            for cell in range(n)
        ],
        dtype=np.int64,
    )
    if order not in ORDERS:
        raise E2optError(f"--order {order}: choose one of {', '.join(ORDERS)}")
    sequence = spiral_cells(rows, cols) if order == "spiral" else list(range(n))
    static = np.array([cell for cell in sequence if branch[cell]], dtype=np.int64)
    return ExactModel(
        rows,
        cols,
        K,
        np.ascontiguousarray(pieces, dtype=np.int64),
        ocol,
        nbr,
        tab_start,
        tab_tile,
        tab_k,
        tile_pairs,
        ptile_start,
        ptile,
        forbid,
        fixed,
        branch,
        static,
    )
