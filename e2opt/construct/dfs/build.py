"""construct.method: dfs — the recipe resolved, the DFS with breaks for its CPU share, then its best
harvest completed.

The run engine calls this through the construction registry with the run folder: the DFS keeps its pool,
state and resolved recipe (``recipe.json``: a derived recipe's pilot runs once per folder) in
``RUN_DIR/harvest`` (longrun.py). When the DFS ends, the best ``harvest.complete`` boards of the pool not
completed by an earlier call on the same folder (and the deepest partial board this call reached, if
deeper than all of them or if there is none) are completed and repaired (complete.py); the best result is
the construction's board. The keys of completed partials, and of the boards their completions gave (with
their lane and score: ``lane_shares: scored`` shares the next calls by them, shares.py), go to
``completed.json`` in the folder (atomically, after each completion), so calls made again and again on one
folder (a producer continuing the DFS for hours) never complete a partial twice, and a completion that gives
a board made before (sibling partials of one DFS subtree often repair to the same board: a third of the
night run's completions did) does not count: the next partial is completed instead, at most
``MAX_REPEATS`` times a call. The DFS stops early on a perfect board.

Without a deadline the completions' CPU (at most ``complete`` x (2 ``cpsat_wall_s`` + ``repair_cpu_s``)) comes on
top of ``time_limit_cpu_s``. With one, pilot, DFS and completions keep within it: the DFS stops early enough
to leave the completions ``harvest.deadline_share`` of the deadline (at most what they cost by their
settings), and each completion is given an equal share of what is left (``dfs_limit``, ``complete``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import numpy as np

from ...config.schema import to_plain
from ...config.translate import translate
from ...core.board import Board
from ...core.fsutil import atomic_write_text
from ...core.puzzle import Puzzle
from ...core.ticks import Ticks
from .complete import complete, completion_cost
from .completed import Completed, by_share, entry_board, read_completed
from .config import DfsConfig
from .harvest import Entry, board_entry
from .longrun import LongRun, lane_plan, recipe_key
from .pilot import Ranked, Stop, calibrate, never
from .recipes import describe, preset_recipe, recipe_name
from .rules import Recipe
from .shares import lane_shares

RECIPE = "recipe.json"
MAX_REPEATS = 4  # completions a call may throw away because they repeat a board made before
# keys that may change on resume
NOT_RECIPE = ("time_limit_cpu_s", "max_attempts", "lanes", "lane_recipes", "lane_shares", "harvest")


def section(cfg: DfsConfig) -> dict:
    """The keys that make the recipes, as ``recipe.json`` keeps them (budget, lanes and harvest do not). A
    top-level key a folder's file lacks was added later with a default that keeps the behaviour before
    (``backjump``, ``short_first``): it counts at that default."""
    return {k: v for k, v in to_plain(cfg).items() if k not in NOT_RECIPE}


def resolve(
    puzzle: Puzzle,
    cfg: DfsConfig,
    seed: int,
    folder: Path | None,
    warn: Callable[[str], None] | None = None,
    budget_s: float | None = None,
    stop: Stop = never,
) -> tuple[Ranked, dict]:
    """The recipes this section means on this puzzle, best first, each with the pilot's attempt to continue
    (pilot.calibrate; a preset is one recipe, from the root), and how they were found (a pilot's report).
    Recipes resolved before in ``folder`` for the same section are taken as they are (same run, same
    rules; the DFS's own state is in the folder then). A folder written before the ranking was kept holds
    the chosen recipe alone: every lane runs it; one written with older key names (``pilot.cpu_s``)
    counts under today's (config/translate.py). A pilot cut short by ``stop`` is not kept: the folder's
    next call runs the whole pilot (its lanes, made under the cut pilot's recipe, start from the root)."""
    name = recipe_name(cfg, puzzle)
    wanted = section(cfg)
    if folder is not None and (folder / RECIPE).exists():
        try:
            saved = json.loads((folder / RECIPE).read_text(encoding="utf-8"))
            old, _ = translate({"construct": {"dfs": saved["section"]}}, str(folder / RECIPE))
            if {**section(DfsConfig()), **old["construct"]["dfs"]} == wanted:
                recipes = [saved["recipe"], *saved.get("runners_up", [])]
                return [(Recipe.from_dict(r), None) for r in recipes], saved["report"]
        except (ValueError, KeyError, TypeError):
            pass  # unreadable or another section: resolve afresh
    if name == "derived":
        ranked, report = calibrate(puzzle, cfg, seed, warn, budget_s, stop)
    else:
        ranked, report = [(preset_recipe(cfg, puzzle, name), None)], {}
    if folder is not None and not report.get("cut"):
        folder.mkdir(parents=True, exist_ok=True)
        first, *rest = (asdict(r) for r, _ in ranked)
        data = {"section": wanted, "recipe": first, "runners_up": rest, "report": report}
        atomic_write_text(folder / RECIPE, json.dumps(data, indent=1))
    return ranked, report


def dfs_limit(cfg: DfsConfig, deadline_s: float | None, spent_s: float) -> float:
    """CPU seconds the DFS may run: what ``time_limit_cpu_s`` leaves after ``spent_s`` (a pilot counts in it),
    cut so that the completions keep their share of the deadline (at most their cost by the settings)."""
    own = max(0.0, cfg.time_limit_cpu_s - spent_s)
    if deadline_s is None:
        return own
    h = cfg.harvest
    reserve = min(max(h.complete, 1) * completion_cost(h), h.deadline_share * deadline_s)
    return max(0.0, min(own, deadline_s - reserve - spent_s))


def _chosen(puzzle: Puzzle, run: LongRun, n: int, done: Completed) -> list[tuple[Entry, Board]]:
    """Up to n boards to complete, best first: the pool's best not completed before, and this call's deepest
    partial first if it was not completed before and is deeper than all of them (or the only one left).
    With lane shares, lane by lane (completed.by_share)."""
    if run.shares is not None:
        return by_share(puzzle, run, n, done)
    fresh = [e for e in run.pool.ranked() if e.key not in done.partials][:n]
    deepest = run.board(run.call_codes)
    entry = board_entry(deepest, lane=run.call_lane)
    out = [(e, entry_board(puzzle, e)) for e in fresh]
    if not fresh or (
        entry.key not in done.partials
        and entry.key not in {e.key for e in fresh}
        and entry.placed > fresh[0].placed
    ):
        out.insert(0, (entry, deepest))
    return out[:n]


def build_dfs(
    puzzle: Puzzle,
    cfg: DfsConfig,
    rng: np.random.Generator,
    deadline_s: float | None,
    log_dir: Path | None,
    stop: Callable[[], bool] | None,
    report: Callable[[str], None] | None = None,
) -> tuple[Board, dict]:
    """Recipe, DFS within its share of the deadline, then completions within the rest; the best board and
    the info. ``report`` gets progress lines and the pilot's warning (``warning: ...``)."""
    began, stop = time.process_time(), stop or never
    folder = None if log_dir is None else Path(log_dir) / "harvest"
    seed = int(rng.integers(2**62))
    budget = cfg.time_limit_cpu_s if deadline_s is None else min(cfg.time_limit_cpu_s, deadline_s)
    warn = None if report is None else (lambda text: report(f"warning: {text}"))
    ranked, pilot = resolve(puzzle, cfg, seed, folder, warn, budget, stop)
    (recipe, start), others = ranked[0], (ranked[1:] if cfg.lane_recipes == "ranked" else [])
    done = read_completed(folder)
    keys = [recipe_key(r) for r in lane_plan(recipe, others, cfg.lanes)]
    shares = lane_shares(done.by_lane(keys)) if cfg.lane_shares == "scored" else None
    run = LongRun(
        puzzle, recipe, cfg.harvest, seed, folder, cfg.max_attempts, start, cfg.lanes, others, shares
    )
    limit = dfs_limit(cfg, deadline_s, time.process_time() - began)
    lines = Ticks(report)
    lanes = f" ({cfg.lanes} lanes)" if cfg.lanes > 1 else ""
    began_nodes, began_cpu = run.nodes, time.process_time()

    def tick(r: LongRun) -> None:
        if lines.due():
            rate = (r.nodes - began_nodes) / max(time.process_time() - began_cpu, 1e-9)
            placed = max(len(r.best_codes), r.deepest) + len(puzzle.hints)
            lines.say(f"dfs: attempt {r.attempts}{lanes}, deepest {placed}/{puzzle.n_cells} placed, "
                      f"{rate:,.0f} nodes per CPU s")  # fmt: skip

    run.forget(lambda codes: board_entry(run.board(codes)).key in done.partials)
    summary = run.run(cpu_s=run.cpu_before + limit, stop=stop, tick=tick)
    run.pool.close()
    wanted = max(cfg.harvest.complete, 1)
    chosen = _chosen(puzzle, run, wanted + MAX_REPEATS, done)
    best, best_info, completed, repeats = None, {}, [], 0
    for entry, partial in chosen:
        new = len(completed) - repeats
        if new == wanted:
            break
        if best is not None and (best_info["score"] == puzzle.max_score or stop()):
            break  # a perfect board, or asked to stop: one completed board is what a construction must return
        share = None
        if deadline_s is not None:
            share = (deadline_s - (time.process_time() - began)) / (wanted - new)
            if share <= 0 and best is not None:
                break
        if stop():
            share = 0.0  # asked to stop: the holes filled by the assignment alone, no CP-SAT, no repair
        board, info = complete(puzzle, partial, cfg.harvest, rng, cpu_s=share, stop=stop, order=run.order)
        made = board_entry(board).key
        repeated = made in done.boards
        repeats += repeated
        completed.append(entry.key)
        done.partials.add(entry.key)
        done.boards.add(made)
        if shares is not None:
            done.charge(shares, entry.lane)
        if not repeated and entry.lane < len(keys):  # (a pool's board from a run of more lanes: not scored)
            done.scores.append([entry.lane, int(info["score"]), keys[entry.lane]])
        done.save(folder)
        if best is None or (not repeated, info["score"]) > (not best_info["repeated"], best_info["score"]):
            best, best_info = board, {**info, "repeated": repeated, "lane": entry.lane}
    run.pool.retire(completed)  # completed.json first: a kill in between only leaves them to be skipped
    run.pool.compact()
    run.pool.close()
    nh = len(puzzle.hints)
    info = {
        "recipe": describe(puzzle, recipe),
        "lane_recipes": [r.source.get("knobs", r.source.get("recipe")) for r in run.lane_recipes],
        "lane_shares": None if shares is None else [round(x, 4) for x in shares],
        "pilot": pilot,
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
        "repeats": repeats,
        "completion": best_info,
        "cpu_s": round(time.process_time() - began, 3),
    }
    return best, info


def check_dfs(cfg: DfsConfig, puzzle: Puzzle, section: str = "dfs") -> list[tuple[str, str]]:
    """Absolute integer positions (``scale_from: null``) in the schedules past the puzzle's cells."""
    problems = []
    if cfg.scale_from is not None:
        return problems
    for key, points in (
        ("breaks", cfg.breaks or ()),
        ("quota", cfg.quota or ()),
        ("abort", [(a, n) for n, a in cfg.abort or ()]),
    ):
        for i, (at, _) in enumerate(points):
            if isinstance(at, int) and at > puzzle.n_cells:
                problems.append(
                    (
                        f"construct.{section}.{key}[{i}]",
                        f"position {at} is beyond the {puzzle.n_cells} cells of {puzzle.name} "
                        "(give fractions of the board on other sizes)",
                    )
                )
    return problems
