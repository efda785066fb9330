"""Progress lines of long searches: at most one every so many seconds of a clock, so that a user watching
sees figures (beams done, nodes per second, the best so far) instead of silence. Constructions say one every
REPORT_EVERY_S wall seconds; ``e2opt solve`` one every ``--progress-every`` CPU seconds."""

from __future__ import annotations

import time
from collections.abc import Callable

REPORT_EVERY_S = 5.0


class Ticks:
    """``if ticks.due(): ticks.say(line)``: a line at most every ``every_s`` seconds of ``clock`` (default:
    REPORT_EVERY_S wall seconds); never due without ``report``."""

    def __init__(
        self,
        report: Callable[[str], None] | None,
        every_s: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ):
        self.report, self.every_s, self.clock = report, every_s, clock
        self.next_at = clock() + self.period()

    def period(self) -> float:
        """Seconds between two lines (REPORT_EVERY_S read when asked, so that tests may shorten it)."""
        return REPORT_EVERY_S if self.every_s is None else self.every_s

    def due(self) -> bool:
        return self.report is not None and self.clock() >= self.next_at

    def say(self, line: str) -> None:
        self.next_at = self.clock() + self.period()
        if self.report is not None:
            self.report(line)
