"""One owner per folder: an OS lock (flock) on a lock file in a run or sweep folder.

The lock belongs to the open file, so the OS releases it when its process ends in any way (kill -9, a lost
machine's process table aside): a killed run never leaves its folder locked. The owner writes its pid into
the lock file, so that a second process can name it; the file's content is only a note, the flock is the
lock. Used by the run engine (run and resume) and by sweeps (one sweep process per sweep folder).
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from pathlib import Path
from typing import Any

from .errors import E2optError

LOCK_FILE = ".lock"
DRAIN_S = 3.0  # how long a new owner waits for the workers of an owner that is gone (engine/lifeline.py)
HELD: dict[Path, int] = {}  # folder -> the fd of the lock this process holds on it (shared with its workers)


def held_fd(folder: str | os.PathLike) -> int | None:
    """The fd of this process's lock on ``folder`` (a run's worker processes hold it too), None without one."""
    return HELD.get(Path(folder).resolve())


def _pid_alive(pid: object) -> bool:
    """A process with this pid exists (True when it cannot be told: the message then names it as the owner)."""
    if not isinstance(pid, int) or pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


class FolderBusy(E2optError):
    """The folder is owned by another live process; the message names its pid."""


def _read_owner(path: Path) -> dict[str, Any]:
    """The owner's note in the lock file ({} when absent or unreadable)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            data = json.loads(f.read(4096) or "{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class FolderLock:
    """``with FolderLock(folder, "run"):`` owns the folder until the block ends (or the process dies).

    A second owner gets FolderBusy: ``FOLDER: another e2opt <what> (pid N) owns this folder``. Re-entering in
    the process that holds it is refused too (flock is per open file), so one process cannot own a folder twice.
    """

    def __init__(self, folder: str | os.PathLike, what: str):
        self.folder, self.what = Path(folder), what
        self.path = self.folder / LOCK_FILE
        self.file: Any = None

    def __enter__(self) -> FolderLock:
        # O_NOFOLLOW and no truncation: a symlink planted as .lock is not followed, and the note stays
        # readable for the process that is refused
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        self.file = os.fdopen(fd, "r+", encoding="utf-8")
        deadline = time.monotonic() + DRAIN_S
        while True:
            try:
                fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                owner = _read_owner(self.path)
                if not _pid_alive(owner.get("pid")) and time.monotonic() < deadline:
                    time.sleep(0.05)  # its owner is gone: its worker processes end within a second
                    continue
                self.file.close()
                self.file = None
                raise FolderBusy(_busy(self.folder, owner, self.what)) from None
        note = {"pid": os.getpid(), "what": self.what}
        self.file.seek(0)
        self.file.truncate()
        self.file.write(json.dumps(note) + "\n")
        self.file.flush()
        HELD[self.folder.resolve()] = self.file.fileno()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.file is not None:
            HELD.pop(self.folder.resolve(), None)
            try:  # the note goes with the lock, so a folder left alone is the same before and after
                self.file.seek(0)
                self.file.truncate()
            except OSError:
                pass  # a full disk or a read-only folder: the note stays, harmless without the lock
            self.file.close()  # closing releases the flock
            self.file = None


def _busy(folder: Path, note: dict[str, Any], what: str) -> str:
    """Why a folder cannot be owned now: its owner's pid, or the worker processes of an owner that is gone."""
    pid = note.get("pid")
    if isinstance(pid, int) and not _pid_alive(pid):
        return (
            f"{folder}: worker processes of an e2opt {note.get('what', what)} that ended (pid {pid}) still "
            "hold this folder; they end within seconds: try again"
        )
    named = f" (pid {pid})" if isinstance(pid, int) else ""
    return (
        f"{folder}: another e2opt {note.get('what', what)}{named} owns this folder; "
        "wait for it to end or stop it (Ctrl-C / kill PID) first"
    )


def owner(folder: str | os.PathLike) -> int | None:
    """The pid of the live process that owns ``folder`` now, None when nobody holds its lock.

    Probes with a shared non-blocking flock on a separate open file, released at once; it never waits.
    """
    path = Path(folder) / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = _read_owner(path).get("pid")
        return pid if isinstance(pid, int) else -1
    finally:
        os.close(fd)
    return None
