"""The producer: each round builds new boards (construction ``run.roles.method``) from the next seeds of
its own stream, for the run's pool; it makes no moves. A dfs producer continues one DFS in its folder
(``worker<i>/harvest``) for the whole run. Each board is written to ``worker<i>/produced/`` before the round
answers (produced.py), and the round holds a claim on the folder (guard.py), so that a copy of a lost round
still running on Dask never writes there beside the copy submitted again."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..liveview import dfs_figures
from ..produced import ProducedLog
from ..protocol import ProducedBoard
from ..roundguard import Claim, FolderClaim, Unclaimed
from .base import Role

if TYPE_CHECKING:
    from ...construct import ConstructConfig
    from ..config import RunConfig
    from ..events import EventLog
    from ..protocol import Answer, Task
    from ..round import Worker
    from ..team import Team


class Producer(Role):
    """Builds boards for the pool while some repairer goes on."""

    name: ClassVar[str] = "producer"
    serves: ClassVar[bool] = True

    def construction(self, cfg: RunConfig) -> ConstructConfig:
        return cfg.producer_construct()

    def claim(self, task: Task) -> Claim:
        """The producer's folder (none without one: nothing is written then)."""
        return Unclaimed() if task.log_dir is None else FolderClaim(Path(task.log_dir), task.token)

    def first_board(self, worker: Worker, rng: np.random.Generator) -> tuple[Any, dict]:
        return self.made(worker, 0, rng)

    def begun(self, worker: Worker, info: dict) -> None:
        self.keep(worker, info)

    def play(self, worker: Worker, task: Task) -> str | None:
        """New boards until the round's end (one board per meeting with ``sync_every_moves``); the first
        round is the first board."""
        if task.state is None:
            return None
        while True:
            criteria, status = worker.criteria(), worker.status()
            if criteria(status):
                return criteria.reason
            if worker.stop_file(status):
                return "interrupted"
            construct_rng, search_rng = worker.leave()
            board, info = self.made(worker, worker.meta.restarts, construct_rng)
            worker.start(board, search_rng)
            worker.note_best(worker.search.state.best_score, "construction")
            self.keep(worker, info)
            if task.round_end_moves is not None or worker.clock.wall() >= task.round_end_wall:
                return None

    def made(self, worker: Worker, n: int, rng: np.random.Generator) -> tuple[Any, dict]:
        """Board number n: the one a lost round made already (produced.py), else a new one."""
        log_dir = worker.task.log_dir
        boards = ProducedLog(Path(log_dir) / "produced" if log_dir else None)
        found = boards.load(n)
        if found is not None:
            return found
        board, info = worker.build(rng)
        worker.claim.check()  # a stale copy of the round never writes
        boards.save(n, board, info)
        return board, info

    def keep(self, worker: Worker, info: dict) -> None:
        """The board just started, handed over with the answer."""
        st = worker.search.state
        method = info.get("method", self.construction(worker.cfg).method)
        worker.produced.append(
            ProducedBoard(
                st.piece.copy(),
                st.rot.copy(),
                int(st.score),
                worker.clock.wall(),
                worker.clock.cpu(),
                method,
                dfs_figures(info),  # the live view's DFS depth and nodes/s
            )
        )

    def settle(self, team: Team, i: int, answer: Answer, events: EventLog) -> None:
        """Each board verified and offered to the pool, counted once (team.take_produced)."""
        team.take_produced(i, answer.produced, events)
