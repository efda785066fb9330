"""One round of one worker: continue its search until the round ends, plain data in and out.

A task (a dict, so that it pickles to a process or a Dask cluster) carries the run's config, the worker's
state (None before its construction), where the round ends (run wall seconds, the worker's own moves) and
the boards published to the workers. The answer carries the new state, the new bests found (with when),
and ``finished``: the run criterion that held, or None when only the round ended. Inside a round a worker
whose search stagnates (``search.restart_after`` intensifications, or ``restart_after_s`` seconds, without a
new best) restarts from ``run.restart_from``: a fresh construction, the published best, or an elite board.
Its own best board and all counters survive restarts.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import numpy as np

from ..config.schema import build
from ..construct import construct, threads_used
from ..core.puzzle import Puzzle, read_puzzle_cached
from ..search import stop as stopping
from ..search.flat import FlatPuzzle
from ..search.schedule import add_totals
from ..search.state import SearchState
from ..search.tabu import TabuSearch, warm_up
from .config import RunConfig
from .liveview import dfs_figures
from .produced import ProducedLog

# scalar counters of a worker, carried across its searches (the search's own counters restart at zero)
COUNTERS = ("moves_before", "diversifications_before", "intensifications_before", "restarts", "best_score")
COUNTERS += ("stagnant_intensifications",)  # intensifications since the current search's last new best
TIMES = ("best_wall_s", "best_cpu_s", "cpu_s", "search_best_wall_s")  # the last: when that new best came
_warm = False  # numba kernels loaded in this process (see search_round)


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


class Stagnation:
    """Stop criterion of a search that found no new best for ``after`` intensifications or ``after_s`` s."""

    reason = "stagnation"

    def __init__(self, after: int | None, after_s: float | None, intensifications: int, best_wall: float):
        self.after, self.after_s = after, after_s
        self.intensifications, self.best_wall = intensifications, best_wall

    def seen(self, kind: str, wall: float) -> None:
        """Count an intensification; a new best resets both counts."""
        if kind == "intensify":
            self.intensifications += 1
        elif kind == "best":
            self.intensifications, self.best_wall = 0, wall

    def __call__(self, status: stopping.Status) -> bool:
        if self.after is not None and self.intensifications >= self.after:
            return True
        return self.after_s is not None and status.wall_s - self.best_wall >= self.after_s


class _Worker:
    """A worker during one round: its current search and the counters it carries across searches."""

    def __init__(self, task: dict[str, Any], cfg: RunConfig, puzzle: Puzzle, clock: stopping.Clock):
        self.task, self.cfg, self.puzzle, self.clock = task, cfg, puzzle, clock
        self.flat = FlatPuzzle.of(puzzle)
        self.events: list[dict[str, Any]] = []
        self.seed_key = worker_streams(cfg.seed, task["worker"])[2]
        self.role = task.get("role", "worker")
        self.produced: list[dict[str, Any]] = []  # boards a producer made in this round
        state = task["state"]
        if state is None:
            self.first_search()
        else:
            self.meta = dict(state["meta"])
            self.best = (np.array(state["best_piece"]), np.array(state["best_rot"]))
            self.search = TabuSearch.from_state(puzzle, cfg.search, SearchState.from_dict(state["search"]))

    def first_search(self) -> None:
        """Construct the worker's initial board (its own stream) and start its search."""
        construct_seq, search_seq, _ = worker_streams(self.cfg.seed, self.task["worker"])
        rng = np.random.default_rng(construct_seq)
        board, info = self.made(0, rng) if self.role == "producer" else self.build(rng)
        self.meta = {key: 0 for key in COUNTERS} | {key: 0.0 for key in TIMES} | {"construction": info}
        self.start(board, np.random.default_rng(search_seq))
        self.meta["best_score"], self.meta["search_best_wall_s"] = -1, self.clock.wall()
        self.note_best(self.search.state.best_score, "construction")
        if self.role == "producer":
            self.keep_produced(info)

    def build(self, rng: np.random.Generator) -> tuple[Any, dict]:
        """A new board by the configured construction, within what is left of the run's and the worker's budgets
        (CP-SAT burns CPU on each of its threads)."""
        limits = []
        if self.cfg.stop.max_wall_s is not None:
            limits.append(self.cfg.stop.max_wall_s - self.clock.wall())
        how = self.cfg.producer_construct() if self.role == "producer" else self.cfg.construct
        if self.task["cpu_limit"] is not None:
            limits.append((self.task["cpu_limit"] - self.clock.cpu()) / threads_used(how))
        deadline = max(0.0, min(limits)) if limits else None
        log_dir = Path(self.task["log_dir"]) if self.task.get("log_dir") else None
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True)
        prefix = self.task.get("report")
        report = None if prefix is None else lambda text: _say(prefix + text)
        board, info = construct(self.puzzle, how, rng, deadline, log_dir, self.stop_requested, report)
        if log_dir is not None and log_dir.name.startswith("worker") and not any(log_dir.iterdir()):
            log_dir.rmdir()  # a worker's folder only when its construction kept something there
        return board, info

    def stop_requested(self) -> bool:
        """The stop file, or the run's wall budget spent: every construction checks it, so that none outlives the
        run's deadline (their own limits count CPU seconds, which a loaded machine stretches in wall time)."""
        wall = self.cfg.stop.max_wall_s
        return Path(self.task["stop_file"]).exists() or (wall is not None and self.clock.wall() >= wall)

    def start(self, board: Any, rng: np.random.Generator) -> None:
        self.search = TabuSearch(self.puzzle, board, self.cfg.search, rng)
        score = int(self.search.state.score)
        self.meta["board_score"] = score  # what a repairer's "repaired" event starts from

    def note_best(self, value: int, move: str) -> None:
        """The search's best board becomes the worker's best when it beats it; recorded as an event that names
        the worker's role and the move that made it (or "construction", "pool")."""
        if value <= self.meta["best_score"]:
            return
        st = self.search.state
        self.best = (st.best_piece.copy(), st.best_rot.copy())
        wall, cpu = self.clock.wall(), self.clock.cpu()
        self.meta.update(best_score=int(value), best_wall_s=wall, best_cpu_s=cpu)
        moves = self.meta["moves_before"] + st.iteration
        self.events.append(
            {"event": "best", "score": int(value), "iteration": moves, "wall_s": wall, "cpu_s": cpu,
             "role": self.role, "move": move}
        )  # fmt: skip

    def keep_produced(self, info: dict) -> None:
        """A producer's new board, for the run's pool (the coordinator verifies it and writes the event)."""
        st = self.search.state
        self.produced.append(
            {"piece": st.piece.copy(), "rot": st.rot.copy(), "score": int(st.score), "wall_s": self.clock.wall(),
             "cpu_s": self.clock.cpu(), "method": info.get("method", self.cfg.producer_construct().method),
             "dfs": dfs_figures(info)}  # the live view's DFS depth and nodes/s (liveview.py)
        )  # fmt: skip

    def note_plateau(self, kind: str, info: dict) -> None:
        """A plateau event, at most one of each kind per ``output.stats_every_s``: plateaus come many times a
        second, so events.jsonl grows with time, not with moves (the running totals say how many there were)."""
        wall = self.clock.wall()
        due = self.meta.setdefault("next_plateau_event", {})
        if wall < due.get(kind, 0.0):
            return
        due[kind] = wall + self.cfg.output.stats_every_s
        st = self.search.state
        self.events.append(
            {
                "event": kind,
                "iteration": self.moves(),
                "wall_s": wall,
                "score": int(info.get("score", st.score)),
                "diversifications": self.meta["diversifications_before"] + st.diversifications,
                "intensifications": self.meta["intensifications_before"] + st.intensifications,
            }
        )

    def moves(self) -> int:
        return self.meta["moves_before"] + self.search.state.iteration

    def move_summary(self) -> dict[str, dict]:
        """Per-move totals over every search of this worker; the share is the current search's."""
        current = self.search.schedule.summary()
        total = add_totals([self.meta.get("moves_summary_before", {}), current])
        for name, m in current.items():
            total[name]["share"] = m["share"]
        return total

    def leave(self) -> tuple[np.random.Generator, np.random.Generator]:
        """Fold the current search's counters into the worker's before a new board; that board's streams."""
        st = self.search.state
        if self.role == "repairer":
            self.events.append(
                {"event": "repaired", "role": self.role, "score_before": self.meta.get("board_score", st.score),
                 "score": int(st.best_score), "wall_s": self.clock.wall(), "cpu_s": self.clock.cpu()}
            )  # fmt: skip
        self.meta["moves_summary_before"] = self.move_summary()
        self.meta["moves_before"] += st.iteration
        self.meta["diversifications_before"] += st.diversifications
        self.meta["intensifications_before"] += st.intensifications
        self.meta["restarts"] += 1
        self.meta["stagnant_intensifications"], self.meta["search_best_wall_s"] = 0, self.clock.wall()
        return restart_streams(self.cfg.seed, self.seed_key, self.meta["restarts"])

    def produce(self) -> None:
        """A producer's next board: a new construction from the next stream, kept for the pool."""
        construct_rng, search_rng = self.leave()
        board, info = self.made(self.meta["restarts"], construct_rng)
        self.start(board, search_rng)
        self.note_best(self.search.state.best_score, "construction")
        self.keep_produced(info)

    def made(self, n: int, rng: np.random.Generator) -> tuple[Any, dict]:
        """A producer's board number n: the one a lost round made already (produced.py), else a new one."""
        log_dir = self.task.get("log_dir")
        boards = ProducedLog(Path(log_dir) / "produced" if log_dir else None)
        found = boards.load(n)
        if found is not None:
            return found
        board, info = self.build(rng)
        boards.save(n, board, info)
        return board, info

    def take(self, entry: dict[str, Any]) -> None:
        """A repairer leaves its board for one the coordinator took from the pool."""
        _, search_rng = self.leave()
        self.start(self.flat.board(np.asarray(entry["piece"]), np.asarray(entry["rot"])), search_rng)
        self.note_best(self.search.state.best_score, "pool")
        self.events.append(
            {"event": "restart", "from": "pool", "score": int(entry["score"]), "iteration": self.moves(),
             "wall_s": self.clock.wall()}
        )  # fmt: skip

    def restart(self) -> None:
        """Leave a stagnated search for a new board from ``run.restart_from`` (a fresh one if none published)."""
        construct_rng, search_rng = self.leave()
        published = self.task["published"]
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
        return worker_criteria(self.cfg, self.meta, self.task["cpu_limit"], self.puzzle.max_score)

    def status(self) -> stopping.Status:
        st = self.search.state
        return stopping.Status(
            st.iteration, st.score, st.best_score, st.intensifications, self.clock.wall(), self.clock.cpu()
        )


