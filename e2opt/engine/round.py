"""One round of one worker: continue its search until the round ends, a Task in and an Answer out.

A Task (protocol.py; it pickles to a process or a Dask cluster) carries the run's config, the worker's role
and state (None before its construction), where the round ends (run wall seconds, the worker's own moves)
and the boards published to the workers. The Answer carries the new state, the new bests found (with when),
and ``finished``: the run criterion that held, or None when only the round ended. What the round does is its
role's (roles/): a searcher or repairer moves, restarting from ``run.restart_from`` when its search
stagnates; a producer builds boards. A worker's best board and all its counters survive restarts.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import numpy as np

from ..construct import construct, threads_used
from ..core.formats.read import read_puzzle_cached
from ..core.puzzle import Puzzle
from ..search import stop as stopping
from ..search.flat import FlatPuzzle
from ..search.schedule import add_totals
from ..search.state import SearchState
from ..search.tabu import TabuSearch
from .config import RunConfig
from .lifeline import OwnerWatch, Watched
from .livebest import BestNotice
from .protocol import Answer, ProducedBoard, Task, WorkerMeta, WorkerState
from .roles import ROLES
from .roundguard import Claim
from .warm import warm_up


def worker_streams(seed: int, worker: int) -> tuple[np.random.SeedSequence, np.random.SeedSequence, tuple]:
    """(construction, search, restart key) of a worker: worker 0 keeps the two streams of a one-worker run
    (so it constructs and searches exactly like one), the others get their own children of the run seed."""
    if worker == 0:
        construct_seq, search_seq = np.random.SeedSequence(seed).spawn(2)
        return construct_seq, search_seq, (2,)
    construct_seq, search_seq = np.random.SeedSequence(seed, spawn_key=(2 + worker,)).spawn(2)
    return construct_seq, search_seq, (2 + worker, 2)


def restart_streams(seed: int, key: tuple, restart: int) -> tuple[np.random.Generator, np.random.Generator]:
    """(construction, search) generators of a worker's ``restart``-th restart: a pure function of the count,
    so a checkpoint needs to keep only the count."""
    construct_seq, search_seq = np.random.SeedSequence(seed, spawn_key=(*key, restart)).spawn(2)
    return np.random.default_rng(construct_seq), np.random.default_rng(search_seq)


class Worker:
    """A worker during one round: its current search and the counters it carries across searches. Its role
    (roles/) decides what the round does; this class holds what every role shares."""

    def __init__(self, task: Task, puzzle: Puzzle, clock: stopping.Clock, claim: Claim):
        self.task, self.cfg, self.puzzle, self.clock = task, task.config, puzzle, clock
        self.role, self.claim = ROLES[task.role], claim
        self.began = clock.wall()
        self.flat = FlatPuzzle.of(puzzle)
        self.events: list[dict[str, Any]] = []
        self.seed_key = worker_streams(self.cfg.seed, task.worker)[2]
        self.produced: list[ProducedBoard] = []  # boards a producer made in this round
        self.took: str | None = None  # the pool board a repairer searched in this round
        self.notice = BestNotice(task.live_file, task.token)  # each new best, for the live view at once
        stop_path = Path(task.stop_file)
        self.asked_to_stop = lambda: stop_path.exists() or claim.stale()  # a stale copy stops like a signal
        self.stop_file = stopping.Requested(self.asked_to_stop)
        if task.state is None:
            self.first_search()
        else:
            self.meta = task.state.meta.copy()
            self.best = (np.array(task.state.best_piece), np.array(task.state.best_rot))
            self.search = TabuSearch.from_state(
                puzzle, self.cfg.search, SearchState.from_dict(task.state.search)
            )

    def first_search(self) -> None:
        """Construct the worker's initial board (its own stream) and start its search."""
        construct_seq, search_seq, _ = worker_streams(self.cfg.seed, self.task.worker)
        board, info = self.role.first_board(self, np.random.default_rng(construct_seq))
        self.meta = WorkerMeta(construction=info)
        self.start(board, np.random.default_rng(search_seq))
        self.meta.best_score, self.meta.search_best_wall_s = -1, self.clock.wall()
        self.note_best(self.search.state.best_score, "construction")
        self.role.begun(self, info)

    def build(self, rng: np.random.Generator) -> tuple[Any, dict]:
        """A new board by the role's construction, within what is left of the run's and the worker's budgets
        (CP-SAT burns CPU on each of its threads)."""
        limits = []
        if self.cfg.stop.max_wall_s is not None:
            limits.append(self.cfg.stop.max_wall_s - self.clock.wall())
        how = self.role.construction(self.cfg)
        if self.task.cpu_limit is not None:
            limits.append((self.task.cpu_limit - self.clock.cpu()) / threads_used(how))
        deadline = max(0.0, min(limits)) if limits else None
        log_dir = Path(self.task.log_dir) if self.task.log_dir else None
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)
        prefix = self.task.report
        report = None if prefix is None else lambda text: _say(prefix + text)
        board, info = construct(self.puzzle, how, rng, deadline, log_dir, self.stop_requested, report)
        if log_dir is not None and log_dir.name.startswith("worker") and not any(log_dir.iterdir()):
            log_dir.rmdir()  # a worker's folder only when its construction kept something there
        return board, info

    def stop_requested(self) -> bool:
        """The stop file, or the run's wall budget spent: every construction checks it, so that none outlives the
        run's deadline (their own limits count CPU seconds, which a loaded machine stretches in wall time)."""
        wall = self.cfg.stop.max_wall_s
        return self.asked_to_stop() or (wall is not None and self.clock.wall() >= wall)

    def start(self, board: Any, rng: np.random.Generator) -> None:
        self.search = TabuSearch(self.puzzle, board, self.cfg.search, rng)
        self.meta.board_score = int(self.search.state.score)  # what a repairer's "repaired" event starts from

    def note_best(self, value: int, move: str) -> None:
        """The search's best board becomes the worker's best when it beats it; recorded as an event that names
        the worker's role and the move that made it (or "construction", "pool")."""
        if value <= self.meta.best_score:
            return
        st = self.search.state
        self.best = (st.best_piece.copy(), st.best_rot.copy())
        wall, cpu = self.clock.wall(), self.clock.cpu()
        self.meta.best_score, self.meta.best_wall_s, self.meta.best_cpu_s = int(value), wall, cpu
        self.events.append(
            {"event": "best", "score": int(value), "iteration": self.moves(), "wall_s": wall, "cpu_s": cpu,
             "role": self.role.name, "move": move}
        )  # fmt: skip
        self.notice.offer(self.events[-1])

    def note_plateau(self, kind: str, info: dict) -> None:
        """A plateau event, at most one of each kind per ``output.stats_every_wall_s``: plateaus come many times a
        second, so events.jsonl grows with time, not with moves (the running totals say how many there were)."""
        wall = self.clock.wall()
        due = self.meta.next_plateau_event
        if wall < due.get(kind, 0.0):
            return
        due[kind] = wall + self.cfg.output.stats_every_wall_s
        st = self.search.state
        self.events.append(
            {
                "event": kind,
                "iteration": self.moves(),
                "wall_s": wall,
                "score": int(info.get("score", st.score)),
                "diversifications": self.meta.diversifications_before + st.diversifications,
                "intensifications": self.meta.intensifications_before + st.intensifications,
            }
        )

    def moves(self) -> int:
        return self.meta.moves_before + self.search.state.iteration

    def move_summary(self) -> dict[str, dict]:
        """Per-move totals over every search of this worker; the share is the current search's."""
        current = self.search.schedule.summary()
        total = add_totals([self.meta.moves_summary_before, current])
        for name, m in current.items():
            total[name]["share"] = m["share"]
        return total

    def leave(self) -> tuple[np.random.Generator, np.random.Generator]:
        """Fold the current search's counters into the worker's before a new board; that board's streams."""
        self.role.leaving(self)
        st, meta = self.search.state, self.meta
        meta.moves_summary_before = self.move_summary()
        meta.moves_before += st.iteration
        meta.diversifications_before += st.diversifications
        meta.intensifications_before += st.intensifications
        meta.restarts += 1
        meta.stagnant_intensifications, meta.search_best_wall_s = 0, self.clock.wall()
        return restart_streams(self.cfg.seed, self.seed_key, meta.restarts)

    def restart(self) -> None:
        """Leave a stagnated search for a new board from ``run.restart_from`` (a fresh one if none published)."""
        construct_rng, search_rng = self.leave()
        published = self.task.published
        source = self.cfg.run.restart_from if published else "fresh"
        if source == "fresh":
            board, _ = self.build(construct_rng)
        else:
            pick = 0 if source == "best" else int(construct_rng.integers(len(published)))
            board = self.flat.board(np.array(published[pick]["piece"]), np.array(published[pick]["rot"]))
        self.start(board, search_rng)
        self.events.append(
            {"event": "restart", "from": source, "iteration": self.moves(), "wall_s": self.clock.wall()}
        )

    def criteria(self) -> stopping.AnyOf:
        """The run's criteria seen from the current search (budgets count the worker's earlier searches)."""
        return worker_criteria(self.cfg, self.meta, self.task.cpu_limit, self.puzzle.max_score)

    def status(self) -> stopping.Status:
        st = self.search.state
        return stopping.Status(
            st.iteration, st.score, st.best_score, st.intensifications, self.clock.wall(), self.clock.cpu()
        )

    def answer(self, finished: str | None) -> Answer:
        """The round's answer: the worker's new state and what the round found."""
        self.meta.cpu_s = self.clock.cpu()
        st = self.search.state
        state = WorkerState(self.meta, st.to_dict(), self.best[0], self.best[1])
        return Answer(self.task.worker, state, self.events, finished, int(st.score), self.moves(),
                      self.move_summary(), self.produced, self.took, self.began)  # fmt: skip


