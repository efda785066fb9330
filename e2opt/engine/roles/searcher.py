"""The searcher ("worker" in events): builds its own board and searches it in rounds, restarting from
``run.restart_from`` when its search stagnates. The role of every worker of a run without producers."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ...search import stop as stopping
from .base import Role

if TYPE_CHECKING:
    from ..protocol import Task
    from ..round import Worker


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


class Searcher(Role):
    """Moves until the round ends; a stagnated search restarts (round.Worker.restart)."""

    name: ClassVar[str] = "worker"

    def play(self, worker: Worker, task: Task) -> str | None:
        """A searching worker's round: moves until the round ends; restarts when the search stagnates."""
        cfg, clock, meta = worker.cfg, worker.clock, worker.meta
        while True:
            run_criteria = worker.criteria()
            round_end = [stopping.MaxWallTime(task.round_end_wall), worker.stop_file]
            if task.round_end_moves is not None:
                round_end.append(stopping.MaxIterations(task.round_end_moves - meta.moves_before))
            stagnation = Stagnation(
                cfg.search.restart_after,
                cfg.search.restart_after_wall_s,
                meta.stagnant_intensifications,
                meta.search_best_wall_s,
            )

            def on_event(kind: str, info: dict, stagnation: Stagnation = stagnation) -> None:
                stagnation.seen(kind, clock.wall())
                if kind in ("diversify", "intensify"):
                    worker.note_plateau(kind, info)
                if kind == "best":
                    worker.note_best(info["score"], info["move"])

            worker.search.run(stopping.AnyOf(run_criteria, *round_end, stagnation), clock, on_event)
            meta.stagnant_intensifications, meta.search_best_wall_s = (
                stagnation.intensifications,
                stagnation.best_wall,
            )
            status = worker.status()
            if run_criteria(status):
                return run_criteria.reason
            if worker.stop_file(status):
                return "interrupted"
            if any(end(status) for end in round_end):
                return None
            worker.restart()  # only the stagnation criterion held
