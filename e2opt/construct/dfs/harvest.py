"""The harvest pool: deep partial boards and near-best complete boards, bounded, deduplicated, on disk.

Every board the DFS hands back is counted (pieces placed; joins of a partial; score of a complete
board) whether it is kept or not. Kept: complete boards within ``margin`` joins of the best complete
board, and partial boards with at least ``min_placed`` pieces: at most ``capacity`` of each, ranked by
(pieces placed, joins, key), so the pool holds the top of everything offered whatever the order of
offers. A board's key is the SHA-1 of its cells, so a board found twice is kept once.

On disk, in a folder: ``pool.jsonl`` (the pool as of the last checkpoint, written atomically) and
``journal.jsonl`` (each board admitted since, appended and flushed to the OS at once, so a killed
process loses none; the checkpoint's atomic writes are fsync'ed). Loading reads both, a torn
last line of the journal ignored, and deduplicates; ``compact`` rewrites the pool and empties the journal.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...core.board import Board
from ...core.fsutil import atomic_write_text


@dataclass(frozen=True)
class Entry:
    """One harvested board: ``cells`` = piece * 4 + rotation per cell row-major (-1 empty); ``lane``: the
    DFS lane that found it first (longrun.py)."""

    key: str
    placed: int
    joins: int
    complete: bool
    cells: tuple[int, ...]
    lane: int = 0

    @property
    def rank(self) -> tuple:
        return (self.complete, self.placed, self.joins, self.key)

    def to_json(self) -> str:
        return json.dumps(
            {"key": self.key, "placed": self.placed, "joins": self.joins, "complete": self.complete,
             "cells": list(self.cells), "lane": self.lane},
            separators=(",", ":"),
        )  # fmt: skip

    @classmethod
    def from_json(cls, line: str) -> Entry:
        d = json.loads(line)
        return cls(d["key"], int(d["placed"]), int(d["joins"]), bool(d["complete"]), tuple(d["cells"]),
                   int(d.get("lane", 0)))  # fmt: skip


def make_entry(cells: np.ndarray, joins: int, lane: int = 0) -> Entry:
    """The entry of a board given as codes per cell (-1 empty), its matched joins and the lane that found it."""
    flat = np.ascontiguousarray(cells, dtype=np.int32).ravel()
    key = hashlib.sha1(flat.tobytes()).hexdigest()[:20]
    placed = int((flat >= 0).sum())
    return Entry(key, placed, int(joins), placed == len(flat), tuple(int(x) for x in flat), lane)


def board_entry(board: Board, joins: int = 0, lane: int = 0) -> Entry:
    """The entry of a board, partial or complete (its key is the one the pool and ``completed.json`` use)."""
    return make_entry(np.where(board.piece >= 0, board.piece * 4 + board.rot, -1), joins, lane)


class Pool:
    """The bounded pool with its counts (see the module docstring); ``folder`` None keeps it in memory."""

    def __init__(self, capacity: int, margin: int, min_placed: int, folder: Path | None = None):
        self.capacity, self.margin, self.min_placed = capacity, margin, min_placed
        self.entries: dict[str, Entry] = {}
        self._floor: dict[bool, tuple[int, int]] = {}
        self.best_complete = -1
        self.counts: dict[str, dict[int, int]] = {"placed": {}, "joins": {}, "score": {}}
        self.folder = folder
        self._journal = None
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            for name in ("pool.jsonl", "journal.jsonl"):
                for entry in _read_lines(folder / name):
                    self._admit(entry)
            self._journal = open(folder / "journal.jsonl", "a", encoding="utf-8")  # noqa: SIM115

    def count(self, placed: int, joins: int, complete: bool) -> bool:
        """Count a board; True when a board of that size and joins may enter the pool (worth building)."""
        c = self.counts
        c["placed"][placed] = c["placed"].get(placed, 0) + 1
        c["score" if complete else "joins"][joins] = c["score" if complete else "joins"].get(joins, 0) + 1
        floor = self._floor.get(complete)
        if floor is not None and (placed, joins) < floor:
            return False
        return joins >= self.best_complete - self.margin if complete else placed >= self.min_placed

    def offer(self, entry: Entry) -> bool:
        """Count the board and keep it if it qualifies; True when it entered the pool."""
        self.count(entry.placed, entry.joins, entry.complete)
        return self.add(entry)

    def add(self, entry: Entry) -> bool:
        """Keep an already counted board if it qualifies; True when it entered the pool."""
        if not self._admit(entry):
            return False
        if self._journal is not None:
            self._journal.write(entry.to_json() + "\n")
            self._journal.flush()  # in the OS's hands: a killed process loses nothing
        return True

    def _admit(self, entry: Entry) -> bool:
        if entry.key in self.entries:
            return False
        if entry.complete:
            if entry.joins < self.best_complete - self.margin:
                return False
            self.best_complete = max(self.best_complete, entry.joins)
        elif entry.placed < self.min_placed:
            return False
        self.entries[entry.key] = entry
        floor = self.best_complete - self.margin
        for key in [k for k, e in self.entries.items() if e.complete and e.joins < floor]:
            del self.entries[key]
        group = [e for e in self.entries.values() if e.complete == entry.complete]
        if len(group) > self.capacity:
            worst = min(group, key=lambda e: e.rank)
            del self.entries[worst.key]
            group.remove(worst)
        if len(group) == self.capacity:  # full: what ranks below its worst (ties aside) can never enter
            self._floor[entry.complete] = min(e.rank for e in group)[1:3]
        return entry.key in self.entries

    def retire(self, keys: list[str]) -> None:
        """Drop boards that were completed (their completions went to the run), so that a pool full of them
        makes room for new partials in a DFS that goes on for hours; the floor of a full pool goes with them."""
        for key in keys:
            self.entries.pop(key, None)
        self._floor.clear()

    def ranked(self) -> list[Entry]:
        """The kept boards, best first."""
        return sorted(self.entries.values(), key=lambda e: e.rank, reverse=True)

    def compact(self) -> None:
        """Rewrite pool.jsonl with the kept boards and empty the journal (a checkpoint)."""
        if self.folder is None:
            return
        atomic_write_text(self.folder / "pool.jsonl", "".join(e.to_json() + "\n" for e in self.ranked()))
        if self._journal is not None:
            self._journal.close()
        self._journal = open(self.folder / "journal.jsonl", "w", encoding="utf-8")  # noqa: SIM115

    def counts_dict(self) -> dict:
        """Counts as JSON-ready dicts (string keys, sorted)."""
        return {name: {str(k): v for k, v in sorted(d.items())} for name, d in self.counts.items()}

    def load_counts(self, data: dict) -> None:
        self.counts = {name: {int(k): int(v) for k, v in data.get(name, {}).items()} for name in self.counts}

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None


def _read_lines(path: Path) -> list[Entry]:
    """Entries of a jsonl file; a torn or unreadable line (a kill during a write) is skipped."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(Entry.from_json(line))
        except (ValueError, KeyError, TypeError):
            continue
    return out
