"""One run end to end: run folder, construction, search, events, checkpoints, signals, result.

A run folder ``runs/<UTC stamp>_<name>_s<seed>/`` holds its marker (runfolder.py), config.yaml
(resolved), inputs/ (copies of the puzzle and a warm-start board), events.jsonl, best.board (rewritten at
every new best), checkpoint (every ``output.checkpoint_every_s``), result.json at the end, score.png and
best.svg. resume.py continues a run from its checkpoint.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import stop as stopping
from .bks import best_known
from .board import Board, write_board
from .checkpoint import save_checkpoint
from .config import RunConfig
from .construct import construct, threads_used
from .events import EventLog
from .fsutil import atomic_write_text
from .loader import load_config
from .progress import Progress
from .puzzle import Puzzle, read_puzzle
from .runfolder import (
    BEST,
    CONFIG,
    RESULT,
    keep_inputs,
    make_run_dir,
    mark,
    marker_kind,
)
from .search.tabu import SearchResult, TabuSearch, warm_up
from .signals import StopSignals
from .workers.coordinator import run_team, uses_team


@dataclass
class Result:
    """What a run reached; written as result.json."""

    instance: str
    seed: int
    best_score: int
    max_score: int
    best_known: int | None
    iterations: int
    moves_per_s: float
    wall_s: float
    cpu_s: float
    time_to_best_s: float
    stop_reason: str
    run_dir: str
    construction: dict = field(default_factory=dict)
    diversifications: int = 0
    intensifications: int = 0
    best_board: Board | None = field(default=None, repr=False)
    workers: list[dict] | None = None  # per-worker figures of a run with several workers (workers/)
    clues: str | None = None  # the official set's clue convention ('1/5' starter-only, '5/5' strict)
    viewer_url: str | None = None  # the best board as a link to the community viewer (formats/viewer.py)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("best_board")
        if self.workers is None:
            data.pop("workers")
        return data

    def label(self, puzzle: Puzzle) -> None:
        """Set the clue convention and the viewer link of the best board (before result.json is written)."""
        from .formats.official import clue_convention
        from .formats.viewer import viewer_url

        self.clues = clue_convention(puzzle)
        self.viewer_url = None if self.best_board is None else viewer_url(puzzle, self.best_board)

    def summary(self) -> str:
        """Two lines for people: the score and how it was reached, then the run folder."""
        known = ""
        if self.best_known is not None:
            known = f" (best known {self.best_known}, gap {self.best_known - self.best_score})"
        clues = f" (clues {self.clues})" if self.clues else ""
        return (
            f"{self.instance}{clues} seed {self.seed}: {self.best_score}/{self.max_score}{known}; "
            f"{self.iterations} moves ({self.moves_per_s:,.0f}/s), best after {self.time_to_best_s:.1f} s, "
            f"{self.wall_s:.1f} s wall, {self.cpu_s:.1f} s CPU; stopped by {self.stop_reason}\n"
            f"run folder: {self.run_dir}" + (f"\nviewer: {self.viewer_url}" if self.viewer_url else "")
        )


class _Recorder:
    """Turns search events into files: best.board, events.jsonl, checkpoints, progress lines."""

    def __init__(self, run: Run, search: TabuSearch):
        self.run, self.search = run, search
        now = time.perf_counter()
        self.next_checkpoint = now + run.cfg.output.checkpoint_every_s
        self.next_stats = now + run.cfg.output.stats_every_s
        self.last_iteration, self.last_wall = search.state.iteration, run.clock.wall()
        self.next_plateau_event = {"diversify": 0.0, "intensify": 0.0}

    def __call__(self, kind: str, info: dict) -> None:
        run = self.run
        if kind == "best":
            write_board(self.search.best_board(), run.dir / BEST, fsync=False)
            run.events.write("best", **_round(info))
        elif kind in ("diversify", "intensify"):
            # plateaus come many times a second: log at most one of each kind per stats interval,
            # with the running totals, so events.jsonl grows with time, not with moves
            now = time.perf_counter()
            if now >= self.next_plateau_event[kind]:
                self.next_plateau_event[kind] = now + run.cfg.output.stats_every_s
                run.events.write(kind, **_round({"wall_s": run.clock.wall(), **info}))
        elif kind == "tick":
            now = time.perf_counter()
            run.progress.update(info)
            if now >= self.next_stats:
                self.next_stats = now + run.cfg.output.stats_every_s
                wall = info["wall_s"]
                rate = (info["iteration"] - self.last_iteration) / max(wall - self.last_wall, 1e-9)
                self.last_iteration, self.last_wall = info["iteration"], wall
                run.events.write("stats", moves_per_s=round(rate, 1), **_round(info))
            if now >= self.next_checkpoint:
                self.next_checkpoint = now + run.cfg.output.checkpoint_every_s
                run.checkpoint(self.search)


def _round(info: dict) -> dict:
    return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in info.items()}


class Run:
    """The pieces of one run that live in its folder."""

    def __init__(self, cfg: RunConfig, run_dir: Path, puzzle: Puzzle, clock: stopping.Clock, quiet: bool):
        self.cfg, self.dir, self.puzzle, self.clock = cfg, run_dir, puzzle, clock
        self.events = EventLog(run_dir)
        self.construction: dict = {}
        self.progress = Progress(cfg, puzzle.max_score, quiet)

    def checkpoint(self, search: TabuSearch) -> None:
        meta = {
            "wall_s": self.clock.wall(),
            "cpu_s": self.clock.cpu(),
            "construction": self.construction,
            "iteration": search.state.iteration,
            "best_score": search.state.best_score,
        }
        save_checkpoint(self.dir, search.state.to_dict(), meta)
        self.events.write("checkpoint", iteration=search.state.iteration, wall_s=round(meta["wall_s"], 3))
        self.events.sync()

    def search(self, search: TabuSearch, interrupted: stopping.Interrupted) -> Result:
        """Run the search to its stopping criteria; checkpoint, result and pictures at the end."""
        criteria = stopping.from_config(self.cfg.stop, self.puzzle.max_score)
        criteria.criteria.append(interrupted)
        outcome = search.run(criteria, self.clock, _Recorder(self, search))
        self.progress.close()
        self.checkpoint(search)
        return self.finish(outcome)

    def finish(self, outcome: SearchResult) -> Result:
        """best.board, the end event, result.json and the pictures."""
        best = outcome.best_board
        write_board(best, self.dir / BEST)
        known = best_known(self.puzzle)
        result = Result(
            instance=self.puzzle.name,
            seed=self.cfg.seed,
            best_score=int(outcome.best_score),
            max_score=self.puzzle.max_score,
            best_known=None if known is None else known.best_known,
            iterations=int(outcome.iterations),
            moves_per_s=round(float(outcome.moves_per_s), 1),
            wall_s=round(self.clock.wall(), 3),
            cpu_s=round(self.clock.cpu(), 3),
            time_to_best_s=round(float(outcome.time_to_best_s), 3),
            stop_reason=outcome.stop_reason,
            run_dir=str(self.dir),
            construction=self.construction,
            diversifications=int(outcome.diversifications),
            intensifications=int(outcome.intensifications),
            best_board=best,
        )
        result.label(self.puzzle)
        end = {k: v for k, v in result.to_json().items() if k != "construction"}
        self.events.write("end", **end, moves=outcome.moves)
        atomic_write_text(self.dir / RESULT, json.dumps(result.to_json(), indent=2) + "\n")
        self.events.close()
        if self.cfg.output.plots:
            from .plots import refresh_plots

            refresh_plots(self.dir, self.puzzle, best)
        return result


def _rngs(seed: int) -> tuple[np.random.Generator, np.random.Generator]:
    """Independent streams for construction and search, both from the one run seed."""
    construct_seq, search_seq = np.random.SeedSequence(seed).spawn(2)
    return np.random.default_rng(construct_seq), np.random.default_rng(search_seq)


def _construction_deadline(cfg: RunConfig) -> float | None:
    """Wall seconds construction may take: the run's budgets (CP-SAT burns CPU on every worker)."""
    limits = []
    if cfg.stop.max_wall_s is not None:
        limits.append(cfg.stop.max_wall_s)
    if cfg.stop.max_cpu_s is not None:
        limits.append(cfg.stop.max_cpu_s / threads_used(cfg.construct))
    return min(limits) if limits else None