def _say(line: str) -> None:
    """A construction's progress line; a closed output never stops the worker (engine/progress.py)."""
    with contextlib.suppress(OSError, ValueError):
        print(line, flush=True)


def worker_criteria(
    cfg: RunConfig, meta: dict[str, Any], cpu_limit: float | None, max_score: int
) -> stopping.AnyOf:
    """The run's criteria for a worker's current search: its CPU share, and move and intensification
    budgets less what its earlier searches (``meta``) spent. Rounds and resume judge a worker by it."""
    return stopping.from_config(
        cfg.stop, max_score, cpu_limit, meta["moves_before"], meta["intensifications_before"]
    )


def cpu_share(cfg: RunConfig, workers: int) -> float | None:
    """Each worker's part of the run's CPU budget (None without one)."""
    return None if cfg.stop.max_cpu_s is None else cfg.stop.max_cpu_s / workers


def search_round(task: dict[str, Any]) -> dict[str, Any]:
    """Run one round of one worker (see the module docstring); the answer is plain data."""
    global _warm
    if not _warm:
        warm_up()  # compile or load the kernels before the clock starts
        _warm = True
    cfg = build(RunConfig, task["config"], f"worker {task['worker']}")
    puzzle = read_puzzle_cached(cfg.instance)
    cpu_before = 0.0 if task["state"] is None else float(task["state"]["meta"]["cpu_s"])
    clock = stopping.Clock(time.time() - task["t0"], cpu_before)
    worker = _Worker(task, cfg, puzzle, clock)
    stop_file = stopping.Requested(Path(task["stop_file"]).exists)
    took = None
    if worker.role == "producer":
        finished = _produce(worker, task, stop_file)
    else:
        if task.get("take") is not None and not worker.criteria()(worker.status()):
            worker.take(task["take"])  # a worker that has finished leaves the board to the pool
            took = task["take"]["key"]
        finished = _search(worker, task, stop_file)
    meta = worker.meta
    st = worker.search.state
    meta["cpu_s"] = clock.cpu()
    return {
        "worker": task["worker"],
        "state": {
            "meta": meta,
            "search": st.to_dict(),
            "best_piece": worker.best[0],
            "best_rot": worker.best[1],
        },
        "events": worker.events,
        "finished": finished,
        "current": int(st.score),
        "moves": worker.moves(),
        "move_summary": worker.move_summary(),
        "produced": worker.produced,
        "took": took,
    }


