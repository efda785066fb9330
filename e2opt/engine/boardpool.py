"""The run's collection of distinct boards: the producers' pool (repairers take its most promising out) and
the elite (the best boards published to the workers, never taken).

Bounded (``size`` boards) and deduplicated (a board seen once is never kept again, even after it left the
pool). A repairer takes the best-scoring board not yet repaired whose placements differ enough from every
board already repaired (at most ``similar`` of its cells hold the same piece turned the same way): boards
of 458+ are locally optimal, so repair effort goes to new prefixes, not to copies of one board
(../shared/research/longrun.md section 2). When every candidate is that close to a repaired board, the
best-scoring candidate is taken anyway. Ties go to the board that came first, so a run meeting at
``sync_every_moves`` takes the same boards on every repeat.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

SEEN_LIMIT = 100_000  # keys of boards seen, kept for deduplication (about 4 MB in a checkpoint at the limit)


def board_key(piece: np.ndarray, rot: np.ndarray) -> str:
    """A board's identity: SHA-1 of its placements (16 hex digits)."""
    digest = hashlib.sha1(np.asarray(piece, dtype=np.int64).tobytes())
    digest.update(np.asarray(rot, dtype=np.int64).tobytes())
    return digest.hexdigest()[:16]


@dataclass(eq=False)  # entries are compared by identity (their arrays cannot be compared with ==)
class Entry:
    """A board of the pool, where it came from, and whether a repairer took it."""

    key: str
    score: int
    piece: np.ndarray
    rot: np.ndarray
    worker: int  # -1: not recorded (an elite board back from a checkpoint)
    wall_s: float
    taken_by: int | None = None

    def meta(self) -> dict[str, Any]:
        """What a checkpoint keeps besides the two arrays."""
        return {"key": self.key, "score": self.score, "worker": self.worker, "wall_s": self.wall_s,
                "taken_by": self.taken_by}  # fmt: skip


class BoardPool:
    """At most ``size`` boards; repaired boards leave first when the pool is full, but the placements of
    the last ``size`` boards taken are kept for the ``similar`` rule."""

    def __init__(self, size: int, similar: float):
        self.size, self.similar = size, similar
        self.entries: list[Entry] = []
        self.seen: dict[str, None] = {}  # insertion-ordered set of every key offered
        self.repaired: list[
            tuple[np.ndarray, np.ndarray]
        ] = []  # the last ``size`` boards taken, for ``similar``

    def known(self, piece: np.ndarray, rot: np.ndarray) -> bool:
        """The board was offered before (kept or not): offering it again changes nothing."""
        key = board_key(piece, rot)
        return key in self.seen or any(e.key == key for e in self.entries)

    def offer(self, piece: np.ndarray, rot: np.ndarray, score: int, worker: int, wall_s: float) -> bool:
        """Add a board unless seen before or worse than a full pool's worst; True when it was kept."""
        if self.known(piece, rot):
            return False
        key = board_key(piece, rot)
        self.seen[key] = None
        if len(self.seen) > SEEN_LIMIT:
            del self.seen[next(iter(self.seen))]
        entry = Entry(key, int(score), np.array(piece), np.array(rot), worker, float(wall_s))
        self.entries.append(entry)
        if len(self.entries) > self.size:
            self.entries.remove(self._evictee())
        return entry in self.entries

    def _evictee(self) -> Entry:
        """The repaired board of lowest score (oldest first), else the lowest-scoring board (newest first)."""
        taken = [e for e in self.entries if e.taken_by is not None]
        if taken:
            return min(taken, key=lambda e: e.score)
        return min(reversed(self.entries), key=lambda e: e.score)

    def ranked(self) -> list[Entry]:
        """The boards, best first; first come first among equals."""
        return sorted(self.entries, key=lambda e: -e.score)

    def shared(self) -> list[dict[str, Any]]:
        """The boards as a round's task carries them (protocol.Task.published), best first."""
        return [{"score": e.score, "piece": e.piece, "rot": e.rot} for e in self.ranked()]

    def waiting(self) -> int:
        """Boards no repairer took yet."""
        return sum(e.taken_by is None for e in self.entries)

    def take(self, worker: int) -> Entry | None:
        """The most promising board not yet repaired (see the module docstring), marked as taken by worker."""
        free = [e for e in self.entries if e.taken_by is None]
        if not free:
            return None
        ranked = sorted(free, key=lambda e: -e.score)  # as in ranked(): first come first among equals
        pick = ranked[0]
        if self.repaired:
            pieces = np.stack([p for p, _ in self.repaired])
            rots = np.stack([r for _, r in self.repaired])
            for entry in ranked:
                same = ((pieces == entry.piece) & (rots == entry.rot)).mean(axis=1)
                if same.max() <= self.similar:
                    pick = entry
                    break
        pick.taken_by = worker
        self.repaired = [*self.repaired, (pick.piece, pick.rot)][-self.size :]
        return pick

    def release(self, key: str) -> None:
        """A board handed out but never searched (its round was lost or its worker had finished): it waits
        again, and its placements no longer count as repaired."""
        for entry in self.entries:
            if entry.key == key and entry.taken_by is not None:
                entry.taken_by = None
                self.repaired = [(p, r) for p, r in self.repaired if board_key(p, r) != key]

    def arrays(self) -> dict[str, np.ndarray]:
        """The boards and the repaired placements, for a checkpoint."""
        out = {}
        for j, e in enumerate(self.entries):
            out[f"pool{j}.piece"], out[f"pool{j}.rot"] = e.piece, e.rot
        for j, (piece, rot) in enumerate(self.repaired):
            out[f"repaired{j}.piece"], out[f"repaired{j}.rot"] = piece, rot
        return out

    def meta(self, pending: set[str] = frozenset()) -> dict[str, Any]:
        """The checkpoint's record; boards ``pending`` (handed out, their round not answered yet) as waiting."""
        entries = [e.meta() | ({"taken_by": None} if e.key in pending else {}) for e in self.entries]
        repaired = [board_key(p, r) not in pending for p, r in self.repaired]
        return {"entries": entries, "seen": list(self.seen), "repaired": repaired}

    def restore(self, meta: dict[str, Any], arrays: dict[str, Any]) -> None:
        """The pool as a checkpoint left it."""
        self.seen = dict.fromkeys(meta["seen"])
        self.repaired = [
            (np.asarray(arrays[f"repaired{j}.piece"]), np.asarray(arrays[f"repaired{j}.rot"]))
            for j, kept in enumerate(meta.get("repaired", [])) if kept
        ]  # fmt: skip
        self.entries = [
            Entry(m["key"], int(m["score"]), np.asarray(arrays[f"pool{j}.piece"]),
                  np.asarray(arrays[f"pool{j}.rot"]), int(m["worker"]), float(m["wall_s"]), m["taken_by"])
            for j, m in enumerate(meta["entries"])
        ]  # fmt: skip
