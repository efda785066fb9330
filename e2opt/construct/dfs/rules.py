"""A resolved recipe (every number fixed for one puzzle) and the kernel's per-depth rule arrays made from it.

Positions count cells of the full fill order, hint cells included (Blackwood's ``solve_index``): the
search places the other cells only, so position p becomes depth p minus the hints placed before it.
A recipe is what a preset, the puzzle's own statistics (derive.py) or the pilot (pilot.py) decide; the
kernel only ever sees these arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ...core.puzzle import GREY, Puzzle
from ...fill.order import ORDERS, FillOrder


@dataclass(frozen=True, kw_only=True)
class UsualRules:
    """The rules every recipe holds, at the values they have unless a preset, the pilot or the section set
    them (one place for these defaults: presets, derived recipes and resolved ones share them)."""

    piece_breaks: int = 1
    frame_breaks: bool = True
    frame_colour_breaks: bool = False
    touching_breaks: bool = True
    clue_breaks: int = 0
    clue_zone: int = 0
    clue_from: int | float = 0
    node_budget: int = 50_000_000_000
    abort: tuple = ()
    short_first: bool = False
    backjump: bool = False


@dataclass(frozen=True)
class Recipe(UsualRules):
    """Every rule of one DFS on one puzzle, positions absolute (hint cells included).

    ``breaks``: (position, cumulative breaks allowed from there). ``quota``: (position, minimum quota
    value placed by then, hints included), linear in between, floored; ``qval`` the quota value of each
    piece (privileged sides, or 1 per good piece). ``clue_breaks``: breaks each hint adds to the
    schedule. With ``clue_zone`` 0 they are added from the first cell next to the hint on and may be spent
    anywhere after it; with ``clue_zone`` r > 0 from the first cell of the hint's zone (the cells within r
    rows and r columns of it) on, and before the schedule's first break they may be spent only inside a
    zone: every other cell there is exact. Only hints at fill position ``clue_from`` or later take clue
    breaks: the order reaches the others while the search is shallow and backtracks past them cheaply. ``abort``: (placements, position) an attempt must have reached.
    ``short_first``: the first attempt gets SHORT_FIRST times the last abort mark's placements and each next
    one twice the one before, up to ``node_budget`` (more openings early in a run, the long attempts later).
    ``backjump``: conflict-directed backjumping (kernel.py "Backjumping") where a dead end provably depends
    only on the depths it names.
    """

    order: str
    teeth: int
    breaks: tuple[tuple[int, int], ...]
    quota: tuple[tuple[int, float], ...]
    qval: tuple[int, ...]
    privileged: tuple[int, ...] = ()  # internal colour ids behind ``qval`` (reporting)
    source: dict = field(default_factory=dict, compare=False)  # where each number came from

    def with_(self, **changes) -> Recipe:
        return replace(self, **changes)

    @classmethod
    def from_dict(cls, data: dict) -> Recipe:
        """The recipe of ``dataclasses.asdict`` read back from JSON (lists become the tuples they were). The
        ``harvest_from`` of folders written by 6de000e-5f36b91 (a pilot-made harvest floor) is dropped: such a
        folder resumes with the floor of ``harvest.min_placed`` or longrun.default_min_placed."""

        def frozen(v):
            return tuple(frozen(x) for x in v) if isinstance(v, list) else v

        return cls(**{k: frozen(v) for k, v in data.items() if k != "harvest_from"})


@dataclass(frozen=True, eq=False)
class Rules:
    """Per-depth arrays for the kernel: cumulative breaks allowed, breaks per placement, minimum quota."""

    allow: np.ndarray
    cap: np.ndarray
    qmin: np.ndarray
    qval: np.ndarray
    frame: list[int]
    frame_colour_breaks: bool
    no_touch: bool
    abort: list[tuple[int, int]]
    node_budget: int
    first_budget: int  # placements of the first attempt, doubled each attempt up to node_budget (0: off)
    backjump: bool = False

    def attempt_budget(self, attempt: int) -> int:
        """Placements allowed to attempt number ``attempt`` (1 is the first)."""
        if self.first_budget <= 0:
            return self.node_budget
        return min(self.node_budget, self.first_budget << min(max(attempt - 1, 0), 40))


SHORT_FIRST = 3  # the first attempt's placements, in multiples of the last abort mark's (Recipe.short_first)


def frame_colours(puzzle: Puzzle) -> list[int]:
    """Internal colour ids on the joins between two rim cells (the sides next to a grey side)."""
    out: set[int] = set()
    for sides in puzzle.pieces:
        for s in range(4):
            if sides[s] == GREY:
                for t in ((s + 1) & 3, (s + 3) & 3):
                    if sides[t] != GREY:
                        out.add(int(sides[t]))
    return sorted(out)


def sequence(puzzle: Puzzle, order: str, teeth: int) -> list[tuple[int, int]]:
    """The named order's cells, hints included."""
    return ORDERS[order](puzzle.rows, puzzle.cols, teeth)


