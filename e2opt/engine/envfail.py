"""Environment failures while a run goes on: the disk full, a quota reached, write permission or a writable
filesystem lost (ENOSPC, EDQUOT, EACCES, EPERM, EROFS, EIO while writing a checkpoint, best.board, events).

They are no user mistake (exit 2) and no crash: the run ends with one line naming the file, after everything
that can still be written was tried once (a checkpoint, best.board, the end event, result.json; best.board is
written atomically, so a failed write leaves the previous one whole), and exits with EXIT_CODE. The block
that ends a run so is ``result.faults_end_the_run``, beside the normal end.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from typing import Any

from ..core.errors import E2optError

FAULTS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS, errno.EIO})
EXIT_CODE = 74  # EX_IOERR of sysexits.h: an error while doing I/O on some file


class RunWriteFailed(E2optError):
    """A run ended by an environment failure; the command line prints the message and exits EXIT_CODE."""

    exit_code = EXIT_CODE


def is_fault(exc: BaseException) -> bool:
    """An OSError of the environment (above), not of a bug or a user's input."""
    return isinstance(exc, OSError) and exc.errno in FAULTS


def where(exc: OSError) -> str:
    """The file and the system's words: ``/runs/r/checkpoint: No space left on device``."""
    text = exc.strerror or os.strerror(exc.errno or 0)
    return f"{exc.filename}: {text}" if exc.filename else text


class Salvage:
    """The writes that end a run after a failure: each is tried once, and a failure is noted, not raised."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.lost: list[str] = []

    def attempt(self, name: str, write: Callable[[], Any]) -> None:
        try:
            write()
        except OSError as exc:
            self.lost.append(f"{name} ({exc.strerror or exc})")
        else:
            self.written.append(name)
