"""'constructing…' lines while a run's constructions go on, at the search's progress cadence.

A construction runs inside a worker's first round (in this process for a one-worker run, where it holds the
main thread), so the lines come from a thread of the coordinator: elapsed time and how many workers have their
board yet. Nothing is printed with ``--quiet``, and a construction done within one cadence prints nothing.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from .progress import Progress, format_clock


class ConstructionTicker:
    """``with ConstructionTicker(team, progress):`` prints a line every ``progress.every`` s until all boards are built."""

    def __init__(self, team: Any, progress: Progress):
        self.team, self.progress = team, progress
        self.done = threading.Event()
        self.t0 = time.perf_counter()

    def line(self) -> str:
        """The line for now: elapsed wall time, and the workers' boards built so far."""
        team = self.team
        built = sum(state is not None for state in team.states)
        producing = team.cfg.producer_construct().method
        methods = {producing if team.role(i) == "producer" else team.cfg.construct.method
                   for i, state in enumerate(team.states) if state is None}  # fmt: skip
        method = ", ".join(sorted(methods))
        who = f", {built}/{team.n} workers have their board" if team.n > 1 else ""
        return f"constructing ({method})… {format_clock(time.perf_counter() - self.t0)} elapsed{who}"

    def _run(self) -> None:
        """Thread body: a line per cadence while some worker has no board and the run goes on."""
        while not self.done.wait(self.progress.every):
            if all(state is not None for state in self.team.states):
                return
            self.progress.message(self.line())

    def __enter__(self) -> ConstructionTicker:
        if not self.progress.quiet and any(state is None for state in self.team.states):
            self.thread = threading.Thread(target=self._run, daemon=True, name="e2opt-constructing")
            self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.done.set()
