"""Flat arrays of a puzzle for the exact searches: neighbours, placement tables keyed by known colours.

A placement is (tile, rot). Every table entry is (tile, k): the tile's own sides k, k+1 (clockwise
pair), k, k+2 (opposite pair) or k (single colour) show the key colours, so at a cell whose known
sides s, s+1 (or s, s+2, or s) show them, the entry gives rotation (s - k) mod 4. The rim counts as
a known side of colour 0. Pair ids: a*K+b for the clockwise pair (a, b), K*K + min*K+max for an
opposite pair; both feed the ColorPair counters of paper 000.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.errors import E2optError
from ..core.puzzle import CORNER, Puzzle
from ..fill.order import spiral

ROW, SPIRAL, MINDOMAIN, MINGAP = 0, 1, 2, 3
ORDERS = {"row": ROW, "spiral": SPIRAL, "mindomain": MINDOMAIN, "mingap": MINGAP}
VMIN, VMAX, VMID, VRANDOM = 0, 1, 2, 3
VALUE_ORDERS = {"min": VMIN, "max": VMAX, "mid": VMID, "random": VRANDOM}
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # neighbour offsets of sides t, r, b, l


def spiral_cells(rows: int, cols: int) -> list[int]:
    """Cell indices clockwise from the top-left corner, rim first, then ring after ring inward."""
    return [r * cols + c for r, c in spiral(rows, cols)]


def _table(keys: list[tuple[int, int, int]], n_keys: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR arrays (start, tile, k) from (key, tile, k) triples, entries of a key kept in list order."""
    keys = sorted(keys, key=lambda e: e[0])  # stable: tile order within a key is kept
    start = np.zeros(n_keys + 1, dtype=np.int64)
    for key, _, _ in keys:
        start[key + 1] += 1
    np.cumsum(start, out=start)
    tile = np.array([t for _, t, _ in keys], dtype=np.int64)
    k = np.array([kk for _, _, kk in keys], dtype=np.int64)
    return start, tile, k


@dataclass
class ExactModel:
    """Everything the numba kernels read: static arrays built once per puzzle and options."""

    rows: int
    cols: int
    K: int  # colours incl. grey (array size)
    pieces: np.ndarray  # (T, 4)
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
    tiles = np.arange(T)
    if shuffle_seed is not None:
        tiles = np.random.default_rng(shuffle_seed).permutation(T)
    kk = K * K
    entries: list[tuple[int, int, int]] = []
    for t in tiles:
        p = [int(x) for x in pieces[t]]
        for k in range(4):
            entries.append((p[k] * K + p[(k + 1) % 4], int(t), k))
            entries.append((kk + p[k] * K + p[(k + 2) % 4], int(t), k))
            entries.append((2 * kk + p[k], int(t), k))
            entries.append((2 * kk + K, int(t), k))
    tab_start, tab_tile, tab_k = _table(entries, 2 * kk + K + 1)
    tile_pairs = np.full((T, 6), -1, dtype=np.int64)
    having: list[tuple[int, int, int]] = []
    for t in range(T):
        p = [int(x) for x in pieces[t]]
        ids = [p[k] * K + p[(k + 1) % 4] for k in range(4)]
        ids += [kk + min(p[k], p[k + 2]) * K + max(p[k], p[k + 2]) for k in range(2)]
        distinct = list(dict.fromkeys(ids))
        tile_pairs[t, : len(distinct)] = distinct
        having += [(q, t, 0) for q in distinct]
    ptile_start, ptile, _ = _table(having, 2 * kk)

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
