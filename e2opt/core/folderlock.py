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
from pathlib import Path
from typing import Any

from .errors import E2optError

LOCK_FILE = ".lock"


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
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.file.close()
            self.file = None
            owner = _read_owner(self.path)
            pid = f" (pid {owner['pid']})" if isinstance(owner.get("pid"), int) else ""
            raise FolderBusy(
                f"{self.folder}: another e2opt {owner.get('what', self.what)}{pid} owns this folder; "
                "wait for it to end or stop it (Ctrl-C / kill PID) first"
            ) from None
        note = {"pid": os.getpid(), "what": self.what}
        self.file.seek(0)
        self.file.truncate()
        self.file.write(json.dumps(note) + "\n")
        self.file.flush()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.file is not None:
            try:  # the note goes with the lock, so a folder left alone is the same before and after
                self.file.seek(0)
                self.file.truncate()
            except OSError:
                pass  # a full disk or a read-only folder: the note stays, harmless without the lock
            self.file.close()  # closing releases the flock
            self.file = None


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
