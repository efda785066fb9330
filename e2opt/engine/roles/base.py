"""The one interface of a worker role (see the package docstring): hooks on the worker's side of a round
and on the coordinator's side of its answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..roundguard import Claim, Unclaimed

if TYPE_CHECKING:
    from ...construct import ConstructConfig
    from ..config import RunConfig
    from ..events import EventLog
    from ..protocol import Answer, PoolBoard, Task
    from ..round import Worker
    from ..team import Team


class Role:
    """A worker's role; the defaults are those of a worker that builds its own board and searches it."""

    name: ClassVar[str]
    serves: ClassVar[bool] = False  # works only while another role goes on; its own end is not the run's

    # --- the worker's side (round.py) ---

    def construction(self, cfg: RunConfig) -> ConstructConfig:
        """The construction this role's boards come from."""
        return cfg.construct

    def claim(self, task: Task) -> Claim:
        """Held for the whole round: the claim on what the round writes (a producer's folder, guard.py)."""
        return Unclaimed()

    def first_board(self, worker: Worker, rng: np.random.Generator) -> tuple[Any, dict]:
        """The worker's first board (its first round ends with it)."""
        return worker.build(rng)

    def begun(self, worker: Worker, info: dict) -> None:
        """The first board's search has started (a producer hands that board over)."""

    def play(self, worker: Worker, task: Task) -> str | None:
        """The round itself; the run criterion that held, "interrupted", or None when only the round ended."""
        raise NotImplementedError

    def leaving(self, worker: Worker) -> None:
        """The worker leaves its current board for another (a repairer records what it reached)."""

    # --- the coordinator's side (coordinator.py, team.py) ---

    def hand_out(self, team: Team, i: int) -> PoolBoard | None:
        """What worker i's next task carries besides its state (a pool board); None: nothing."""
        return None

    def settle(self, team: Team, i: int, answer: Answer, events: EventLog) -> None:
        """What worker i's answer brings besides its state, events and bests (a producer's boards)."""
