"""events.jsonl: one JSON object per line, appended and flushed as the run goes (memory stays flat)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

EVENTS = "events.jsonl"


class EventLog:
    """Appends events to a run folder's events.jsonl; each line is flushed to the OS at once."""

    def __init__(self, run_dir: Path):
        self.path = run_dir / EVENTS
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the run

    def write(self, kind: str, **fields: Any) -> None:
        self._file.write(json.dumps({"event": kind, **fields}, separators=(",", ":")) + "\n")
        self._file.flush()

    def sync(self) -> None:
        """Push written lines to disk (called with checkpoints, not every event)."""
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def read_events(run_dir: Path) -> Iterator[dict[str, Any]]:
    """The events of a run folder; a torn last line (the run was killed mid-write) is skipped."""
    path = run_dir / EVENTS
    if not path.exists():
        return
    with open(path, encoding="utf-8", errors="replace") as f:  # a torn multi-byte character too
        for line in f:
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(event, dict):
                yield event
