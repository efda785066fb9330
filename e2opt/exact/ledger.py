"""``e2opt solve --method scan --checkpoint FILE``: the record that lets a long split search resume.

The file holds what identifies the search (puzzle text digest, order, symmetry, value order, seed,
first solution or all), the split depths, the number of subtrees, the ones searched to the end and
what they added up to (nodes, backtracks, solutions, CPU seconds). It is rewritten atomically every
SAVE_EVERY_S seconds and when the search stops, so a kill loses at most the subtrees that were being
searched; running the same command again skips the finished ones. Half-searched subtrees are never
recorded: they are searched again from their start, so the totals stay exact. A first-solution
search records only subtrees without a board (split.Tally), so ``--count`` may go on from its file
(whether or not the search found a board elsewhere): the file then becomes the count's.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

from ..core.errors import E2optError
from ..core.fsutil import STATE_FILE_MB, atomic_write_text, read_user_text
from ..core.puzzle import Puzzle, format_puzzle

FORMAT = "e2opt solve checkpoint 1"
SAVE_EVERY_S = 30.0


def search_key(
    puzzle: Puzzle, order: str, symmetry: bool, value_order: str, seed: int, find_all: bool
) -> dict:
    """What must be equal for a checkpoint to belong to a search."""
    digest = hashlib.sha256(format_puzzle(puzzle).encode("utf-8")).hexdigest()
    seed = seed if value_order == "random" else 0  # the seed only matters for shuffled lists
    return {
        "puzzle": digest,
        "order": order,
        "symmetry": symmetry,
        "value_order": value_order,
        "seed": seed,
        "all": find_all,
    }


def _ranges(ids: set[int]) -> list[list[int]]:
    """Sorted ids as [first, last] runs (the finished subtrees are mostly consecutive)."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return runs


class Ledger:
    """A checkpoint file: loaded when it exists (and belongs to this search), saved by ``save``."""

    def __init__(self, path: str, key: dict):
        self.path, self.key = Path(path), key
        self.depths: list[int] | None = None
        self.tasks: int | None = None
        self.done: set[int] = set()
        self.totals = {"nodes": 0, "backtracks": 0, "solutions": 0, "cpu_s": 0.0}
        self.last_save = time.monotonic()
        if self.path.exists():
            self._load()

    @property
    def resumed(self) -> bool:
        return self.depths is not None

    def _load(self) -> None:
        try:
            data = json.loads(read_user_text(self.path, STATE_FILE_MB))
            if data.get("format") != FORMAT:
                raise ValueError("not an e2opt solve checkpoint")
            key, depths, tasks = data["search"], [int(d) for d in data["depths"]], int(data["subtrees"])
            done = {i for a, b in data["done"] for i in range(int(a), int(b) + 1)}
            totals = {name: type(v)(data["totals"][name]) for name, v in self.totals.items()}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise E2optError(f"--checkpoint {self.path}: cannot be read ({exc}); use another file") from None
        differ = sorted(k for k in self.key if key.get(k) != self.key[k])
        if differ == ["all"] and self.key["all"]:  # a count going on from a first-solution search
            if totals["solutions"]:  # a file written before first-solution files kept no board's subtree
                raise E2optError(
                    f"--checkpoint {self.path}: a first-solution search that recorded subtrees with "
                    "boards; a count cannot go on from it, use another file"
                )
            differ = []
        if differ:
            raise E2optError(
                f"--checkpoint {self.path}: records another search (different {', '.join(differ)}); "
                "use another file"
            )
        self.depths, self.tasks, self.done, self.totals = depths, tasks, done, totals

    def start(self, depths: list[int], tasks: int) -> None:
        """Check a resumed file against the subtrees found again, or take them for a new file."""
        if self.resumed and (self.tasks != tasks or max(self.done, default=-1) >= tasks):
            raise E2optError(
                f"--checkpoint {self.path}: its {self.tasks} subtrees do not match this search's"
            )
        self.depths, self.tasks = depths, tasks

    def save(self, done: set[int], totals: dict, force: bool = False) -> None:
        """Write the file (atomically) if SAVE_EVERY_S have passed since the last write, or ``force``."""
        if not force and time.monotonic() - self.last_save < SAVE_EVERY_S:
            return
        data = {
            "format": FORMAT,
            "search": self.key,
            "depths": self.depths,
            "subtrees": self.tasks,
            "done": _ranges(done),
            "totals": totals,
        }
        atomic_write_text(self.path, json.dumps(data, indent=1) + "\n")
        self.last_save = time.monotonic()
