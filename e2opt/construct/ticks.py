"""Progress lines of long constructions (beam, backtrack): at most one every REPORT_EVERY_S wall seconds, so
that a user watching a run sees beams done, the best so far and the rate instead of silence."""

from __future__ import annotations

import time
from collections.abc import Callable

REPORT_EVERY_S = 5.0


class Ticks:
    """``if ticks.due(): ticks.say(line)``: a line at most every REPORT_EVERY_S; never due without ``report``."""

    def __init__(self, report: Callable[[str], None] | None):
        self.report = report
        self.next_at = time.perf_counter() + REPORT_EVERY_S

    def due(self) -> bool:
        return self.report is not None and time.perf_counter() >= self.next_at

    def say(self, line: str) -> None:
        self.next_at = time.perf_counter() + REPORT_EVERY_S
        if self.report is not None:
            self.report(line)