def _say(line: str) -> None:
    """A construction's progress line; a closed output never stops the worker (engine/progress.py)."""
    with contextlib.suppress(OSError, ValueError):
        print(line, flush=True)


def worker_criteria(
    cfg: RunConfig, meta: WorkerMeta, cpu_limit: float | None, max_score: int
) -> stopping.AnyOf:
    """The run's criteria for a worker's current search: its CPU share, and move and intensification
    budgets less what its earlier searches (``meta``) spent. Rounds and resume judge a worker by it."""
    return stopping.from_config(
        cfg.stop, max_score, cpu_limit, meta.moves_before, meta.intensifications_before
    )


def cpu_share(cfg: RunConfig, workers: int) -> float | None:
    """Each worker's part of the run's CPU budget (None without one)."""
    return None if cfg.stop.max_cpu_s is None else cfg.stop.max_cpu_s / workers


def search_round(task: Task) -> Answer:
    """Run one round of one worker (see the module docstring): its role plays it, under the role's claim."""
    warm_up(task.config)  # compile or load the config's kernels before the clock starts (once per process)
    puzzle = read_puzzle_cached(task.config.instance)
    cpu_before = 0.0 if task.state is None else float(task.state.meta.cpu_s)
    clock = stopping.Clock(time.time() - task.t0, cpu_before)
    role = ROLES[task.role]
    claim = role.claim(task)
    if task.run_pid:  # on Dask: the run may be gone (kill -9) while this round goes on
        claim = Watched(claim, OwnerWatch(Path(task.stop_file).parent, task.run_pid))
    with claim:
        worker = Worker(task, puzzle, clock, claim)
        finished = role.play(worker, task)
        claim.check()  # a stale copy hands nothing over
        return worker.answer(finished)
