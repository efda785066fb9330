"""The run engine: every run is a team of workers driven by this coordinator, which owns the run folder.

The workers search in rounds (round.py): the one worker of a run in the run's own process, several on
local processes or on a Dask cluster (executors/). The coordinator, in the process that started the run,
gathers each round's answer and keeps what stays one per run: events.jsonl, best.board (always the run's
best, verified, written atomically), the progress line, the checkpoint (every worker's state) and
result.json. Every ``run.share_every_wall_s`` seconds (or at every meeting, with ``run.sync_every_moves``) it
publishes the elite: the best distinct boards the workers found, each verified, from which stagnated
workers restart. A round lost with its process (kill -9,
a lost Dask worker) is submitted again from the state the coordinator holds; the others go on.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

from ..construct import threads_used
from ..core.puzzle import Puzzle
from ..core.signals import Interrupted, StopSignals
from ..search import stop as stopping
from .capacity import where_workers
from .config import RunConfig
from .eventkinds import RunWarning, Start, Workers, make
from .events import EventLog
from .executors import TASK, Executor, Pending, run_executor
from .livebest import LiveBests, clear, live_path
from .liveview import LiveView, worker_plan
from .progress import Progress, construction_line
from .protocol import Answer, Task
from .result import Result, faults_end_the_run, finish
from .round import cpu_share, search_round
from .team import Team, rounded

STOP_FILE = ".stop-workers"
LOST = {"WorkerDied", "KilledWorker", "CommClosedError", "FutureCancelledError", "CancelledError"}


def worker_count(cfg: RunConfig, executor: str = "local") -> int:
    """run.workers, with ``auto`` = the usable cores divided by the threads of one worker's construction, or
    one worker for a run that is a task of a pool (executors/: no cores x cores processes)."""
    if cfg.run.workers != "auto":
        return int(cfg.run.workers)
    if executor == TASK:
        return 1
    from ..core.cores import slots_for

    return slots_for(threads_used(cfg.construct))


class Coordinator:
    """Runs the rounds of every worker until each has met the run's criteria or the run is stopped."""

    def __init__(
        self, team: Team, events: EventLog, progress: Progress, pool: Executor, live: LiveBests | None = None
    ):
        self.team, self.events, self.progress, self.pool = team, events, progress, pool
        self.live = live  # the workers' new bests between answers, for the view (None: quiet, nobody reads)
        cfg = team.cfg
        self.sync = cfg.run.sync_every_moves
        out = cfg.output
        progress_s = out.progress_every_wall_s * 2 if progress.live else out.log_every_wall_s
        self.round_s = max(
            0.5,
            min(cfg.run.share_every_wall_s, out.checkpoint_every_wall_s, out.stats_every_wall_s, progress_s),
        )
        self.stop_file = team.dir / STOP_FILE
        self.t0 = time.time() - team.clock.wall()
        now = time.perf_counter()
        self.next_share = now + cfg.run.share_every_wall_s
        self.next_checkpoint = now + out.checkpoint_every_wall_s
        self.next_stats = now + out.stats_every_wall_s
        self.last_stats = (team.clock.wall(), sum(team.moves))
        self.last_worker_moves = list(team.moves)
        self.claims = 0  # submissions so far; with the start time, each one's token (roundguard.py)
        # rounds far from this process (Dask) stop once it no longer owns the folder; local ones die with it
        self.watched_pid = 0 if pool.bound_to_run else os.getpid()
        self.start_ns = time.time_ns()

    def token(self) -> str:
        """A new submission's token: it sorts after every earlier one of this run, also across resumes."""
        self.claims += 1
        return f"{self.start_ns:020d}.{self.claims:012d}"

    def task(self, i: int) -> Task:
        """The next round of worker i: from its latest state, with the boards published so far."""
        team, cfg = self.team, self.team.cfg
        end_moves = None
        if self.sync is not None:
            end_moves = (team.moves[i] // self.sync + 1) * self.sync
        end_wall = math.inf if self.sync is not None else team.clock.wall() + self.round_s
        if self.sync is None and team.states[i] is None:
            end_wall = 0.0  # the first round ends with the construction: its board is kept and shown at once
        role = team.role_of(i)
        return Task(
            id=f"{team.dir.name}-w{i}-r{team.rounds[i]}",
            worker=i,
            role=role.name,
            config=cfg,
            t0=self.t0,
            state=team.states[i],
            round_end_wall=end_wall,
            round_end_moves=end_moves,
            cpu_limit=cpu_share(cfg, team.n),
            published=team.published,
            stop_file=str(self.stop_file),
            # where the construction keeps its files (CP-SAT log, DFS harvest): the run folder, one per worker
            log_dir=str(team.dir if team.n == 1 else team.dir / f"worker{i}"),
            report=self.construction_lines(i),
            take=role.hand_out(team, i),  # a pool board for a repairer done with its board
            token=self.token(),
            run_pid=self.watched_pid,
            live_file=None if self.live is None else str(live_path(team.dir, i)),
        )

    def construction_lines(self, i: int) -> str | None:
        """The prefix of worker i's construction lines; None for none: quiet, or a terminal, where a line
        printed by a worker would break the live view's redraw."""
        if self.progress.quiet or self.progress.live:
            return None
        return "" if self.team.n == 1 else f"worker {i}: "

    def run(self, interrupted: Interrupted) -> None:
        """Submit rounds until every worker has finished (or the run stops); absorb answers as they come.

        With ``sync_every_moves`` the answers of a meeting are absorbed in worker order, so that ties between
        workers resolve the same way on every repeat.
        """
        team = self.team
        in_flight: dict[Pending, tuple[int, Task, float]] = {}  # future -> worker, task, run wall s at submit
        waiting: dict[int, Answer] = {}  # answers held until the meeting (sync mode)
        self.in_flight = in_flight  # what run_team cancels when the run is left at once

        def submit(i: int, task: Task | None = None) -> None:
            task = task or self.task(i)
            if self.live is not None:  # before the submit: a round in this process runs within it
                self.live.tokens[i] = task.token
            in_flight[self.pool.submit(search_round, task)] = (i, task, team.clock.wall())

        unstarted = []
        for i in range(team.n):
            if i > 0 and team.states[i] is None and self.wall_spent():
                unstarted.append(i)  # started after the wall budget, it would only overrun it
            else:
                submit(i)
        if unstarted:
            self.progress.warn(f"{len(unstarted)} of {team.n} workers not started: the wall budget was spent "
                               f"while their processes started")  # fmt: skip
        while in_flight:
            if interrupted.triggered and team.stop_reason is None:
                self.stop(interrupted.reason)
            if self.sync is None and time.perf_counter() >= self.next_stats:
                self.stats()  # due with or without answers: a view and a log that never go stale
            for future in self.pool.wait(set(in_flight), 0.5):
                i, task, submitted = in_flight.pop(future)
                if self.live is not None:
                    self.live.tokens.pop(i, None)  # its answer holds its bests now
                exc = future.exception()
                if exc is not None:
                    if type(exc).__name__ not in LOST:
                        raise exc
                    # the CPU its round had used: measured for a local process, else its wall time (1 thread)
                    cpu = getattr(exc, "cpu_s", None)
                    team.note_lost(i, team.clock.wall() - submitted if cpu is None else cpu, _first_line(exc),
                                   self.events)  # fmt: skip
                    if team.stop_reason is not None or interrupted.triggered or not self.wanted(i):
                        team.release_unsearched(i, None)
                        continue  # the run (or the producer's work) is ending: its last state is what it keeps
                    self.progress.message(f"worker {i} lost ({type(exc).__name__}): its round starts again")
                    submit(i, task.again(self.token()))  # a copy still running elsewhere is stale now
                    continue
                self.silent_losses(future, i, submitted)
                if self.sync is not None:
                    waiting[i] = future.result()
                elif self.absorb(future.result()):
                    self.after_answers(share=time.perf_counter() >= self.next_share)
                    if self.wall_spent():  # its next round would only end at once, after a round trip
                        team.finished[i] = stopping.MaxWallTime(team.cfg.stop.max_wall_s).reason
                    else:
                        submit(i)
            if self.sync is not None and not in_flight:  # a meeting: every worker at the same move
                going = [i for i in sorted(waiting) if self.absorb(waiting.pop(i))]
                self.after_answers(share=True)
                for i in going:
                    if team.stop_reason is None and self.wanted(i):
                        submit(i)
        if interrupted.triggered and team.stop_reason is None:  # the last answers came in with the signal
            team.stop_reason = interrupted.reason
        if self.sync is None and team.clock.wall() > self.last_stats[0] + 0.5:
            self.stats()  # the last interval's rates, for the view's last lines (after a resume too)

    def wall_spent(self) -> bool:
        """The run's wall budget is spent (its workers end their rounds at once)."""
        wall = self.team.cfg.stop.max_wall_s
        return wall is not None and self.team.clock.wall() >= wall

    def silent_losses(self, future: Pending, i: int, submitted: float) -> None:
        """Attempts of a round that Dask ran again elsewhere after their worker died (its answer came, so the
        run never saw the loss): each counted, with the wall seconds before the answering attempt began."""
        count = self.pool.lost_attempts(future)
        if count:
            began = future.result().began_wall_s
            cpu = max(0.0, (began if began is not None else self.team.clock.wall()) - submitted)
            for _ in range(count):
                self.team.note_lost(
                    i, cpu / count, "its Dask worker died; Dask ran the round again", self.events
                )
            self.progress.message(f"worker {i} lost {count} attempt(s) of a round on Dask (its worker died)")

    def absorb(self, answer: Answer) -> bool:
        """Take an answer; True when its worker goes on (not finished, the run not stopping)."""
        i = answer.worker
        first = self.team.states[i] is None
        self.team.absorb(answer, self.events)
        if first:
            line = construction_line(answer.state.meta.construction, self.team.puzzle.max_score)
            self.progress.message(line if self.team.n == 1 else f"worker {i}: {line}")
            # every construction is kept at once, unless every worker has finished: the run's end keeps them
            if all(state is not None for state in self.team.states) and not all(self.team.finished):
                self.team.checkpoint(self.events)
        reason = answer.finished
        if reason is not None and reason.startswith("target_score") and self.team.stop_reason is None:
            self.stop(reason)
        if self.team.served_finished() and self.team.stop_reason is None:
            self.stop_file.touch()  # no one is left to repair: producers end with their current board
            if reason is None:
                reason = self.team.finished[i] = "repairers finished"
        return reason is None and self.team.stop_reason is None

    def wanted(self, i: int) -> bool:
        """Worker i has work left: a serving role (a producer) only while some worker it serves goes on."""
        return not self.team.role_of(i).serves or not self.team.served_finished()

    def stop(self, reason: str) -> None:
        """Ask every worker to stop after its current move (a signal, or one reached the target)."""
        self.team.stop_reason = reason
        self.stop_file.touch()

    def after_answers(self, share: bool) -> None:
        """Publish when ``share``; checkpoint and log statistics when they are due."""
        team, out = self.team, self.team.cfg.output
        if share:
            self.next_share = time.perf_counter() + team.cfg.run.share_every_wall_s
            team.publish(self.events)
        if time.perf_counter() >= self.next_checkpoint:
            self.next_checkpoint = time.perf_counter() + out.checkpoint_every_wall_s
            team.checkpoint(self.events)
        if time.perf_counter() >= self.next_stats:
            self.stats()

    def stats(self) -> None:
        """A stats event: the run's and each worker's moves per second over the interval since the last one
        (the live view shows these, not a mean since the start or since a resume)."""
        team = self.team
        self.next_stats = time.perf_counter() + team.cfg.output.stats_every_wall_s
        info = team.info()
        wall, moves = info["wall_s"], info["iteration"]
        span = max(wall - self.last_stats[0], 1e-9)
        rate = (moves - self.last_stats[1]) / span
        before = self.last_worker_moves
        workers = [
            {"worker": i, "score": team.current[i], "iteration": team.moves[i],
             "moves_per_s": round((team.moves[i] - before[i]) / span, 1) if i < len(before) else None}
            for i in range(team.n)
        ]  # fmt: skip
        self.last_stats, self.last_worker_moves = (wall, moves), list(team.moves)
        self.events.write(make("stats", moves_per_s=round(rate, 1), workers=workers, **rounded(info)))


def run_team(
    cfg: RunConfig,
    run_dir: Path,
    puzzle: Puzzle,
    quiet: bool,
    executor: str = "local",
    scheduler: str | None = None,
    team: Team | None = None,
    spent_s: float = 0.0,
    announced: int | None = None,
) -> Result:
    """A new team run in a prepared run folder (``team`` None), or a resumed one; returns the run's Result.
    ``spent_s``: wall seconds a new run had spent before (the command's start-up), counted in its budget.

    A signal (SIGINT, SIGTERM, SIGHUP) creates the stop file at once, so that a round in this process or in
    a worker process ends after its current move; the answers are absorbed and the run ends as usual.
    """
    events = EventLog(run_dir)
    progress = Progress(cfg, quiet)
    view = LiveView(events, progress, cfg)  # its figures: a fold over the events written from here on
    if team is None:
        team = Team(cfg, run_dir, puzzle, worker_count(cfg, executor), stopping.Clock(spent_s))
        events.write(
            Start(
                instance=puzzle.name,
                seed=cfg.seed,
                max_score=puzzle.max_score,
                pid=os.getpid(),
                workers=team.n,
            )
        )
        for warning in puzzle.warnings:
            events.write(RunWarning(message=warning))
            progress.warn(warning)
    with faults_end_the_run(
        team, events
    ):  # a full disk, lost permission: one line, exit 74 (envfail.py, result.py)
        return _go(cfg, run_dir, events, progress, view, team, executor, scheduler, announced)


def _go(
    cfg: RunConfig,
    run_dir: Path,
    events: EventLog,
    progress: Progress,
    view: LiveView,
    team: Team,
    executor: str,
    scheduler: str | None,
    announced: int | None = None,
) -> Result:
    """run_team's rounds in their pool, then the run's end; a pool left at once on an error (KeyboardInterrupt,
    OSError): its processes are not waited for. Left at once by a second Ctrl-C, the run still ends as a
    stopped one from what its coordinator holds (the rounds in flight are dropped): ``resume`` continues it."""
    (run_dir / STOP_FILE).unlink(missing_ok=True)
    if announced != team.n:  # the command line said it already when it could tell the count
        progress.message(f"starting {team.n} worker(s) on {where_workers(executor, team.n, scheduler)}")
    pool = run_executor(executor, team.n, scheduler, run_dir, cfg)
    events.write(Workers(workers=team.n, where=pool.describe(), pids=pool.pids(), **worker_plan(team)))
    interrupted = _StopOnSignal(run_dir / STOP_FILE)
    clear(run_dir)  # a killed run's files are no best of this one
    live = None if progress.quiet else LiveBests(run_dir, events, lambda: (team.best or {}).get("score"))
    abandoned = at_once = False
    try:
        with StopSignals(interrupted), view.shown(team.clock.wall, None if live is None else live.poll):
            Coordinator(team, events, progress, pool, live).run(interrupted)
    except KeyboardInterrupt:  # a second Ctrl-C
        abandoned = at_once = True
        team.stop_reason = team.stop_reason or interrupted.reason
        raise
    except OSError:
        abandoned = True
        raise
    finally:
        pool.close(wait=not abandoned)
        (run_dir / STOP_FILE).unlink(missing_ok=True)
        clear(run_dir)
        progress.close()
        if at_once and team.best_board is not None:
            team.checkpoint(events)  # the KeyboardInterrupt goes on up once these are written
            finish(team, events, pictures=False)
    team.checkpoint(events)
    return finish(team, events)


def _first_line(exc: BaseException) -> str:
    """An error's first line, for the worker_lost event."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class _StopOnSignal(Interrupted):
    """The run's signal flag: triggering it also creates the stop file that ends the workers' rounds."""

    def __init__(self, stop_file: Path):
        super().__init__()
        self.stop_file = stop_file

    def trigger(self, why: str = "interrupted") -> None:
        super().trigger(why)
        self.stop_file.touch()
