"""Where a run's live view and messages, and a sweep's lines, go: a block of lines redrawn in place on a
terminal, plain lines otherwise (nohup, cron, a pipe). The figures come from liveview.py and sweep/loop.py;
this module only writes them.

Output never stops a run or a sweep: when stdout is a closed pipe or a hung-up terminal, progress goes
nowhere and the work goes on.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from .config import RunConfig

UP_TO_LINE_START = "\x1b[{}F"  # ANSI: cursor up N lines, to their first column
CLEAR_LINE_END, CLEAR_BELOW = "\x1b[K", "\x1b[J"


def format_clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Progress:
    """The live view's block (``show``) and the run's messages, from any thread: on a terminal the block stays
    under the messages and is redrawn in place; otherwise each ``show`` prints its lines once. ``cfg`` None:
    messages only (a sweep's lines), no view to pace."""

    def __init__(self, cfg: RunConfig | None, quiet: bool, stream: TextIO | None = None):
        self.stream = stream or sys.stdout
        self.quiet = quiet
        self.live = self.stream.isatty()
        output = None if cfg is None else cfg.output
        self.every = (
            0.0 if output is None else output.progress_every_wall_s if self.live else output.log_every_wall_s
        )
        self.block: list[str] = []  # the lines of the view on the terminal now, the cursor just below them
        self.lock = threading.Lock()

    def show(self, lines: list[str]) -> None:
        """The view's lines: redrawn over the previous ones on a terminal, printed as plain lines otherwise."""
        with self.lock:
            if self.quiet:
                return
            if not self.live:
                self._write("".join(line + "\n" for line in lines))
                return
            fewer = CLEAR_BELOW if len(lines) < len(self.block) else ""
            self._write(
                self._up() + "".join(self._fit(line) + CLEAR_LINE_END + "\n" for line in lines) + fewer
            )
            self.block = list(lines)

    def message(self, text: str) -> None:
        """A line of its own (construction done, a worker lost), above the view's block."""
        with self.lock:
            if self.quiet:
                return
            self._write(self._clear() + text + "\n" + self._redraw())

    def warn(self, text: str) -> None:
        """A warning: to stderr, shown even with ``--quiet`` (quiet hides progress, never a problem)."""
        with self.lock:
            if not self.quiet:
                self._write(self._clear())
            warn(text)
            if not self.quiet:
                self._write(self._redraw())

    def close(self) -> None:
        """Leave the view's last block on the screen; what follows starts on the line below it."""
        with self.lock:
            self.block = []

    def _up(self) -> str:
        """To the first line of the block on the terminal (nothing when none is drawn)."""
        return UP_TO_LINE_START.format(len(self.block)) if self.block else ""

    def _clear(self) -> str:
        """The block wiped from the terminal, the cursor where it began (nothing when none is drawn)."""
        return self._up() + CLEAR_BELOW if self.block else ""

    def _redraw(self) -> str:
        return "".join(self._fit(line) + CLEAR_LINE_END + "\n" for line in self.block)

    @staticmethod
    def _fit(line: str) -> str:
        """A line cut to the terminal's width: a wrapped line would throw the cursor-up count off."""
        return line[: max(20, shutil.get_terminal_size((100, 24)).columns - 1)]

    def _write(self, text: str) -> None:
        """Write and flush; a closed pipe or terminal silences the progress for good, never the run."""
        if not text:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.quiet, self.block = True, []
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
    """What construction did, for people: the score, a CP-SAT fallback when one was needed, a DFS's depth."""
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
    if info.get("completion"):  # a DFS construction: how deep it got, how its best partial was completed
        fill = info["completion"].get("fill", "")
        line += f"; the DFS placed {info['best_placed']} pieces" + (
            f", holes filled by {fill}" if fill else ""
        )
    return line