def run_config(
    cfg: RunConfig,
    quiet: bool = True,
    run_dir: Path | None = None,
    executor: str = "local",
    scheduler: str | None = None,
) -> Result:
    """Construct + search for one config in a new run folder (or the given one, e.g. a sweep's run folder).

    Several workers (run.workers), restarts, or a Dask executor: the workers' coordinator runs it (workers/).

    SIGINT/SIGTERM during construction stop CP-SAT and end the run without a checkpoint, so that
    ``resume`` starts it again from the construction; during the search they stop after the move.
    """
    puzzle = read_puzzle(cfg.instance)
    if run_dir is None:
        run_dir = make_run_dir(cfg.output.runs_dir, cfg.name, cfg.seed)
    else:
        run_dir = Path(run_dir)
        run_dir.mkdir(parents=True, exist_ok=True)
        if marker_kind(run_dir) != "run":
            mark(run_dir, "run")
    keep_inputs(run_dir, cfg.instance, cfg.construct.board)
    atomic_write_text(run_dir / CONFIG, cfg.to_yaml())
    return start(cfg, run_dir, puzzle, quiet, executor, scheduler)


def start(
    cfg: RunConfig,
    run_dir: Path,
    puzzle: Puzzle,
    quiet: bool,
    executor: str = "local",
    scheduler: str | None = None,
) -> Result:
    """Construction then search in a prepared run folder."""
    if uses_team(cfg) or executor != "local":
        return run_team(cfg, run_dir, puzzle, quiet, executor, scheduler)
    warm_up()
    clock = stopping.Clock()
    run = Run(cfg, run_dir, puzzle, clock, quiet)
    run.events.write(
        "start", instance=puzzle.name, seed=cfg.seed, max_score=puzzle.max_score, pid=os.getpid()
    )
    for warning in puzzle.warnings:
        run.events.write("warning", message=warning)
        run.progress.message(f"warning: {warning}")
    construct_rng, search_rng = _rngs(cfg.seed)
    interrupted = stopping.Interrupted()
    with StopSignals(interrupted):
        board, run.construction = construct(
            puzzle,
            cfg.construct,
            construct_rng,
            _construction_deadline(cfg),
            run_dir,
            lambda: interrupted.triggered,
            run.progress.message,
        )
        run.events.write("construction", **{**run.construction, "wall_s": round(clock.wall(), 3)})
        run.progress.message(_construction_line(run.construction, puzzle.max_score))
        if interrupted.triggered:
            return run.finish(_unsearched(board, run.construction["score"], clock, interrupted.reason))
        search = TabuSearch(puzzle, board, cfg.search, search_rng)
        run.checkpoint(search)
        return run.search(search, interrupted)


