"""construct.method: backtrack — restarts of the numba DFS with scheduled breaks, anytime best board.

Each attempt reshuffles the candidate lists with the run's generator (quota-colour pieces first), runs
the DFS until it completes a board, spends its node budget, falls behind the depth-vs-nodes trajectory or
the time is up. The complete board with the fewest breaks wins; with none, the deepest partial board is
handed on to be finished (see finish.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core.puzzle import GREY, Puzzle
from . import backtrack_kernel as k
from .config import BacktrackConfig
from .order import FillOrder
from .tables import Tables
from .ticks import Ticks

CHUNK = 1 << 20  # nodes between clock checks (about 20-40 ms)


def depth_of(value: float | int, depth: int) -> int:
    """A schedule depth: an int is absolute, a float is a fraction of the cells to place."""
    return int(value) if isinstance(value, int) else round(value * depth)


def allowance(schedule: tuple[tuple[float | int, int], ...], depth: int) -> np.ndarray:
    """allow[d]: cumulative breaks allowed once depth d is placed, from [depth, max_breaks] pairs."""
    allow = np.zeros(depth, dtype=np.int64)
    for at, most in schedule:
        allow[min(depth_of(at, depth), depth) :] = most
    return allow


def quota_colours(puzzle: Puzzle, cfg: BacktrackConfig) -> list[int]:
    """The quota colours: as configured, else the ``quota_auto`` rarest colours of the inner joins."""
    if cfg.quota_colours:
        return list(cfg.quota_colours)
    inner = puzzle.pieces[puzzle.kinds == 2].ravel()
    counts = np.bincount(inner[inner != GREY], minlength=puzzle.n_colours)
    present = [c for c in range(1, puzzle.n_colours) if counts[c] > 0]
    return sorted(present, key=lambda c: (counts[c], c))[: cfg.quota_auto]


def quota_minimum(cfg: BacktrackConfig, depth: int) -> np.ndarray:
    """qmin[d]: quota sides required once depth d is placed, linear between the [depth, sides] points."""
    qmin = np.zeros(depth, dtype=np.int64)
    if not cfg.quota:
        return qmin
    xs = [0] + [depth_of(at, depth) for at, _ in cfg.quota]
    ys = [0] + [most for _, most in cfg.quota]
    upto = min(xs[-1], depth - 1)
    qmin[: upto + 1] = np.floor(np.interp(np.arange(upto + 1), xs, ys)).astype(np.int64)
    return qmin


def breaks_of(puzzle: Puzzle, order: FillOrder, codes: np.ndarray) -> int:
    """Mismatched joins among the hints and the placements of the first len(codes) depths."""
    board = np.full(puzzle.n_cells, -1, dtype=np.int64)
    for h in puzzle.hints:
        board[h.row * puzzle.cols + h.col] = h.piece * 4 + h.rot
    board[order.cells[: len(codes)]] = codes
    ocol = puzzle.oriented.reshape(-1, 4)
    grid = board.reshape(puzzle.rows, puzzle.cols)
    bad = 0
    for a, b, sa, sb in ((grid[:, :-1], grid[:, 1:], 1, 3), (grid[:-1, :], grid[1:, :], 2, 0)):
        both = (a >= 0) & (b >= 0)
        bad += int((ocol[a[both], sa] != ocol[b[both], sb]).sum())
    return bad


@dataclass
class Outcome:
    """What the backtracking found: codes by depth (complete or the deepest partial) and its statistics."""

    codes: np.ndarray
    complete: bool
    breaks: int
    nodes: int
    restarts: int
    best_depth: int
    cpu_s: float


def rules_for(puzzle: Puzzle, order: FillOrder, cfg: BacktrackConfig) -> tuple:
    """(allow, frame_ok, no_touch, qsides, qmin, abort_nodes, abort_depth, cap) for the kernel."""
    m = order.depth
    colours = np.array(quota_colours(puzzle, cfg), dtype=np.int64)
    qsides = (
        np.isin(puzzle.pieces, colours).sum(axis=1).astype(np.int64)
        if cfg.quota
        else np.zeros(len(puzzle.pieces), dtype=np.int64)
    )
    frame_ok = np.ones(m, dtype=np.bool_) if cfg.frame_breaks else order.rim == 0
    abort_nodes = np.array([int(f * cfg.node_budget) for f, _ in cfg.abort], dtype=np.int64)
    abort_depth = np.array([depth_of(at, m) for _, at in cfg.abort], dtype=np.int64)
    return (
        allowance(cfg.breaks, m),
        frame_ok,
        not cfg.touching_breaks,
        qsides,
        quota_minimum(cfg, m),
        abort_nodes,
        abort_depth,
        cfg.piece_breaks,
    )


def kernel_lists(tables: Tables, piece_breaks: int) -> tuple[np.ndarray, ...]:
    """(candidates, exact starts, one-off starts, two-off starts per slot) in the kernel's compact dtypes:
    the exact and one-off lists, then (piece_breaks >= 2 only) every slot's rim-fitting list."""
    parts = [tables.exact, tables.one_off]
    base = len(tables.exact) + len(tables.one_off)
    two_start = np.full(len(tables.every_start), base, dtype=np.int64)
    if piece_breaks >= 2:
        parts.append(tables.every)
        two_start = tables.every_start + base
    cand = np.concatenate(parts).astype(np.int32)
    off_start = tables.one_off_start + len(tables.exact)
    return cand, tables.exact_start.astype(np.int32), off_start.astype(np.int32), two_start.astype(np.int32)


