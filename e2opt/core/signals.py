"""Signals: Ctrl-C and SIGTERM stop a run, a sweep or a solve cleanly; a stop file reaches runs in other
processes.

First SIGINT/SIGTERM: the search stops after its current move; a second SIGINT: at once, unless it comes
within REPEAT_S of the first, when it is the same request delivered twice (``timeout -s INT`` signals the
command and then its process group; so does a script's ``kill`` of a pid and of its group). A sweep (or a run's
worker processes) asks runs in other processes to stop by creating a stop file, which StopWatcher turns into
a SIGTERM for its own process.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any


class Interrupted:
    """Set from a signal handler (``trigger``); stops the search after the current move."""

    def __init__(self):
        self.triggered = False
        self.reason = "interrupted"

    def trigger(self, why: str = "interrupted") -> None:
        self.reason = why
        self.triggered = True

    def __call__(self, status: object) -> bool:  # a stop criterion (search/stop.py)
        return self.triggered


TERMINAL_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
RECEIVED: list[
    int
] = []  # the terminal signals this process caught, in order: a command's exit code (cli/exits)


def note_signal(signum: int) -> None:
    """Remember a caught terminal signal for the command's exit code (128 + N of the last one)."""
    RECEIVED.append(signum)


REPEAT_S = 0.25  # a second SIGINT sooner than this after the first is the first one again (module docstring)


class StopSignals:
    """First SIGINT/SIGTERM/SIGHUP: stop after the current move; a second SIGINT REPEAT_S or more later: stop
    at once. A signal the shell left ignored stays ignored: `nohup e2opt run ...` goes on when its terminal
    closes."""

    def __init__(self, interrupted: Interrupted):
        self.interrupted = interrupted
        self.old: dict[int, Any] = {}
        self.first = -float("inf")  # when the first signal came (monotonic s)

    def _handle(self, signum, frame):
        now = time.monotonic()
        if self.interrupted.triggered and signum == signal.SIGINT:
            if now - self.first >= REPEAT_S:
                raise KeyboardInterrupt
            return  # the same request, delivered to the process and to its group
        self.first = now
        self.interrupted.trigger(signal.Signals(signum).name)

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in TERMINAL_SIGNALS:
                if signal.getsignal(sig) is not signal.SIG_IGN:  # nohup, a background job: stays ignored
                    self.old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc):
        for sig, handler in self.old.items():
            signal.signal(sig, handler)


def _raise_interrupt(signum: int, frame: Any) -> None:
    """SIGTERM handler outside the search: unwind the run like a Ctrl-C."""
    raise KeyboardInterrupt


class TermAsCtrlC:
    """While active (main thread only), SIGTERM unwinds like a Ctrl-C (KeyboardInterrupt): ``e2opt solve``
    then stops cleanly and says what it found, as a kill by a scheduler or ``timeout`` asks; StopWatcher."""

    def __enter__(self) -> TermAsCtrlC:
        self.old = None
        if threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGTERM, _raise_interrupt)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.old is not None:
            signal.signal(signal.SIGTERM, self.old)


class StopWatcher:
    """While a run executes in a process's main thread, a stop file becomes a SIGTERM to this process:
    run.py turns it into a clean stop after the current move (a KeyboardInterrupt before the search starts).

    Dask runs tasks in threads, which signals cannot reach: there the watcher does nothing.
    """

    def __init__(self, path: Path):
        self.path = path
        self.active = threading.current_thread() is threading.main_thread()
        self.done = threading.Event()

    def _watch(self) -> None:
        """Thread body: poll for the stop file twice a second until the run ends."""
        while not self.done.wait(0.5):
            if self.path.exists():
                os.kill(os.getpid(), signal.SIGTERM)
                return

    def __enter__(self) -> StopWatcher:
        if self.active:
            self.term = TermAsCtrlC().__enter__()
            self.thread = threading.Thread(target=self._watch, daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.active:
            self.done.set()
            self.thread.join()
            self.term.__exit__()


def ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent (which stops them through the stop file); a run's search
    still installs its own handler and stops cleanly on a Ctrl-C from the terminal."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def ignore_terminal_signals() -> None:
    """A run's worker processes leave Ctrl-C, SIGTERM and a hang-up to the run (which stops them through the
    stop file after they answer), so a signal to the whole process group never kills a worker mid-round."""
    for sig in TERMINAL_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


def worker_context(preload: str | list[str], env: dict[str, str] | None = None) -> BaseContext:
    """The start method of e2opt's worker processes: multiprocessing's forkserver, its server importing
    ``preload`` once, so each worker is forked ready (a spawned one paid ~1 CPU s of imports: numba, scipy).
    The server, and the resource tracker it starts, begin with the terminal signals ignored: a Ctrl-C,
    SIGTERM or hang-up to the process group must not end them under running workers (the caller would take
    its workers for dead; a new tracker prints a traceback per name the workers unregister). ``env``: variables
    the server starts with (what its preloaded modules read), set only while it starts."""
    from multiprocessing import forkserver, get_context

    context = get_context("forkserver")
    context.set_forkserver_preload([preload] if isinstance(preload, str) else list(preload))
    old = {sig: signal.signal(sig, signal.SIG_IGN) for sig in TERMINAL_SIGNALS}
    saved = {key: os.environ.get(key) for key in env or {}}
    os.environ.update(env or {})
    try:
        forkserver.ensure_running()
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return context


class Deferred:
    """While active (main thread), Ctrl-C and SIGHUP wait (blocked), then arrive at the block's end and are
    handled as usual (a KeyboardInterrupt may come out of the ``with``). Threads and processes started inside
    inherit the mask and never see them: a Ctrl-C in the middle of a Dask LocalCluster's start raised inside
    distributed and killed its workers as they started, which printed tracebacks and failed the start.
    SIGTERM stays: the cluster's own shutdown ends its workers with it."""

    SIGNALS = frozenset({signal.SIGINT, signal.SIGHUP})

    def __enter__(self) -> Deferred:
        self.old: set[int] | None = None
        if threading.current_thread() is threading.main_thread():
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, self.SIGNALS)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)
