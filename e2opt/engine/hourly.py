"""What each hour of a run bought, from events.jsonl: the best line, the new bests (role, move) and the boards
counted per score per wall hour. The one place for these rules; the report and score.png both read them here.

Rules:
- the **best line** rises at a ``best`` or ``construction`` event that beats it (a later, weaker construction of
  another worker is no best); every event that raised it is a **new best**, with its worker, its ``role``
  (``worker`` when absent: runs without roles) and its ``move`` (``construction`` for a construction event,
  ``-`` when absent: runs from before moves were named);
- the run **has roles** when its ``workers`` event names a producer (a run killed before its first board has
  them too) or when its log has a ``produced`` or ``repaired`` event;
- **produced** boards are the ``produced`` events (one per board a producer made); a run without
  producers counts its ``construction`` events instead (the first board of each worker);
- **repaired** boards are the ``repaired`` events, counted at the best score the repairer reached on the board;
- an event counts in hour h when its ``wall_s`` is in [h, h + 1) hours; events without a number ``wall_s`` or an
  integer score are skipped (a hand-edited or foreign line), like the plots do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .eventkinds import Best, Construction, Event, Produced, Repaired, Workers, as_event
from .events import read_typed

HOUR = 3600.0
MINUTE_MARKS = (60.0, 120.0, 300.0, 600.0, 1800.0)  # then every hour: 1 h, 2 h, ...
NO_ROLE, NO_MOVE = "worker", "-"


def point(event: Event) -> tuple[float, int] | None:
    """(wall seconds, score) of an event; None when it lacks either (a hand-edited or foreign line)."""
    wall, value = event.wall_s, getattr(event, "score", None)
    if wall is not None and wall >= 0 and _integer(value):
        return float(wall), value
    return None


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class NewBest:
    """One rise of the run's best line: when, to what, by whom and by which move."""

    wall_s: float
    score: int
    worker: int | None
    role: str | None  # None: the event named none (a construction event); bests() fills in the worker's
    move: str


