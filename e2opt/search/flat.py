"""A puzzle as flat, numba-friendly arrays: neighbours, rim masks, grey masks, movable cells by kind.

Cells are numbered c = r * cols + col; sides are t r b l = 0..3. A piece p fits cell c at rotation
rot exactly when ``greymask[p, rot] == rimmask[c]``: that one test enforces both the kind rule and
grey toward the rim.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.board import Board
from ..core.puzzle import GREY, Puzzle

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # (dr, dc) of the neighbour on side t, r, b, l
ANY_ROTATION = 4  # fit[p, mask] of an inner piece on an inner cell: all four rotations fit


def side_mask(flags) -> int:
    """4-bit mask with bit s set when flags[s] is true (s = t r b l)."""
    return sum(1 << s for s in range(4) if flags[s])


@dataclass(frozen=True, eq=False)
class FlatPuzzle:
    """Every static array the kernels read, built once per puzzle."""

    rows: int
    cols: int
    oriented: np.ndarray  # (P, 4, 4): colours of piece p after rot clockwise turns, sides t r b l
    sides: np.ndarray  # (P, 4): colours of piece p as listed (rotation 0)
    greymask: np.ndarray  # (P, 4): grey sides of piece p at rotation rot, as a 4-bit mask
    fit: np.ndarray  # (P, 16): for a cell rim mask, the one rotation that fits, ANY_ROTATION, or -1
    nbr: np.ndarray  # (n, 4): neighbour cell on each side, -1 at the rim
    rimmask: np.ndarray  # (n,): rim sides of each cell, as a 4-bit mask
    movable: np.ndarray  # (n,) bool: False on hint cells, which are never lifted or swapped
    parity: np.ndarray  # (n,): (r + c) % 2, the colour class of the checkerboard selection
    by_kind: np.ndarray  # movable cells grouped by kind (corner, edge, inner)
    kind_start: np.ndarray  # (4,): movable cells of kind g are by_kind[kind_start[g]:kind_start[g+1]]
    cell_kind: np.ndarray  # (n,): kind of each cell

    @classmethod
    def of(cls, puzzle: Puzzle) -> FlatPuzzle:
        rows, cols = puzzle.rows, puzzle.cols
        n = rows * cols
        oriented = np.ascontiguousarray(puzzle.oriented, dtype=np.int64)
        greymask = np.zeros(oriented.shape[:2], dtype=np.int64)
        for s in range(4):
            greymask |= (oriented[:, :, s] == GREY).astype(np.int64) << s
        fit = np.full((len(oriented), 16), -1, dtype=np.int64)
        for mask in range(16):
            fits = greymask == mask
            fit[:, mask] = np.where(fits.any(axis=1), np.argmax(fits, axis=1), -1)
        fit[greymask[:, 0] == 0, 0] = ANY_ROTATION
        nbr = np.full((n, 4), -1, dtype=np.int64)
        rimmask = np.zeros(n, dtype=np.int64)
        parity = np.zeros(n, dtype=np.int64)
        cell_kind = np.zeros(n, dtype=np.int64)
        for r in range(rows):
            for c in range(cols):
                cell = r * cols + c
                for s, (dr, dc) in enumerate(STEPS):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < rows and 0 <= cc < cols:
                        nbr[cell, s] = rr * cols + cc
                rimmask[cell] = side_mask(puzzle.rim_sides(r, c))
                parity[cell] = (r + c) % 2
                cell_kind[cell] = puzzle.cell_kind(r, c)
        movable = np.ones(n, dtype=np.bool_)
        for h in puzzle.hints:
            movable[h.row * cols + h.col] = False
        cells = np.flatnonzero(movable)
        by_kind = cells[np.argsort(cell_kind[cells], kind="stable")].astype(np.int64)
        kind_start = np.searchsorted(cell_kind[by_kind], np.arange(4)).astype(np.int64)
        return cls(
            rows,
            cols,
            oriented,
            oriented[:, 0, :].copy(),
            greymask,
            fit,
            nbr,
            rimmask,
            movable,
            parity,
            by_kind,
            kind_start,
            cell_kind,
        )

    @property
    def n(self) -> int:
        return self.rows * self.cols

    def flatten(self, board: Board) -> tuple[np.ndarray, np.ndarray]:
        """(piece, rot) of a board as flat int64 arrays (copies)."""
        return board.piece.reshape(-1).astype(np.int64), (board.rot.reshape(-1) % 4).astype(np.int64)

    def board(self, piece: np.ndarray, rot: np.ndarray) -> Board:
        """A Board (copy) from flat piece and rotation arrays."""
        return Board(piece.reshape(self.rows, self.cols).copy(), rot.reshape(self.rows, self.cols).copy())
