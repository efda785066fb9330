"""Completing a harvested partial board: holes filled optimally, then a short repair by the tabu search.

Pairwise non-adjacent holes are filled by one assignment (paper 001's move: exact). Otherwise the CP-SAT
region model places the pieces left on the holes (the placed cells untouched) and, with ``neighbours``,
a second model also lifts the placed non-hint pieces next to the holes, warm-started from the first
answer, so the holes' neighbours may change too; the better board is kept. No cap on mismatches per
cell applies anywhere here: a cell may end with two or more mismatched sides. The repair keeps its best
board, so the result never scores below the joins already matched among the partial's placed cells.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ...core.board import Board, score
from ...core.puzzle import Puzzle
from ...fill.order import FillOrder
from ...fill.tables import build_tables
from ...search.config import SearchConfig
from ...search.moves import assignment_alone
from ...search.stop import AnyOf, Clock, MaxCpuTime, Requested, TargetScore
from ...search.tabu import TabuSearch
from ..beam import run_beam
from ..finish import fill_by_assignment, fill_by_cpsat, non_adjacent, placed_joins
from .config import HarvestConfig

MIN_CPSAT_S = 0.2  # CP-SAT seconds below which a completion fills by the assignment alone


def completion_cost(cfg: HarvestConfig) -> float:
    """CPU seconds one completion may take by its settings: its CP-SAT models and its repair."""
    return cfg.cpsat_wall_s * (2 if cfg.neighbours else 1) + cfg.repair_cpu_s


def holes_of(board: Board) -> list[tuple[int, int]]:
    """The empty cells, row-major."""
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(board.piece < 0), strict=True)]


def _with_neighbours(puzzle: Puzzle, board: Board, filled: Board, holes, cpu_s: float, seed: int) -> Board:
    """The holes and their placed non-hint neighbours re-solved together, from ``filled`` as incumbent."""
    from ...cpsat.region_model import solve_region

    hinted = {(h.row, h.col) for h in puzzle.hints}
    region = set(holes)
    for r, c in holes:
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols and (rr, cc) not in hinted:
                region.add((rr, cc))
    cells = sorted(region)
    lifted = filled.copy()
    for r, c in cells:
        lifted.piece[r, c] = -1
    sol = solve_region(
        puzzle,
        lifted,
        cells,
        pieces=np.array([filled.piece[r, c] for r, c in cells]),
        time_limit_s=cpu_s,
        seed=seed,
        num_workers=1,
        deterministic_time=cpu_s / 2,
        warm_start=(
            np.array([filled.piece[r, c] for r, c in cells]),
            np.array([filled.rot[r, c] for r, c in cells]),
        ),
    )
    if sol.joins < 0:
        return filled
    out = filled.copy()
    for (r, c), p, k in zip(cells, sol.piece, sol.rot, strict=True):
        out.piece[r, c], out.rot[r, c] = p, k
    return out if score(puzzle, out) > score(puzzle, filled) else filled


def fill_holes(
    puzzle: Puzzle, partial: Board, cfg: HarvestConfig, seed: int, cpsat_s: float | None = None
) -> tuple[Board, str]:
    """The partial board with every hole filled (see the module docstring) and how it was done; ``cpsat_s``
    (default ``cfg.cpsat_wall_s``) per CP-SAT model, none below ``MIN_CPSAT_S`` (the assignment then)."""
    cpsat_s = cfg.cpsat_wall_s if cpsat_s is None else cpsat_s
    holes = holes_of(partial)
    if not holes:
        return partial.copy(), "none"
    if non_adjacent(holes):
        return fill_by_assignment(puzzle, partial, holes), "assignment"
    if cpsat_s < MIN_CPSAT_S:  # no time to build and solve a model: a valid board at once
        return fill_by_assignment(puzzle, partial, holes), "assignment (no time for cpsat)"
    board = fill_by_cpsat(puzzle, partial, holes, cpsat_s, seed)
    how = "cpsat holes"
    if board is None:  # nothing in time: the assignment still gives a valid board (adjacent holes unscored)
        return fill_by_assignment(puzzle, partial, holes), "assignment (cpsat found none)"
    if cfg.neighbours:
        better = _with_neighbours(puzzle, partial, board, holes, cpsat_s, seed)
        if better is not board:
            board, how = better, "cpsat holes + neighbours"
    return board, how


def beam_fill(puzzle: Puzzle, partial: Board, order: FillOrder, width: int, seed: int) -> Board | None:
    """The partial board completed by a beam along ``order`` from its placed prefix (None when the placed
    cells are not a prefix of the order)."""
    cells = order.cells
    placed = int((partial.piece.ravel()[cells] >= 0).sum())
    flat_piece, flat_rot = partial.piece.ravel(), partial.rot.ravel()
    if placed == 0 or not (flat_piece[cells[:placed]] >= 0).all():
        return None
    codes = (flat_piece[cells[:placed]] * 4 + flat_rot[cells[:placed]]).astype(np.int64)
    rng_state = np.array([np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]], dtype=np.uint64)
    board, _ = run_beam(puzzle, order, build_tables(puzzle, order), width, 8, rng_state, codes)
    return board


def complete(
    puzzle: Puzzle,
    partial: Board,
    cfg: HarvestConfig,
    rng: np.random.Generator,
    search: SearchConfig | None = None,
    cpu_s: float | None = None,
    stop: Callable[[], bool] | None = None,
    order: FillOrder | None = None,
) -> tuple[Board, dict]:
    """Fill the holes (and, with ``beam_width`` and the ``order``, by the beam too: the better fill), repair
    for ``cfg.repair_cpu_s``; the board and what happened. With ``cpu_s``, the whole completion keeps
    within it: CP-SAT's limits scaled down by cpu_s / completion_cost (never up), the repair given what is
    left of ``cpu_s`` (at most ``repair_cpu_s``) and ended early by ``stop()``."""
    start = time.process_time()
    seed = int(rng.integers(2**31))
    scale = 1.0 if cpu_s is None else min(1.0, max(0.0, cpu_s) / max(completion_cost(cfg), 1e-9))
    board, how = fill_holes(puzzle, partial, cfg, seed, cfg.cpsat_wall_s * scale)
    if cfg.beam_width and order is not None and holes_of(partial):
        beamed = beam_fill(puzzle, partial, order, cfg.beam_width, seed)
        if beamed is not None and score(puzzle, beamed) > score(puzzle, board):
            board, how = beamed, f"beam width {cfg.beam_width}"
    info = {
        "holes": len(holes_of(partial)),
        "partial_joins": placed_joins(puzzle, partial),
        "fill": how,
        "filled_score": score(puzzle, board),
    }
    repair_s = cfg.repair_cpu_s
    if cpu_s is not None:
        repair_s = min(repair_s, cpu_s - (time.process_time() - start))
    info["repair_s"] = round(max(repair_s, 0.0), 3)
    if repair_s > 0 and info["filled_score"] < puzzle.max_score:  # a perfect board needs no repair
        tabu = TabuSearch(puzzle, board, search or SearchConfig(moves=assignment_alone()), rng)
        criteria = AnyOf(
            MaxCpuTime(repair_s),
            TargetScore(puzzle.max_score),
            *([Requested(stop)] if stop is not None else []),
        )
        result = tabu.run(criteria, Clock())
        if result.best_score > score(puzzle, board):
            board = result.best_board
    info["score"] = score(puzzle, board)
    info["cpu_s"] = round(time.process_time() - start, 3)
    return board, info
