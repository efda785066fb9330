"""``e2opt solve --method scan --workers N``: the scan tree cut into subtrees searched by N processes.

The parent walks the first D depths of each part (scan.Walk over depths 0..D-1, D the shallowest
depth with at least TASKS_PER_WORKER partial boards per worker); every partial board reached there
is a task, a Walk over the remaining depths from that board. Tasks wait in one queue and go to
whichever worker is free, so a long subtree holds up no one. The nodes, backtracks and solutions of
the pieces add up exactly to those of the one-process walk (a test checks it), so a complete count
does not depend on the number of workers. Which board a first-solution search returns may: the
first worker to reach one wins. Limits count the CPU seconds of every process together.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import time
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import E2optError
from ..core.signals import TERMINAL_SIGNALS, ignore_terminal_signals, note_signal, worker_context
from . import scan_kernel as k
from .ledger import Ledger, search_key
from .scan import Part, Walk, board_of, build_parts, next_chunk, order_name, shuffle

TASKS_PER_WORKER = 500
POLL_S = 0.5  # how long the parent waits for a message before checking limits and progress


def prefixes(part: Part, depth: int) -> tuple[list[np.ndarray], Walk]:
    """Every partial board of the part's first ``depth`` cells (their codes), and the walk that found them."""
    codes, used = part.start_board()
    walk = Walk(part, codes, used, 0, depth)
    found = []
    while walk.step(1 << 40) == k.COMPLETE:
        found.append(codes[part.order.cells[:depth]].copy())
    return found, walk


def split_depth(part: Part, want: int) -> int:
    """The shallowest depth (at most the order's depth - 1) with at least ``want`` partial boards."""
    depth = 0
    while depth < part.order.depth - 1 and len(prefixes(part, depth)[0]) < want:
        depth += 1
    return depth


def _search(part: Part, depth: int, prefix: np.ndarray, keep: bool, stop, results, tick) -> tuple:
    """Walk the subtree below one partial board; send each board (with ``keep``) and a tick per slice."""
    codes, used = part.start_board()
    codes[part.order.cells[:depth]] = prefix
    used[prefix >> 2] = 1
    walk = Walk(part, codes, used, depth, keep=keep)
    chunk = 20_000
    while not stop.is_set():
        start = time.process_time()
        status = walk.step(chunk)
        took = time.process_time() - start
        chunk = next_chunk(chunk, took)
        if status == k.COMPLETE:
            results.put(("board", codes.copy()))
        elif status == k.EXHAUSTED:
            break
        tick(walk.nodes)
    return walk.exhausted, walk.nodes, walk.backtracks, walk.leaves


def _leave_signals_to_parent() -> None:
    """Ignore SIGINT, SIGTERM and SIGHUP (a terminal's Ctrl-C or hang-up, a scheduler's kill reach the whole
    group), then unblock them: the parent starts its workers with them blocked, so none is lost or kills one."""
    ignore_terminal_signals()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, TERMINAL_SIGNALS)


def _worker(index: int, parts: list[Part], depths: list[int], keep: bool, tasks, results, stop) -> None:
    """Process body: take tasks until the queue's end marker or the stop event; report each one.
    Ctrl-C and SIGTERM are the parent's: it stops the workers through ``stop`` and saves the checkpoint."""
    _leave_signals_to_parent()
    cpu, parent = time.process_time, multiprocessing.parent_process()

    def parent_alive() -> None:
        if not parent.is_alive():  # the parent was killed: nobody reads the results, stop at once
            os._exit(1)

    def tick(nodes: int) -> None:
        parent_alive()
        results.put(("tick", index, cpu(), nodes))

    while not stop.is_set():
        try:
            task = tasks.get(timeout=POLL_S)
        except queue.Empty:  # the parent writes tasks as the pipe takes them, or it died
            parent_alive()
            continue
        if task is None:
            break
        parent_alive()  # also between small subtrees, which end before their first tick
        tid, p, prefix = task
        outcome = _search(parts[p], depths[p], prefix, keep, stop, results, tick)
        results.put(("task", index, cpu(), tid, *outcome))
    results.put(("exit", index, cpu()))


