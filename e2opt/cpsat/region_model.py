"""Re-place the pieces of a region of the board optimally with CP-SAT (repair, border, construction).

Model: one Boolean x[t] per placement t = (cell i, piece j, rotation r) whose grey sides are exactly
the cell's rim sides (so kinds and the rim rule cost nothing in the solver); exactly one placement
per cell and per piece. A join with a fixed neighbour outside the region is a constant weight on the
placements that show the neighbour's colour; a join inside the region gets one match literal per
colour both of its sides can show, m <= sum of the placements showing that colour on each side.
With more pieces than cells (construction) each piece is used at most once; no-good cuts exclude
given placements (backtracking) and a lower bound on the joins turns it into "a perfect region?".
The objective is the number of matched joins; linearization level 2 puts the match clauses into
CP-SAT's LP, without which its bound stays far above the optimum and nothing is proved in time. In a repair the current placement is the solution hint
and the objective is bounded below by its joins (warm start: the result is never worse).
Placements are built with numpy from per-puzzle tables; the only Python loops are over the region.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from ..core.board import Board
from ..core.puzzle import GREY, Puzzle
from .solver import solve_interruptibly

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # neighbour offsets of sides t, r, b, l
_STATUS = {
    cp_model.OPTIMAL: "optimal",
    cp_model.FEASIBLE: "feasible",
    cp_model.INFEASIBLE: "infeasible",
    cp_model.MODEL_INVALID: "infeasible",
}


@dataclass
class RegionSolution:
    """The placement CP-SAT found for the region's cells, in the order of ``cells``."""

    piece: np.ndarray  # (len(cells),) piece id for each region cell
    rot: np.ndarray  # (len(cells),) clockwise quarter turns for each region cell
    joins: int  # matched joins the model counts: inside the region + against placed cells around it
    status: str  # "optimal" | "feasible" | "infeasible" | "unknown" (no solution in time)
    seconds: float


@dataclass(frozen=True)
class _Tables:
    """Per-puzzle arrays: grey masks of every piece and rotation, hinted cells and pieces."""

    oriented: np.ndarray  # (P, 4, 4)
    greymask: np.ndarray  # (P, 4): bit s set when side s is grey at that rotation
    hint_cells: frozenset[tuple[int, int]]
    hint_pieces: frozenset[int]


_CACHE: weakref.WeakKeyDictionary[Puzzle, _Tables] = weakref.WeakKeyDictionary()


def _tables(puzzle: Puzzle) -> _Tables:
    """The puzzle's tables, built once per puzzle object."""
    tables = _CACHE.get(puzzle)
    if tables is None:
        oriented = np.ascontiguousarray(puzzle.oriented, dtype=np.int64)
        weights = (1 << np.arange(4)).astype(np.int64)
        greymask = ((oriented == GREY).astype(np.int64) * weights).sum(axis=2)
        tables = _Tables(
            oriented,
            greymask,
            frozenset((h.row, h.col) for h in puzzle.hints),
            frozenset(h.piece for h in puzzle.hints),
        )
        _CACHE[puzzle] = tables
    return tables


