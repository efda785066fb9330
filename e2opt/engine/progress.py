"""Progress output: a live line on a terminal, plain periodic lines otherwise (nohup, cron).

Output never stops a run: when stdout is a closed pipe or a hung-up terminal, progress goes nowhere
and the run goes on.
"""

from __future__ import annotations

import os
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
            self._write("\r" + line + "\x1b[K")
            self.open_line = True
        else:
            self._write(line + "\n")

    def message(self, text: str) -> None:
        """A line of its own (construction done, resumed, warnings)."""
        if self.quiet:
            return
        self.close()
        self._write(text + "\n")

    def warn(self, text: str) -> None:
        """A warning: to stderr, shown even with ``--quiet`` (quiet hides progress, never a problem)."""
        self.close()
        warn(text)

    def close(self) -> None:
        """End the live line so that what follows starts on a fresh line."""
        if self.open_line:
            self.open_line = False
            self._write("\n")

    def _write(self, text: str) -> None:
        """Write and flush; a closed pipe or terminal silences the progress for good, never the run."""
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.quiet, self.open_line = True, False
            silence(self.stream)


def warn(text: str, stream: TextIO | None = None) -> None:
    """``warning: TEXT`` on stderr; a closed stderr silences it, never the run."""
    stream = stream or sys.stderr
    try:
        stream.write(f"warning: {text}\n")
        stream.flush()
    except (OSError, ValueError):
        silence(stream)


def silence(stream: TextIO) -> None:
    """Point a dead output's file descriptor at /dev/null, so that no later write or the flush at exit fails."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def construction_line(info: dict, max_score: int) -> str:
    """What construction did, for people: the score, and a CP-SAT fallback when one was needed."""
    line = f"construction ({info['method']}): {info['score']}/{max_score}"
    if info.get("fallback"):
        rounds = info.get("rounds", [])
        tried = [r["status"] for r in rounds if r.get("status") != "SKIPPED"]
        skipped = [r for r in rounds if r.get("status") == "SKIPPED"]
        notes = [f"CP-SAT found no solution ({', '.join(tried)})"] if tried else []
        if skipped:
            notes.append(
                f"{len(skipped)} CP-SAT round(s) skipped: {skipped[0].get('reason', 'no time left')}"
            )
        line += f"; {'; '.join(notes)}; fell back to {info['fallback']}"
    if info.get("finish"):
        line += (
            f"; no complete board in time: the deepest partial board ({info['best_depth']}/{info['depth']} cells"
            f" placed, {info['score_before_finish']} joins) was finished by {info['finish']}"
        )
    return line