def _construction_line(info: dict, max_score: int) -> str:
    """What construction did, for people: the score, and a CP-SAT fallback when one was needed."""
    line = f"construction ({info['method']}): {info['score']}/{max_score}"
    if info.get("interrupted"):
        return line + "; interrupted: the run ends before its search, `e2opt resume` starts it again"
    if info.get("fallback"):
        rounds = info.get("rounds", [])
        tried = [r["status"] for r in rounds if r.get("status") != "SKIPPED"]
        skipped = [r for r in rounds if r.get("status") == "SKIPPED"]
        notes = [f"CP-SAT found no solution ({', '.join(tried)})"] if tried else []
        if skipped:
            notes.append(
                f"{len(skipped)} CP-SAT round(s) skipped: {skipped[0].get('reason', 'no time left')}"
            )
        line += f"; {'; '.join(notes)}; fell back to {info['fallback']}"
    if info.get("finish"):
        line += (
            f"; no complete board in time: the deepest partial board ({info['best_depth']}/{info['depth']} cells"
            f" placed, {info['score_before_finish']} joins) was finished by {info['finish']}"
        )
    return line


def _unsearched(board: Board, value: int, clock: stopping.Clock, reason: str) -> SearchResult:
    """The outcome of a run stopped during construction: its board, no move made."""
    return SearchResult(board, value, 0, clock.wall(), reason, 0.0, 0, 0)


def solve(config: RunConfig | str | Path, quiet: bool = True, **overrides: Any) -> Result:
    """Python API: ``e2opt.solve("config/quick.yaml")`` or a RunConfig; keyword overrides by dotted key.

    Keyword names use ``__`` for dots: ``solve(cfg, stop__max_iterations=1000, seed=3)``.
    """
    values = {key.replace("__", "."): value for key, value in overrides.items()}
    if isinstance(config, RunConfig):
        if values:
            from .configload import set_dotted
            from .loader import config_from_dict

            data = config.to_dict()
            for key, value in values.items():
                set_dotted(data, key, value)
            config = config_from_dict(data, "<solve arguments>")
    else:
        config = load_config(config, **values)
    return run_config(config, quiet=quiet)
