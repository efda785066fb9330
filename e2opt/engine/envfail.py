"""Environment failures while a run goes on: the disk full, a quota reached, write permission or a writable
filesystem lost (ENOSPC, EDQUOT, EACCES, EPERM, EROFS, EIO while writing a checkpoint, best.board, events).

They are no user mistake (exit 2) and no crash: the run ends with one line naming the file, after everything
that can still be written was tried once (a checkpoint, best.board, the end event, result.json; best.board is
written atomically, so a failed write leaves the previous one whole), and exits with EXIT_CODE.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..core.errors import E2optError
from .runfolder import BEST, WRITE_FAILED

if TYPE_CHECKING:
    from .events import EventLog
    from .team import Team

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


@contextmanager
def faults_end_the_run(team: Team, events: EventLog) -> Iterator[None]:
    """Inside the block, an environment failure ends the run: what can be written is, then RunWriteFailed."""
    try:
        yield
    except OSError as exc:
        if not is_fault(exc):
            raise
        raise RunWriteFailed(_end(team, events, exc)) from None


def _end(team: Team, events: EventLog, exc: OSError) -> str:
    """Write what can still be written after ``exc``; the one line that says what happened and what is kept."""
    from .result import finish

    team.stop_reason = f"{WRITE_FAILED} ({where(exc)})"
    salvage = Salvage()
    if team.best_board is not None:
        if not team.unsearched():  # else a checkpoint is skipped on purpose (team.py)
            salvage.attempt("checkpoint", lambda: team.checkpoint(events))
        finish(team, events, salvage)
    else:
        salvage.attempt("end event", lambda: events.write("end", stop_reason=team.stop_reason))
    kept = ", ".join(salvage.written) or "nothing"
    lost = f"; not written: {', '.join(salvage.lost)}" if salvage.lost else ""
    board = "best.board is whole" if (team.dir / BEST).exists() else "no best.board yet"
    return (
        f"{where(exc)}; the run stopped and wrote what it could ({kept}{lost}); {board}; "
        f"`e2opt resume {team.dir}` continues it once the folder can be written again"
    )
