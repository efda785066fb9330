"""A clique becomes a board: its nodes are placed, the holes it leaves are filled by the CP-SAT region model.

Paper 002, section 3.3: "holes are left in the region to which the remaining, unassigned tiles should be
assigned. The related MILP region model is solved where all assigned tile/position variables are fixed to
the value determined by the Max-Clique solver." Our region model (e2opt.region_model) plays the MILP: it
places the pieces the clique did not use on the hole cells, maximising the joins against the clique's
cells and the board around. Should CP-SAT find nothing in its time, the holes get any valid placement
(kind and rim respected), so a board always comes back.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.board import Board
from ..core.puzzle import Puzzle
from .graph import CliqueGraph


def is_clique(adj: np.ndarray, nodes: np.ndarray) -> bool:
    """Every pair of ``nodes`` is joined in the bitset ``adj`` (checked pair by pair)."""
    nodes = [int(v) for v in nodes]
    for a, u in enumerate(nodes):
        for v in nodes[a + 1 :]:
            if not (int(adj[u, v // 64]) >> (v % 64)) & 1:
                return False
    return True


@dataclass
class Filled:
    """The region's placement after the clique and the hole filling, and how it was reached."""

    piece: np.ndarray  # (k,) per region cell, in graph.cells order
    rot: np.ndarray
    placed: int  # cells the clique placed
    holes: int  # cells the region model filled
    status: str  # the region model's status on the holes ("none" without holes)


def fill(
    puzzle: Puzzle,
    graph: CliqueGraph,
    nodes: np.ndarray,
    board: Board,
    *,
    time_limit_s: float = 10.0,
    seed: int = 0,
    deterministic_time: float | None = None,
) -> Filled:
    """Place clique ``nodes`` on the region of ``graph``, fill its holes from the unused pieces against
    ``board`` (read only; its region cells are ignored)."""
    nodes = np.asarray(nodes, dtype=np.int64)
    k = graph.target
    piece = np.full(k, -1, dtype=np.int64)
    rot = np.zeros(k, dtype=np.int64)
    piece[graph.lcell[nodes]] = graph.piece[nodes]
    rot[graph.lcell[nodes]] = graph.rot[nodes]
    holes = np.flatnonzero(piece < 0)
    if len(holes) == 0:
        return Filled(piece, rot, len(nodes), 0, "none")
    work = board.copy()
    flat_piece, flat_rot = work.piece.reshape(-1), work.rot.reshape(-1)
    flat_piece[graph.cells] = piece
    flat_rot[graph.cells] = rot
    spare = np.setdiff1d(graph.pieces, graph.piece[nodes])
    hole_cells = graph.cells[holes]
    from ..cpsat.region_model import solve_region  # ortools loads only when a clique leaves holes

    sol = solve_region(
        puzzle,
        work,
        hole_cells,
        pieces=spare,
        time_limit_s=time_limit_s,
        seed=seed,
        deterministic_time=deterministic_time,
        hint=False,
    )
    if sol.status in ("optimal", "feasible"):
        piece[holes], rot[holes] = sol.piece, sol.rot
    else:
        piece[holes], rot[holes] = _any_fit(puzzle, hole_cells, spare)
    return Filled(piece, rot, len(nodes), len(holes), sol.status)


def _any_fit(puzzle: Puzzle, cells: np.ndarray, spare: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Some valid placement of ``spare`` on ``cells``: each cell takes the first unused piece that fits."""
    piece = np.full(len(cells), -1, dtype=np.int64)
    rot = np.zeros(len(cells), dtype=np.int64)
    free = [int(p) for p in spare]
    for i, cell in enumerate(cells.tolist()):
        r, c = divmod(cell, puzzle.cols)
        for p in free:
            turns = puzzle.valid_rotations(p, r, c)
            if turns:
                piece[i], rot[i] = p, turns[0]
                free.remove(p)
                break
    if np.any(piece < 0):
        raise RuntimeError("clique fill: the spare pieces do not fit the holes (kinds differ)")
    return piece, rot


def board_of(puzzle: Puzzle, graph: CliqueGraph, filled: Filled, board: Board) -> Board:
    """``board`` with the region's cells replaced by ``filled`` (a new Board)."""
    out = board.copy()
    out.piece.reshape(-1)[graph.cells] = filled.piece
    out.rot.reshape(-1)[graph.cells] = filled.rot
    return out
