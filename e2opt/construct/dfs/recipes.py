"""Presets of the DFS with breaks, and the resolution of a ``construct.dfs`` section into one Recipe per puzzle.

A preset gives every rule of a published (or e2opt's earlier) recipe; ``derived`` gives the statistics of
derive.py with the settings the pilot chooses. Keys set in the section override either. ``auto`` is the
Blackwood preset on the official set under the starter-only convention (what it was made and measured
for, docs/dfs.md) and ``derived`` on every other puzzle, so that no constant tuned on one puzzle is applied
to another.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...core.formats.official import clue_convention
from ...core.puzzle import Puzzle
from .config import DfsConfig
from .derive import derive_privileged
from .good import good_pieces
from .rules import Recipe, UsualRules, frame_colours

# jblackwood345/EternityII_Solver, Util.cs: break_indexes_allowed (cumulative budget +1 at each position)
BLACKWOOD_BREAKS = (
    (201, 1), (206, 2), (211, 3), (216, 4), (221, 5), (225, 6), (229, 7), (233, 8), (237, 9), (239, 10),
)  # fmt: skip
# Program.cs: heuristic_array, piecewise linear between these knots (floored), none after position 160
BLACKWOOD_QUOTA = ((16, 0), (26, 28), (56, 71), (76, 89), (102, 106), (160, 119))
# Verhaard's schedule for 16x16 (docs/construct.md) as fractions of the cells: none before ~0.75
BACKTRACK_BREAKS = (
    (0.754, 1), (0.789, 2), (0.816, 3), (0.836, 4), (0.852, 5), (0.867, 6), (0.883, 7), (0.895, 8),
    (0.906, 9), (0.918, 10), (0.93, 11), (0.938, 12),
)  # fmt: skip


@dataclass(frozen=True)
class Preset(UsualRules):
    """Every recipe key of DfsConfig a preset sets (positions as in the section: scaled from 256 cells)."""

    order: str
    teeth: int
    breaks: tuple
    privileged: tuple[int, ...] = ()
    quota: tuple = ()
    quota_on: str = "colours"
    notes: dict = field(default_factory=dict)


PRESETS: dict[str, Preset] = {
    # Blackwood's published recipe, with its privileged colours {13, 16, 10} in the viewer's ids (5, 20, 7
    # here); the abort marks are e2opt's, measured on the official set (docs/breakdfs.md).
    "blackwood": Preset("blackwood", 5, BLACKWOOD_BREAKS, privileged=(5, 20, 7), quota=BLACKWOOD_QUOTA,
                        abort=((400_000_000, 176), (1_200_000_000, 238))),
    # Verhaard's program as recovered by anjou: comb with 3 teeth, good pieces by position, short attempts.
    "verhaard": Preset(
        "comb", 3,
        ((193, 1), (202, 2), (209, 3), (214, 4), (218, 5), (222, 6), (226, 7), (229, 8), (232, 9), (235, 10),
         (238, 11), (240, 12)),
        quota_on="pieces",
        quota=((10, 4), (19, 4), (20, 7), (29, 7), (30, 9), (39, 9), (40, 12), (49, 12), (50, 14), (59, 14),
               (60, 16), (78, 16), (79, 18), (94, 18), (95, 19), (99, 19), (100, 20)),
        node_budget=20_000_000,
        abort=((1_000_000, 90), (3_000_000, 128), (8_000_000, 151), (14_000_000, 165)),
    ),
    # e2opt's earlier construct.method: backtrack: comb order, no break on the frame, breaks never touch.
    "backtrack": Preset("comb", 2, BACKTRACK_BREAKS, frame_breaks=False, touching_breaks=False,
                        node_budget=20_000_000,
                        abort=((1_000_000, 0.35), (3_000_000, 0.5), (8_000_000, 0.59), (14_000_000, 0.645))),
}  # fmt: skip


def given(cfg: DfsConfig, key: str, default):
    """The section's key when set, else ``default`` (a preset's value or a derived one)."""
    value = getattr(cfg, key)
    return default if value is None else value


def recipe_name(cfg: DfsConfig, puzzle: Puzzle) -> str:
    """The recipe ``auto`` stands for on this puzzle (module docstring); other names as they are."""
    if cfg.recipe != "auto":
        return cfg.recipe
    return "blackwood" if clue_convention(puzzle) == "1/5" else "derived"


def position(at: int | float, cells: int, scale_from: int | None) -> int:
    """A fill position: a float is a fraction of the cells; an int is absolute, or written for a board of
    ``scale_from`` cells and scaled to this one."""
    if isinstance(at, float):
        return round(at * cells)
    return int(at) if scale_from is None else round(at * cells / scale_from)


def positions(points, cells: int, scale_from: int | None, scale_values: bool = False) -> tuple:
    """[position, value] pairs as absolute positions (values scaled with the board when asked: a quota's
    knots stay fractional, floored once interpolated)."""
    factor = 1.0 if scale_from is None or not scale_values else cells / scale_from
    return tuple(
        (position(at, cells, scale_from), v * factor if scale_values else int(v)) for at, v in points
    )


def quota_values(puzzle: Puzzle, privileged: list[int], quota_on: str, good: int | None) -> np.ndarray:
    """Each piece's quota value: its sides of the privileged colours, or 1 per good piece."""
    if quota_on == "pieces":
        out = np.zeros(len(puzzle.pieces), dtype=np.int64)
        out[good_pieces(puzzle, good)] = 1
        return out
    return np.isin(puzzle.pieces, privileged).sum(axis=1).astype(np.int64)


