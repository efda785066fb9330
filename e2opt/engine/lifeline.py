"""Worker processes that never outlive their run: whatever ends the run's process (kill -9
included), each of its local worker processes ends within a second, writes nothing more and prints nothing.

Two guards, either one enough on its own:
- ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` (Linux, through ctypes): the kernel kills the worker when its parent
  ends. A worker's parent is multiprocessing's fork server, which ends when the run's process does (it reads
  EOF on its lifeline pipe).
- a daemon thread that waits on the run process (a pidfd, Linux 5.3+; a look every 0.2 s elsewhere) and ends
  the worker with ``os._exit`` when that process is gone: no Python clean-up, no write, no traceback.

A worker also holds the run folder's lock (core/folderlock.py) as its run does: the lock is the open file,
shared by every process that holds it, so no ``resume`` can own the folder while any worker of the run is
alive. Rounds on Dask cannot be reached that way; they stop when the run no longer owns the folder
(``OwnerWatch``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ..core.folderlock import owner
from .roundguard import StaleRound

PR_SET_PDEATHSIG = 1
LOOK_S = 0.2  # how often the fallback watch looks at the run's process
OWNER_LOOK_S = 0.5  # how often a Dask round looks at the run folder's owner
EXIT_CODE = 75  # a worker whose run is gone (nobody reads it: its run is dead)


def die_with_parent() -> bool:
    """Ask the kernel to kill this process when its parent ends; False where it cannot (not Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _alive(pid: int) -> bool:
    """The process exists (a zombie counts as ended for the run: it answers nothing)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True


def _watch(pid: int) -> None:
    """Thread body: return only when process ``pid`` has ended, then end this process at once."""
    fd = None
    with contextlib.suppress(OSError, AttributeError):
        fd = os.pidfd_open(pid)
    if fd is not None:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while not poller.poll(1000) and _alive(pid):
            pass
    else:
        while _alive(pid):
            time.sleep(LOOK_S)
    os._exit(EXIT_CODE)


def bind_to_run(run_pid: int) -> None:
    """This worker process ends when the run's process ``run_pid`` does (both guards of the module doc)."""
    die_with_parent()
    if not _alive(run_pid):
        os._exit(EXIT_CODE)
    threading.Thread(target=_watch, args=(run_pid,), daemon=True, name="e2opt-lifeline").start()


class OwnerWatch:
    """For a round far from its run (Dask): ``lost()`` holds once the run folder is no longer owned by the
    process that submitted it (killed, or another ``resume`` took it over); looked at every OWNER_LOOK_S."""

    def __init__(self, run_dir: Path, run_pid: int):
        self.run_dir, self.run_pid = run_dir, run_pid
        self.looked, self.gone = 0.0, False

    def lost(self) -> bool:
        if self.run_pid <= 0 or self.gone:
            return self.gone
        now = time.monotonic()
        if now - self.looked >= OWNER_LOOK_S:
            self.looked = now
            self.gone = owner(self.run_dir) not in (self.run_pid, -1)
        return self.gone


class Watched:
    """A round's claim (roundguard.py) that also goes stale when the run no longer owns its folder: the round
    stops at its next look, as a stale copy does, and writes nothing more."""

    def __init__(self, claim: Any, watch: OwnerWatch):
        self.claim, self.watch = claim, watch

    def __enter__(self) -> Watched:
        self.claim.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.claim.__exit__(*exc)

    def stale(self) -> bool:
        return self.watch.lost() or self.claim.stale()

    def check(self) -> None:
        if self.watch.lost():
            raise StaleRound(
                f"{self.watch.run_dir}: the run that submitted this round no longer owns its folder"
            )
        self.claim.check()
