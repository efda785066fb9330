"""Ctrl-C at any moment of an ``e2opt`` command prints no traceback: also while the command's modules are
still being imported (the first 0.3 s, before ``main`` catches it) and while the interpreter ends after it.

Installed from the first lines of ``e2opt/__init__.py`` only when the process is the command (the ``e2opt``
script or ``python -m e2opt``), never for a program that imports e2opt. A KeyboardInterrupt that reaches
the top is said in one line (``e2opt: interrupted``, and Python still ends the process by SIGINT, status 130
to the shell), and one raised where Python can only report it (an atexit callback, a finaliser: "Exception
ignored in ...") is dropped; any other exception is reported as before, but for one: a Ctrl-C that lands
inside numpy's C import comes out as an ImportError with the KeyboardInterrupt lost, so Python's own Ctrl-C
handler is wrapped to remember the signal (a SIGINT the shell left ignored stays ignored), and an ImportError
after it is the interruption it is (status 130).
"""

from __future__ import annotations

import os
import signal
import sys
from types import TracebackType
from typing import Any

from ..core.signals import RECEIVED, note_signal


def is_command() -> bool:
    """This process is the e2opt command: its script, or ``python -m e2opt`` (while runpy looks the module
    up, which imports this package, ``sys.argv[0]`` is ``-m``)."""
    first = sys.argv[0] if sys.argv else ""
    return first == "-m" or os.path.basename(first) in ("e2opt", "e2opt.exe")


def install() -> None:
    """The hooks that keep a KeyboardInterrupt's traceback from the terminal (once per process)."""
    if sys.excepthook is not _excepthook:
        global _previous_excepthook, _previous_unraisable
        _previous_excepthook, _previous_unraisable = sys.excepthook, sys.unraisablehook
        sys.excepthook, sys.unraisablehook = _excepthook, _unraisable
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupt)


def _interrupt(signum: int, frame: Any) -> None:
    """Python's Ctrl-C handler, remembering the signal as every caught one is (core/signals.RECEIVED)."""
    note_signal(signum)
    signal.default_int_handler(signum, frame)


_previous_excepthook = sys.__excepthook__
_previous_unraisable = sys.__unraisablehook__


def _excepthook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    """An exception that reached the top: a KeyboardInterrupt in one line, anything else as Python says it."""
    lost = signal.SIGINT in RECEIVED and issubclass(
        kind, ImportError
    )  # the Ctrl-C numpy's C import turned into this
    if issubclass(kind, KeyboardInterrupt) or lost:
        try:
            sys.stderr.write("e2opt: interrupted\n")
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            pass
        if lost:
            os._exit(128 + signal.SIGINT)
        return
    _previous_excepthook(kind, value, tb)


def _unraisable(report: Any) -> None:
    """An exception Python can only report ("Exception ignored in ..."): a KeyboardInterrupt is dropped."""
    if isinstance(report.exc_value, KeyboardInterrupt):
        return
    _previous_unraisable(report)
