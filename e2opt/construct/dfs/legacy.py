"""The sections of the two constructions the DFS replaced, ``construct.breakdfs`` and ``construct.backtrack``:
their keys still load (each with one deprecation line) and become a ``construct.dfs`` section, so an old
config builds the board the equivalent new section builds for the same seed.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass, field
from typing import Literal

from ...config.schema import positive
from .config import DfsConfig, HarvestConfig, Points, check_points
from .recipes import BACKTRACK_BREAKS, BLACKWOOD_BREAKS, BLACKWOOD_QUOTA

_SAID: set[str] = set()


def deprecated(text: str) -> None:
    """``warning: TEXT`` on stderr, once per process (a config is loaded several times per run)."""
    if text in _SAID:
        return
    _SAID.add(text)
    with contextlib.suppress(OSError, ValueError):  # a closed stderr silences it, never the run
        print(f"warning: {text}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class BreakDfsConfig:
    """Deprecated ``construct.breakdfs`` (Blackwood's recipe): ``construct.dfs`` with ``recipe: blackwood``."""

    order: Literal["blackwood", "row_scan", "comb", "frame_comb"] = "blackwood"
    teeth: int = 5
    scale_from: int | None = 256
    breaks: Points = BLACKWOOD_BREAKS
    piece_breaks: int = 1
    frame_colour_breaks: bool = False
    privileged: tuple[int, ...] = ()
    privileged_frame: int = 1
    privileged_inner: int = 2
    quota: Points = BLACKWOOD_QUOTA
    quota_on: Literal["colours", "pieces"] = "colours"
    good_pieces: int | None = None
    node_budget: int = 50_000_000_000
    abort: tuple[tuple[int, int | float], ...] = ()
    time_limit_s: float = 60.0
    max_attempts: int | None = None
    harvest: HarvestConfig = field(default_factory=HarvestConfig)

    def __post_init__(self):
        DfsConfig(**{k: v for k, v in self.to_dfs_kwargs().items() if k != "harvest"})  # the same checks

    def to_dfs_kwargs(self) -> dict:
        return {
            "recipe": "blackwood", "order": self.order, "teeth": self.teeth, "scale_from": self.scale_from,
            "breaks": self.breaks, "piece_breaks": self.piece_breaks, "frame_breaks": True,
            "frame_colour_breaks": self.frame_colour_breaks, "touching_breaks": True, "clue_breaks": 0,
            "privileged": self.privileged, "privileged_frame": self.privileged_frame,
            "privileged_inner": self.privileged_inner, "quota": self.quota, "quota_on": self.quota_on,
            "good_pieces": self.good_pieces, "node_budget": self.node_budget, "abort": self.abort,
            "time_limit_s": self.time_limit_s, "max_attempts": self.max_attempts, "harvest": self.harvest,
        }  # fmt: skip

    def to_dfs(self) -> DfsConfig:
        return DfsConfig(**self.to_dfs_kwargs())


@dataclass(frozen=True)
class BacktrackConfig:
    """Deprecated ``construct.backtrack``: ``construct.dfs`` with ``recipe: backtrack``. Depths there are
    positions here (the same on a puzzle without hints); ``abort`` node fractions become placements,
    ``finish_width`` the completion's ``harvest.beam_width``; ``quota_colours`` are colour numbers."""

    order: Literal["row_scan", "frame_first", "comb", "frame_comb", "spiral"] = "comb"
    teeth: int = 2
    breaks: Points = BACKTRACK_BREAKS
    frame_breaks: bool = False
    touching_breaks: bool = False
    piece_breaks: int = 1
    quota_colours: tuple[int, ...] = ()
    quota_auto: int = 3
    quota: Points = ()
    node_budget: int = 20_000_000
    abort: tuple[tuple[float, int | float], ...] = ((0.05, 0.35), (0.15, 0.5), (0.4, 0.59), (0.7, 0.645))
    time_limit_s: float = 60.0
    max_restarts: int | None = None
    finish_width: int = 1024
    finish_cpsat_s: float = 0.0

    def __post_init__(self):
        for i, (frac, at) in enumerate(self.abort):
            if not 0.0 < frac <= 1.0:
                raise ValueError(f"abort[{i}]: the node fraction is in (0, 1], got {frac}")
            check_points(f"abort[{i}]", ((at, 0),))
        positive("quota_auto", self.quota_auto)
        positive("finish_width", self.finish_width)
        positive("finish_cpsat_s", self.finish_cpsat_s, allow_zero=True)
        self.to_dfs()  # the same checks as the new section

    def to_dfs(self) -> DfsConfig:
        harvest = HarvestConfig(complete=1, cpsat_s=self.finish_cpsat_s, neighbours=False,
                                beam_width=self.finish_width, repair_s=0.0)  # fmt: skip
        return DfsConfig(
            recipe="backtrack", order=self.order, teeth=self.teeth, scale_from=None, breaks=self.breaks,
            piece_breaks=self.piece_breaks, frame_breaks=self.frame_breaks, frame_colour_breaks=True,
            touching_breaks=self.touching_breaks, clue_breaks=0, privileged=self.quota_colours,
            privileged_frame=0, privileged_inner=self.quota_auto, quota=self.quota, quota_on="colours",
            node_budget=self.node_budget,
            abort=tuple((max(1, int(f * self.node_budget)), at) for f, at in self.abort),
            time_limit_s=self.time_limit_s, max_attempts=self.max_restarts, harvest=harvest,
        )  # fmt: skip


LEGACY = {"breakdfs": BreakDfsConfig, "backtrack": BacktrackConfig}


def warn_legacy(method: str, sections: dict[str, object]) -> None:
    """One deprecation line per legacy section the config uses (its method, or keys set in it)."""
    for name, cls in LEGACY.items():
        if method == name or sections.get(name, cls()) != cls():
            deprecated(f"construct.{name} is deprecated: it runs as construct.dfs with recipe: "
                       f"{'blackwood' if name == 'breakdfs' else 'backtrack'} (docs/dfs.md)")  # fmt: skip
