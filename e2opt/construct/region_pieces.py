"""Which pieces a region is offered (all, or a best-fit pre-filter), and a fill without CP-SAT.

Helpers of the region-by-region construction (construct/regions.py): the joins a region can match,
the candidate pieces of a region, and fill_region, the best-fit rule used when CP-SAT finds nothing.
"""

from __future__ import annotations

import numpy as np

from ..core.board import Board
from ..core.puzzle import GREY, Puzzle
from .config import RegionsConfig

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # neighbour offsets of sides t, r, b, l


def possible_joins(puzzle: Puzzle, board: Board, cells: np.ndarray) -> int:
    """Joins a region can match: inside it, and against placed cells around it (each join once)."""
    inside = {(int(r), int(c)) for r, c in cells}
    total = 0
    for r, c in inside:
        for dr, dc in STEPS:
            rr, cc = r + dr, c + dc
            if not (0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols):
                continue
            if (rr, cc) in inside:
                total += 1  # counted from both ends: halved below
            elif board.piece[rr, cc] >= 0:
                total += 2
    return total // 2


def _rim_fit(puzzle: Puzzle, cells: np.ndarray, pieces: np.ndarray) -> np.ndarray:
    """fit[i, j, rot]: piece j turned rot shows grey exactly toward the rim of cell i."""
    grey = puzzle.oriented[pieces] == GREY  # (n, 4, 4)
    r, c = cells[:, 0], cells[:, 1]
    rim = np.stack([r == 0, c == puzzle.cols - 1, r == puzzle.rows - 1, c == 0], axis=1)  # (k, 4)
    return np.all(grey[None, :, :, :] == rim[:, None, None, :], axis=3)


def _neighbour_colours(puzzle: Puzzle, board: Board, r: int, c: int) -> np.ndarray:
    """The colour each placed neighbour shows cell (r, c), per side t r b l (-1: none placed)."""
    need = np.full(4, -1, dtype=np.int64)
    for s, (dr, dc) in enumerate(STEPS):
        rr, cc = r + dr, c + dc
        if 0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols and board.piece[rr, cc] >= 0:
            need[s] = puzzle.oriented[board.piece[rr, cc], board.rot[rr, cc] % 4, (s + 2) % 4]
    return need


def _fit_scores(puzzle: Puzzle, board: Board, cells: np.ndarray, pieces: np.ndarray) -> np.ndarray:
    """score[i, j, rot]: joins piece j turned rot matches against cell i's placed neighbours; -1 off the rim."""
    need = np.stack([_neighbour_colours(puzzle, board, int(r), int(c)) for r, c in cells])  # (k, 4)
    shows = puzzle.oriented[pieces]  # (n, 4, 4)
    matches = (shows[None, :, :, :] == need[:, None, None, :]).sum(axis=3)
    return np.where(_rim_fit(puzzle, cells, pieces), matches, -1)


def fill_region(
    puzzle: Puzzle, board: Board, cells: np.ndarray, pieces: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A valid placement without CP-SAT: cell by cell, the unused piece and turn matching most placed joins.

    Always complete when ``pieces`` holds at least as many pieces of each kind as ``cells`` has cells.
    """
    work = board.copy()
    free = np.ones(len(pieces), dtype=bool)
    piece = np.empty(len(cells), dtype=np.int64)
    rot = np.empty(len(cells), dtype=np.int64)
    for i, (r, c) in enumerate(cells.tolist()):
        scores = _fit_scores(puzzle, work, cells[i : i + 1], pieces)[0]  # (n, 4)
        scores[~free] = -1
        best = np.flatnonzero(scores.reshape(-1) == scores.max())
        j, k = divmod(int(rng.choice(best)), 4)
        if scores[j, k] < 0:
            raise ValueError(f"region: no piece left that fits cell ({r},{c})")
        piece[i], rot[i], free[j] = pieces[j], k, False
        work.piece[r, c], work.rot[r, c] = pieces[j], k
    return piece, rot


def candidates(
    puzzle: Puzzle,
    board: Board,
    cells: np.ndarray,
    unplaced: np.ndarray,
    cfg: RegionsConfig,
    rng: np.random.Generator,
) -> np.ndarray:
    """The pieces offered to a region: every unplaced piece of its cells' kinds, or (``best``) the union of
    each cell's ``candidates_per_cell`` best fitting pieces, topped up to at least one piece per cell of each kind."""
    kinds = np.array([puzzle.cell_kind(int(r), int(c)) for r, c in cells])
    pool = unplaced[np.isin(puzzle.kinds[unplaced], kinds)]
    if cfg.candidates == "all" or len(pool) == len(cells):
        return pool
    pool = rng.permutation(pool)  # ties between equally good pieces broken at random
    best_fit = _fit_scores(puzzle, board, cells, pool).max(axis=2)  # (k, n)
    chosen = np.zeros(len(pool), dtype=bool)
    for i in range(len(cells)):
        order = np.argsort(-best_fit[i], kind="stable")
        order = order[best_fit[i, order] >= 0][: cfg.candidates_per_cell]
        chosen[order] = True
    for kind in np.unique(kinds):
        short = int((kinds == kind).sum()) - int((chosen & (puzzle.kinds[pool] == kind)).sum())
        if short > 0:
            spare = np.flatnonzero(~chosen & (puzzle.kinds[pool] == kind))
            chosen[spare[:short]] = True
    return np.sort(pool[chosen])


def region_joins(puzzle: Puzzle, board: Board, cells: np.ndarray, piece: np.ndarray, rot: np.ndarray) -> int:
    """Matched joins of a placement of ``cells``: inside it and against placed cells around it."""
    work = board.copy()
    work.piece[cells[:, 0], cells[:, 1]], work.rot[cells[:, 0], cells[:, 1]] = piece, rot
    inside = {(int(r), int(c)) for r, c in cells}
    total = 0
    for r, c in inside:
        shows = puzzle.oriented[work.piece[r, c], work.rot[r, c] % 4]
        need = _neighbour_colours(puzzle, work, r, c)
        for s in range(4):
            rr, cc = r + STEPS[s][0], c + STEPS[s][1]
            twice = (rr, cc) in inside  # a join inside the region is seen from both its cells
            total += int(need[s] >= 0 and need[s] == shows[s]) * (1 if twice else 2)
    return total // 2
