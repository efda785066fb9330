"""The derived recipe's candidates: the few knobs the puzzle's statistics (derive.py) leave open, and the
recipe each setting gives (pilot.py chooses among them)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.puzzle import Puzzle
from .config import DfsConfig
from .derive import QuotaShape, branching, derive_privileged, derived_breaks, derived_quota, quota_bounds
from .recipes import given, position, positions, quota_values, user_to_internal
from .rules import Recipe, UsualRules, sequence

SLACK = 0.3  # breaks allowed per expected position without an exact candidate (derive.py, docs/dfs.md)
# the quota's share of the way along the fill order (derive.QuotaShape; Blackwood's on the official set:
# 0.5 at position 26-28, 0.8 at 56-102, 0.93 at 160 where it stops)
QUOTA_SHAPE = QuotaShape(ramp=0.22, hold=0.4, late=0.65, until=0.625)


USUAL = UsualRules()
# the rules a derived recipe takes from the section, else at their usual values
SECTION_RULES = (
    "piece_breaks",
    "frame_breaks",
    "frame_colour_breaks",
    "touching_breaks",
    "node_budget",
    "short_first",
    "backjump",
)
LAMS = (0.8, 0.6, 0.4, None)  # the quota's share of the way to the most (None: no quota), docs/dfs.md


@dataclass(frozen=True)
class Knobs:
    """One candidate: quota share (None: no quota), break onset (expected exact candidates), clue breaks,
    the zone they are kept to (0: anywhere after the clue) and how many rows before the schedule's first
    break a hint must be reached to take them (None: every hint); rules.Recipe."""

    lam: float | None
    onset: float
    clue_breaks: int
    clue_zone: int = 0
    clue_lead: int | None = None

    def label(self) -> str:
        quota = "no quota" if self.lam is None else f"quota {self.lam:g} of the way to the most"
        zone = f" within {self.clue_zone}" if self.clue_breaks and self.clue_zone else ""
        late = (
            f", hints from {self.clue_lead} rows before the breaks"
            if self.clue_breaks and self.clue_lead is not None
            else ""
        )
        return f"{quota}, breaks below {self.onset:g} candidates, {self.clue_breaks} per clue{zone}{late}"


CLUE_MODES = ((0, 0, None), (1, 1, 1))  # (clue_breaks, clue_zone, clue_lead): exact; one break per late hint


def candidates(puzzle: Puzzle, limit: int) -> list[Knobs]:
    """The candidate settings, most preferred first. On a puzzle with hints, each also with one break in
    the zone of every hint reached at most a row before the schedule's first break (docs/dfs_results.md: breaks
    spent beside the clues the order meets early cost joins the search could have kept by backtracking)."""
    modes = CLUE_MODES if puzzle.hints else CLUE_MODES[:1]
    out = [Knobs(lam, o, *mode) for mode in modes for lam in LAMS for o in (0.4, 0.6)]
    return out[:limit]


def derived_recipe(puzzle: Puzzle, cfg: DfsConfig, knobs: Knobs) -> Recipe:
    """The derived recipe for one candidate; keys set in the section win over the statistics."""
    order = cfg.order or "blackwood"
    teeth = cfg.teeth or max(1, round(5 * min(puzzle.rows, puzzle.cols) / 16))
    cells = puzzle.n_cells
    seq = sequence(puzzle, order, teeth)
    clue = (given(cfg, "clue_breaks", knobs.clue_breaks), given(cfg, "clue_zone", knobs.clue_zone))
    if cfg.privileged:
        privileged = user_to_internal(puzzle, cfg.privileged)
    else:
        privileged = derive_privileged(puzzle, cfg.privileged_frame, cfg.privileged_inner)
    qval = quota_values(puzzle, privileged, cfg.quota_on or "colours", cfg.good_pieces)
    if cfg.quota is not None:
        quota = positions(cfg.quota, cells, cfg.scale_from, scale_values=True)
    elif knobs.lam is None:
        quota = ()
    else:
        quota = derived_quota(*quota_bounds(puzzle, seq, qval), knobs.lam, puzzle.cols, QUOTA_SHAPE)
    if not quota:
        qval = np.zeros_like(qval)
    if cfg.breaks is not None:
        breaks = positions(cfg.breaks, cells, cfg.scale_from)
    else:
        breaks = derived_breaks(branching(puzzle, seq), puzzle.cols, knobs.onset, SLACK)
    abort = tuple((int(n), position(at, cells, cfg.scale_from)) for n, at in (cfg.abort or ()))
    if cfg.clue_from is not None:
        clue_from = position(cfg.clue_from, cells, cfg.scale_from)
    elif knobs.clue_lead is None:
        clue_from = 0
    else:
        clue_from = max(0, min(breaks[0][0] if breaks else cells, cells) - knobs.clue_lead * puzzle.cols)
    if not any(seq.index((h.row, h.col)) >= clue_from for h in puzzle.hints):
        clue, clue_from = (0, 0), 0  # no hint that late: the same rules as the exact recipe, tried once
    lead = None if cfg.clue_from is not None else knobs.clue_lead  # a set clue_from replaces the lead
    label = Knobs(knobs.lam, knobs.onset, *clue, lead).label()
    if cfg.clue_from is not None and clue[0]:
        label += f", hints from position {clue_from}"
    source = {"recipe": "derived", "knobs": label}

    return Recipe(
        order=order, teeth=teeth, breaks=breaks, quota=quota, qval=tuple(int(v) for v in qval),
        **{key: given(cfg, key, getattr(USUAL, key)) for key in SECTION_RULES},
        clue_breaks=clue[0], clue_zone=clue[1], clue_from=clue_from,
        abort=abort, privileged=tuple(privileged), source=source,
    )  # fmt: skip