def depth_of_position(puzzle: Puzzle, order: str, teeth: int) -> np.ndarray:
    """depth[p]: search depth of fill-order position p (hints left out), for p in 0..n_cells."""
    hinted = {(h.row, h.col) for h in puzzle.hints}
    out = np.zeros(puzzle.n_cells + 1, dtype=np.int64)
    d = 0
    for p, rc in enumerate(sequence(puzzle, order, teeth)):
        out[p] = d
        d += rc not in hinted
    out[puzzle.n_cells] = d
    return out


def clue_zones(puzzle: Puzzle, order: FillOrder, recipe: Recipe) -> list[set[int]]:
    """zones[d]: the hints (indices) taking clue breaks whose zone holds depth d's cell: its four neighbours
    with ``clue_zone`` 0, the cells within ``clue_zone`` rows and columns of the hint otherwise."""
    radius = recipe.clue_zone
    seq = sequence(puzzle, recipe.order, recipe.teeth)
    late = [i for i, h in enumerate(puzzle.hints) if seq.index((h.row, h.col)) >= recipe.clue_from]
    out: list[set[int]] = []
    for d in range(order.depth):
        r, c = divmod(int(order.cells[d]), puzzle.cols)
        near = set()
        for i in late:
            h = puzzle.hints[i]
            dr, dc = abs(h.row - r), abs(h.col - c)
            if (dr + dc == 1) if radius == 0 else max(dr, dc) <= radius:
                near.add(i)
        out.append(near)
    return out


def _clue_rules(
    puzzle: Puzzle, order: FillOrder, recipe: Recipe, depth: np.ndarray, allow: np.ndarray, cap: np.ndarray
) -> None:
    """The clue breaks of a recipe (``Recipe`` docstring) written into ``allow`` and ``cap``."""
    zones = clue_zones(puzzle, order, recipe)
    onset = depth[min(recipe.breaks[0][0], puzzle.n_cells)] if recipe.breaks else order.depth
    seen: set[int] = set()
    for d, near in enumerate(zones):
        if near:
            cap[d] = max(cap[d], 1)
        elif recipe.clue_zone and d < onset:
            cap[d] = 0
        allow[d:] += recipe.clue_breaks * len(near - seen)
        seen |= near


def make_rules(puzzle: Puzzle, order: FillOrder, recipe: Recipe) -> Rules:
    """The recipe's rules on this puzzle's depths."""
    m, cells = order.depth, puzzle.n_cells
    depth = depth_of_position(puzzle, recipe.order, recipe.teeth)
    allow = np.zeros(m + 1, dtype=np.int32)
    for at, most in recipe.breaks:
        allow[depth[min(at, cells)] :] = most
    cap = np.full(m + 1, recipe.piece_breaks, dtype=np.int32)
    if not recipe.frame_breaks:
        cap[:m][order.rim > 0] = 0
    if recipe.clue_breaks and puzzle.hints:
        _clue_rules(puzzle, order, recipe, depth, allow, cap)
    qval = np.array(recipe.qval, dtype=np.int32)
    qmin = np.zeros(m + 1, dtype=np.int32)
    if recipe.quota:
        xs = [at for at, _ in recipe.quota]
        ys = [v for _, v in recipe.quota]
        hint_at = {(h.row, h.col): h for h in puzzle.hints}
        seq = sequence(puzzle, recipe.order, recipe.teeth)
        hint_q = 0
        for p in range(min(xs[-1], cells - 1) + 1):  # the count includes hints placed before p
            if seq[p] in hint_at:
                hint_q += int(qval[hint_at[seq[p]].piece])
                continue
            need = int(np.floor(np.interp(p, xs, ys))) if p >= xs[0] else 0
            qmin[depth[p]] = max(need - hint_q, 0)
    abort = [(int(n), int(depth[min(at, cells)])) for n, at in recipe.abort]
    first = SHORT_FIRST * abort[-1][0] if recipe.short_first and abort else 0
    return Rules(allow, cap, qmin, qval, frame_colours(puzzle), recipe.frame_colour_breaks,
                 not recipe.touching_breaks, abort, int(recipe.node_budget), first, recipe.backjump)  # fmt: skip
