"""A run of several workers (or of one that restarts): the coordinator that owns the run folder.

The workers search in rounds (round.py) on local processes (slots.py) or a Dask cluster (the sweep's
DaskPool). The coordinator, in the process that started the run, gathers each round's answer and keeps what
stays one per run: events.jsonl, best.board (always the run's best, verified, written atomically), the
progress line, the checkpoint (every worker's state) and result.json. Every ``run.share_every_s`` seconds
(or at every meeting, with ``run.sync_every_moves``) it publishes the elite: the best distinct boards the
workers found, each verified, from which stagnated workers restart. A round lost with its process (kill -9,
a lost Dask worker) is submitted again from the state the coordinator holds; the others go on.
"""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path
from typing import Any

from .. import stop as stopping
from ..bks import best_known
from ..board import write_board
from ..config import RunConfig
from ..construct import threads_used
from ..errors import E2optError
from ..events import EventLog
from ..fsutil import atomic_write_text
from ..progress import Progress
from ..puzzle import Puzzle
from ..runfolder import BEST, RESULT
from ..search.schedule import add_totals
from ..signals import StopSignals
from .round import search_round
from .slots import LocalSlots
from .team import Team, rounded

STOP_FILE = ".stop-workers"
LOST = {"WorkerDied", "KilledWorker", "CommClosedError", "FutureCancelledError", "CancelledError"}


def worker_count(cfg: RunConfig) -> int:
    """run.workers, with ``auto`` = the usable cores divided by the threads of one worker's construction."""
    if cfg.run.workers != "auto":
        return int(cfg.run.workers)
    from ..sweep.pools import slots_for

    return slots_for(threads_used(cfg.construct))


def uses_team(cfg: RunConfig) -> bool:
    """Several workers, or restarts: the run goes through the coordinator (one plain worker runs as before)."""
    search = cfg.search
    return worker_count(cfg) > 1 or search.restart_after is not None or search.restart_after_s is not None


def make_workers_pool(executor: str, workers: int, scheduler: str | None) -> Any:
    """Local worker processes, or the sweep's Dask executor."""
    if executor == "local" and not scheduler:
        return LocalSlots(workers)
    from ..sweep.pools import make_pool

    return make_pool(executor, workers, scheduler)


