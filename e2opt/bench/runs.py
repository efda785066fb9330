"""Benchmarks: `e2opt bench throughput` (moves per CPU second per hole count) and `e2opt bench quality`.

Both measure CPU seconds (time.process_time): machines are shared, and CPU time is the fair measure.
Quality runs start from a random board (construction counted in the budget, as in a run) and use
the same seed streams as ``e2opt run``: SeedSequence(seed) spawns (construction, search).
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from time import process_time

import numpy as np

from ..config.schema import process_count_problem
from ..construct.warm import warm_constructions
from ..core.bks import best_known
from ..core.board import random_board
from ..core.errors import E2optError
from ..core.formats.official import clue_convention
from ..core.formats.read import read_puzzle
from ..core.puzzle import Puzzle
from ..engine.round import worker_streams
from ..search.config import SearchConfig
from ..search.moves import assignment_alone
from ..search.moves.assignment import MIN_HOLES
from ..search.stop import AnyOf, Clock, MaxCpuTime, TargetScore
from ..search.tabu import TabuSearch
from ..search.warm import warm_search

DEFAULT_INSTANCE = Path(__file__).resolve().parents[2] / "instances" / "eternity2.txt"


@dataclass(frozen=True)
class ThroughputRow:
    """Moves per CPU second of the search with ``holes`` holes per move, over several repeats."""

    holes: int
    rates: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.rates)


@dataclass(frozen=True)
class QualityRow:
    """Best scores of one instance over several seeds at one CPU budget (``cpu_s``)."""

    instance: str
    max_score: int
    best_known: int | None
    seeds: tuple[int, ...]
    scores: tuple[int, ...]
    moves_per_s: tuple[float, ...]
    cpu_s: float = 0.0
    clues: str | None = None  # the official set's clue convention ('1/5', '5/5'), printed with the name

    @property
    def best(self) -> int:
        return max(self.scores)

    @property
    def median(self) -> float:
        return statistics.median(self.scores)


def _streams(seed: int) -> tuple[np.random.Generator, np.random.Generator]:
    """(construction, search) generators of a seed: those of a run's worker 0 (engine/round.py)."""
    construct_seq, search_seq, _ = worker_streams(seed, 0)
    return np.random.default_rng(construct_seq), np.random.default_rng(search_seq)


@dataclass(frozen=True)
class Trace:
    """One search of the benchmark: its moves per CPU second and every new best as (CPU s, score)."""

    moves_per_s: float
    bests: tuple[tuple[float, int], ...]

    def score_at(self, cpu_s: float) -> int:
        """The best score reached within ``cpu_s`` CPU seconds (at least the initial board's, the first entry)."""
        return max((score for at, score in self.bests if at <= cpu_s), default=self.bests[0][1])


def search_once(puzzle: Puzzle, cfg: SearchConfig, seed: int, cpu_s: float, to_target: bool = True) -> Trace:
    """One search from a random board for ``cpu_s`` CPU seconds (board making included).

    With ``to_target`` it also stops at the maximum score, as a run does; throughput runs the full budget.
    """
    construct_rng, search_rng = _streams(seed)
    clock = Clock()
    search = TabuSearch(puzzle, random_board(puzzle, construct_rng), cfg, search_rng)
    bests = [(clock.cpu(), search.state.best_score)]

    def record(kind: str, info: dict) -> None:
        if kind == "best":
            bests.append((info["cpu_s"], info["score"]))

    stop = AnyOf(MaxCpuTime(cpu_s), *([TargetScore(puzzle.max_score)] if to_target else []))
    result = search.run(stop, clock, record)
    return Trace(result.moves_per_s, tuple(bests))


def _quality_job(args: tuple[Puzzle, SearchConfig, int, float]) -> Trace:
    """One quality search in a worker process (numba kernels come from the on-disk cache)."""
    warm_search(args[1])
    return search_once(*args)


def throughput(
    puzzle: Puzzle, holes: list[int], repeats: int, cpu_s: float = 2.0, cfg: SearchConfig | None = None
) -> list[ThroughputRow]:
    """Moves per CPU second for each hole count: ``repeats`` searches of ``cpu_s`` each (seeds 0..)."""
    cfg = cfg or SearchConfig(moves=assignment_alone())
    warm_search(cfg)
    rows = []
    for k in holes:
        rates = tuple(
            search_once(puzzle, cfg.with_assignment(holes=k), seed, cpu_s, False).moves_per_s
            for seed in range(repeats)
        )
        rows.append(ThroughputRow(k, rates))
    return rows


