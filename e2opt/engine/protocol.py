"""The messages between the coordinator and its workers, typed: a round's Task, its Answer, a WorkerState.

A Task crosses to a worker process or a Dask cluster by pickle, as objects (the run's RunConfig is sent
as it is, not rebuilt from a dict each round); ``to_dict``/``from_dict`` give each message as plain data
(what a checkpoint keeps of a worker's state, what the tests compare). A WorkerState's checkpoint layout
(``w<i>.<field>`` arrays beside a JSON meta) is the one written before these types, so old checkpoints
resume (tests/data/roles_before).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

import numpy as np

from ..config.schema import build
from .config import RunConfig


@dataclass
class WorkerMeta:
    """A worker's counters carried across its searches (each search's own restart at zero), and when."""

    moves_before: int = 0
    diversifications_before: int = 0
    intensifications_before: int = 0
    restarts: int = 0  # also the number of the next board of the worker's stream (round.restart_streams)
    best_score: int = 0
    stagnant_intensifications: int = 0  # intensifications since the current search's last new best
    best_wall_s: float = 0.0
    best_cpu_s: float = 0.0
    cpu_s: float = 0.0
    search_best_wall_s: float = 0.0  # when the current search's last new best came
    construction: dict[str, Any] = field(default_factory=dict)  # the first construction's info
    board_score: int | None = None  # the current board's score when the worker got it (a repairer's event)
    moves_summary_before: dict[str, dict] = field(default_factory=dict)  # per-move totals of earlier searches
    next_plateau_event: dict[str, float] = field(default_factory=dict)  # kind -> wall s of its next event

    def to_dict(self) -> dict[str, Any]:
        """JSON data, as a checkpoint's ``team.meta`` holds it."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WorkerMeta:
        """From a checkpoint's record (keys of older layouts that are gone are ignored, missing ones default)."""
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})

    def copy(self) -> WorkerMeta:
        """A deep copy a round may change without touching the coordinator's (a round in the same process)."""
        return copy.deepcopy(self)


@dataclass
class WorkerState:
    """What a worker continues from: its counters, its search's state (SearchState.to_dict) and its best."""

    meta: WorkerMeta
    search: dict[str, Any]
    best_piece: np.ndarray
    best_rot: np.ndarray

    def to_dict(self) -> dict[str, Any]:
        return {"meta": self.meta.to_dict(), "search": self.search, "best_piece": self.best_piece,
                "best_rot": self.best_rot}  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WorkerState:
        return cls(WorkerMeta.from_dict(data["meta"]), dict(data["search"]), np.asarray(data["best_piece"]),
                   np.asarray(data["best_rot"]))  # fmt: skip

    def arrays(self, i: int) -> dict[str, Any]:
        """Worker i's arrays in a checkpoint: the search state's fields and its best board."""
        out = {f"w{i}.{k}": v for k, v in self.search.items()}
        out[f"w{i}.best_piece"], out[f"w{i}.best_rot"] = self.best_piece, self.best_rot
        return out

    @classmethod
    def from_arrays(cls, i: int, arrays: dict[str, Any], meta: dict[str, Any]) -> WorkerState:
        """Worker i's state from a checkpoint's arrays and its JSON meta (inverse of ``arrays``)."""
        prefix = f"w{i}."  # the search state's fields and the arrays its moves keep (SearchState.extra)
        search = {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}
        # the worker's best shares its keys with the search state's: the search continues from the worker's
        return cls(
            WorkerMeta.from_dict(meta),
            search,
            np.asarray(search["best_piece"]),
            np.asarray(search["best_rot"]),
        )


@dataclass(frozen=True, eq=False)
class PoolBoard:
    """A pool board handed to a repairer (boardpool.py): its key, score and placements."""

    key: str
    score: int
    piece: np.ndarray
    rot: np.ndarray


@dataclass(frozen=True, eq=False)
class ProducedBoard:
    """A board a producer made in its round, for the run's pool (the coordinator verifies it)."""

    piece: np.ndarray
    rot: np.ndarray
    score: int
    wall_s: float
    cpu_s: float
    method: str
    dfs: dict = field(default_factory=dict)  # a DFS construction's depth and nodes/s (liveview.dfs_figures)


@dataclass(frozen=True, eq=False)
class Task:
    """One round of one worker: from its state (None before its construction) to the round's end."""

    id: str  # <run folder>-w<worker>-r<round>
    worker: int
    role: str  # a name of roles.ROLES
    config: RunConfig
    t0: float  # the run's start, epoch seconds (the worker's clock counts from it)
    state: WorkerState | None
    round_end_wall: float  # run wall seconds
    round_end_moves: int | None  # the worker's own moves (sync_every_moves)
    cpu_limit: float | None  # the worker's share of stop.max_cpu_s
    published: list[dict[str, Any]]  # the elite: {"score", "piece", "rot"}, best first
    stop_file: str
    log_dir: str | None = None  # where the construction keeps its files: the run folder or worker<i>/
    report: str | None = None  # prefix of construction progress lines; None: quiet
    take: PoolBoard | None = None  # a pool board for a repairer done with its board
    token: str = ""  # this submission's claim on the worker's folder (roundguard.py); new on resubmission
    run_pid: int = 0  # a round far from its run (Dask) stops when this process no longer owns the folder
    live_file: str | None = None  # where the worker writes each new best for the live view (livebest.py)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (the config as config.yaml holds it)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["config"] = self.config.to_dict()
        out["state"] = None if self.state is None else self.state.to_dict()
        out["take"] = None if self.take is None else asdict(self.take)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Task:
        values = dict(data)
        values["config"] = build(RunConfig, data["config"], f"worker {data['worker']}")
        values["state"] = None if data["state"] is None else WorkerState.from_dict(data["state"])
        values["take"] = None if data.get("take") is None else PoolBoard(**data["take"])
        return cls(**values)

    def again(self, token: str) -> Task:
        """The same round submitted again (its first copy was lost), under a new claim."""
        return replace(self, token=token)


@dataclass(frozen=True, eq=False)
class Answer:
    """What a round hands back: the worker's new state, its events, and why it finished (None: go on)."""

    worker: int
    state: WorkerState
    events: list[dict[str, Any]]
    finished: str | None  # the run criterion that held, or None when only the round ended
    current: int  # the current board's score
    moves: int  # the worker's moves over all its searches
    move_summary: dict[str, dict]
    produced: list[ProducedBoard] = field(default_factory=list)
    took: str | None = None  # key of the pool board it searched in this round
    began_wall_s: float | None = None  # run wall s when this attempt of the round began (a lost one's cost)

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["state"] = self.state.to_dict()
        out["produced"] = [asdict(board) for board in self.produced]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Answer:
        values = dict(data)
        values["state"] = WorkerState.from_dict(data["state"])
        values["produced"] = [ProducedBoard(**board) for board in data.get("produced", [])]
        return cls(**values)
