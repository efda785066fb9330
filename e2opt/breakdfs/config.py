"""The ``construct.breakdfs:`` section: the record-class depth-first search with breaks and its harvest.

Depths in ``breaks`` and ``quota`` are positions in the full fill order, hint cells included (Blackwood's
convention: ``solve_index``): an integer is a position on a board of ``scale_from`` cells (256: scaled
by cells / 256 on other sizes, unchanged on 16x16; None: absolute), a float a fraction of the cells. They are
turned into depths of the search (hints left out) per puzzle, so one schedule serves E2 (centre hint at
position 119) and META 2010 (no hint). The defaults are Blackwood's constants (see docs/breakdfs.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..config.schema import positive
from ..construct.config import _depths

# jblackwood345/EternityII_Solver, Util.cs: break_indexes_allowed (cumulative budget +1 at each position)
BLACKWOOD_BREAKS = (
    (201, 1), (206, 2), (211, 3), (216, 4), (221, 5), (225, 6), (229, 7), (233, 8), (237, 9), (239, 10),
)  # fmt: skip
# Program.cs: heuristic_array, piecewise linear between these knots (floored), none after position 160
BLACKWOOD_QUOTA = ((16, 0), (26, 28), (56, 71), (76, 89), (102, 106), (160, 119))


@dataclass(frozen=True)
class HarvestConfig:
    """What a long DFS keeps: deep partial boards and near-best complete boards, in a bounded pool.

    ``min_placed``: pieces on the board (hints included) for a dead end of the DFS to be kept; None = 248
    on 16x16, scaled by the number of cells elsewhere. ``margin``: complete boards within that many joins
    of the best complete board found. ``complete``: the best harvested partials completed (holes filled
    optimally, then ``repair_s`` CPU s of the tabu search) when the construction ends; at least one board is
    always completed (the deepest partial when the pool is empty): a construction returns a full board.
    """

    min_placed: int | None = None
    margin: int = 2
    pool_size: int = 1000
    complete: int = 3
    cpsat_s: float = 10.0  # CP-SAT seconds per completion whose holes touch each other
    neighbours: bool = True  # CP-SAT completion may also move the placed pieces next to the holes
    repair_s: float = 15.0
    deadline_share: float = 0.25  # of a construction's deadline kept for the completions (at most their cost)

    def __post_init__(self):
        positive("min_placed", self.min_placed)
        positive("margin", self.margin, allow_zero=True)
        positive("pool_size", self.pool_size)
        positive("complete", self.complete, allow_zero=True)
        positive("cpsat_s", self.cpsat_s)
        positive("repair_s", self.repair_s, allow_zero=True)
        if not 0 <= self.deadline_share < 1:
            raise ValueError(f"deadline_share: must be in [0, 1), got {self.deadline_share}")


@dataclass(frozen=True)
class BreakDfsConfig:
    """Blackwood's DFS (construct.method: breakdfs): breaks by schedule, colour quota, huge attempts.

    ``piece_breaks``: mismatched sides one placement may add (1 in both record holders' programs: the cap
    of one mismatch per piece; a cell may still end with two when a later neighbour breaks toward it).
    ``frame_colour_breaks: false``: no break on a side whose colour is a frame colour. ``privileged``:
    the quota colours (user numbers); () derives them from the puzzle (``privileged_frame`` frame colours
    and ``privileged_inner`` inner colours, see e2opt/breakdfs/recipe.py). ``quota``: [position, sides of
    the privileged colours placed], linear in between, floored. ``abort`` (Verhaard's discipline, not
    Blackwood's): an attempt that has made the given placements without reaching the position is dropped.
    """

    order: Literal["blackwood", "row_scan", "comb", "frame_comb"] = "blackwood"
    teeth: int = 5
    scale_from: int | None = 256  # integer positions and quota counts are for 256 cells: x cells/256
    breaks: tuple[tuple[int | float, int], ...] = BLACKWOOD_BREAKS
    piece_breaks: int = 1
    frame_colour_breaks: bool = False
    privileged: tuple[int, ...] = ()
    privileged_frame: int = 1
    privileged_inner: int = 2
    quota: tuple[tuple[int | float, int], ...] = BLACKWOOD_QUOTA
    quota_on: Literal["colours", "pieces"] = "colours"  # pieces: Verhaard's good pieces (breakdfs/good.py)
    good_pieces: int | None = None  # size of the good group; None = 150 on 256 pieces, scaled
    node_budget: int = 50_000_000_000  # nodes (placements) per attempt; Blackwood: 5e10
    abort: tuple[tuple[int, int | float], ...] = ()  # [placements, position]: behind it -> next attempt
    time_limit_s: float = 60.0
    max_attempts: int | None = None
    harvest: HarvestConfig = field(default_factory=HarvestConfig)

    def __post_init__(self):
        positive("teeth", self.teeth)
        positive("scale_from", self.scale_from)
        _depths("breaks", self.breaks)
        _depths("quota", self.quota)
        positive("piece_breaks", self.piece_breaks)
        for i, c in enumerate(self.privileged):
            positive(f"privileged[{i}]", c)
        positive("privileged_frame", self.privileged_frame, allow_zero=True)
        positive("privileged_inner", self.privileged_inner, allow_zero=True)
        positive("good_pieces", self.good_pieces)
        positive("node_budget", self.node_budget)
        for i, (nodes, _at) in enumerate(self.abort):
            positive(f"abort[{i}]", nodes)
            if i and nodes <= self.abort[i - 1][0]:
                raise ValueError(
                    f"abort[{i}]: placements must increase, got {nodes} after {self.abort[i - 1][0]}"
                )
        _depths("abort", tuple((at, 0) for _, at in self.abort))
        positive("time_limit_s", self.time_limit_s)
        positive("max_attempts", self.max_attempts)