def quality(
    puzzles: list[Puzzle],
    cfg: SearchConfig,
    cpu_s: float,
    seeds: list[int],
    marks: list[float] = (),
    workers: int = 1,
) -> list[QualityRow]:
    """Best score per instance and seed for a CPU budget, and at each earlier CPU mark in ``marks``.

    One search per (instance, seed) runs to ``cpu_s``; the score at a mark is the best it had found by
    then, so one long search also answers the shorter budgets. ``workers`` > 1 runs searches in
    parallel processes (fair, since budgets are CPU seconds).
    """
    jobs = [(puzzle, cfg, seed, cpu_s) for puzzle in puzzles for seed in seeds]
    if workers > 1:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            traces = list(pool.map(_quality_job, jobs))
    else:
        warm_search(cfg)
        traces = [search_once(*job) for job in jobs]
    budgets = sorted({*(m for m in marks if 0 < m < cpu_s), cpu_s})
    rows = []
    for index, puzzle in enumerate(puzzles):
        mine = traces[index * len(seeds) : (index + 1) * len(seeds)]
        known = best_known(puzzle)
        for budget in budgets:
            rows.append(
                QualityRow(
                    puzzle.name,
                    puzzle.max_score,
                    None if known is None else known.best_known,
                    tuple(seeds),
                    tuple(trace.score_at(budget) for trace in mine),
                    tuple(trace.moves_per_s for trace in mine),
                    budget,
                    clue_convention(puzzle),
                )
            )
    return rows


def format_throughput(rows: list[ThroughputRow], instance: str) -> str:
    """The throughput table: median, min and max moves per CPU second per hole count."""
    lines = [f"throughput on {instance} (moves per CPU second, {len(rows[0].rates)} repeats)"]
    lines.append(f"{'holes':>6} {'median':>10} {'min':>10} {'max':>10}")
    for row in rows:
        lines.append(f"{row.holes:>6} {row.median:>10,.0f} {min(row.rates):>10,.0f} {max(row.rates):>10,.0f}")
    return "\n".join(lines)


def format_quality(rows: list[QualityRow]) -> str:
    """The quality table: per instance and CPU budget the scores per seed, best, median, gap to the best known."""
    lines = ["quality per CPU budget (CPU s per seed), from a random board"]
    lines.append(
        f"{'instance':<20} {'cpu s':>7} {'best':>9} {'median':>8} {'known':>6} {'gap':>5} {'moves/s':>9}"
        "  scores (seeds)"
    )
    for row in rows:
        known = "-" if row.best_known is None else str(row.best_known)
        gap = "-" if row.best_known is None else str(row.best_known - row.best)
        per_seed = ", ".join(f"{s} ({seed})" for s, seed in zip(row.scores, row.seeds, strict=True))
        lines.append(
            f"{row.instance + (f' clues {row.clues}' if row.clues else ''):<20} {row.cpu_s:>7g} {f'{row.best}/{row.max_score}':>9} {row.median:>8g} {known:>6} {gap:>5} "
            f"{statistics.median(row.moves_per_s):>9,.0f}  {per_seed}"
        )
    return "\n".join(lines)


def _require(ok: bool, message: str) -> None:
    """Raise E2optError(message) unless ``ok``: a bad option is a one-line error, not a traceback later."""
    if not ok:
        raise E2optError(message)


def _check_cpu_s(cpu_s: float) -> None:
    """The CPU budget per search must be a positive, finite number of seconds."""
    _require(
        math.isfinite(cpu_s) and cpu_s > 0, f"--max-cpu-s {cpu_s:g}: must be a positive number of CPU seconds"
    )


def run_throughput(instance: str | None, holes: list[int], repeats: int, cpu_s: float) -> str:
    """`e2opt bench throughput`: the table as text."""
    _check_cpu_s(cpu_s)
    _require(repeats >= 1, f"--repeats {repeats}: must be at least 1")
    _require(bool(holes), "--holes: give at least one hole count")
    for k in holes:
        _require(k >= MIN_HOLES, f"--holes {k}: a move needs at least {MIN_HOLES} holes")
    path = instance or str(DEFAULT_INSTANCE)
    return format_throughput(throughput(read_puzzle(path), holes, repeats, cpu_s), Path(path).name)


