"""Local processes: a sweep's queue of runs (LocalPool), a run's one process per worker (LocalSlots).

They differ on purpose. A sweep submits all its runs at once and each run checkpoints itself, so a
ProcessPoolExecutor's queue fits, and a dead process (which breaks the whole pool) fails only runs that
resume. A run's rounds hold state only the coordinator has: each worker gets its own process and pipe, so a
``kill -9`` costs only that worker's round, which the run submits again from the state it holds, and each
process is bound to the run's process and holds the run folder's lock (lifeline.py): it never outlives its run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from multiprocessing import get_context
from multiprocessing.connection import Connection, wait
from typing import Any

from ...core.folderlock import held_fd
from ...core.signals import ignore_sigint, ignore_terminal_signals, worker_context
from ..lifeline import bind_to_run
from ..prewarm import PREWARM_ENV, SERVER_MODULES


def processes(n: int) -> str:
    """``n`` local worker processes, for the first line of a sweep or a run."""
    return f"{n} local worker process{'es' if n > 1 else ''}"


class LocalPool:
    """A sweep's process pool (spawn start method). Stopping waits for the runs in flight: they stop after
    their move."""

    waits_for_running = True
    stop_note = "runs in flight stop after their current move (Ctrl-C again to abandon them)"
    bound_to_run = False

    def __init__(self, workers: int):
        self.workers = workers
        self.pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=ignore_sigint)

    def describe(self) -> str:
        return processes(self.workers)

    def pids(self) -> list[int]:
        return []

    def submit(self, fn: Callable[[Any], Any], task: Any) -> Future:
        return self.pool.submit(fn, task)

    def wait(self, futures: set, timeout: float) -> set:
        return wait_futures(futures, timeout, FIRST_COMPLETED).done

    def cancel(self, futures: set) -> None:
        for future in futures:
            future.cancel()

    def lost_attempts(self, future: Any) -> int:
        return 0

    def close(self, wait: bool = True) -> None:
        self.pool.shutdown(wait=wait, cancel_futures=True)


class WorkerDied(Exception):
    """The process running a round ended without answering (killed, out of memory); ``cpu_s``: the CPU its
    round had used when it was last seen (at most one wait of the coordinator before its end)."""

    def __init__(self, message: str, cpu_s: float = 0.0):
        super().__init__(message)
        self.cpu_s = cpu_s


TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) process ``pid`` has used, from /proc; None where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[-1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except (OSError, ValueError, IndexError):
        return None


class SharedFd:
    """An open file (the run folder's lock) handed to a worker process: it arrives as the same open file, so
    the process holds the lock with its run (multiprocessing passes it as it passes a pipe)."""

    def __init__(self, fd: int | None):
        self.fd = fd

    def __reduce__(self) -> tuple:
        from multiprocessing import reduction

        return (_shared_fd, (None if self.fd is None else reduction.DupFd(self.fd),))


def _shared_fd(dup: Any) -> int | None:
    """In the worker: the fd it holds (never read or written; closed when the process ends)."""
    return None if dup is None else dup.detach()


def _serve(conn: Connection, run_pid: int = 0, lock: int | None = None) -> None:
    """Process body: run each (fn, task) received and send back ("ok", answer) or ("error", exception).
    ``lock``: the run folder's lock, held (not used) until this process ends."""
    ignore_terminal_signals()
    if run_pid:
        bind_to_run(run_pid)
    while True:
        try:
            fn, task = conn.recv()
        except EOFError:
            return
        try:
            reply = ("ok", fn(task))
        except Exception as exc:  # the run decides; a traceback is no use across the pipe
            reply = ("error", exc)
        try:
            conn.send(reply)
        except (BrokenPipeError, ConnectionResetError):  # the run is gone (stopped mid-round): nobody to tell
            return
        except Exception as exc:  # an answer that does not pickle: said as the round's error
            conn.send(("error", exc))


class _Slot:
    """One process and its pipe; ``future`` is the round it runs, if any."""

    def __init__(self, context: Any, lock: SharedFd):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, os.getpid(), lock), daemon=True)
        self.process.start()
        child.close()
        self.future: Future | None = None
        self.pid = self.process.pid
        self.cpu_start = self.cpu_seen = 0.0  # the process's CPU when its round began, and when last seen

    def look(self) -> None:
        """Note the CPU the process has used (what its round cost, should it die)."""
        cpu = process_cpu(self.pid)
        if cpu is not None:
            self.cpu_seen = cpu


class LocalSlots:
    """``workers`` processes (forked from a server that has imported the round's modules); a dead one is
    replaced before the next submit."""

    waits_for_running = True
    stop_note = "workers stop after their current move"
    bound_to_run = True

    def __init__(self, workers: int, run_dir: Any = None, config: dict | None = None):
        env = {} if config is None else {PREWARM_ENV: json.dumps({"data": config})}
        self.context = worker_context(SERVER_MODULES, env)  # started already by `e2opt run`: kept
        self.workers = workers
        self.lock = SharedFd(None if run_dir is None else held_fd(run_dir))
        self.slots = [_Slot(self.context, self.lock) for _ in range(workers)]

    def describe(self) -> str:
        return processes(self.workers)

    def pids(self) -> list[int]:
        """The process ids of the workers (for tests and the kill -9 measurement)."""
        return [slot.pid for slot in self.slots]

    def submit(self, fn: Callable[[Any], Any], task: Any) -> Future:
        """Run fn(task) in an idle process (a new one replaces a dead one)."""
        for i, slot in enumerate(self.slots):
            if slot.future is None:
                if not slot.process.is_alive():
                    self.slots[i] = slot = _Slot(self.context, self.lock)
                future: Future = Future()
                future.set_running_or_notify_cancel()
                slot.look()
                slot.cpu_start = slot.cpu_seen
                slot.conn.send((fn, task))
                slot.future = future
                return future
        raise RuntimeError("every worker process is busy")

    def wait(self, futures: set, timeout: float) -> set:
        """Collect answers (and deaths) for up to ``timeout`` seconds; the futures done."""
        for slot in self.slots:
            if slot.future is not None:
                slot.look()
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
                cpu = max(0.0, slot.cpu_seen - slot.cpu_start)
                future.set_exception(WorkerDied(f"worker process {slot.pid} ended (exit code {code})", cpu))
        return {future for future in futures if future.done()}

    def cancel(self, futures: set) -> None:
        """Rounds in flight cannot be cancelled: they end at the stop file."""

    def lost_attempts(self, future: Any) -> int:
        """A dead process is seen at once (WorkerDied): no loss goes unseen."""
        return 0

    def close(self, wait: bool = True) -> None:
        for slot in self.slots:
            slot.conn.close()
        for slot in self.slots:
            slot.process.join(10 if wait else 0.1)
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join()