def region_cells(puzzle: Puzzle, cells: np.ndarray | Sequence[tuple[int, int]]) -> np.ndarray:
    """The cells as an (k, 2) int array of (row, col); flat indices (1-D) are accepted too.

    ValueError when a cell is off the board, listed twice, or a hint cell.
    """
    arr = np.asarray(cells, dtype=np.int64)
    if arr.ndim == 1 and arr.size:
        arr = np.stack([arr // puzzle.cols, arr % puzzle.cols], axis=1)
    arr = arr.reshape(-1, 2)
    if arr.size and (arr.min() < 0 or np.any(arr[:, 0] >= puzzle.rows) or np.any(arr[:, 1] >= puzzle.cols)):
        raise ValueError("region: a cell is off the board")
    flat = arr[:, 0] * puzzle.cols + arr[:, 1]
    if len(np.unique(flat)) != len(flat):
        raise ValueError("region: a cell is listed twice")
    hinted = _tables(puzzle).hint_cells
    for r, c in arr.tolist():
        if (r, c) in hinted:
            raise ValueError(f"region: ({r},{c}) is a hint cell; hints are never in a region")
    return arr


def _rim_masks(puzzle: Puzzle, cells: np.ndarray) -> np.ndarray:
    """Rim sides (t r b l bits) of each cell."""
    r, c = cells[:, 0], cells[:, 1]
    return (
        (r == 0).astype(np.int64)
        | ((c == puzzle.cols - 1).astype(np.int64) << 1)
        | ((r == puzzle.rows - 1).astype(np.int64) << 2)
        | ((c == 0).astype(np.int64) << 3)
    )


def _fixed_need(puzzle: Puzzle, board: Board, cells: np.ndarray, tables: _Tables) -> tuple[np.ndarray, list]:
    """need[i, s]: colour a placed neighbour outside the region shows cell i on side s (-1: none);
    and the internal joins as (i, s, i2) with cell i2 on side s of cell i (s = right or bottom)."""
    k = len(cells)
    index = {(int(r), int(c)): i for i, (r, c) in enumerate(cells)}
    need = np.full((k, 4), -1, dtype=np.int64)
    internal = []
    for i, (r, c) in enumerate(cells.tolist()):
        for s, (dr, dc) in enumerate(STEPS):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols):
                continue
            other = index.get((rr, cc))
            if other is not None:
                if s in (1, 2):
                    internal.append((i, s, other))
                continue
            p = int(board.piece[rr, cc])
            if p >= 0:
                need[i, s] = tables.oriented[p, int(board.rot[rr, cc]) % 4, (s + 2) % 4]
    return need, internal


def solve_region(
    puzzle: Puzzle,
    board: Board,
    cells: np.ndarray | Sequence[tuple[int, int]],
    *,
    pieces: np.ndarray | None = None,
    time_limit_s: float = 1.0,
    seed: int = 0,
    num_workers: int = 1,
    hint: bool = True,
    deterministic_time: float | None = None,
    exclude: Sequence[tuple[np.ndarray, np.ndarray]] = (),
    min_joins: int | None = None,
    stop_requested: Callable[[], bool] | None = None,
    warm_start: tuple[np.ndarray, np.ndarray] | None = None,
) -> RegionSolution:
    """Place ``pieces`` (default: the pieces now on ``cells``) on ``cells`` maximising matched joins.

    Joins count inside the region and against placed (piece >= 0) cells around it. ``pieces`` may list
    more pieces than cells (construction: each cell gets one, each piece is used at most once).
    ``exclude`` lists (piece, rot) placements of the cells, in ``cells`` order, that the result must
    differ from (no-good cuts); ``min_joins`` is a lower bound on the joins (status "infeasible" when
    none reaches it); ``stop_requested()`` turning true stops the solve early (the caller owns signals).
    ``warm_start`` (piece, rot per cell, from ``pieces``) plays the incumbent of a repair: the hint, a lower
    bound, and the answer when nothing better is found in time.
    In a repair (``pieces=None``) piece/rot always hold a valid placement: the incumbent when CP-SAT finds
    nothing better or nothing in time (status "unknown"). With ``pieces`` given and no solution, piece/rot are -1
    and joins is -1. ``deterministic_time`` adds CP-SAT's deterministic limit: with one worker and that
    limit reached before ``time_limit_s``, the result depends on the seed only. ValueError on a hint cell, a hinted piece, a duplicate, or a count mismatch.
    """
    start = time.perf_counter()
    tables = _tables(puzzle)
    cells = region_cells(puzzle, cells)
    k = len(cells)
    repair = pieces is None
    if repair:
        pieces = board.piece[cells[:, 0], cells[:, 1]].astype(np.int64)
        if np.any(pieces < 0):
            raise ValueError("region: an empty cell has no piece to repair; pass pieces=")
        current_rot = board.rot[cells[:, 0], cells[:, 1]].astype(np.int64) % 4
    else:
        pieces = np.asarray(pieces, dtype=np.int64).reshape(-1)
        if len(pieces) < k:
            raise ValueError(f"region: {len(pieces)} pieces for {k} cells")
        if len(np.unique(pieces)) != len(pieces):
            raise ValueError("region: a piece is listed twice")
        if k and (pieces.min() < 0 or pieces.max() >= len(puzzle.pieces)):
            raise ValueError("region: a piece id does not exist")
        if tables.hint_pieces.intersection(pieces.tolist()):
            raise ValueError("region: a hinted piece cannot be placed in a region")
    if k == 0:
        empty = np.zeros(0, dtype=np.int64)
        return RegionSolution(empty, empty.copy(), 0, "optimal", time.perf_counter() - start)

    need, internal = _fixed_need(puzzle, board, cells, tables)
    # placements t = (cell ci[t], piece slot pj[t], rotation pr[t]) that fit the rim exactly
    n = len(pieces)
    fits = tables.greymask[pieces][None, :, :] == _rim_masks(puzzle, cells)[:, None, None]  # (k, n, 4)
    ci, pj, pr = np.nonzero(fits)
    colours = tables.oriented[pieces[pj], pr]  # (T, 4)
    ext = (colours == need[ci]).sum(axis=1)  # matched joins against fixed neighbours

    # the model is written straight into its proto by index: the Python wrappers cost ~20 ms per 4x4 window
    model = cp_model.CpModel()
    proto = model.proto
    T = len(ci)
    if T:
        proto.merge_text_format("variables { domain: [0, 1] } " * T)  # x[t] is variable t
    by_cell = np.split(np.arange(T), np.searchsorted(ci, np.arange(1, k)))
    order = np.argsort(pj, kind="stable")
    by_piece = np.split(order, np.searchsorted(pj[order], np.arange(1, n)))
    for group in by_cell if n > k else (*by_cell, *by_piece):
        if len(group) == 0:
            return _no_solution(cells, board, -1, "infeasible", start)
        proto.constraints.add().exactly_one.literals.extend(group.tolist())
    if n > k:  # spare pieces: each used at most once
        for group in by_piece:
            if len(group) > 1:
                proto.constraints.add().at_most_one.literals.extend(group.tolist())
    _exclude(proto, k, ci, pieces[pj], pr, exclude)
    weighted = np.flatnonzero(ext)
    matches = []  # (match variable, cell i, side s, cell i2, colour)
    for i, s, i2 in internal:
        a, b = by_cell[i], by_cell[i2]
        ca, cb = colours[a, s], colours[b, (s + 2) % 4]
        for col in np.intersect1d(ca, cb).tolist():
            m = len(proto.variables)
            proto.variables.add().domain.extend([0, 1])
            # m <= the sum of the placements showing col, on each side of the join
            for showing in (a[ca == col].tolist(), b[cb == col].tolist()):
                linear = proto.constraints.add().linear
                linear.vars.extend([*showing, m])
                linear.coeffs.extend([1] * len(showing) + [-1])
                linear.domain.extend([0, len(showing)])
            matches.append((m, i, s, i2, col))
    terms = [*weighted.tolist(), *(m for m, *_ in matches)]
    coeffs = [*ext[weighted].tolist(), *([1] * len(matches))]
    proto.objective.vars.extend(terms)
    proto.objective.coeffs.extend([-c for c in coeffs])  # CP-SAT minimises: maximise = minimise the negation
    proto.objective.scaling_factor = -1.0

    def at_least(joins: int) -> None:
        """The objective (matched joins) >= joins."""
        linear = proto.constraints.add().linear
        linear.vars.extend(terms)
        linear.coeffs.extend(coeffs)
        linear.domain.extend([int(joins), sum(coeffs)])

    if min_joins is not None:
        at_least(int(min_joins))

    incumbent, placed = -1, None
    if repair:
        warm_start = (pieces, current_rot)
    if warm_start is not None:
        placed = (
            np.array(warm_start[0], dtype=np.int64).reshape(-1),
            np.array(warm_start[1], dtype=np.int64).reshape(-1) % 4,
        )
        chosen = (pieces[pj] == placed[0][ci]) & (pr == placed[1][ci])
        if len(placed[0]) != k or not np.all(np.bincount(ci[chosen], minlength=k) == 1):
            raise ValueError(
                "region: the current placement breaks the rim or kind rules (or uses a piece not offered)"
            )
        shows = tables.oriented[placed[0], placed[1]]  # (k, 4): colours of the incumbent
        incumbent = int(ext[chosen].sum()) + sum(
            int(shows[i, s] == shows[i2, (s + 2) % 4]) for i, s, i2 in internal
        )
        if hint:
            matched = [
                int(shows[i, s] == col and shows[i2, (s + 2) % 4] == col) for _, i, s, i2, col in matches
            ]
            proto.solution_hint.vars.extend([*range(T), *(m for m, *_ in matches)])
            proto.solution_hint.values.extend([*chosen.astype(np.int64).tolist(), *matched])
            at_least(incumbent)

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit_s)
    solver.parameters.num_workers = int(num_workers)
    solver.parameters.linearization_level = 2  # the match clauses in the LP: 4x4 proofs ~10x faster
    solver.parameters.add_lp_constraints_lazily = False  # all of them from the start: 4x4 solves 46 -> 34 ms
    solver.parameters.cp_model_probing_level = 0  # no probing / symmetry detection in presolve: these small
    solver.parameters.symmetry_level = (
        0  # models are solved faster than presolve pays back (4x4: half the CPU)
    )
    solver.parameters.random_seed = int(seed) % (2**31)
    # never CP-SAT's own Ctrl-C handler: it resets SIGINT to the default action when the solve ends, so a later
    # Ctrl-C to the process group killed a run's worker process (which ignores terminal signals) mid-round
    solver.parameters.catch_sigint_signal = False
    if deterministic_time is not None:
        solver.parameters.max_deterministic_time = float(deterministic_time)
    if stop_requested is None:
        status = solver.Solve(model)
    else:
        status = solve_interruptibly(solver, model, stop_requested)
    name = _STATUS.get(status, "unknown")
    if name not in ("optimal", "feasible"):
        return _no_solution(cells, board, incumbent, name, start, placed)
    sel = np.flatnonzero(np.asarray(list(solver.response_proto.solution), dtype=np.int64)[:T] > 0)
    piece = np.empty(k, dtype=np.int64)
    rot = np.empty(k, dtype=np.int64)
    piece[ci[sel]] = pieces[pj[sel]]
    rot[ci[sel]] = pr[sel]
    # joins of the placement itself: a feasible (not optimal) solution may leave a match literal at 0
    shows = tables.oriented[piece, rot]
    joins = int(ext[sel].sum()) + sum(int(shows[i, s] == shows[i2, (s + 2) % 4]) for i, s, i2 in internal)
    return RegionSolution(piece, rot, joins, name, time.perf_counter() - start)