@dataclass
class Tally:
    """What the workers have reported so far, and what of it a checkpoint may keep (ledger.py).

    In a first-solution search (``first``) a subtree that holds a board is never kept as searched,
    even when its worker got to its end before the stop: run again, the search must find that board
    again, not skip it and end with "no perfect board exists". So such a file only ever records
    subtrees without solutions, exact for a count too (ledger.py lets a count resume from it).
    """

    workers: int
    first: bool = False
    cpu: list[float] = field(default_factory=list)  # each worker's CPU seconds
    running: list[int] = field(default_factory=list)  # nodes of each worker's current task
    nodes: int = 0  # of the prefix walks, finished or stopped tasks and earlier sessions
    backtracks: int = 0
    solutions: int = 0  # leaves reached (without the turned copies)
    done: set[int] = field(default_factory=set)  # tasks whose subtree was searched to the end
    kept: dict = field(default_factory=dict)  # nodes, backtracks, solutions without stopped tasks
    exited: int = 0

    def __post_init__(self) -> None:
        self.cpu = [0.0] * self.workers
        self.running = [0] * self.workers
        self.kept = {"nodes": 0, "backtracks": 0, "solutions": 0, "cpu_s": 0.0}

    def resume(self, ledger: Ledger) -> None:
        """Start from a checkpoint's finished tasks and totals."""
        self.done = set(ledger.done)
        self.kept = dict(ledger.totals)
        self.nodes, self.backtracks, self.solutions = (
            ledger.totals[k] for k in ("nodes", "backtracks", "solutions")
        )

    def _book(self, nodes: int, backtracks: int, solutions: int, finished: bool) -> None:
        self.nodes += nodes
        self.backtracks += backtracks
        self.solutions += solutions
        if finished:
            self.kept["nodes"] += nodes
            self.kept["backtracks"] += backtracks
            self.kept["solutions"] += solutions

    def add(self, walk: Walk) -> None:
        """Book a prefix walk (searched to the end, like a finished task)."""
        self._book(walk.nodes, walk.backtracks, 0, True)

    def take(self, message: tuple) -> np.ndarray | None:
        """Book one worker message; the codes of a full board if it is one."""
        kind = message[0]
        if kind == "board":
            return message[1]
        if kind == "none":
            return None
        index, self.cpu[index] = message[1], message[2]
        if kind == "tick":
            self.running[index] = message[3]
        elif kind == "task":
            tid, exhausted, nodes, backtracks, solutions = message[3:]
            finished = exhausted and not (self.first and solutions)
            self.running[index] = 0
            self._book(nodes, backtracks, solutions, finished)
            if finished:
                self.done.add(tid)
        else:
            self.exited += 1
        return None

    @property
    def all_nodes(self) -> int:
        return self.nodes + sum(self.running)

    def save(self, ledger: Ledger | None, cpu_s: float, force: bool = False) -> None:
        """Write the checkpoint (if any) with ``cpu_s`` CPU seconds spent in this session."""
        if ledger is not None:
            ledger.save(self.done, {**self.kept, "cpu_s": self.kept["cpu_s"] + cpu_s}, force)


def run_split(
    run, workers: int, order: str, shuffled: bool, seed: int, keep: bool, checkpoint: str | None
) -> None:
    """Search ``run.puzzle`` with ``workers`` processes; fills ``run.result`` as solve._drive does.

    ``run`` is run.Run: its clock, limits, progress lines and ``found`` (boards are verified and
    written by the parent only). ``keep``: workers send every full board (else they only count).
    ``checkpoint``: a ledger file to resume from and keep up to date (None: none).
    """
    opts = run.opts
    parts = build_parts(run.puzzle, order, run.broken)
    rng = np.array([np.random.default_rng(seed).integers(2**63)], dtype=np.uint64)
    tally, ledger = Tally(workers, first=not opts.find_all), None
    if checkpoint:
        key = search_key(
            run.puzzle,
            order_name(run.puzzle, order),
            run.broken,
            opts.settings.value_order,
            seed,
            opts.find_all,
        )
        ledger = Ledger(checkpoint, key)
        if ledger.resumed:
            tally.resume(ledger)
            run.earlier_cpu = ledger.totals["cpu_s"]
    tasks_list, depths = [], []
    for p, part in enumerate(parts):
        if shuffled:
            shuffle(part, rng)
        resumed = ledger is not None and ledger.resumed
        depths.append(ledger.depths[p] if resumed else split_depth(part, TASKS_PER_WORKER * workers))
        found, walk = prefixes(part, depths[-1])
        if not resumed:
            tally.add(walk)
        tasks_list += [(len(tasks_list) + j, p, prefix) for j, prefix in enumerate(found)]
    if ledger is not None:
        _announce(run, ledger, len(tasks_list))
        ledger.start(depths, len(tasks_list))
        tally.save(ledger, run.cpu(), force=True)
    ctx = worker_context(__name__)
    tasks, results, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
    for task in tasks_list:
        if task[0] not in tally.done:
            tasks.put(task)
    for _ in range(workers):
        tasks.put(None)
    asked: list[int] = []  # a signal only notes the request: no worker message is booked by half

    def note(signum: int, frame: object) -> None:
        note_signal(signum)  # for the exit code, 128 + N
        asked.append(signum)

    old = {sig: signal.signal(sig, note) for sig in TERMINAL_SIGNALS}
    procs: list = []
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, TERMINAL_SIGNALS)  # the workers start with them blocked
        try:
            for i in range(workers):
                procs.append(
                    ctx.Process(
                        target=_worker, args=(i, parts, depths, keep, tasks, results, stop), daemon=True
                    )
                )
                procs[-1].start()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, TERMINAL_SIGNALS)
        try:
            _collect(run, tally, results, procs, len(tasks_list), ledger, keep, asked)
            stop.set()
            for codes in _drain(tally, tasks, results, procs):
                if opts.find_all:  # boards the workers had reached before they saw the stop
                    run.found(board_of(run.puzzle, codes))
        except _WorkerDied as died:
            stop.set()
            _book_sent(tally, results)
            raise E2optError(
                f"a solve worker process died (exit code {died.args[0]}); the search stopped (with "
                "--checkpoint, the same command resumes it)"
            ) from None
    finally:  # also when a worker died: keep every finished subtree, leave no worker behind
        for sig, handler in old.items():
            signal.signal(sig, handler)
        stop.set()
        tasks.cancel_join_thread()  # exit even if tasks no worker will take still fill the pipe
        for proc in procs:
            if proc.is_alive():
                proc.kill()
        run.others = sum(tally.cpu)
        tally.save(ledger, run.cpu(), force=True)
    if not keep:
        run.counted(tally.solutions)
    run.result.complete = run.result.stopped is None and len(tally.done) == len(tasks_list)
    run.result.nodes, run.result.backtracks = tally.nodes, tally.backtracks


