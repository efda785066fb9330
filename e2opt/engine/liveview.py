"""The live view of a run: the run's best, elapsed time and budget over one line per worker (its role; DFS depth
and nodes/s, or score and moves/s; the boards it produced or repaired).

Every figure is a fold over the events the coordinator writes to events.jsonl (``RunFigures.see``): the view
replays the log a resumed run already has, then follows the EventLog, so a recount from events.jsonl gives
the same figures. A thread draws it every ``progress.every`` seconds (a one-worker run's construction holds
the main thread): in place on a terminal, as plain lines when piped (progress.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .config import RunConfig
from .eventkinds import (
    Best,
    Construction,
    Event,
    LiveBest,
    Produced,
    Repaired,
    Restart,
    Resume,
    Start,
    Stats,
    WorkerLost,
    Workers,
    as_event,
)
from .events import EventLog, read_typed
from .progress import Progress, format_clock
from .result import lost_text

ROLE_NAMES = {"worker": "searcher"}  # a run without roles: every worker searches
# construction info -> "produced" event field
DFS_KEYS = (("call_placed", "placed"), ("nodes_per_s", "nodes_per_s"), ("repeats", "repeats"))


def worker_plan(team: Any) -> dict[str, Any]:
    """Each worker's role and construction, and the puzzle's cells, for the run's "workers" event."""
    producing, own = team.cfg.producer_construct().method, team.cfg.construct.method
    roles = [team.role(i) for i in range(team.n)]
    methods = [producing if role == "producer" else own for role in roles]
    return {"roles": roles, "methods": methods, "cells": team.puzzle.n_cells}


def dfs_figures(info: dict[str, Any]) -> dict[str, Any]:
    """A DFS construction's depth reached (cells placed), nodes per CPU s and completions thrown away because
    they repeated a board made before, as a "produced" event names them."""
    return {name: info[key] for key, name in DFS_KEYS if key in info}


@dataclass
class WorkerFigures:
    """One worker's figures, as its events tell them."""

    role: str = "searcher"
    method: str = "?"
    built: bool = False  # its construction event came
    since: float = 0.0  # wall s of its last board (a producer's next one is under way since then)
    score: int | None = None  # current score, from the last stats event
    best: int | None = None
    rate: float | None = None  # moves per wall s between its last two stats events
    last: tuple[float, int] | None = None  # (wall s, moves) of its last stats event
    placed: int | None = None  # cells placed by the DFS of its last board
    nodes_per_s: int | None = None
    produced: int = 0
    produced_best: int | None = None
    repaired: int = 0
    lost: int = 0  # rounds lost with its process (worker_lost events)
    lost_cpu_s: float = 0.0


@dataclass
class RunFigures:
    """The view's figures: a fold over the run's events (``see`` each one in order)."""

    max_score: int = 0
    cells: int | None = None
    best: int | None = None
    cpu_s: float | None = None
    moves_per_s: float | None = None
    workers: list[WorkerFigures] = field(default_factory=list)

    def worker(self, i: Any) -> WorkerFigures | None:
        """Worker i's figures, the list grown to it (None for an event without a worker number)."""
        if not isinstance(i, int) or isinstance(i, bool) or i < 0:
            return None
        while len(self.workers) <= i:
            self.workers.append(WorkerFigures())
        return self.workers[i]

    def see(self, event: Event | Mapping[str, Any]) -> None:
        """Take one event (kinds that carry no figure of the view change nothing)."""
        event = as_event(event)
        w = self.worker(getattr(event, "worker", None))
        if isinstance(event, Start):
            self.max_score = event.max_score or 0
            self.worker((event.workers or 1) - 1)
        elif isinstance(event, Workers):
            for i, (role, method) in enumerate(zip(event.roles or [], event.methods or [], strict=False)):
                self.workers_at(i, role, method)
            self.cells = event.cells if event.cells is not None else self.cells
            self.worker((event.workers or 1) - 1)
        elif (
            isinstance(event, Resume | Restart) and w is None
        ):  # the run goes on from its checkpoint, or anew
            for one in self.workers:
                one.last = one.rate = None
                one.built = one.built and isinstance(event, Resume)
        elif isinstance(event, Stats):
            self.stats(event)
        elif w is not None:
            self.worker_event(w, event)

    def workers_at(self, i: int, role: str, method: str) -> None:
        """Worker i's role and construction, from the "workers" event."""
        w = self.worker(i)
        w.role, w.method = ROLE_NAMES.get(role, role), method

    def stats(self, event: Stats) -> None:
        """Periodic statistics: each worker's current score and moves, the run's CPU and moves/s."""
        wall = event.wall_s or 0.0
        self.cpu_s, self.moves_per_s = event.cpu_s, event.moves_per_s
        for entry in event.workers or []:
            w = self.worker(entry.get("worker")) if isinstance(entry, dict) else None
            if w is None:
                continue
            w.score, moves = entry.get("score"), entry.get("iteration", 0)
            if isinstance(entry.get("moves_per_s"), int | float):  # the stats' own rate of the last interval
                w.rate = entry["moves_per_s"]
            elif w.last is not None and wall > w.last[0]:
                w.rate = (moves - w.last[1]) / (wall - w.last[0])
            w.last = (wall, moves)

    def worker_event(self, w: WorkerFigures, event: Event) -> None:
        """A worker's construction, new best, produced or repaired board."""
        score = getattr(event, "score", None)
        extra = event.extra
        if isinstance(event, Construction):
            w.built, w.since, w.score = True, event.wall_s or 0.0, score
            w.placed = extra.get("call_placed", w.placed)
            w.nodes_per_s = extra.get("nodes_per_s", w.nodes_per_s)
        elif isinstance(event, Best | LiveBest) and score is not None:  # worker_best included
            w.best = score if w.best is None else max(w.best, score)
            if event.kind in ("best", "live_best"):  # a worker's new best before its answer too
                self.best = score if self.best is None else max(self.best, score)
        elif isinstance(event, Produced):
            w.produced += 1
            if score is not None:
                w.produced_best = score if w.produced_best is None else max(w.produced_best, score)
            w.since = event.wall_s if event.wall_s is not None else w.since
            w.placed, w.nodes_per_s = extra.get("placed", w.placed), extra.get("nodes_per_s", w.nodes_per_s)
        elif isinstance(event, Repaired):
            w.repaired += 1
        elif isinstance(event, WorkerLost):
            w.lost += 1
            w.lost_cpu_s += float(event.cpu_s or 0.0)


