"""construct.method: breakdfs — the DFS with breaks for its CPU share, then its best harvest completed.

The run engine calls this through the construction registry with the run folder: the DFS keeps its pool
and state in ``RUN_DIR/harvest`` (longrun.py). When the DFS ends, the best ``harvest.complete`` boards of
the pool not completed by an earlier call on the same folder (and the deepest partial board this call
reached, if deeper than all of them or if there is none) are completed and repaired (complete.py); the
best result is the construction's board. The keys of completed boards go to ``completed.json`` in the
folder (atomically, after each completion), so calls made again and again on one folder (a producer
continuing the DFS for hours) never complete a board twice.

Without a deadline the completions' CPU (at most ``complete`` x (2 ``cpsat_s`` + ``repair_s``)) comes on
top of ``time_limit_s``. With one, DFS and completions keep within it: the DFS stops early enough to
leave the completions ``harvest.deadline_share`` of the deadline (at most what they cost by their
settings), and each completion is given an equal share of what is left (``dfs_limit``, ``complete``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..core.board import Board
from ..core.fsutil import atomic_write_text
from ..core.puzzle import Puzzle
from .complete import complete, completion_cost
from .config import BreakDfsConfig
from .harvest import Entry, make_entry
from .longrun import LongRun

COMPLETED = "completed.json"


def _board(puzzle: Puzzle, entry: Entry) -> Board:
    cells = np.array(entry.cells, dtype=np.int64).reshape(puzzle.rows, puzzle.cols)
    return Board(np.where(cells >= 0, cells >> 2, -1), np.where(cells >= 0, cells & 3, 0))


def dfs_limit(cfg: BreakDfsConfig, deadline_s: float | None, spent_s: float) -> float:
    """CPU seconds the DFS may run: ``time_limit_s``, cut so that with ``spent_s`` already gone the
    completions keep their share of the deadline (at most their cost by the settings)."""
    if deadline_s is None:
        return cfg.time_limit_s
    h = cfg.harvest
    reserve = min(max(h.complete, 1) * completion_cost(h), h.deadline_share * deadline_s)
    return max(0.0, min(cfg.time_limit_s, deadline_s - reserve - spent_s))


def read_completed(folder: Path | None) -> set[str]:
    """Keys of the boards completed by earlier calls on the folder (none without a folder)."""
    if folder is None or not (folder / COMPLETED).exists():
        return set()
    try:
        return set(json.loads((folder / COMPLETED).read_text(encoding="utf-8")))
    except ValueError:  # atomic writes make this unreachable short of a hand edit; start afresh then
        return set()


def _chosen(puzzle: Puzzle, run: LongRun, cfg: BreakDfsConfig, done: set[str]) -> list[tuple[str, Board]]:
    """The boards to complete: the pool's best not completed before, and this call's deepest partial
    first if deeper than all of them or if there is none."""
    n = max(cfg.harvest.complete, 1)
    fresh = [e for e in run.pool.ranked() if e.key not in done][:n]
    deepest = run.dfs.board(run.call_codes)
    entry = make_entry(np.where(deepest.piece >= 0, deepest.piece * 4 + deepest.rot, -1), 0)
    out = [(e.key, _board(puzzle, e)) for e in fresh]
    if entry.key not in {e.key for e in fresh} and (not fresh or entry.placed > fresh[0].placed):
        out.insert(0, (entry.key, deepest))
    return out[:n]


def build_breakdfs(
    puzzle: Puzzle,
    cfg: BreakDfsConfig,
    rng: np.random.Generator,
    deadline_s: float | None,
    log_dir: Path | None,
    stop: Callable[[], bool] | None,
) -> tuple[Board, dict]:
    """The DFS within its share of the deadline, then completions within the rest; the best board and the info."""
    began = time.process_time()
    folder = None if log_dir is None else Path(log_dir) / "harvest"
    run = LongRun(puzzle, cfg, int(rng.integers(2**62)), folder)
    limit = dfs_limit(cfg, deadline_s, time.process_time() - began)
    summary = run.run(cpu_s=run.cpu_before + limit, stop=stop)
    run.pool.close()
    done = read_completed(folder)
    chosen = _chosen(puzzle, run, cfg, done)
    best, best_info, completed = None, {}, []
    for i, (key, partial) in enumerate(chosen):
        if best is not None and stop is not None and stop():
            break  # asked to stop: one completed board is what a construction must return
        share = None
        if deadline_s is not None:
            share = (deadline_s - (time.process_time() - began)) / (len(chosen) - i)
            if share <= 0 and best is not None:
                break
        if stop is not None and stop():
            share = 0.0  # asked to stop: the holes filled by the assignment alone, no CP-SAT, no repair
        board, info = complete(puzzle, partial, cfg.harvest, rng, cpu_s=share, stop=stop)
        completed.append(key)
        done.add(key)
        if folder is not None:
            atomic_write_text(folder / COMPLETED, json.dumps(sorted(done)))
        if best is None or info["score"] > best_info["score"]:
            best, best_info = board, info
    run.pool.retire(completed)  # completed.json first: a kill in between only leaves them to be skipped
    run.pool.compact()
    run.pool.close()
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
        "call_placed": len(summary.call_codes) + nh,
        "harvest_kept": summary.kept,
        "harvest_placed": summary.counts["placed"],
        "harvest_score": summary.counts["score"],
        "dfs_cpu_s": round(summary.call_cpu_s, 3),
        "dfs_limit_s": round(limit, 3),
        "completed": completed,
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