def run_quality(
    config: str,
    instances: list[str] | None,
    cpu_s: float,
    seeds: list[int],
    marks: list[float] = (),
    workers: int = 1,
    overrides: list[str] = (),
) -> str:
    """`e2opt bench quality`: the config's search section on the instances (default: the config's own)."""
    from ..engine.loader import load_config

    _check_cpu_s(cpu_s)
    problem = process_count_problem(workers)
    _require(problem is None, f"--workers {workers}: {problem}")
    _require(bool(seeds), "--seeds: give at least one seed")
    for seed in seeds:
        _require(seed >= 0, f"--seeds {seed}: a seed is a non-negative integer")
    cfg = load_config(config, overrides)
    puzzles = [read_puzzle(path) for path in (instances or [cfg.instance])]
    return format_quality(quality(puzzles, cfg.search, cpu_s, seeds, marks, workers))


@dataclass(frozen=True)
class ConstructRow:
    """One construction of the benchmark: seed, CPU budget, score, CPU used, rate (nodes or expansions/s)."""

    seed: int
    cpu_s: float
    score: int
    used_s: float
    rate: float
    detail: str


def construct_once(puzzle: Puzzle, cfg, seed: int, cpu_s: float) -> ConstructRow:
    """The config's construction alone for ``cpu_s`` CPU seconds (its own time limit set to the budget)."""
    from ..construct import construct

    construct_rng, _ = _streams(seed)
    section = getattr(cfg, cfg.method, None)
    limit = next((key for key in ("time_limit_cpu_s", "time_limit_wall_s") if hasattr(section, key)), None)
    if limit is not None:  # CP-SAT's limit is wall seconds: the budget stands for both on its own threads
        cfg = replace(cfg, **{cfg.method: replace(section, **{limit: cpu_s})})
    start = process_time()
    _, info = construct(puzzle, cfg, construct_rng, deadline_s=cpu_s)
    used = process_time() - start
    rate = info.get("nodes_per_s", info.get("expansions_per_s", 0))
    keys = ("restarts", "best_depth", "breaks", "complete", "beams", "width", "finish", "score_before_finish")
    keys += ("attempts", "best_placed", "band_nodes_per_s", "harvest_kept", "harvest_placed", "harvest_score")
    keys += ("dfs_cpu_s", "completion")
    detail = " ".join(f"{k}={info[k]}" for k in keys if k in info)
    return ConstructRow(seed, cpu_s, info["score"], used, rate, detail)


def format_construct(rows: list[ConstructRow], name: str, method: str) -> str:
    """The construction table: per CPU budget and seed the score, CPU used and rate; medians per budget."""
    lines = [f"construction ({method}) on {name}, alone, per CPU budget"]
    lines.append(f"{'cpu s':>7} {'seed':>5} {'score':>6} {'used s':>7} {'rate/s':>12}  details")
    for row in rows:
        lines.append(
            f"{row.cpu_s:>7g} {row.seed:>5} {row.score:>6} {row.used_s:>7.1f} {row.rate:>12,.0f}  {row.detail}"
        )
    for budget in sorted({row.cpu_s for row in rows}):
        mine = [row for row in rows if row.cpu_s == budget]
        lines.append(
            f"{budget:>7g} {'median':>5} {statistics.median(r.score for r in mine):>6g} "
            f"{statistics.median(r.used_s for r in mine):>7.1f} {statistics.median(r.rate for r in mine):>12,.0f}"
        )
    return "\n".join(lines)


def run_construct(config: str, cpu_s: list[float], seeds: list[int], overrides: list[str] = ()) -> str:
    """`e2opt bench construct`: the config's construction alone, per CPU budget and seed, as a table."""
    from ..engine.loader import load_config

    for budget in cpu_s:
        _check_cpu_s(budget)
    _require(bool(seeds), "--seeds: give at least one seed")
    for seed in seeds:
        _require(seed >= 0, f"--seeds {seed}: a seed is a non-negative integer")
    cfg = load_config(config, overrides)
    puzzle = read_puzzle(cfg.instance)
    warm_constructions([cfg.construct.method])
    rows = [construct_once(puzzle, cfg.construct, seed, budget) for budget in cpu_s for seed in seeds]
    clues = clue_convention(puzzle)
    return format_construct(rows, puzzle.name + (f" (clues {clues})" if clues else ""), cfg.construct.method)
