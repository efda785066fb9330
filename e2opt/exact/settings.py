"""The exact methods' own settings and the command-line options that set them: each method's line in
``EXACT_METHODS`` names its settings class and its flags, and ``e2opt solve`` takes its options from there.
The shared part (what to find, the limit, the seed, symmetry, output) is ``SolveOptions``."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from ..config.registry import Flag
from ..config.schema import process_count_problem
from ..core.cores import slots_for
from ..core.errors import E2optError
from .model import VALUE_ORDERS


@dataclass(frozen=True)
class DepthFirstSettings:
    """What every depth-first method takes: its variable order (None: its default) and its value order."""

    order: str | None = None
    value_order: str = "min"

    def check(self, method: str, orders: tuple[str, ...], shared: Any) -> None:
        """E2optError (one line, exit 2) on a bad value; ``shared`` is the run's SolveOptions."""
        if self.order is not None and self.order not in orders:
            raise E2optError(f"--order {self.order}: choose one of {', '.join(orders)} with {method}")
        if self.value_order not in VALUE_ORDERS:
            raise E2optError(f"--value-order {self.value_order}: choose one of {', '.join(VALUE_ORDERS)}")


@dataclass(frozen=True)
class ColorpairsSettings(DepthFirstSettings):
    """colorpairs: backjumping (off: plain backtracking) and the shaving limit L (0: off)."""

    backjump: bool = True
    shave: int = 0

    def check(self, method: str, orders: tuple[str, ...], shared: Any) -> None:
        super().check(method, orders, shared)
        if self.shave < 0:
            raise E2optError(f"--shave {self.shave}: a limit >= 0")


@dataclass(frozen=True)
class ScanSettings(DepthFirstSettings):
    """scan: limited attempts (Luby node limits) before the final run, processes sharing the tree (split.py),
    a file of finished subtrees to resume a long search (ledger.py)."""

    restarts: int = 0
    restart_nodes: int = 100_000
    workers: int = 1  # or "auto" (resolved here: as many one-thread searches as fit on the usable cores)
    checkpoint: str | None = None

    def __post_init__(self) -> None:
        if self.workers == "auto":
            object.__setattr__(self, "workers", slots_for(1))

    def check(self, method: str, orders: tuple[str, ...], shared: Any) -> None:
        super().check(method, orders, shared)
        if self.value_order not in ("min", "random"):
            raise E2optError(f"--value-order {self.value_order}: scan takes min or random")
        if self.restarts < 0 or self.restart_nodes <= 0:
            raise E2optError("--restarts must be >= 0 and --restart-nodes positive")
        if not isinstance(self.workers, int) or process_count_problem(self.workers):
            raise E2optError(f"--workers {self.workers}: a number of processes >= 1, or auto")
        if self.workers > 1 and self.restarts:
            raise E2optError(f"--workers {self.workers}: more than 1 without --restarts")
        if self.checkpoint and (self.restarts or (shared.find_all and shared.keep_boards)):
            raise E2optError(
                "--checkpoint needs --method scan without --restarts, and --count without -o or a "
                "first-solution search (boards written before a kill could be written again)"
            )
        if self.restarts and (shared.find_all or self.value_order != "random"):
            raise E2optError("--restarts needs --value-order random and a first-solution search")


def process_count(text: str) -> int | str:
    """``--workers``: a count, or ``auto`` (ScanSettings resolves it); anything else is refused with one line."""
    if text == "auto":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a number of processes or auto") from None


ORDER = Flag("--order", "order", "variable order (the method's orders: see --method; its default first)")
VALUE_ORDER = Flag("--value-order", "value_order", f"{' | '.join(VALUE_ORDERS)} (default min)")
DEPTH_FIRST = (ORDER, VALUE_ORDER)
COLORPAIRS = (
    *DEPTH_FIRST,
    Flag("--no-backjump", "backjump", "plain backtracking", parse=None, switch=False),
    Flag("--shave", "shave", "shaving limit (0: off)", parse=int, metavar="L"),
)
SCAN = (
    *DEPTH_FIRST,
    Flag("--restarts", "restarts", "limited attempts before the final run", parse=int, metavar="N"),
    Flag(
        "--restart-nodes",
        "restart_nodes",
        "nodes of a Luby restart unit (default 100000)",
        parse=int,
        metavar="N",
    ),
    Flag(
        "--workers",
        "workers",
        "processes sharing the search tree, or auto (the usable cores; default 1)",
        parse=process_count,
        metavar="N",
    ),
    Flag(
        "--checkpoint",
        "checkpoint",
        "record finished subtrees in FILE; the same command resumes from it",
        metavar="FILE",
    ),
)
