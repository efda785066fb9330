"""The sweep loop: submit runs, record their status as they end, stop cleanly on a signal."""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..config.schema import build
from ..construct import ConstructConfig, threads_used
from ..core.cores import slots_for
from ..core.signals import Interrupted, StopSignals
from ..engine.executors import Pending, sweep_executor
from ..engine.progress import Progress, format_clock
from ..engine.runfolder import is_finished
from .folder import STOP_FILE, SweepLock
from .spec import Sweep, SweepRun
from .worker import execute


class SweepProgress:
    """One line per finished run: counts over all runs, elapsed time and an ETA from this session's pace,
    written through the run's Progress (a closed pipe silences it, never the sweep)."""

    def __init__(self, sweep: Sweep, todo: int, out: Progress):
        self.sweep, self.todo, self.out = sweep, todo, out
        self.start = time.perf_counter()
        self.finished = 0

    def line(self, run_id: str, outcome: dict[str, Any]) -> None:
        """Print the line for a run that just finished (statuses already recorded in the sweep)."""
        self.finished += 1
        counts = Counter(self.sweep.status_of(run.id) for run in self.sweep.runs)
        total = len(self.sweep.runs)
        elapsed = time.perf_counter() - self.start
        left = self.todo - self.finished
        eta = f", ETA {format_clock(elapsed / self.finished * left)}" if left else ""
        what = outcome["status"]
        if "result" in outcome:
            r = outcome["result"]
            what += f" {r['best_score']}/{r['max_score']} in {r['wall_s']:.0f} s"
        elif outcome.get("error"):
            what += f": {outcome['error']}"
        self.out.message(
            f"[{counts['done'] + counts['failed']}/{total}] {run_id} {what} | done {counts['done']}, "
            f"failed {counts['failed']}, total {total} | {format_clock(elapsed)} elapsed{eta}"
        )


@dataclass
class SweepOutcome:
    """How a call of run_sweep ended: counts by status over all runs, and whether it was interrupted."""

    counts: dict[str, int]
    interrupted: bool
    stop_reason: str = ""  # the signal that stopped it ("SIGTERM", ...; the exit code 128+N)


def run_sweep(
    sweep: Sweep,
    sweep_dir: str | Path,
    executor: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    runner: Callable[[dict], dict] = execute,
    out: TextIO | None = None,
) -> SweepOutcome:
    """Run every run of the sweep that is not finished yet: start new ones, resume interrupted or failed ones.

    First Ctrl-C (or SIGTERM): no new runs start; runs in flight stop cleanly after their current move (local
    executor; see executors/cluster.py for Dask) and stay resumable (``e2opt sweep --resume``); a second Ctrl-C abandons
    them at once. Every status change is appended to status.jsonl as it happens.
    """
    sweep_dir = Path(sweep_dir)
    lines = Progress(None, quiet=False, stream=out or sys.stdout)
    stop_file = sweep_dir / STOP_FILE
    with SweepLock(sweep_dir):
        stop_file.unlink(missing_ok=True)
        todo = []
        for run in sweep.runs:
            status = "done" if is_finished(sweep_dir / run.id, run.config["instance"]) else "pending"
            if status == "pending":
                todo.append(run)
            if sweep.status_of(run.id) != status:
                sweep.set_status(sweep_dir, run.id, status)
        if not todo:
            return SweepOutcome(dict(Counter(sweep.status_of(r.id) for r in sweep.runs)), False)
        pool = sweep_executor(executor, workers or default_workers(sweep), scheduler)
        started = sum((sweep_dir / run.id).is_dir() for run in todo)
        lines.message(
            f"sweep {sweep.name}: {len(sweep.runs)} runs, {len(sweep.runs) - len(todo)} finished, "
            f"{started} to resume, {len(todo) - started} to start; {pool.describe()}; folder {sweep_dir}"
        )
        progress = SweepProgress(sweep, len(todo), lines)
        interrupted = Interrupted()
        pending: dict[Pending, SweepRun] = {}
        stopping = abandoned = False
        try:
            with StopSignals(interrupted):
                for run in todo:
                    where = (sweep_dir / run.id).resolve()  # a cluster's workers may run in another folder
                    task = {"id": run.id, "config": run.config, "run_dir": str(where)}
                    pending[pool.submit(runner, {**task, "stop_file": str(stop_file.resolve())})] = run
                while pending:
                    if interrupted.triggered and not stopping:
                        stopping = True
                        stop_file.touch()
                        pool.cancel(set(pending))
                        lines.message(f"stopping ({interrupted.reason}): no new runs; {pool.stop_note}")
                        if not pool.waits_for_running:
                            break
                    for future in pool.wait(set(pending), 0.5):
                        run = pending.pop(future)
                        outcome = _outcome(future, run.id, stopping)
                        sweep.set_status(sweep_dir, run.id, outcome["status"], outcome.get("error"))
                        if outcome["status"] != "pending":
                            progress.line(run.id, outcome)
        except KeyboardInterrupt:  # a second Ctrl-C
            abandoned = True
            interrupted.trigger("SIGINT")
        finally:
            for run in pending.values():
                if (sweep_dir / run.id).is_dir():
                    sweep.set_status(sweep_dir, run.id, "interrupted", "in flight when the sweep stopped")
            pool.close(wait=not abandoned)
            stop_file.unlink(missing_ok=True)
        counts = dict(Counter(sweep.status_of(run.id) for run in sweep.runs))
        return SweepOutcome(counts, stopping or abandoned, interrupted.reason)


def _outcome(future: Pending, run_id: str, stopping: bool) -> dict[str, Any]:
    """The worker's answer, or a record of how the future ended (cancelled, lost worker, …)."""
    if future.cancelled():
        return {"id": run_id, "status": "pending"}
    exc = future.exception()  # a worker process that died, or Dask giving up on a task
    if exc is None:
        return future.result()
    status = "interrupted" if stopping else "failed"
    return {"id": run_id, "status": status, "error": f"{type(exc).__name__}: {exc}".splitlines()[0]}


def default_workers(sweep: Sweep) -> int:
    """Cores divided by the threads the construction of one run uses (CP-SAT: its num_workers)."""
    per_run = max(
        threads_used(build(ConstructConfig, run.config["construct"], run.id, "construct"))
        for run in sweep.runs
    )
    return slots_for(per_run)