def _exclude(proto, k: int, ci: np.ndarray, piece: np.ndarray, rot: np.ndarray, exclude) -> None:
    """No-good cuts: each excluded (piece, rot) placement of the k cells loses at least one of its placements.

    An excluded placement that uses a placement the model does not have is impossible already: no cut.
    """
    for old_piece, old_rot in exclude:
        old_piece = np.asarray(old_piece, dtype=np.int64).reshape(-1)
        old_rot = np.asarray(old_rot, dtype=np.int64).reshape(-1) % 4
        if len(old_piece) != k or len(old_rot) != k:
            raise ValueError(f"region: an excluded placement has {len(old_piece)} pieces for {k} cells")
        wanted = [
            np.flatnonzero((ci == i) & (piece == p) & (rot == r))
            for i, (p, r) in enumerate(zip(old_piece, old_rot, strict=True))
        ]
        if all(len(t) == 1 for t in wanted):
            proto.constraints.add().bool_or.literals.extend([-int(t[0]) - 1 for t in wanted])  # not x[t]


def _no_solution(
    cells: np.ndarray, board: Board, incumbent: int, status: str, start: float, placed=None
) -> RegionSolution:
    """The incumbent (a repair or warm start: ``incumbent`` >= 0 joins) or -1 arrays when CP-SAT found nothing."""
    if incumbent >= 0:
        piece, rot = placed
        return RegionSolution(piece, rot, incumbent, status, time.perf_counter() - start)
    minus = np.full(len(cells), -1, dtype=np.int64)
    return RegionSolution(minus, minus.copy(), -1, status, time.perf_counter() - start)
