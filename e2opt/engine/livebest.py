"""A worker's new best, seen by the live view before its round answers.

A round hands its bests over with its answer, which comes at the round's end (up to ``round_s`` later, longer
when a restart's construction runs inside the round). So that the view never shows a stale best, a worker
also writes each new best of its own (score, move, when) to a small file of the run folder,
``.live-best-w<i>.json``, atomically and without fsync (at most one write per new best, and a worker's bests
only rise: a few hundred writes in a whole run). Before each refresh the view's thread reads the files that
changed (``LiveBests.poll``) and writes a ``live_best`` event for a score above every best so far, so the view
stays a fold over events.jsonl. The round's answer then writes its usual ``best`` events, verified as before;
best.board is still written from the answer alone. A file is read only while its worker's round is in flight
under the token it carries: a copy of a lost round, or a file a killed run left, is never shown.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.fsutil import atomic_write_text
from .eventkinds import LiveBest
from .events import EventLog

PREFIX = ".live-best-w"


def live_path(run_dir: Path, worker: int) -> Path:
    """Worker ``worker``'s file in the run folder."""
    return run_dir / f"{PREFIX}{worker}.json"


def clear(run_dir: Path) -> None:
    """Remove every worker's file (and a temporary one a killed worker left): at a run's start and end."""
    for path in run_dir.glob(f"{PREFIX}*") if run_dir.is_dir() else []:
        path.unlink(missing_ok=True)
    for path in run_dir.glob(f".{PREFIX}*.tmp") if run_dir.is_dir() else []:
        path.unlink(missing_ok=True)


class BestNotice:
    """The worker's side: ``offer`` each new best; a folder that cannot be written silences it for the round
    (the answer still carries every best)."""

    def __init__(self, path: str | None, token: str):
        self.path, self.token = path, token

    def offer(self, best: dict[str, Any]) -> None:
        """Write a new best's fields (score, iteration, wall_s, cpu_s, role, move) with the round's token."""
        if self.path is None:
            return
        data = {"token": self.token, **{k: v for k, v in best.items() if k != "event"}}
        try:
            atomic_write_text(self.path, json.dumps(data, separators=(",", ":")), fsync=False)
        except OSError:
            self.path = None


class LiveBests:
    """The coordinator's side: the workers' files read before each refresh of the view (any thread)."""

    def __init__(self, run_dir: Path, events: EventLog, run_best: Callable[[], int | None]):
        self.dir, self.events, self.run_best = run_dir, events, run_best
        self.tokens: dict[int, str] = {}  # worker -> token of its round in flight (set by the coordinator)
        self.shown: int | None = None  # the highest score of a live_best event written

    def poll(self) -> None:
        """A ``live_best`` event for each file whose score beats every best so far (the run's and the shown)."""
        for i, token in sorted(dict(self.tokens).items()):  # a copy: the coordinator's thread sets them
            found = self._read(i, token)
            if found is None:
                continue
            score = found.get("score")
            floor = max((s for s in (self.run_best(), self.shown) if s is not None), default=None)
            if isinstance(score, int) and (floor is None or score > floor):
                self.shown = score
                fields = {
                    k: round(v, 3) if isinstance(v, float) else v
                    for k, v in found.items()
                    if k in LIVE_FIELDS
                }
                self.events.write(LiveBest(worker=i, **fields))

    def _read(self, i: int, token: str) -> dict[str, Any] | None:
        """Worker i's file when it belongs to its round in flight (read whole at every poll: a few hundred
        bytes per worker, where a change of its time stamp could be missed within the clock's resolution)."""
        data = None
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(live_path(self.dir, i).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("token") != token or self.tokens.get(i) != token:
            return None
        return data


LIVE_FIELDS = ("score", "iteration", "wall_s", "cpu_s", "role", "move")
