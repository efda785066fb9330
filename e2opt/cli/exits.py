"""How every e2opt command ends: the one table of exit codes (README "Command line"), the signals that stop a
command, and a standard output that may be closed by its reader.

0 done; 1 a negative answer (an invalid board, no perfect board, a limit reached before the answer, runs of
a sweep that failed); 2 a user mistake (one line on stderr); 74 (EX_IOERR) the environment failed (disk
full, quota, permission, read-only filesystem, I/O error: engine/envfail.py); 70 (EX_SOFTWARE) a bug in
e2opt (traceback); 128+N stopped by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP), as shells report it.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from typing import Any, TextIO

from ..core.errors import E2optError
from ..core.signals import RECEIVED, TERMINAL_SIGNALS, note_signal
from ..engine.envfail import EXIT_CODE, is_fault
from ..engine.progress import silence

DONE = 0
NEGATIVE = 1
MISTAKE = 2
BUG = 70  # EX_SOFTWARE of sysexits.h
ENVIRONMENT = EXIT_CODE  # 74, EX_IOERR


def signal_code(signum: int) -> int:
    """128 + N for a command stopped by signal N."""
    return 128 + signum


def interrupted_code() -> int:
    """The code of a command that a signal stopped: the last one caught, SIGINT when none was (a stop file
    created by someone else, or Python's own Ctrl-C handler)."""
    return signal_code(RECEIVED[-1] if RECEIVED else signal.SIGINT)


def stop_code(stop_reason: str) -> int:
    """A run, resume or sweep: 0 for a stop criterion; 128+N when signal N stopped it ("SIGTERM" ...)."""
    if stop_reason == "interrupted":
        return signal_code(signal.SIGINT)  # the stop file, created by someone else: as a Ctrl-C
    try:
        return signal_code(signal.Signals[stop_reason].value)
    except KeyError:
        return DONE


def answer_code(stopped: str | None, answered: bool) -> int:
    """A search with an answer (solve): 0 when it gave one, 1 when it is negative or a limit came first,
    128+N after a signal."""
    if stopped == "interrupted":
        return interrupted_code()
    return DONE if answered else NEGATIVE


def error_code(exc: BaseException) -> int:
    """An error that ended a command: 2 for a user's mistake (E2optError, or a path that does not exist or
    is not a folder), 74 for the environment (a full disk, lost permission: envfail.FAULTS)."""
    if isinstance(exc, E2optError):
        return getattr(exc, "exit_code", MISTAKE)
    return ENVIRONMENT if is_fault(exc) else MISTAKE


class StopSignalsUnwind:
    """While a command runs (main thread), SIGINT, SIGTERM and SIGHUP unwind it like a Ctrl-C
    (KeyboardInterrupt) and are remembered for its exit code; a signal the shell left ignored (nohup, a
    background job) stays ignored, and a run's own handlers (core/signals.StopSignals) take over inside."""

    def __enter__(self) -> StopSignalsUnwind:
        self.old: dict[int, Any] = {}
        RECEIVED.clear()
        if threading.current_thread() is threading.main_thread():
            for sig in TERMINAL_SIGNALS:
                if signal.getsignal(sig) is not signal.SIG_IGN:
                    self.old[sig] = signal.signal(sig, _unwind)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self.old.items():
            signal.signal(sig, handler)


def _unwind(signum: int, frame: Any) -> None:
    """Signal handler: remember the signal, then unwind the command as a Ctrl-C does."""
    note_signal(signum)
    raise KeyboardInterrupt


class ClosedPipeSafe:
    """Standard output whose reader may go away (``e2opt report DIR | head -1``, a closed terminal): the
    first failed write points it at /dev/null, so the rest is dropped without a word and the command ends
    with its own exit code (0 when it finished), as `run` always did: the reader had seen enough."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except (OSError, ValueError):
            silence(self.stream)
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except (OSError, ValueError):
            silence(self.stream)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def tell(text: str, stream: TextIO | None = None) -> None:
    """Write one line to stderr (or ``stream``); a closed stderr loses it, never the exit code."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=stream or sys.stderr, flush=True)
