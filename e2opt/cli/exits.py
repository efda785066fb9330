"""Exit codes and the last lines of run and resume: what a script can tell from how e2opt ended.

0: finished by its stop criterion (or nothing left to do); 1: verify found a bad board; 2: a user mistake
(one line on stderr), or a folder another e2opt owns; 74 (EX_IOERR): a run ended because its folder could
not be written (disk full, quota, permission or read-only filesystem: engine/envfail.py; one line on
stderr); 128+N: stopped by signal N after saving everything (130 SIGINT, 143 SIGTERM, 129 SIGHUP), as shells
report a process killed by that signal.
"""

from __future__ import annotations

import signal
import sys

from ..engine.progress import silence

INTERRUPTED_CODE = 128 + signal.SIGINT  # a stop file created by someone else: as a Ctrl-C


def exit_code(stop_reason: str) -> int:
    """0 for a stop criterion; 128 + the signal's number for a run stopped by SIGINT, SIGTERM or SIGHUP."""
    if stop_reason == "interrupted":
        return INTERRUPTED_CODE
    try:
        return 128 + signal.Signals[stop_reason].value
    except KeyError:
        return 0


def say(text: str) -> None:
    """Print a result line; a closed stdout (``| head -1``, a closed terminal) loses the line, not the run's
    exit code: everything is in the run folder already."""
    try:
        print(text, flush=True)
    except (OSError, ValueError):
        silence(sys.stdout)
