"""The events of events.jsonl, typed: one frozen dataclass per kind, written and read through it.

A line is ``{"event": KIND, field: value, ...}``, as it always was: ``Event.to_dict`` writes the event's kind,
then its fields in their declared order (a field left at None is not written), then ``extra``, the fields a
kind carries open-ended (a construction's figures, a DFS's counters, a run's end summary). ``parse`` reads a
line's object back: a field of the wrong type (a damaged or hand-edited line) reads as None and its value
stays in ``extra`` (written back as it was), fields the class does not name go to ``extra`` too, and a kind it does not know (a newer or older e2opt) reads as ``Unknown``, so
every old run folder still reads. ``parse(event.to_dict()) == event`` for every event written.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

Number = int | float


@dataclass(frozen=True, kw_only=True)
class Event:
    """What every event has: its kind (the class's), the time it was written at (when it says) and
    ``extra``, the fields its class does not name."""

    kind: ClassVar[str] = ""
    wall_s: Number | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The line's JSON object: kind, named fields that are set, then ``extra``."""
        out: dict[str, Any] = {"event": self.kind}
        for attr, key, _ in _fields(type(self)):
            value = getattr(self, attr)
            if value is not None:
                out[key] = value
        return {**out, **{k: v for k, v in self.extra.items() if k not in out}}


@dataclass(frozen=True, kw_only=True)
class WorkerEvent(Event):
    """An event of one worker of the team."""

    worker: int | None = None
    role: str | None = None
    score: int | None = None
    iteration: int | None = None
    cpu_s: Number | None = None


@dataclass(frozen=True, kw_only=True)
class Start(Event):
    kind: ClassVar[str] = "start"
    instance: str | None = None
    seed: int | None = None
    max_score: int | None = None
    pid: int | None = None
    workers: int | None = None


@dataclass(frozen=True, kw_only=True)
class RunWarning(Event):
    kind: ClassVar[str] = "warning"
    message: str | None = None


@dataclass(frozen=True, kw_only=True)
class Workers(Event):
    """The team as it starts: where its workers run, each one's role and construction."""

    kind: ClassVar[str] = "workers"
    workers: int | None = None
    where: str | None = None
    pids: list | None = None
    roles: list | None = None
    methods: list | None = None
    cells: int | None = None


@dataclass(frozen=True, kw_only=True)
class Construction(WorkerEvent):
    """A worker's first board; ``extra`` holds the construction's own figures."""

    kind: ClassVar[str] = "construction"
    method: str | None = None
    seconds: Number | None = None


@dataclass(frozen=True, kw_only=True)
class Best(WorkerEvent):
    """A new best of the run, and the move that made it."""

    kind: ClassVar[str] = "best"
    move: str | None = None


@dataclass(frozen=True, kw_only=True)
class WorkerBest(Best):
    """A worker's new best that is not the run's."""

    kind: ClassVar[str] = "worker_best"


@dataclass(frozen=True, kw_only=True)
class LiveBest(WorkerEvent):
    """A new best of the run as its worker wrote it mid-round (livebest.py), before its round answers: the
    live view shows it at once; the answer's verified ``best`` follows. Not a Best: nothing counts it twice."""

    kind: ClassVar[str] = "live_best"
    move: str | None = None


@dataclass(frozen=True, kw_only=True)
class Restart(WorkerEvent):
    """A worker's search starts again: from a fresh construction, the elite, the run's best or a pool board."""

    kind: ClassVar[str] = "restart"
    source: str | None = field(default=None, metadata={"key": "from"})
    reason: str | None = None


@dataclass(frozen=True, kw_only=True)
class Plateau(WorkerEvent):
    """A diversification or intensification, with the worker's running totals."""

    diversifications: int | None = None
    intensifications: int | None = None


@dataclass(frozen=True, kw_only=True)
class Diversify(Plateau):
    kind: ClassVar[str] = "diversify"


@dataclass(frozen=True, kw_only=True)
class Intensify(Plateau):
    kind: ClassVar[str] = "intensify"


@dataclass(frozen=True, kw_only=True)
class Repaired(WorkerEvent):
    """A repairer leaves a board: its score when taken and the best reached on it."""

    kind: ClassVar[str] = "repaired"
    score_before: int | None = None


@dataclass(frozen=True, kw_only=True)
class Produced(WorkerEvent):
    """A producer's new board (counted once by ``key``); ``extra`` holds the DFS's figures."""

    kind: ClassVar[str] = "produced"
    method: str | None = None
    kept: bool | None = None
    key: str | None = None


@dataclass(frozen=True, kw_only=True)
class Share(Event):
    kind: ClassVar[str] = "share"
    elite: list | None = None


@dataclass(frozen=True, kw_only=True)
class Checkpoint(Event):
    kind: ClassVar[str] = "checkpoint"
    iteration: int | None = None


@dataclass(frozen=True, kw_only=True)
class Stats(Event):
    """The team's figures every ``output.stats_every_wall_s``; ``workers`` lists each one's score and moves."""

    kind: ClassVar[str] = "stats"
    moves_per_s: Number | None = None
    workers: list | None = None
    iteration: int | None = None
    score: int | None = None
    best_score: int | None = None
    diversifications: int | None = None
    intensifications: int | None = None
    cpu_s: Number | None = None
    moves: dict | None = None


@dataclass(frozen=True, kw_only=True)
class WorkerLost(WorkerEvent):
    """A round lost with its worker (killed, crashed, a Dask worker gone); ``cpu_s``: what it had used."""

    kind: ClassVar[str] = "worker_lost"
    error: str | None = None


@dataclass(frozen=True, kw_only=True)
class WorkersAdded(Event):
    kind: ClassVar[str] = "workers_added"
    before: int | None = None
    workers: int | None = None


@dataclass(frozen=True, kw_only=True)
class Resume(Event):
    kind: ClassVar[str] = "resume"
    iteration: int | None = None
    adopted_best: bool | None = None


@dataclass(frozen=True, kw_only=True)
class End(Event):
    """The run's end; ``extra`` holds the rest of its result (result.json without construction and workers)."""

    kind: ClassVar[str] = "end"
    stop_reason: str | None = None
    best_score: int | None = None
    iterations: int | None = None
    moves_per_s: Number | None = None
    cpu_s: Number | None = None
    diversifications: int | None = None
    intensifications: int | None = None
    moves: dict | None = None


@dataclass(frozen=True, kw_only=True)
class Unknown(Event):
    """A kind this e2opt does not know (or a line without one): its fields kept in ``extra``."""

    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"event": self.name} if self.name is not None else {}
        return {**out, **({"wall_s": self.wall_s} if self.wall_s is not None else {}), **self.extra}


