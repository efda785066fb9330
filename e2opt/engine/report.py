"""``e2opt report RUN_DIR``: the story of a run, finished or not, from the files in its folder."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..core.bks import best_known
from ..core.board import rule_violations, score
from ..core.errors import BoardError, E2optError
from ..core.folderlock import owner
from ..core.formats.official import clue_convention
from ..core.formats.read import read_board, read_puzzle
from ..core.formats.viewer import viewer_url
from ..core.fsutil import STATE_FILE_MB, read_user_text
from .eventkinds import Best, End, Stats, WorkerLost, kind_of
from .events import read_typed
from .hourly import HourlyHistory, report_lines
from .plots import plots_line
from .result import lost_text
from .runfolder import load_run_config, require, resumable


@dataclass
class EventSummary:
    """What the report needs from events.jsonl, gathered in one pass (a long run's log is never held whole)."""

    last_kind: str | None = None
    last_best: Best | None = None
    last_stats: Stats | None = None
    last_end: End | None = None
    last_figures: Stats | End | None = None  # the later of the last stats and the last end event
    damaged: list[int] = field(default_factory=list)  # lines that are not an event (0: the whole file)
    resumes: int = 0
    plateaus: dict[str, int] = field(default_factory=lambda: {"diversifications": 0, "intensifications": 0})
    history: HourlyHistory = field(default_factory=HourlyHistory)  # what each hour bought (hourly.py)
    lost: dict[int, list[float]] = field(default_factory=dict)  # worker -> CPU s of each round it lost

    @property
    def ended(self) -> bool:
        """The log ends with an end event (a resumed run writes more events after an earlier end)."""
        return self.last_kind == "end"


def summarise_events(run_dir: Path) -> EventSummary:
    """Stream the run's events: the last best, stats and end events, resumes, the plateau totals and what each
    hour bought (hourly.py).

    Plateau events are sampled, so the totals come from the running counts the events carry.
    """
    summary = EventSummary()
    for event in read_typed(run_dir, summary.damaged):
        kind = kind_of(event)
        summary.last_kind = kind
        if isinstance(event, Best) and kind == "best":  # not a worker_best
            summary.last_best = event
        elif isinstance(event, Stats):
            summary.last_stats = summary.last_figures = event
        elif isinstance(event, End):
            summary.last_end = summary.last_figures = event
        summary.resumes += kind == "resume"
        if isinstance(event, WorkerLost):
            summary.lost.setdefault(event.worker, []).append(float(event.cpu_s or 0.0))
        summary.history.add(event)
        for key in summary.plateaus:
            value = getattr(event, key, None)
            if value is not None:
                summary.plateaus[key] = value
    return summary


def _stop_reason(result_path: Path) -> str | None:
    """The stop reason in result.json; None when the file is corrupt, truncated or lacks it."""
    try:
        result = json.loads(read_user_text(result_path, STATE_FILE_MB))
    except (OSError, ValueError):  # ValueError: bad JSON or bad UTF-8
        return None
    reason = result.get("stop_reason") if isinstance(result, dict) else None
    return reason if isinstance(reason, str) else None


def _status(run_dir: Path, events: EventSummary) -> str:
    """Running (the folder's lock is held: its pid), finished (and why), stopped by a signal, or killed.

    A run that is not running and whose events do not end with an end event was killed (or crashed) before it
    could write its end; its checkpoint and best.board are what ``e2opt resume`` goes on from.
    """
    pid = owner(run_dir)
    if pid is not None:
        return "running" + (f" (pid {pid})" if pid > 0 else "")
    result_path = run_dir / "result.json"
    ended = events.last_end.stop_reason if events.ended and events.last_end else None
    if not events.ended or not (result_path.is_file() or resumable(ended)):  # a full disk: an end, no result
        resumed = "resumed, " if events.resumes and not events.ended else ""
        return f"{resumed}not finished: killed before its end (no end event; `e2opt resume` continues it)"
    reason = _stop_reason(result_path)
    note = ""
    if reason is None:
        reason = ended or "an unknown criterion"
        note = f" (result.json is {'unreadable' if result_path.is_file() else 'missing'}: read from events.jsonl)"
    if resumable(reason):
        return f"stopped by {reason}{note}: `e2opt resume` continues it"
    return f"finished, stopped by {reason}{note}"


def _damage(events: EventSummary) -> str | None:
    """What the report could not read in events.jsonl, None when every line was an event."""
    lines = events.damaged
    if not lines:
        return None
    if lines == [0]:
        return "warning: events.jsonl is not a regular file: not read, no figures from events"
    shown = ", ".join(map(str, lines[:5])) + (", ..." if len(lines) > 5 else "")
    return (
        f"warning: events.jsonl is damaged: {len(lines)} line(s) could not be read (line {shown}); "
        "figures below come from the other lines"
    )


def _move_totals(events: EventSummary) -> dict[str, dict]:
    """Per-move totals of the latest stats or end event (totals only grow, resumes included)."""
    found = [e.moves for e in (events.last_stats, events.last_end) if e is not None and e.moves is not None]
    return max(found, key=lambda m: sum(v.get("calls", 0) for v in m.values()), default={})


def _lost_lines(events: EventSummary) -> list[str]:
    """The rounds lost with their worker (killed, crashed, a Dask worker gone), per worker; none: no line."""
    if not events.lost:
        return []
    every = [cpu for cpus in events.lost.values() for cpu in cpus]
    who = ", ".join(
        f"worker {w}: {len(cpus)} ({sum(cpus):,.1f} CPU s)"
        for w, cpus in sorted(events.lost.items(), key=lambda item: str(item[0]))
    )
    return [f"{lost_text(len(every), sum(every))}: {who}"]


def run_report(run_dir: str | Path, plots: bool = True) -> str:
    """A summary of the run (score, gap to best known, time to best, moves/s, stop reason); refreshes plots."""
    run_dir = require(run_dir, "run")
    if not (run_dir / "config.yaml").is_file():
        raise E2optError(
            f"{run_dir}: run folder without config.yaml: it was stopped before its config was written"
        )
    cfg, _ = load_run_config(run_dir)
    puzzle = read_puzzle(cfg.instance)
    try:
        best = read_board(run_dir / "best.board")
    except BoardError:
        best = None
    if best is not None and rule_violations(puzzle, best):
        best = None
    events = summarise_events(run_dir)
    best_score = score(puzzle, best) if best is not None else None
    stats = events.last_figures
    clues = clue_convention(puzzle)
    label = f"{puzzle.name} (clues {clues})" if clues else puzzle.name
    lines = [f"run {run_dir.resolve().name}: {label} seed {cfg.seed}, {_status(run_dir, events)}"]
    damage = _damage(events)
    if damage:
        lines.append(damage)
    if best_score is None:
        lines.append("no best board yet")
    else:
        known = best_known(puzzle)
        gap = f", best known {known.best_known}, gap {known.best_known - best_score}" if known else ""
        lines.append(f"best {best_score}/{puzzle.max_score}{gap}")
    if events.last_best:
        b = events.last_best
        lines.append(f"best found at {b.wall_s or 0:.1f} s wall, move {b.iteration or 0}")
    if stats is not None:
        moves = (stats.iteration if isinstance(stats, Stats) else stats.iterations) or 0
        lines.append(
            f"last seen at {stats.wall_s or 0:.1f} s wall, {stats.cpu_s or 0:.1f} s CPU, "
            f"move {moves}, {stats.moves_per_s or 0:,.0f} moves/s"
        )
    for name, m in _move_totals(events).items():
        lines.append(
            f"move {name}: {m['calls']:,} calls, {m['cpu_s']:.1f} CPU s, gain {m['gain']:+d}, "
            f"improving {m['improved']:,}, share {m['share']:.0%}"
        )
    plateaus = events.plateaus
    lines.append(
        f"diversifications {plateaus['diversifications']}, intensifications {plateaus['intensifications']}, "
        f"resumes {events.resumes}"
    )
    lines += _lost_lines(events)
    lines += report_lines(events.history)
    if plots:
        lines.append(plots_line(run_dir, puzzle, best))
    url = None if best is None else viewer_url(puzzle, best)
    if url:
        lines.append(f"viewer: {url}")
    return "\n".join(lines)
