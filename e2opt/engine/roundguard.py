"""One writer per producer folder: a copy of a round that Dask lost but that still runs never writes beside
the copy submitted again (docs/workers.md).

Every submission of a round carries a token that sorts after every earlier one (coordinator.py). A round
claims the folder by writing its token to ``.round-token`` under a brief lock on ``.round-claim`` (refused
when a later token is there already), then holds an OS lock on ``.round-lock`` for the whole round: the copy
submitted again waits for the stale copy to let go. The stale copy sees another token at its next look (its
construction's stop check, and before it saves a board), stops its construction, writes nothing more and
ends with StaleRound; the OS releases its lock even when its process is killed.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..core.errors import E2optError
from ..core.fsutil import atomic_write_text

TOKEN, LOCK, CLAIM = ".round-token", ".round-lock", ".round-claim"
POLL_S = 0.05  # how often a waiting copy tries the lock
LOOK_S = 0.2  # how often a running copy reads the token (its construction asks many times a second)


class StaleRound(E2optError):
    """This copy of a round was submitted again elsewhere: it must not write the folder."""


class Unclaimed:
    """The claim of a role that writes no folder of its own: never stale."""

    def __enter__(self) -> Unclaimed:
        return self

    def __exit__(self, *exc: Any) -> None:
        """Nothing to let go."""

    def stale(self) -> bool:
        return False

    def check(self) -> None:
        """Nothing to check."""


class FolderClaim:
    """``with FolderClaim(folder, token) as claim:`` the round may write ``folder`` while ``claim.stale()`` is
    False. An empty token (a caller that never resubmits, the tests) still takes the lock."""

    def __init__(self, folder: Path, token: str):
        self.folder, self.token = folder, token
        self.fd: int | None = None
        self.looked, self.was_stale = 0.0, False

    def holder(self) -> str:
        """The token of the latest claim ("" when none was written)."""
        try:
            return (self.folder / TOKEN).read_text()
        except FileNotFoundError:
            return ""

    def __enter__(self) -> FolderClaim:
        self.folder.mkdir(parents=True, exist_ok=True)
        with _flock(self.folder / CLAIM, fcntl.LOCK_EX):  # claims are written one at a time, briefly
            if self.holder() > self.token:
                raise StaleRound(f"{self.folder}: a later copy of this round owns it ({self.holder()})")
            atomic_write_text(self.folder / TOKEN, self.token)
        self.fd = os.open(self.folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                time.sleep(POLL_S)  # the stale copy stops at its next look
        self.check()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.fd is not None:
            os.close(self.fd)  # releases the lock
            self.fd = None

    def stale(self) -> bool:
        """A later copy claimed the folder (read at most every LOOK_S seconds; once stale, always)."""
        now = time.monotonic()
        if not self.was_stale and now - self.looked >= LOOK_S:
            self.looked, self.was_stale = now, self.holder() != self.token
        return self.was_stale

    def check(self) -> None:
        """StaleRound when a later copy claimed the folder (read now)."""
        self.looked = 0.0
        if self.stale():
            raise StaleRound(f"{self.folder}: a later copy of this round owns it; this copy writes nothing")


@contextmanager
def _flock(path: Path, how: int) -> Iterator[None]:
    """An OS lock on ``path`` (created), waited for, held for the block."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, how)
        yield
    finally:
        os.close(fd)


Claim = FolderClaim | Unclaimed  # what a round holds (Role.claim)