KINDS: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (Start, RunWarning, Workers, Construction, Best, WorkerBest, LiveBest, Restart, Diversify,
                Intensify, Repaired, Produced, Share, Checkpoint, Stats, WorkerLost, WorkersAdded, Resume, End)
}  # fmt: skip


@cache
def _fields(cls: type[Event]) -> tuple[tuple[str, str, tuple[type, ...]], ...]:
    """(attribute, JSON key, accepted types) of each named field of ``cls``."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        if f.name == "extra":
            continue
        accepted = tuple(t for t in typing.get_args(hints[f.name]) if t is not type(None))
        out.append(
            (f.name, f.metadata.get("key", f.name), tuple(typing.get_origin(t) or t for t in accepted))
        )
    return tuple(out)


def _fits(value: Any, accepted: tuple[type, ...]) -> bool:
    """The value has one of the types (a bool is no number, an int is a float)."""
    if isinstance(value, bool):
        return bool in accepted
    if isinstance(value, int) and float in accepted:
        return True
    return isinstance(value, accepted)


def parse(obj: Mapping[str, Any]) -> Event:
    """The event of a line's JSON object; wrong-typed fields read as None, unnamed ones go to ``extra``."""
    name = obj.get("event")
    cls = KINDS.get(name) if isinstance(name, str) else None
    if cls is None:
        wall = obj.get("wall_s")
        timed = _fits(wall, (float,))
        rest = {k: v for k, v in obj.items() if k != "event" and not (timed and k == "wall_s")}
        return Unknown(
            name=name if isinstance(name, str) else None, wall_s=wall if timed else None, extra=rest
        )
    values: dict[str, Any] = {}
    taken = {"event"}
    for attr, key, accepted in _fields(cls):
        if key in obj and _fits(obj[key], accepted):  # a wrong-typed value stays in extra, as it was
            taken.add(key)
            values[attr] = obj[key]
    extra = {k: v for k, v in obj.items() if k not in taken}
    return cls(**values, extra=extra)


def kind_of(event: Event) -> str | None:
    """The kind a line names (an unknown kind's own name; None for a line that names none)."""
    return event.name if isinstance(event, Unknown) else event.kind


def as_event(event: Event | Mapping[str, Any]) -> Event:
    """An event as is, a JSON object parsed."""
    return event if isinstance(event, Event) else parse(event)


def make(kind: str, **fields: Any) -> Event:
    """The event of a kind from its line's fields (``from`` for a restart's source); ValueError for a kind
    that has no class here: every kind written is declared in this module."""
    if kind not in KINDS:
        raise ValueError(f"event kind {kind!r} has no class in e2opt/engine/eventkinds.py")
    return parse({"event": kind, **fields})
