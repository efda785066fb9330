"""The ``construct.dfs:`` section: one depth-first search with breaks, its recipe, pilot and harvest.

``recipe`` names where the rules come from: ``auto`` (the default) takes Blackwood's published recipe on the
official set under the starter-only convention it was made for, and ``derived`` everywhere else: the rules
derived from the puzzle's own statistics along the fill order, then calibrated by a short pilot
(recipes.py, derive.py, pilot.py). ``blackwood``, ``verhaard`` and ``backtrack`` are presets. Every other
key left unset (null) comes from the recipe; a key given is used as given, and the pilot never changes it.

Positions in ``breaks``, ``quota`` and ``abort`` count cells of the full fill order, hint cells included:
an integer is a position on a board of ``scale_from`` cells (256: scaled by cells / 256 on other sizes;
null: absolute), a float a fraction of the cells.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from ...config.schema import positive

MAX_LANES = 64  # lanes interleaved in one process; more only thins each lane's share of the core
RECIPES = ("auto", "derived", "blackwood", "verhaard", "backtrack")
ORDER_NAMES = Literal["blackwood", "row_scan", "comb", "frame_comb", "frame_first", "spiral"]
Points = tuple[tuple[int | float, int], ...]


def check_points(name: str, points: Points, rising_values: bool = True) -> None:
    """[position, count] pairs: positions all ints >= 0 or all floats in [0, 1], rising; counts >= 0."""
    if len({type(at) for at, _ in points}) > 1:
        raise ValueError(
            f"{name}: mixes absolute (integer) and fractional positions: {[list(p) for p in points]}"
        )
    for i, (at, value) in enumerate(points):
        if isinstance(at, float) and not (math.isfinite(at) and 0.0 <= at <= 1.0):
            raise ValueError(f"{name}[{i}]: a fractional position is in [0, 1], got {at}")
        if at < 0 or value < 0:
            raise ValueError(f"{name}[{i}]: position and count must be non-negative, got {[at, value]}")
        if i and at <= points[i - 1][0]:
            raise ValueError(f"{name}[{i}]: positions must increase, got {at} after {points[i - 1][0]}")
        if i and rising_values and value < points[i - 1][1]:
            raise ValueError(f"{name}[{i}]: counts must not decrease, got {value} after {points[i - 1][1]}")


@dataclass(frozen=True)
class HarvestConfig:
    """What a long DFS keeps: deep partial boards and near-best complete boards, in a bounded pool.

    ``min_placed``: pieces on the board (hints included) for a dead end to be kept; None = Blackwood's 248
    on 16x16, scaled by cells elsewhere (longrun.default_min_placed), for every recipe: a floor from the
    pilot's depth measured lower on a generated puzzle (docs/dfs_results.md "The harvest floor").
    ``margin``: complete boards within that many joins of the best complete board found. ``complete``:
    the best harvested partials completed (holes filled, then ``repair_cpu_s`` of tabu search) when
    the construction ends; at least one board is always completed, and a completion that gives a board made
    before on the same folder does not count (build.py). ``beam_width``: a beam along the
    fill order also completes each partial (the better fill is kept; 0: off).
    """

    min_placed: int | None = None
    margin: int = 2
    pool_size: int = 1000
    complete: int = 1
    cpsat_wall_s: float = 5.0  # CP-SAT seconds per completion whose holes touch each other
    neighbours: bool = True  # CP-SAT completion may also move the placed pieces next to the holes
    beam_width: int = 0
    repair_cpu_s: float = 10.0
    deadline_share: float = 0.25  # of a construction's deadline kept for the completions (at most their cost)

    def __post_init__(self):
        positive("min_placed", self.min_placed)
        positive("margin", self.margin, allow_zero=True)
        positive("pool_size", self.pool_size)
        positive("complete", self.complete, allow_zero=True)
        positive("cpsat_wall_s", self.cpsat_wall_s, allow_zero=True)
        positive("beam_width", self.beam_width, allow_zero=True)
        positive("repair_cpu_s", self.repair_cpu_s, allow_zero=True)
        if not 0 <= self.deadline_share < 1:
            raise ValueError(f"deadline_share: must be in [0, 1), got {self.deadline_share}")


@dataclass(frozen=True)
class PilotConfig:
    """The calibration of a derived recipe: the candidate settings run fresh attempts, halved round after
    round by the joins their deepest partial matches, ``nodes`` placements in all, so a seed gets the same
    choice on any machine and under any load (counted in the construction's CPU budget, and cut at
    pilot.PILOT_SHARE of it; a quota-free winner is checked against the quota candidates with half as many
    more, pilot.quota_stage); ``candidates`` caps how many are tried (the list is in pilot.py).
    ``draws``: fresh attempts per candidate in the first round, sharing its placements, the best kept.
    ``enabled: false`` takes the first candidate."""

    enabled: bool = True
    nodes: int = 600_000_000
    candidates: int = 16
    draws: int = 1

    def __post_init__(self):
        positive("nodes", self.nodes)
        positive("candidates", self.candidates)
        positive("draws", self.draws)


@dataclass(frozen=True)
class DfsConfig:
    """Depth-first search with breaks (construct.method: dfs); see the module docstring and docs/dfs.md.

    ``piece_breaks``: mismatched sides one placement may add (2 also tries placements missing both key
    sides). ``frame_breaks: false``: no break when placing a rim cell. ``frame_colour_breaks: false``: no
    break on a side whose colour is a frame colour. ``touching_breaks: false``: a break may not face a
    cell that already touches one. ``clue_breaks``: breaks each hint adds to the schedule; ``clue_zone``
    r > 0 keeps them, before the schedule's first break, to the cells within r rows and columns of a hint
    (every other cell exact there), 0 lets them be spent anywhere after the hint's first neighbour;
    ``clue_from``: only hints the fill order reaches at this position or later take them. ``privileged``: quota colours (user numbers; [] derives them: ``privileged_frame``
    frame colours and ``privileged_inner`` inner ones). ``quota``: [position, quota value placed], linear
    in between ([] = none); ``quota_on: pieces`` counts Verhaard's good pieces instead of privileged
    sides. ``abort``: [placements, position]: an attempt behind it is dropped. ``node_budget``:
    placements per attempt; ``short_first``: the first attempts shorter; ``backjump``: a dead end that only
    some earlier depths caused jumps back to the deepest of them (rules.Recipe). ``lanes``: independent
    DFS's in one process; ``lane_recipes: ranked`` gives lane i the pilot's i-th best candidate (its
    attempt continued) instead of the winner for every lane (a preset has one recipe: every lane runs it).
    ``lane_shares: scored`` shares each call's placements and completions by the scores of the boards each
    lane's partials completed to (shares.py) instead of evenly.
    """

    recipe: Literal["auto", "derived", "blackwood", "verhaard", "backtrack"] = "auto"
    order: ORDER_NAMES | None = None
    teeth: int | None = None
    scale_from: int | None = 256
    breaks: Points | None = None
    piece_breaks: int | None = None
    frame_breaks: bool | None = None
    frame_colour_breaks: bool | None = None
    touching_breaks: bool | None = None
    clue_breaks: int | None = None
    clue_zone: int | None = None
    clue_from: int | float | None = None
    privileged: tuple[int, ...] | None = None
    privileged_frame: int = 1
    privileged_inner: int = 2
    quota: Points | None = None
    quota_on: Literal["colours", "pieces"] | None = None
    good_pieces: int | None = None
    node_budget: int | None = None
    abort: tuple[tuple[int, int | float], ...] | None = None
    short_first: bool | None = None
    backjump: bool | None = None
    time_limit_cpu_s: float = 60.0
    max_attempts: int | None = None
    lanes: int = 1
    lane_recipes: Literal["winner", "ranked"] = "winner"
    lane_shares: Literal["even", "scored"] = "even"
    pilot: PilotConfig = field(default_factory=PilotConfig)
    harvest: HarvestConfig = field(default_factory=HarvestConfig)

    def __post_init__(self):
        positive("teeth", self.teeth)
        positive("scale_from", self.scale_from)
        for name in ("breaks", "quota"):
            if getattr(self, name) is not None:
                check_points(name, getattr(self, name))
        positive("piece_breaks", self.piece_breaks)
        if self.piece_breaks is not None and self.piece_breaks > 2:
            raise ValueError(f"piece_breaks: 1 or 2 (the lists hold placements missing at most both key sides), "
                             f"got {self.piece_breaks}")  # fmt: skip
        positive("clue_breaks", self.clue_breaks, allow_zero=True)
        positive("clue_zone", self.clue_zone, allow_zero=True)
        if self.clue_from is not None:
            check_points("clue_from", ((self.clue_from, 0),))
        for i, c in enumerate(self.privileged or ()):
            positive(f"privileged[{i}]", c)
        positive("privileged_frame", self.privileged_frame, allow_zero=True)
        positive("privileged_inner", self.privileged_inner, allow_zero=True)
        positive("good_pieces", self.good_pieces)
        positive("node_budget", self.node_budget)
        for i, (nodes, _at) in enumerate(self.abort or ()):
            positive(f"abort[{i}]", nodes)
            if i and nodes <= self.abort[i - 1][0]:
                raise ValueError(
                    f"abort[{i}]: placements must increase, got {nodes} after {self.abort[i - 1][0]}"
                )
        if self.abort:
            check_points("abort", tuple((at, 0) for _, at in self.abort))
        positive("time_limit_cpu_s", self.time_limit_cpu_s)
        positive("max_attempts", self.max_attempts)
        positive("lanes", self.lanes)
        if self.lanes > MAX_LANES:
            raise ValueError(f"lanes: at most {MAX_LANES} DFS's in one process, got {self.lanes}")
