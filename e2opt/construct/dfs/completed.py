"""What calls on one folder completed (``completed.json``), and the partials to complete lane by lane when the
lanes share by their boards (``lane_shares: scored``, shares.py).

``completed.json`` holds the keys of the completed partials and of the boards they gave (build.py: never
complete a partial twice, never count a board twice), ``[lane, score, recipe]`` of each new board in turn
(the lane's recipe key, so that a lane running another recipe later starts without scores) and the lanes'
completion credit (shares.charge). Written atomically after each completion.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...core.board import Board
from ...core.fsutil import atomic_write_text
from ...core.puzzle import Puzzle
from .harvest import Entry, board_entry
from .shares import charge, share_order

if TYPE_CHECKING:
    from .longrun import LongRun

COMPLETED = "completed.json"


@dataclass
class Completed:
    """What earlier calls on a folder completed (the module docstring)."""

    partials: set[str] = field(default_factory=set)
    boards: set[str] = field(default_factory=set)
    scores: list[list] = field(default_factory=list)
    credit: list[float] = field(default_factory=list)

    def save(self, folder: Path | None) -> None:
        if folder is not None:
            data = {"partials": sorted(self.partials), "boards": sorted(self.boards), "scores": self.scores,
                    "credit": self.credit}  # fmt: skip
            atomic_write_text(folder / COMPLETED, json.dumps(data))

    def by_lane(self, recipes: list[str]) -> list[list[int]]:
        """The scores of each lane's boards made under the recipe it runs now (``recipes``, by lane)."""
        out: list[list[int]] = [[] for _ in recipes]
        for lane, score, *recipe in self.scores:
            if lane < len(recipes) and recipe == [recipes[lane]]:
                out[lane].append(score)
        return out

    def lane_credit(self, lanes: int) -> list[float]:
        """The credit of each of ``lanes`` lanes (a lane the folder did not have starts at 0)."""
        return (self.credit + [0.0] * lanes)[:lanes]

    def charge(self, shares: list[float], lane: int) -> None:
        """One completion given to ``lane`` under ``shares`` (shares.charge), the credit sized to the lanes."""
        self.credit = self.lane_credit(len(shares))
        charge(self.credit, shares, lane)


def read_completed(folder: Path | None) -> Completed:
    """What calls on the folder completed before (nothing without a folder). A file written before the
    boards were recorded is a list of the partials' keys; one written before the scores, without them."""
    if folder is None or not (folder / COMPLETED).exists():
        return Completed()
    try:
        data = json.loads((folder / COMPLETED).read_text(encoding="utf-8"))
    except ValueError:  # atomic writes make this unreachable short of a hand edit; start afresh then
        return Completed()
    if isinstance(data, list):
        return Completed(set(data))
    return Completed(
        set(data.get("partials", [])),
        set(data.get("boards", [])),
        [list(row) for row in data.get("scores", [])],
        [float(c) for c in data.get("credit", [])],
    )


def entry_board(puzzle: Puzzle, entry: Entry) -> Board:
    """The board of a pool entry."""
    cells = np.array(entry.cells, dtype=np.int64).reshape(puzzle.rows, puzzle.cols)
    return Board(np.where(cells >= 0, cells >> 2, -1), np.where(cells >= 0, cells & 3, 0))


def by_share(puzzle: Puzzle, run: LongRun, n: int, done: Completed) -> list[tuple[Entry, Board]]:
    """Up to n partials to complete, lane by lane by the lanes' shares (shares.share_order): each lane's
    candidates are its best n of the pool not completed before, and its deepest partial since it was last
    completed (``LongRun.since``: as many placements behind it as a lane of a larger share has behind
    each of its completions), deepest first; when every one was completed before, the call's deepest."""
    lanes = len(run.lanes)
    taken: Counter[int] = Counter()
    out = []
    for e in run.pool.ranked():
        if e.key not in done.partials and e.lane < lanes and taken[e.lane] < n:
            taken[e.lane] += 1
            out.append((e, entry_board(puzzle, e)))
    keys = {e.key for e, _ in out}
    for i, codes in enumerate(run.since):
        board = run.board(codes)
        entry = board_entry(board, lane=i)
        if len(codes) and entry.key not in done.partials and entry.key not in keys:
            out.append((entry, board))
    if not out:  # everything completed before: the call's deepest partial again (a call must make a board)
        return [(board_entry(run.board(run.call_codes), lane=run.call_lane), run.board(run.call_codes))]
    out.sort(key=lambda pair: (pair[0].complete, pair[0].placed), reverse=True)  # stable: the pool's order
    order = share_order([e.lane for e, _ in out], done.lane_credit(lanes), run.shares)
    return [out[i] for i in order][:n]
