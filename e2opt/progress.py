"""Progress output: a live line on a terminal, plain periodic lines otherwise (nohup, cron)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from .config import RunConfig


def format_clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Progress:
    """Shows elapsed and remaining time, best/max and current score, moves/s and plateaus."""

    def __init__(self, cfg: RunConfig, max_score: int, quiet: bool, stream: TextIO | None = None):
        self.stream = stream or sys.stdout
        self.quiet = quiet
        self.live = self.stream.isatty()
        self.every = cfg.output.progress_every_s if self.live else cfg.output.log_every_s
        self.wall_budget, self.cpu_budget = cfg.stop.max_wall_s, cfg.stop.max_cpu_s
        self.max_score = max_score
        self.next_at = 0.0
        self.last: tuple[float, int] | None = None
        self.open_line = False

    def update(self, info: dict) -> None:
        """Called at every search tick; prints at most once per ``every`` seconds."""
        now = time.perf_counter()
        if self.quiet or now < self.next_at:
            return
        self.next_at = now + self.every
        wall, iteration = info["wall_s"], info["iteration"]
        rate = 0.0
        if self.last is not None and wall > self.last[0]:
            rate = (iteration - self.last[1]) / (wall - self.last[0])
        self.last = (wall, iteration)
        left = ""
        if self.wall_budget:
            left = f" / {format_clock(max(0.0, self.wall_budget - wall))} left"
        elif self.cpu_budget:
            left = f" / {format_clock(max(0.0, self.cpu_budget - info['cpu_s']))} CPU left"
        line = (
            f"{format_clock(wall)}{left}  best {info['best_score']}/{self.max_score}  "
            f"current {info['score']}  {rate:,.0f} moves/s  plateaus {info['diversifications'] + info['intensifications']}"
        )
        if self.live:
            self.stream.write("\r" + line + "\x1b[K")
            self.open_line = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def message(self, text: str) -> None:
        """A line of its own (construction done, resumed, warnings)."""
        if self.quiet:
            return
        self.close()
        self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the live line so that what follows starts on a fresh line."""
        if self.open_line:
            self.stream.write("\n")
            self.stream.flush()
            self.open_line = False