@dataclass
class HourlyHistory:
    """The best line, the new bests and the per-hour board counts of one run, gathered event by event."""

    best_line: list[tuple[float, int]] = field(default_factory=list)
    new_bests: list[NewBest] = field(default_factory=list)
    produced: dict[int, Counter[int]] = field(default_factory=dict)  # hour -> score -> boards
    repaired: dict[int, Counter[int]] = field(default_factory=dict)
    improved: dict[int, int] = field(default_factory=dict)  # hour -> repaired boards left above their input
    constructions: dict[int, Counter[int]] = field(default_factory=dict)
    seen: dict[int, int] = field(default_factory=dict)  # hour -> best score of any board event in it
    roles: bool = False  # the run has producers (its workers event, or produced or repaired events)
    worker_roles: dict[int, str] = field(default_factory=dict)  # the role each worker's events name
    last_wall: float = 0.0

    def add(self, event: Event | Mapping[str, Any]) -> None:
        """Take one event of the log (any kind; kinds that count nothing only move the clock)."""
        event = as_event(event)
        if event.wall_s is not None:
            self.last_wall = max(self.last_wall, float(event.wall_s))
        worker, role = getattr(event, "worker", None), getattr(event, "role", None)
        if worker is not None and role is not None:
            self.worker_roles[worker] = role
        if isinstance(event, Workers) and event.roles is not None:  # the run's roles, before any board
            self.roles = self.roles or "producer" in event.roles
            for i, named in enumerate(event.roles):
                self.worker_roles.setdefault(i, named)
        at = point(event)
        if at is None:
            return
        hour = int(at[0] // HOUR)
        if isinstance(event, Best | Construction | Produced | Repaired):  # a worker_best is a Best too
            self.seen[hour] = max(self.seen.get(hour, at[1]), at[1])
        raises = not self.best_line or at[1] > self.best_line[-1][1]
        if (event.kind == "best" or isinstance(event, Construction)) and raises:
            self.best_line.append(at)
            move = (
                "construction"
                if isinstance(event, Construction)
                else (getattr(event, "move", None) or NO_MOVE)
            )
            self.new_bests.append(NewBest(at[0], at[1], worker, role, move))
        if isinstance(event, Construction):
            self.constructions.setdefault(hour, Counter())[at[1]] += 1
        elif isinstance(event, Produced):
            self.roles = True
            self.produced.setdefault(hour, Counter())[at[1]] += 1
        elif isinstance(event, Repaired):
            self.roles = True
            self.repaired.setdefault(hour, Counter())[at[1]] += 1
            raised = event.score_before is not None and at[1] > event.score_before
            self.improved[hour] = self.improved.get(hour, 0) + int(raised)

    # --- the answers ---

    def bests(self) -> list[NewBest]:
        """The new bests, each with a role: its event's, else the one its worker's other events name (the
        construction events name none), else ``worker`` (runs without roles)."""
        roles = {None: NO_ROLE, **self.worker_roles}
        return [
            b if b.role is not None else replace(b, role=roles.get(b.worker, NO_ROLE)) for b in self.new_bests
        ]

    def produced_counts(self) -> dict[int, Counter[int]]:
        """Boards produced per hour and score; the constructions in a run without producers."""
        return self.produced if self.roles else self.constructions

    def hours(self) -> list[int]:
        """Every hour from the first to the one the log ends in (hours where nothing was counted included)."""
        return list(range(int(self.last_wall // HOUR) + 1))

    def best_at(self, wall_s: float) -> int | None:
        """The run's best at this many wall seconds; None before the first board."""
        value = None
        for wall, score in self.best_line:
            if wall > wall_s:
                break
            value = score
        return value

    def marks(self) -> list[tuple[float, int | None]]:
        """(seconds, best then) at 1, 2, 5, 10, 30 minutes, 1 h, 2 h, ... up to the end of the log."""
        times = [t for t in MINUTE_MARKS if t <= self.last_wall]
        times += [h * HOUR for h in range(1, int(self.last_wall // HOUR) + 1)]
        return [(t, self.best_at(t)) for t in times]


def history(events: Iterable[Event | Mapping[str, Any]]) -> HourlyHistory:
    """The history of a stream of events."""
    found = HourlyHistory()
    for event in events:
        found.add(event)
    return found


def run_history(run_dir: Path) -> HourlyHistory:
    """The history of a run folder's events.jsonl, streamed (a long run's log is never held whole)."""
    return history(read_typed(run_dir))


def score_columns(tables: Iterable[dict[int, Counter[int]]], most: int = 8) -> tuple[list[int], int | None]:
    """The scores shown as columns (the ``most`` highest seen, ascending) and the bound below which the
    others are summed into one column (None when every score has its own)."""
    scores = sorted({s for table in tables for counts in table.values() for s in counts}, reverse=True)
    shown = sorted(scores[:most])
    return shown, (shown[0] if len(scores) > most else None)


def row(counts: Counter[int], shown: list[int], lower: int | None) -> list[int]:
    """One hour's counts in the columns of ``score_columns`` (the lower column first when there is one)."""
    cells = [counts.get(s, 0) for s in shown]
    if lower is None:
        return cells
    return [sum(n for s, n in counts.items() if s < lower), *cells]


def span(seconds: float) -> str:
    """A wall time as people say it: 45 s, 5 min, 2 h."""
    if seconds >= HOUR:
        return f"{seconds / HOUR:.3g} h"
    if seconds >= 60:
        return f"{seconds / 60:.3g} min"
    return f"{seconds:.3g} s"


def _table(title: str, table: dict[int, Counter[int]], hours: list[int]) -> list[str]:
    """A per-hour table of counts by score (its own 8 highest scores, the lower ones summed), as text lines."""
    shown, lower = score_columns([table])
    heads = ([f"<{lower}"] if lower is not None else []) + [str(s) for s in shown] + ["all"]
    width = max(5, *(len(h) for h in heads))
    lines = [title, "hour    " + "".join(h.rjust(width + 1) for h in heads)]
    for hour in hours:
        counts = table.get(hour, Counter())
        cells = [*row(counts, shown, lower), sum(counts.values())]
        lines.append(f"{hour}-{hour + 1} h".ljust(8) + "".join(str(n).rjust(width + 1) for n in cells))
    return lines


def report_lines(found: HourlyHistory, most_bests: int = 30) -> list[str]:
    """The report's part on what each hour bought: best at set times, per-hour summary and counts, new bests."""
    if not found.best_line and not found.seen:
        return []
    marks = ", ".join(f"{span(t)} {'-' if v is None else v}" for t, v in found.marks())
    final = found.best_at(found.last_wall)
    end = f"end ({span(found.last_wall)}) {'-' if final is None else final}"
    lines = [f"best over wall time: {marks + ', ' if marks else ''}{end}"]
    hours, produced = found.hours(), found.produced_counts()
    lines.append("hour    run best  best seen  new bests  produced  repaired  raised")
    for hour in hours:
        at_end = found.best_at(min((hour + 1) * HOUR, found.last_wall))
        rises = sum(1 for b in found.new_bests if int(b.wall_s // HOUR) == hour)
        made, fixed = produced.get(hour, Counter()), found.repaired.get(hour, Counter())
        cells = (at_end, found.seen.get(hour), rises, sum(made.values()), sum(fixed.values()))
        cells += (found.improved.get(hour, 0),)
        text = [
            ("-" if c is None else str(c)).rjust(w)
            for c, w in zip(cells, (8, 11, 11, 10, 10, 8), strict=True)
        ]
        lines.append(f"{hour}-{hour + 1} h".ljust(8) + "".join(text))
    what = "producers' boards" if found.roles else "constructions: the run has no producers"
    lines += _table(f"boards produced per hour, by score ({what}):", produced, hours)
    if found.roles:
        lines += _table("boards repaired per hour, by the best score reached:", found.repaired, hours)
    lines.append("new bests (wall, score, worker, role, move):")
    bests = found.bests()
    hidden = len(bests) - most_bests
    shown = bests if hidden <= 0 else [*bests[:10], None, *bests[hidden + 10 :]]
    for b in shown:
        if b is None:
            lines.append(f"  ... {hidden} more ...")
            continue
        worker = "-" if b.worker is None else str(b.worker)
        lines.append(f"  {b.wall_s:10.1f} s  {b.score:4d}  worker {worker:<3} {b.role:<9} {b.move}")
    tally = Counter((b.role, b.move) for b in bests)
    lines.append(
        "new bests by role and move: " + ", ".join(f"{r} {m} {n}" for (r, m), n in tally.most_common())
    )
    return lines