def _search(worker: _Worker, task: dict[str, Any], stop_file: stopping.Requested) -> str | None:
    """A searching worker's round: moves until the round ends; restarts when the search stagnates. The run
    criterion that held, or None."""
    cfg, clock, meta = worker.cfg, worker.clock, worker.meta
    while True:
        run_criteria = worker.criteria()
        round_end = [stopping.MaxWallTime(task["round_end_wall"]), stop_file]
        if task["round_end_moves"] is not None:
            round_end.append(stopping.MaxIterations(task["round_end_moves"] - meta["moves_before"]))
        stagnation = Stagnation(
            cfg.search.restart_after,
            cfg.search.restart_after_s,
            meta["stagnant_intensifications"],
            meta["search_best_wall_s"],
        )

        def on_event(kind: str, info: dict, stagnation: Stagnation = stagnation) -> None:
            stagnation.seen(kind, clock.wall())
            if kind in ("diversify", "intensify"):
                worker.note_plateau(kind, info)
            if kind == "best":
                worker.note_best(info["score"], info["move"])

        worker.search.run(stopping.AnyOf(run_criteria, *round_end, stagnation), clock, on_event)
        meta["stagnant_intensifications"], meta["search_best_wall_s"] = (
            stagnation.intensifications,
            stagnation.best_wall,
        )
        status = worker.status()
        if run_criteria(status):
            return run_criteria.reason
        if stop_file(status):
            return "interrupted"
        if any(end(status) for end in round_end):
            return None
        worker.restart()  # only the stagnation criterion held


def _produce(worker: _Worker, task: dict[str, Any], stop_file: stopping.Requested) -> str | None:
    """A producer's round: new boards for the pool until the round's end (one board per meeting with
    ``sync_every_moves``); its first round is its first board. The run criterion that held, or None."""
    if task["state"] is None:
        return None
    while True:
        criteria, status = worker.criteria(), worker.status()
        if criteria(status):
            return criteria.reason
        if stop_file(status):
            return "interrupted"
        worker.produce()
        if task["round_end_moves"] is not None or worker.clock.wall() >= task["round_end_wall"]:
            return None
