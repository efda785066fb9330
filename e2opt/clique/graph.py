"""Paper 002's clique graph (section 2.2) of a puzzle or of a window of a board, built with numpy.

A node is a placement (piece, cell, rotation) that may appear on a board e2opt makes: the piece's kind is
the cell's kind with grey exactly toward the rim, it shows the colour of every placed neighbour outside the
region (hints, or the board around a window: section 3.3's "nodes conflicting with assignments adjacent to
the region are not added"), and hinted cells and pieces are left out. Two nodes are joined when they do
not conflict (other piece, other cell, matching colours when adjacent; kernels.compatible), so a clique
of size ``len(cells)`` is a perfect filling of the region and a large clique a board with many joins.

On a hint-free puzzle the board's turns are broken as paper 002 does (its node counts 30, 138, 478, ...
for 3x3, 4x4, 5x5 are ours): the lowest-numbered corner piece only in the top-left corner (square), or
top-left / top-right (other sizes, where only the half turn maps the board onto itself).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.board import Board
from ..core.errors import E2optError
from ..core.puzzle import CORNER, GREY, Puzzle
from . import kernels

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # neighbour offsets of sides t, r, b, l
BITSET_LIMIT_BYTES = 1 << 30  # an adjacency bitset above 1 GiB is refused (export streams instead)


@dataclass(frozen=True, eq=False)
class CliqueGraph:
    """Nodes of a region as arrays; ``side[a, b]`` is the side of region cell a on which b lies (or -1)."""

    rows: int  # the puzzle's size (cells are flat r * cols + c)
    cols: int
    cells: np.ndarray  # (k,) flat cells of the region, in node order
    pieces: np.ndarray  # pieces offered to the region
    lcell: np.ndarray  # (N,) region index 0..k-1 of each node's cell
    piece: np.ndarray  # (N,) piece of each node
    rot: np.ndarray  # (N,) clockwise quarter turns of each node
    colours: np.ndarray  # (N, 4) colours the node shows on sides t r b l
    side: np.ndarray  # (k, k)

    @property
    def n_nodes(self) -> int:
        return len(self.lcell)

    @property
    def target(self) -> int:
        """Size of a perfect clique: one node on every region cell."""
        return len(self.cells)

    def n_edges(self) -> int:
        """Edges, counted by the kernel (O(N^2) pair tests, no memory)."""
        return int(kernels.count_edges(self.lcell, self.piece, self.colours, self.side))

    def density(self, edges: int | None = None) -> float:
        """Edges / (N choose 2)."""
        n = self.n_nodes
        pairs = n * (n - 1) // 2
        return (self.n_edges() if edges is None else edges) / pairs if pairs else 0.0

    def bitset(self, out: np.ndarray | None = None) -> np.ndarray:
        """Adjacency as rows of 64-bit words: (N, ceil(N / 64)) uint64; E2optError past BITSET_LIMIT_BYTES.

        ``out``, a flat uint64 buffer of at least N * ceil(N / 64) words, is reused instead of a new array."""
        n = self.n_nodes
        words = max(1, (n + kernels.WORD - 1) // kernels.WORD)
        if n * words * 8 > BITSET_LIMIT_BYTES:
            raise E2optError(
                f"clique graph of {n} nodes: its adjacency bitset needs {n * words * 8 / 2**30:.1f} GiB "
                f"(at most {BITSET_LIMIT_BYTES / 2**30:.0f} GiB); export it with e2opt export-clique instead"
            )
        if out is not None and len(out) >= n * words:
            adj = out[: n * words].reshape(n, words)
            adj[:] = 0
        else:
            adj = np.zeros((n, words), dtype=np.uint64)
        kernels.fill_bitset(self.lcell, self.piece, self.colours, self.side, adj)
        return adj

    def node_cell(self) -> np.ndarray:
        """(N,) flat board cell of each node."""
        return self.cells[self.lcell]


def region_graph(
    puzzle: Puzzle,
    board: Board,
    cells: np.ndarray,
    pieces: np.ndarray,
    fix: dict[int, np.ndarray] | None = None,
) -> CliqueGraph:
    """The graph of flat ``cells`` filled from ``pieces``, against the placed (piece >= 0) cells of ``board``
    outside the region; ``fix`` maps a piece to the only flat cells it may take (symmetry breaking)."""
    rows, cols = puzzle.rows, puzzle.cols
    cells = np.asarray(cells, dtype=np.int64).reshape(-1)
    pieces = np.asarray(pieces, dtype=np.int64).reshape(-1)
    k = len(cells)
    r, c = cells // cols, cells % cols
    rim = sum(
        (edge.astype(np.int64) << s) for s, edge in enumerate((r == 0, c == cols - 1, r == rows - 1, c == 0))
    )
    oriented = np.ascontiguousarray(puzzle.oriented, dtype=np.int64)
    grey = ((oriented == GREY).astype(np.int64) << np.arange(4)).sum(axis=2)  # (P, 4) grey side masks
    local = np.full(rows * cols, -1, dtype=np.int64)
    local[cells] = np.arange(k)
    need = np.full((k, 4), -1, dtype=np.int64)  # colour a placed neighbour outside shows this cell
    side = np.full((k, k), -1, dtype=np.int64)
    flat_piece, flat_rot = board.piece.reshape(-1), board.rot.reshape(-1) % 4
    for s, (dr, dc) in enumerate(STEPS):
        rr, cc = r + dr, c + dc
        on = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
        other = np.where(on, rr * cols + cc, 0)
        inside = on & (local[other] >= 0)
        side[np.flatnonzero(inside), local[other[inside]]] = s
        placed = on & ~inside & (flat_piece[other] >= 0)
        o = other[placed]
        need[placed, s] = oriented[flat_piece[o], flat_rot[o], (s + 2) % 4]
    fits = grey[pieces][None, :, :] == rim[:, None, None]  # (k, P, 4)
    li, pj, pr = np.nonzero(fits)
    colours = oriented[pieces[pj], pr]
    wanted = need[li]
    keep = np.all((wanted < 0) | (colours == wanted), axis=1)
    for p, allowed in (fix or {}).items():
        keep &= (pieces[pj] != p) | np.isin(cells[li], allowed)
        if len(allowed) == 1:  # the cell is the piece's: no other piece there
            keep &= (pieces[pj] == p) | (cells[li] != allowed[0])
    li, pj, pr, colours = li[keep], pj[keep], pr[keep], colours[keep]
    return CliqueGraph(rows, cols, cells, pieces, li, pieces[pj], pr, np.ascontiguousarray(colours), side)


def fixed_board(puzzle: Puzzle) -> Board:
    """A board with the hints placed and every other cell empty (-1)."""
    piece = np.full((puzzle.rows, puzzle.cols), -1, dtype=np.int64)
    rot = np.zeros_like(piece)
    for h in puzzle.hints:
        piece[h.row, h.col], rot[h.row, h.col] = h.piece, h.rot
    return Board(piece, rot)


def symmetry_fix(puzzle: Puzzle) -> dict[int, np.ndarray]:
    """The turn-breaking restriction of a hint-free puzzle (module docstring); empty with hints."""
    if puzzle.hints:
        return {}
    first = int(np.flatnonzero(puzzle.kinds == CORNER)[0])
    cols = puzzle.cols
    allowed = [0] if puzzle.rows == cols else [0, cols - 1]
    return {first: np.array(allowed, dtype=np.int64)}


def puzzle_graph(puzzle: Puzzle, symmetry: bool = True) -> CliqueGraph:
    """The whole puzzle's graph: every non-hint cell, every non-hinted piece, hints as fixed neighbours."""
    board = fixed_board(puzzle)
    cells = np.flatnonzero(board.piece.reshape(-1) < 0)
    hinted = {h.piece for h in puzzle.hints}
    pieces = np.array([p for p in range(len(puzzle.pieces)) if p not in hinted], dtype=np.int64)
    return region_graph(puzzle, board, cells, pieces, symmetry_fix(puzzle) if symmetry else None)


def window_cells(puzzle: Puzzle, r0: int, c0: int, height: int, width: int) -> np.ndarray:
    """Flat non-hint cells of the window with top-left (r0, c0); E2optError when it leaves the board."""
    if height < 1 or width < 1 or r0 < 0 or c0 < 0 or r0 + height > puzzle.rows or c0 + width > puzzle.cols:
        raise E2optError(
            f"--window {r0} {c0} {height} {width}: must lie on the {puzzle.rows}x{puzzle.cols} board "
            "(row col height width, sizes >= 1)"
        )
    rows = np.arange(r0, r0 + height)
    cols = np.arange(c0, c0 + width)
    cells = (rows[:, None] * puzzle.cols + cols[None, :]).reshape(-1)
    hinted = {h.row * puzzle.cols + h.col for h in puzzle.hints}
    return np.array([c for c in cells.tolist() if c not in hinted], dtype=np.int64)


def window_graph(puzzle: Puzzle, board: Board, cells: np.ndarray) -> CliqueGraph:
    """RO's graph (paper 002, 3.3): the window's own pieces on its cells, against the board around it."""
    cells = np.asarray(cells, dtype=np.int64)
    pieces = board.piece.reshape(-1)[cells]
    return region_graph(puzzle, board, cells, pieces)