def render(figures: RunFigures, wall_s: float, cfg: RunConfig) -> list[str]:
    """The view's lines at ``wall_s`` seconds of the run: a header, then one line per worker."""
    budget = ""
    if cfg.stop.max_wall_s is not None:
        budget = f" / {format_clock(max(0.0, cfg.stop.max_wall_s - wall_s))} left"
    elif cfg.stop.max_cpu_s is not None and figures.cpu_s is not None:
        budget = f", CPU {figures.cpu_s:,.0f} of {cfg.stop.max_cpu_s:,.0f} s"
    best = "-" if figures.best is None else figures.best
    rate = "" if figures.moves_per_s is None else f"  {figures.moves_per_s:,.0f} moves/s"
    lines = [f"{format_clock(wall_s)} elapsed{budget}  best {best}/{figures.max_score}{rate}"]
    for i, w in enumerate(figures.workers):
        lost = f"  {lost_text(w.lost, w.lost_cpu_s)}" if w.lost else ""
        lines.append(f"  worker {i} {w.role:<9} " + _doing(w, wall_s, figures.cells) + lost)
    return lines


def _doing(w: WorkerFigures, wall_s: float, cells: int | None) -> str:
    """What a worker does, by its role and its events so far."""
    if not w.built:
        return f"constructing ({w.method}) {format_clock(max(0.0, wall_s - w.since))}"
    if w.role == "producer":
        made = f"produced {w.produced}" + ("" if w.produced_best is None else f" (best {w.produced_best})")
        dfs = ""
        if w.placed is not None:
            depth = f"{w.placed}/{cells}" if cells else str(w.placed)
            dfs = f"DFS depth {depth}  {w.nodes_per_s or 0:,} nodes/s  "
        return f"{dfs}{made}  next board {format_clock(max(0.0, wall_s - w.since))}"
    rate = "-" if w.rate is None else f"{w.rate:,.0f}"
    line = f"score {'-' if w.score is None else w.score}  best {'-' if w.best is None else w.best}  {rate} moves/s"
    return line + (f"  repaired {w.repaired}" if w.role == "repairer" else "")


class LiveView:
    """The run's figures (a fold over its EventLog) drawn through ``progress``, from a thread while shown."""

    def __init__(self, events: EventLog, progress: Progress, cfg: RunConfig):
        self.progress, self.cfg = progress, cfg
        self.figures = RunFigures()
        self.lock = threading.Lock()
        for event in read_typed(events.path.parent):  # a resumed run's past, then what this process writes
            self.figures.see(event)
        events.listeners.append(self.see)

    def see(self, event: Event | Mapping[str, Any]) -> None:
        """Take one event, as the run writes it."""
        with self.lock:
            self.figures.see(event)

    def lines(self, wall_s: float) -> list[str]:
        with self.lock:
            return render(self.figures, wall_s, self.cfg)

    @contextmanager
    def shown(self, wall: Callable[[], float], poll: Callable[[], None] | None = None) -> Iterator[None]:
        """Draw the view every ``progress.every`` s while the block runs, and once more at its end; ``poll``
        before each drawing writes the events that are due (the workers' new bests: livebest.py)."""
        done = threading.Event()

        def draw() -> None:
            while not done.wait(self.progress.every):
                if poll is not None:
                    poll()
                self.progress.show(self.lines(wall()))

        thread = threading.Thread(target=draw, daemon=True, name="e2opt-live-view")
        if not self.progress.quiet:
            thread.start()
        try:
            yield
        finally:
            done.set()
            if thread.is_alive():
                thread.join(5)
            self.progress.show(self.lines(wall()))
