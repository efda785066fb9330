"""The repairer: searches like a searcher, and when it has gone ``run.roles.leave_after_wall_s`` seconds (or
``leave_after_moves`` moves) without a new best on its board, its next task carries the pool's most promising
board (boardpool.py), which it searches instead. A board handed out counts as taken only once the answer
says it was searched, so a checkpoint written while the round is in flight keeps it waiting."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ..protocol import PoolBoard
from .searcher import Searcher

if TYPE_CHECKING:
    from ..events import EventLog
    from ..protocol import Answer, Task
    from ..round import Worker
    from ..team import Team


class Repairer(Searcher):
    """Searches the pool's boards one after the other."""

    name: ClassVar[str] = "repairer"

    def play(self, worker: Worker, task: Task) -> str | None:
        """Take the handed board (unless the worker has finished: it leaves it to the pool), then search."""
        if task.take is not None and not worker.criteria()(worker.status()):
            self.take(worker, task.take)
            worker.took = task.take.key
        return super().play(worker, task)

    def take(self, worker: Worker, board: PoolBoard) -> None:
        """Leave the current board for the pool's board."""
        _, search_rng = worker.leave()
        worker.start(worker.flat.board(np.asarray(board.piece), np.asarray(board.rot)), search_rng)
        worker.note_best(worker.search.state.best_score, "pool")
        worker.events.append(
            {"event": "restart", "from": "pool", "score": int(board.score), "iteration": worker.moves(),
             "wall_s": worker.clock.wall()}
        )  # fmt: skip

    def leaving(self, worker: Worker) -> None:
        """A "repaired" event for the board it leaves: its score when taken, the best reached on it."""
        st = worker.search.state
        before = worker.meta.board_score if worker.meta.board_score is not None else st.score
        worker.events.append(
            {"event": "repaired", "role": self.name, "score_before": before, "score": int(st.best_score),
             "wall_s": worker.clock.wall(), "cpu_s": worker.clock.cpu()}
        )  # fmt: skip

    def hand_out(self, team: Team, i: int) -> PoolBoard | None:
        """A pool board when repairer i has gone ``leave_after_wall_s`` seconds (``leave_after_moves`` moves) without a new
        best on its board; None to let it go on. Pending until its answer (``settle``)."""
        state, roles = team.states[i], team.cfg.run.roles
        if state is None or not team.pool.waiting():
            return None
        if roles.leave_after_moves is not None:
            if int(state.search["moves_since_best"]) < roles.leave_after_moves:
                return None
        elif team.clock.wall() - state.meta.search_best_wall_s < roles.leave_after_wall_s:
            return None
        entry = team.pool.take(i)
        team.pending[i] = entry.key
        return PoolBoard(entry.key, entry.score, entry.piece, entry.rot)

    def settle(self, team: Team, i: int, answer: Answer, events: EventLog) -> None:
        """The handed board counts as taken only when the answer says it was searched."""
        team.release_unsearched(i, answer.took)