def _announce(run, ledger: Ledger, n_tasks: int) -> None:
    """The progress line that says a search resumes from its checkpoint."""
    if run.stream is None or not ledger.resumed:
        return
    t = ledger.totals
    print(
        f"solve: resuming from {ledger.path}: {len(ledger.done)}/{n_tasks} subtrees searched before, "
        f"{run.with_orbits(t['solutions'])} solutions, {t['nodes']:.3g} nodes, {t['cpu_s']:.0f} CPU s",
        file=run.stream,
        flush=True,
    )


def _collect(
    run, tally: Tally, results, procs: list, n_tasks: int, ledger: Ledger | None, keep: bool, asked: list
) -> None:
    """Take worker messages until every task is done, a limit passes, the first board is in or a
    signal ``asked`` to stop."""
    while len(tally.done) < n_tasks:
        if asked:
            run.result.stopped = "interrupted"
            break
        codes = tally.take(_next_message(results, procs))
        run.others = sum(tally.cpu)
        if codes is not None:
            run.found(board_of(run.puzzle, codes))
            if not run.opts.find_all:
                run.result.stopped = "first solution"
                break
        leaves = None if keep else tally.solutions  # counted by the workers, without boards
        if run.between_slices(tally.all_nodes, leaves, f", {len(tally.done)}/{n_tasks} subtrees searched"):
            break
        tally.save(ledger, run.cpu())


def _next_message(results, procs: list) -> tuple:
    """The next worker message, or ("none",) after POLL_S; _WorkerDied as soon as a worker died
    (checked at every message: the others' ticks would otherwise hide it until they ran out of work)."""
    dead = [p.exitcode for p in procs if p.exitcode not in (None, 0)]
    if dead:
        raise _WorkerDied(dead[0])
    try:
        return results.get(timeout=POLL_S)
    except queue.Empty:
        return ("none",)


class _WorkerDied(Exception):
    """A worker process ended with an error code (killed, out of memory); args: (exit code,)."""


def _book_sent(tally: Tally, results, wait_s: float = 5.0) -> None:
    """After a worker died and the others were told to stop: book what they had already sent (finished
    subtrees go to the checkpoint), for at most ``wait_s`` seconds."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        try:
            tally.take(results.get(timeout=POLL_S))
        except queue.Empty:
            return


def _drain(tally: Tally, tasks, results, procs: list) -> list[np.ndarray]:
    """After the stop: empty the task queue, book the workers' last reports until all have exited
    and join them; returns the boards among those reports."""
    try:
        while True:
            tasks.get_nowait()
    except queue.Empty:
        pass
    for _ in procs:  # a worker waiting for a task gets the end marker
        tasks.put(None)
    boards = []
    while tally.exited < tally.workers:
        codes = tally.take(_next_message(results, procs))
        if codes is not None:
            boards.append(codes)
    for proc in procs:
        proc.join()
    return boards
