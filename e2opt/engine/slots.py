"""Where a run's workers execute: in the run's own process (one worker), or one local process per worker,
a killed one replaced alone.

A ProcessPoolExecutor breaks as a whole when one of its processes dies (every task in flight fails); here
each worker has its own process and pipe, so a ``kill -9`` costs only that worker's round, which the run
submits again from the state it holds. Same interface as the sweep's pools (submit, wait, cancel, close).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future
from multiprocessing.connection import Connection, wait
from typing import Any

from ..core.signals import ignore_terminal_signals, worker_context


class WorkerDied(Exception):
    """The process running a round ended without answering (killed, out of memory)."""


def _serve(conn: Connection) -> None:
    """Process body: run each (fn, task) received and send back ("ok", answer) or ("error", exception)."""
    ignore_terminal_signals()
    while True:
        try:
            fn, task = conn.recv()
        except EOFError:
            return
        try:
            conn.send(("ok", fn(task)))
        except Exception as exc:  # the run decides; a traceback is no use across the pipe
            conn.send(("error", exc))


class _Slot:
    """One process and its pipe; ``future`` is the round it runs, if any."""

    def __init__(self, context: Any):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.future: Future | None = None
        self.pid = self.process.pid


class LocalSlots:
    """``workers`` processes (forked from a server that has imported the round's modules); a dead one is
    replaced before the next submit."""

    waits_for_running = True
    stop_note = "workers stop after their current move"

    def __init__(self, workers: int):
        self.context = worker_context("e2opt.engine.round")
        self.workers = workers
        self.slots = [_Slot(self.context) for _ in range(workers)]

    def describe(self) -> str:
        return f"{self.workers} local worker process{'es' if self.workers > 1 else ''}"

    def pids(self) -> list[int]:
        """The process ids of the workers (for tests and the kill -9 measurement)."""
        return [slot.pid for slot in self.slots]

    def submit(self, fn: Callable[[dict], dict], task: dict) -> Future:
        """Run fn(task) in an idle process (a new one replaces a dead one)."""
        for i, slot in enumerate(self.slots):
            if slot.future is None:
                if not slot.process.is_alive():
                    self.slots[i] = slot = _Slot(self.context)
                future: Future = Future()
                future.set_running_or_notify_cancel()
                slot.conn.send((fn, task))
                slot.future = future
                return future
        raise RuntimeError("every worker process is busy")

    def wait(self, futures: set, timeout: float) -> set:
        """Collect answers (and deaths) for up to ``timeout`` seconds; the futures done."""
        busy = {slot.conn: slot for slot in self.slots if slot.future is not None}
        busy.update({slot.process.sentinel: slot for slot in self.slots if slot.future is not None})
        for ready in wait(list(busy), timeout):
            slot = busy[ready]
            if slot.future is None:
                continue
            future, slot.future = slot.future, None
            try:
                kind, value = slot.conn.recv() if slot.conn.poll() else ("died", None)
            except (EOFError, OSError):
                kind, value = "died", None
            if kind == "ok":
                future.set_result(value)
            elif kind == "error":
                future.set_exception(value)
            else:
                slot.process.join(1)
                code = slot.process.exitcode
                future.set_exception(WorkerDied(f"worker process {slot.pid} ended (exit code {code})"))
        return {future for future in futures if future.done()}

    def cancel(self, futures: set) -> None:
        """Rounds in flight cannot be cancelled: they end at the stop file."""

    def close(self, wait: bool = True) -> None:
        for slot in self.slots:
            slot.conn.close()
        for slot in self.slots:
            slot.process.join(10 if wait else 0.1)
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join()


class InProcess:
    """The one worker of a run in the run's own process: a round runs when it is submitted (no process, no
    pipe, no copy). Signals reach the round directly; the stop file they create ends it after the move."""

    waits_for_running = True
    stop_note = "the worker stops after its current move"

    def describe(self) -> str:
        return "this process"

    def pids(self) -> list[int]:
        return [os.getpid()]

    def submit(self, fn: Callable[[dict], dict], task: dict) -> Future:
        """Run fn(task) now; its answer (or exception) is in the returned future."""
        future: Future = Future()
        future.set_running_or_notify_cancel()
        try:
            future.set_result(fn(task))
        except Exception as exc:  # the coordinator decides, as for a worker process
            future.set_exception(exc)
        return future

    def wait(self, futures: set, timeout: float) -> set:
        return {future for future in futures if future.done()}

    def cancel(self, futures: set) -> None:
        """Nothing is ever in flight between two calls."""

    def close(self, wait: bool = True) -> None:
        """No process to end."""
