"""The fill-order constructions as the run calls them: beam and backtrack, with their construction info.

Both build the fill order and candidate tables once, spend at most their CPU share (their own
``time_limit_s``, capped by the run's deadline) and return a complete, valid board.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..core.board import Board, score
from ..core.puzzle import Puzzle
from .backtrack import depth_of, run_backtrack
from .beam import board_from_codes, run_beam
from .config import BacktrackConfig, BeamConfig
from .finish import finish
from .order import make_order
from .tables import build_tables
from .ticks import Ticks

Stop = Callable[[], bool]


def _cap(limit: float | None, deadline_s: float | None) -> float | None:
    """The smaller of a method's own CPU limit and the run's deadline (either may be None)."""
    limits = [x for x in (limit, deadline_s) if x is not None]
    return min(limits) if limits else None


def schedule_problems(cfg: BacktrackConfig, puzzle: Puzzle) -> list[tuple[str, str]]:
    """Absolute depths in the backtrack section past the cells the puzzle has to place."""
    cells = puzzle.n_cells - len(puzzle.hints)
    problems = []
    for key, points in (
        ("breaks", cfg.breaks),
        ("quota", cfg.quota),
        ("abort", [(a, f) for f, a in cfg.abort]),
    ):
        for i, (at, _) in enumerate(points):
            if isinstance(at, int) and at > cells:
                problems.append(
                    (f"construct.backtrack.{key}[{i}]", f"depth {at} is beyond the {cells} cells to place")
                )
    return problems


def build_beam(
    puzzle: Puzzle,
    cfg: BeamConfig,
    rng: np.random.Generator,
    deadline_s: float | None,
    stop: Stop | None,
    report: Callable[[str], None] | None = None,
) -> tuple[Board, dict]:
    """One beam, or beams with fresh draws while CPU time is left (cfg.time_limit_s); the best board.
    ``report`` gets a progress line (beams done, best so far, expansions per CPU s) every REPORT_EVERY_S."""
    start = time.process_time()
    lines = Ticks(report)
    order = make_order(puzzle, cfg.order, cfg.teeth)
    tables = build_tables(puzzle, order)
    rng_state = np.array([rng.integers(2**63)], dtype=np.uint64)
    limit = _cap(cfg.time_limit_s, deadline_s)

    def over() -> bool:
        return (stop is not None and stop()) or (limit is not None and time.process_time() - start >= limit)

    best, best_score, beams, expansions, last = None, -1, 0, 0, 0.0
    while True:
        began = time.process_time()
        board, made = run_beam(puzzle, order, tables, cfg.width, cfg.fanout, rng_state, stop=over)
        beams, expansions = beams + 1, expansions + made
        value = score(puzzle, board)
        if value > best_score:
            best, best_score = board, value
        last = time.process_time() - began
        used = time.process_time() - start
        if lines.due():
            rate = expansions / max(used, 1e-9)
            lines.say(
                f"beam: {beams} beam(s), best {best_score}/{puzzle.max_score}, {rate:,.0f} expansions per CPU s"
            )
        if cfg.time_limit_s is None or over() or (limit is not None and used + last > limit):
            break
    cpu = time.process_time() - start
    info = {
        "order": cfg.order,
        "width": cfg.width,
        "fanout": cfg.fanout,
        "beams": beams,
        "expansions": expansions,
        "expansions_per_s": round(expansions / max(cpu, 1e-9)),
        "cpu_s": round(cpu, 3),
    }
    return best, info


def build_backtrack(
    puzzle: Puzzle,
    cfg: BacktrackConfig,
    rng: np.random.Generator,
    deadline_s: float | None,
    stop: Stop | None,
    report: Callable[[str], None] | None = None,
) -> tuple[Board, dict]:
    """Restarts of the DFS within the CPU share; the best complete board, or the deepest one finished."""
    order = make_order(puzzle, cfg.order, cfg.teeth)
    tables = build_tables(puzzle, order)
    limit = _cap(cfg.time_limit_s, deadline_s)
    cpu = limit if limit is not None else float("inf")
    out = run_backtrack(puzzle, order, tables, cfg, rng, cpu, stop, Ticks(report))
    info = {
        "order": cfg.order,
        "nodes": out.nodes,
        "nodes_per_s": round(out.nodes / max(out.cpu_s, 1e-9)),
        "restarts": out.restarts,
        "best_depth": out.best_depth,
        "depth": order.depth,
        "breaks": out.breaks,
        "complete": out.complete,
        "first_break_depth": min((depth_of(at, order.depth) for at, n in cfg.breaks if n > 0), default=None),
        "cpu_s": round(out.cpu_s, 3),
    }
    if out.complete:
        return board_from_codes(puzzle, order, out.codes), info
    rng_state = np.array([rng.integers(2**63)], dtype=np.uint64)
    board, more = finish(puzzle, order, tables, out.codes, cfg.finish_width, rng_state, cfg.finish_cpsat_s)
    info.update(more)
    return board, info
