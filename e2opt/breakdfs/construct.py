"""construct.method: breakdfs — the DFS with breaks for its CPU share, then its best harvest completed.

The run engine calls this through the construction registry with the run folder: the DFS keeps its pool
and state in ``RUN_DIR/harvest`` (longrun.py). When the DFS ends, the best ``harvest.complete`` boards of
the pool (and the deepest partial board, if deeper than all of them) are completed and repaired
(complete.py); the best result is the construction's board. The completions' CPU (at most ``complete``
x (2 ``cpsat_s`` + ``repair_s``)) comes on top of the DFS's ``time_limit_s``, also in a run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..core.board import Board
from ..core.puzzle import Puzzle
from .complete import complete
from .config import BreakDfsConfig
from .harvest import Entry
from .longrun import LongRun


def _board(puzzle: Puzzle, entry: Entry) -> Board:
    cells = np.array(entry.cells, dtype=np.int64).reshape(puzzle.rows, puzzle.cols)
    return Board(np.where(cells >= 0, cells >> 2, -1), np.where(cells >= 0, cells & 3, 0))


def build_breakdfs(
    puzzle: Puzzle,
    cfg: BreakDfsConfig,
    rng: np.random.Generator,
    deadline_s: float | None,
    log_dir: Path | None,
    stop: Callable[[], bool] | None,
) -> tuple[Board, dict]:
    """The DFS within min(time_limit_s, deadline), then completions; the best board and the info."""
    began = time.process_time()
    limit = cfg.time_limit_s if deadline_s is None else min(cfg.time_limit_s, deadline_s)
    folder = None if log_dir is None else Path(log_dir) / "harvest"
    run = LongRun(puzzle, cfg, int(rng.integers(2**62)), folder)
    summary = run.run(cpu_s=limit, stop=stop)
    run.pool.close()
    boards = [_board(puzzle, e) for e in run.pool.ranked()[: max(cfg.harvest.complete, 1)]]
    deepest = run.dfs.board(summary.deepest_codes)
    if not boards or int((deepest.piece >= 0).sum()) > int((boards[0].piece >= 0).sum()):
        boards.insert(0, deepest)
    best, best_info = None, {}
    for partial in boards[: max(cfg.harvest.complete, 1)]:
        board, info = complete(puzzle, partial, cfg.harvest, rng)
        if best is None or info["score"] > best_info["score"]:
            best, best_info = board, info
    nh = len(puzzle.hints)
    info = {
        "order": cfg.order,
        "privileged": [puzzle.user_colour(c) for c in run.dfs.rules.privileged],
        "nodes": summary.nodes,
        "nodes_per_s": round(summary.nodes / max(summary.cpu_s, 1e-9)),
        "band_nodes_per_s": summary.band_rates,
        "attempts": summary.attempts,
        "best_depth": summary.deepest,
        "best_placed": summary.deepest + nh,
        "harvest_kept": summary.kept,
        "harvest_placed": summary.counts["placed"],
        "harvest_score": summary.counts["score"],
        "dfs_cpu_s": round(summary.cpu_s, 3),
        "completion": best_info,
        "cpu_s": round(time.process_time() - began, 3),
    }
    return best, info


def check_breakdfs(cfg: BreakDfsConfig, puzzle: Puzzle) -> list[tuple[str, str]]:
    """Absolute integer positions (``scale_from: null``) in the schedules past the puzzle's cells."""
    problems = []
    if cfg.scale_from is not None:
        return problems
    for key, points in (
        ("breaks", cfg.breaks),
        ("quota", cfg.quota),
        ("abort", [(a, n) for n, a in cfg.abort]),
    ):
        for i, (at, _) in enumerate(points):
            if isinstance(at, int) and at > puzzle.n_cells:
                problems.append(
                    (
                        f"construct.breakdfs.{key}[{i}]",
                        f"position {at} is beyond the {puzzle.n_cells} cells of {puzzle.name} "
                        "(give fractions of the board on other sizes)",
                    )
                )
    return problems