class Coordinator:
    """Runs the rounds of every worker until each has met the run's criteria or the run is stopped."""

    def __init__(self, team: Team, events: EventLog, progress: Progress, pool: Any):
        self.team, self.events, self.progress, self.pool = team, events, progress, pool
        cfg = team.cfg
        self.sync = cfg.run.sync_every_moves
        out = cfg.output
        progress_s = out.progress_every_s * 2 if progress.live else out.log_every_s
        self.round_s = max(
            0.5, min(cfg.run.share_every_s, out.checkpoint_every_s, out.stats_every_s, progress_s)
        )
        self.stop_file = team.dir / STOP_FILE
        self.t0 = time.time() - team.clock.wall()
        now = time.perf_counter()
        self.next_share = now + cfg.run.share_every_s
        self.next_checkpoint = now + out.checkpoint_every_s
        self.next_stats = now + out.stats_every_s
        self.last_stats = (team.clock.wall(), sum(team.moves))

    def task(self, i: int) -> dict[str, Any]:
        """The next round of worker i: from its latest state, with the boards published so far."""
        team, cfg = self.team, self.team.cfg
        end_moves = None
        if self.sync is not None:
            end_moves = (team.moves[i] // self.sync + 1) * self.sync
        end_wall = math.inf if self.sync is not None else team.clock.wall() + self.round_s
        cpu_limit = None if cfg.stop.max_cpu_s is None else cfg.stop.max_cpu_s / team.n
        return {
            "id": f"{team.dir.name}-w{i}-r{team.rounds[i]}",
            "worker": i,
            "config": cfg.to_dict(),
            "t0": self.t0,
            "state": team.states[i],
            "round_end_wall": end_wall,
            "round_end_moves": end_moves,
            "cpu_limit": cpu_limit,
            "published": team.published,
            "stop_file": str(self.stop_file),
        }

    def run(self, interrupted: stopping.Interrupted) -> None:
        """Submit rounds until every worker has finished (or the run stops); absorb answers as they come.

        With ``sync_every_moves`` the answers of a meeting are absorbed in worker order, so that ties between
        workers resolve the same way on every repeat.
        """
        team = self.team
        in_flight: dict[Any, tuple[int, dict]] = {}
        waiting: dict[int, dict] = {}  # answers held until the meeting (sync mode)

        def submit(i: int, task: dict | None = None) -> None:
            task = task or self.task(i)
            in_flight[self.pool.submit(search_round, task)] = (i, task)

        for i in range(team.n):
            submit(i)
        while in_flight:
            if interrupted.triggered and team.stop_reason is None:
                self.stop(interrupted.reason)
            for future in self.pool.wait(set(in_flight), 0.5):
                i, task = in_flight.pop(future)
                exc = future.exception()
                if exc is not None:
                    if type(exc).__name__ not in LOST:
                        raise exc
                    team.lost[i] += 1
                    self.events.write("worker_lost", worker=i, error=str(exc).splitlines()[0][:200])
                    self.progress.message(f"worker {i} lost ({type(exc).__name__}): its round starts again")
                    submit(i, task)
                elif self.sync is not None:
                    waiting[i] = future.result()
                elif self.absorb(future.result()):
                    self.after_answers(share=time.perf_counter() >= self.next_share)
                    submit(i)
            if self.sync is not None and not in_flight:  # a meeting: every worker at the same move
                going = [i for i in sorted(waiting) if self.absorb(waiting.pop(i))]
                self.after_answers(share=True)
                for i in going:
                    if team.stop_reason is None:
                        submit(i)
            self.show()

    def absorb(self, answer: dict[str, Any]) -> bool:
        """Take an answer; True when its worker goes on (not finished, the run not stopping)."""
        self.team.absorb(answer, self.events)
        reason = answer["finished"]
        if reason is not None and reason.startswith("target_score") and self.team.stop_reason is None:
            self.stop(reason)
        return reason is None and self.team.stop_reason is None

    def stop(self, reason: str) -> None:
        """Ask every worker to stop after its current move (a signal, or one reached the target)."""
        self.team.stop_reason = reason
        self.stop_file.touch()

    def after_answers(self, share: bool) -> None:
        """Publish when ``share``; checkpoint and log statistics when they are due."""
        team, out = self.team, self.team.cfg.output
        if share:
            self.next_share = time.perf_counter() + team.cfg.run.share_every_s
            team.publish(self.events)
        if time.perf_counter() >= self.next_checkpoint:
            self.next_checkpoint = time.perf_counter() + out.checkpoint_every_s
            team.checkpoint(self.events)
        if time.perf_counter() >= self.next_stats:
            self.next_stats = time.perf_counter() + out.stats_every_s
            info = team.info()
            wall, moves = info["wall_s"], info["iteration"]
            rate = (moves - self.last_stats[1]) / max(wall - self.last_stats[0], 1e-9)
            self.last_stats = (wall, moves)
            workers = [
                {"worker": i, "score": team.current[i], "iteration": team.moves[i]} for i in range(team.n)
            ]
            self.events.write("stats", moves_per_s=round(rate, 1), workers=workers, **rounded(info))

    def show(self) -> None:
        """The progress line: the run's best, each worker's current score, moves per second of all."""
        if all(state is not None for state in self.team.states):
            info = self.team.info()
            info["score"] = " ".join(map(str, self.team.current))
            self.progress.update(info)


def run_team(
    cfg: RunConfig,
    run_dir: Path,
    puzzle: Puzzle,
    quiet: bool,
    executor: str = "local",
    scheduler: str | None = None,
    team: Team | None = None,
) -> Any:
    """A new team run in a prepared run folder (``team`` None), or a resumed one; returns the run's Result."""
    from ..run import Result

    events = EventLog(run_dir)
    progress = Progress(cfg, puzzle.max_score, quiet)
    if team is None:
        team = Team(cfg, run_dir, puzzle, worker_count(cfg), stopping.Clock())
        events.write(
            "start",
            instance=puzzle.name,
            seed=cfg.seed,
            max_score=puzzle.max_score,
            pid=os.getpid(),
            workers=team.n,
        )
        for warning in puzzle.warnings:
            events.write("warning", message=warning)
            progress.message(f"warning: {warning}")
    (run_dir / STOP_FILE).unlink(missing_ok=True)
    pool = make_workers_pool(executor, team.n, scheduler)
    progress.message(f"{team.n} worker(s) on {pool.describe()}")
    pids = pool.pids() if isinstance(pool, LocalSlots) else []
    events.write("workers", workers=team.n, where=pool.describe(), pids=pids)
    interrupted = stopping.Interrupted()
    abandoned = False
    try:
        with StopSignals(interrupted):
            Coordinator(team, events, progress, pool).run(interrupted)
    except KeyboardInterrupt:
        abandoned = True
        raise
    finally:
        pool.close(wait=not abandoned)
        (run_dir / STOP_FILE).unlink(missing_ok=True)
        progress.close()
    team.checkpoint(events)
    return _finish(team, events, Result)


def _finish(team: Team, events: EventLog, result_cls: Any) -> Any:
    """best.board, the end event, result.json (all workers' CPU, the run's wall time, per-worker figures)."""
    cfg, puzzle = team.cfg, team.puzzle
    write_board(team.best_board, team.dir / BEST)
    reasons = [r for r in team.finished if r is not None]
    reason = team.stop_reason or (reasons[0] if reasons else "interrupted")
    known = best_known(puzzle)
    cpu = team.cpu()
    per_worker = []
    for i, state in enumerate(team.states):
        meta = state["meta"]
        per_worker.append(
            {
                "worker": i,
                "best_score": meta["best_score"],
                "iterations": team.moves[i],
                "cpu_s": round(meta["cpu_s"], 3),
                "moves_per_s": round(team.moves[i] / meta["cpu_s"], 1) if meta["cpu_s"] > 0 else 0.0,
                "time_to_best_s": round(meta["best_wall_s"], 3),
                "restarts": meta["restarts"],
                "lost": team.lost[i],
                "construction_score": meta["construction"].get("score"),
                "stop_reason": team.finished[i],
                "moves": team.move_summaries[i],
            }
        )
    result = result_cls(
        instance=puzzle.name,
        seed=cfg.seed,
        best_score=int(team.best["score"]),
        max_score=puzzle.max_score,
        best_known=None if known is None else known.best_known,
        iterations=sum(team.moves),
        moves_per_s=round(sum(team.moves) / cpu, 1) if cpu > 0 else 0.0,
        wall_s=round(team.clock.wall(), 3),
        cpu_s=round(cpu, 3),
        time_to_best_s=round(float(team.best["wall_s"] or 0.0), 3),
        stop_reason=reason,
        run_dir=str(team.dir),
        construction=team.states[0]["meta"]["construction"],
        diversifications=team.totals("diversifications"),
        intensifications=team.totals("intensifications"),
        best_board=team.best_board,
        workers=per_worker,
    )
    result.label(puzzle)
    events.write(
        "end",
        **{k: v for k, v in result.to_json().items() if k not in ("construction", "workers")},
        moves=add_totals(team.move_summaries),
    )
    atomic_write_text(team.dir / RESULT, json.dumps(result.to_json(), indent=2) + "\n")
    events.close()
    if cfg.output.plots:
        from ..plots import refresh_plots

        refresh_plots(team.dir, puzzle, team.best_board)
    return result


def resume_team(
    cfg: RunConfig,
    run_dir: Path,
    puzzle: Puzzle,
    checkpoint: tuple[dict, dict, list[str]],
    quiet: bool,
    executor: str = "local",
    scheduler: str | None = None,
) -> Any:
    """Continue a team run from its checkpoint: every worker from its saved state, the elite as it was."""
    state, meta, warnings = checkpoint
    try:
        team = Team.restore(cfg, run_dir, puzzle, state, meta)
    except (ValueError, KeyError) as exc:
        raise E2optError(f"{run_dir}: the checkpoint does not fit {cfg.instance} ({exc})") from None
    events = EventLog(run_dir)
    for warning in warnings:
        events.write("warning", message=warning)
    adopted = team.adopt_saved_best()
    events.write("resume", iteration=sum(team.moves), wall_s=round(meta["wall_s"], 3), adopted_best=adopted)
    events.close()
    return run_team(cfg, run_dir, puzzle, quiet, executor, scheduler, team)