def run_backtrack(
    puzzle: Puzzle,
    order: FillOrder,
    tables: Tables,
    cfg: BacktrackConfig,
    rng: np.random.Generator,
    cpu_limit_s: float,
    stop: Callable[[], bool] | None = None,
    ticks: Ticks | None = None,
) -> Outcome:
    """Restarts of the DFS within ``cpu_limit_s`` CPU seconds (or cfg.max_restarts); the best outcome.
    ``ticks`` shows attempts, the deepest board and the node rate while it runs."""
    start = time.process_time()
    m = order.depth
    rules = rules_for(puzzle, order, cfg)
    geo = (order.cells, order.nbr, order.keys, order.extras, order.slot)
    rng_state = np.array([rng.integers(2**63)], dtype=np.uint64)
    # compact dtypes keep the tables in cache: colours < 256, lists far below 2**31 entries
    cand, ex_start, off_start, two_start = kernel_lists(tables, cfg.piece_breaks)
    ocol = tables.ocol.astype(np.uint8)
    tab = (tables.colours, ocol, ex_start, off_start, cand, two_start)
    stack = np.zeros((6, m + 1), dtype=np.int64)
    counters = np.zeros(4, dtype=np.int64)
    board = np.full(puzzle.n_cells, -1, dtype=np.int64)
    used = np.zeros(len(puzzle.pieces), dtype=np.uint8)
    touch = np.zeros(puzzle.n_cells, dtype=np.int64)
    partial = np.zeros(m, dtype=np.int64)
    best = Outcome(np.zeros(0, dtype=np.int64), False, 0, 0, 0, 0, 0.0)
    nodes = restarts = 0
    while cfg.max_restarts is None or restarts < cfg.max_restarts:
        if time.process_time() - start >= cpu_limit_s or (stop is not None and stop()):
            break
        restarts += 1
        k.shuffle_lists(ex_start, cand, rules[3], rng_state)
        k.shuffle_lists(off_start, cand, rules[3], rng_state)
        if cfg.piece_breaks >= 2:  # drawn only then, so the default keeps its random stream
            k.shuffle_lists(two_start, cand, rules[3], rng_state)
        _reset(puzzle, stack, counters, board, used, touch)
        k.enter(
            0,
            board,
            stack,
            order.nbr,
            order.keys,
            order.slot,
            tables.colours,
            tables.ocol,
            tables.exact_start,
        )
        status = k.RUNNING
        while status == k.RUNNING:
            status = k.dfs(
                stack, counters, board, used, touch, partial, geo, tab, rules, cfg.node_budget, CHUNK
            )
            if ticks is not None and ticks.due():
                done, deepest = (
                    nodes + int(counters[k.NODES]),
                    max(best.best_depth, int(counters[k.BEST_DEPTH])),
                )
                rate = done / max(time.process_time() - start, 1e-9)
                ticks.say(
                    f"backtrack: attempt {restarts}, deepest {deepest}/{m} placed, {rate:,.0f} nodes per CPU s"
                )
            if time.process_time() - start >= cpu_limit_s or (stop is not None and stop()):
                break
        nodes += int(counters[k.NODES])
        depth = int(counters[k.BEST_DEPTH])
        if status == k.COMPLETE:
            breaks = int(stack[k.BREAKS, m - 1])
            if not best.complete or breaks < best.breaks:
                best = Outcome(board[order.cells].copy(), True, breaks, 0, 0, m, 0.0)
                if breaks == 0:
                    break
        elif not best.complete and depth > best.best_depth:
            codes = partial[:depth].copy()
            best = Outcome(codes, False, breaks_of(puzzle, order, codes), 0, 0, depth, 0.0)
    best.nodes, best.restarts, best.cpu_s = nodes, restarts, time.process_time() - start
    return best


def _reset(puzzle: Puzzle, stack, counters, board, used, touch) -> None:
    """A fresh attempt: empty board with the hints, no piece used, depth 0."""
    stack[:] = 0
    counters[:] = 0
    board[:] = -1
    used[:] = 0
    touch[:] = 0
    for h in puzzle.hints:
        board[h.row * puzzle.cols + h.col] = h.piece * 4 + h.rot
        used[h.piece] = 1