def user_to_internal(puzzle: Puzzle, colours) -> list[int]:
    """Internal ids of colours given by their numbers in the puzzle file (numbers it lacks dropped)."""
    lookup = {puzzle.user_colour(c): c for c in range(puzzle.n_colours)}
    return sorted(lookup[c] for c in colours if c in lookup)


def preset_recipe(cfg: DfsConfig, puzzle: Puzzle, name: str) -> Recipe:
    """The preset ``name`` with the section's keys applied, on this puzzle."""
    pre = PRESETS[name]
    cells = puzzle.n_cells

    def pick(key: str):
        return given(cfg, key, getattr(pre, key))

    source = {"recipe": name}
    priv_given = cfg.privileged if cfg.privileged is not None else pre.privileged
    privileged = user_to_internal(puzzle, priv_given) if priv_given else []
    if name == "blackwood" and cfg.privileged is None and clue_convention(puzzle) is None:
        privileged = []  # Blackwood's colours mean nothing on another puzzle: derived instead
    if not privileged:
        privileged = derive_privileged(puzzle, cfg.privileged_frame, cfg.privileged_inner)
        source["privileged"] = "derived"
    quota_src = pick("quota")
    quota = positions(quota_src, cells, cfg.scale_from, scale_values=True) if quota_src else ()
    qval = quota_values(puzzle, privileged, pick("quota_on"), cfg.good_pieces)
    if not quota:
        qval[:] = 0  # quota values order the lists only when a quota asks for them
    return Recipe(
        order=pick("order"),
        teeth=pick("teeth"),
        breaks=positions(pick("breaks"), cells, cfg.scale_from),
        quota=quota,
        qval=tuple(int(v) for v in qval),
        piece_breaks=pick("piece_breaks"),
        frame_breaks=pick("frame_breaks"),
        frame_colour_breaks=pick("frame_colour_breaks"),
        touching_breaks=pick("touching_breaks"),
        clue_breaks=pick("clue_breaks"),
        clue_zone=pick("clue_zone"),
        clue_from=position(pick("clue_from"), cells, cfg.scale_from),
        node_budget=pick("node_budget"),
        abort=tuple((int(n), position(at, cells, cfg.scale_from)) for n, at in pick("abort")),
        short_first=pick("short_first"),
        backjump=pick("backjump"),
        privileged=tuple(privileged),
        source=source,
    )


def describe(puzzle: Puzzle, recipe: Recipe) -> dict:
    """The recipe as JSON-ready data for the construction's info and docs (colours as file numbers)."""
    return {
        "order": recipe.order,
        "teeth": recipe.teeth,
        "breaks": [list(x) for x in recipe.breaks],
        "quota": [list(x) for x in recipe.quota],
        "privileged": [puzzle.user_colour(c) for c in recipe.privileged],
        "piece_breaks": recipe.piece_breaks,
        "frame_breaks": recipe.frame_breaks,
        "frame_colour_breaks": recipe.frame_colour_breaks,
        "touching_breaks": recipe.touching_breaks,
        "clue_breaks": recipe.clue_breaks,
        "clue_zone": recipe.clue_zone,
        "clue_from": recipe.clue_from,
        "node_budget": recipe.node_budget,
        "abort": [list(x) for x in recipe.abort],
        "short_first": recipe.short_first,
        "backjump": recipe.backjump,
        "frame_colours": [puzzle.user_colour(c) for c in frame_colours(puzzle)],
        **recipe.source,
    }
