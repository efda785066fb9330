"""The beam construction as the run calls it, with its construction info.

It builds the fill order and candidate tables once, spends at most its CPU share (its own
``time_limit_cpu_s``, capped by the run's deadline) and returns a complete, valid board.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..core.board import Board, score
from ..core.puzzle import Puzzle
from ..core.ticks import Ticks
from ..fill.order import make_order
from ..fill.tables import build_tables
from .beam import run_beam
from .config import BeamConfig

Stop = Callable[[], bool]


def _cap(limit: float | None, deadline_s: float | None) -> float | None:
    """The smaller of a method's own CPU limit and the run's deadline (either may be None)."""
    limits = [x for x in (limit, deadline_s) if x is not None]
    return min(limits) if limits else None


def build_beam(
    puzzle: Puzzle,
    cfg: BeamConfig,
    rng: np.random.Generator,
    deadline_s: float | None,
    stop: Stop | None,
    report: Callable[[str], None] | None = None,
) -> tuple[Board, dict]:
    """One beam, or beams with fresh draws while CPU time is left (cfg.time_limit_cpu_s); the best board.
    ``report`` gets a progress line (beams done, best so far, expansions per CPU s) every REPORT_EVERY_S."""
    start = time.process_time()
    lines = Ticks(report)
    order = make_order(puzzle, cfg.order, cfg.teeth)
    tables = build_tables(puzzle, order)
    rng_state = np.array([rng.integers(2**63)], dtype=np.uint64)
    limit = _cap(cfg.time_limit_cpu_s, deadline_s)

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
        if cfg.time_limit_cpu_s is None or over() or (limit is not None and used + last > limit):
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
