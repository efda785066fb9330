"""events.jsonl: one JSON object per line, appended and flushed as the run goes (memory stays flat).

Every line is an event of ``eventkinds``: written from its dataclass, read back into it by ``read_typed``;
``read_events`` yields the lines' plain objects (scripts and tests that look at the file as it is)."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..core.fsutil import UnreadableFile, check_regular
from .eventkinds import Event, parse

EVENTS = "events.jsonl"


class EventLog:
    """Appends events to a run folder's events.jsonl; each line is flushed to the OS at once, then handed to the
    listeners (the live view) as it reads back from the file, so that they see exactly what the file holds."""

    def __init__(self, run_dir: Path):
        self.path = run_dir / EVENTS
        self.listeners: list[Callable[[Event], None]] = []
        self.lock = threading.Lock()  # the view's thread writes live_best events beside the coordinator's
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the run
        if not _ends_a_line(self.path):  # a killed writer left a torn line: start ours on a fresh one
            self._file.write("\n")

    def write(self, event: Event) -> None:
        """Append an event, a dataclass of ``eventkinds`` (``eventkinds.make`` builds one from a kind and the
        fields of its line, refusing a kind that has no class)."""
        line = json.dumps(event.to_dict(), separators=(",", ":"))
        with self.lock:
            self._file.write(line + "\n")
            self._file.flush()
            for listener in self.listeners:
                listener(parse(json.loads(line)))

    def sync(self) -> None:
        """Push written lines to disk (called with checkpoints, not every event)."""
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def _ends_a_line(path: Path) -> bool:
    """The file is empty or its last byte ends a line."""
    with open(path, "rb") as f:
        if f.seek(0, os.SEEK_END) == 0:
            return True
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def read_events(run_dir: Path, damaged: list[int] | None = None) -> Iterator[dict[str, Any]]:
    """The events of a run folder; lines that are not a JSON object (a torn write of a killed run) are
    skipped, and their line numbers appended to ``damaged`` when it is given.

    Only a regular file is read (a named pipe put in its place would block forever).
    """
    path = run_dir / EVENTS
    if not path.exists():
        return
    try:
        check_regular(path)
    except UnreadableFile:
        if damaged is not None:
            damaged.append(0)
        return
    with open(path, encoding="utf-8", errors="replace") as f:  # a torn multi-byte character too
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue  # the fresh line a resume starts after a torn one
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                event = None
            if isinstance(event, dict):
                yield event
            elif damaged is not None:
                damaged.append(number)


def read_typed(run_dir: Path, damaged: list[int] | None = None) -> Iterator[Event]:
    """The events of a run folder as ``eventkinds`` dataclasses (kinds it does not know as ``Unknown``)."""
    for obj in read_events(run_dir, damaged):
        yield parse(obj)
