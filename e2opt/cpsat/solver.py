"""Running CP-SAT so that a run's signals stop it: the solve runs in a helper thread and the caller's stop
request becomes CP-SAT's own stop_search (an ordinary time-limit stop, the best solution kept)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from ortools.sat.python import cp_model

POLL_S = 0.1  # how often a solve in progress looks for a stop request (a signal)

StopRequested = Callable[[], bool]


def solve_interruptibly(solver: cp_model.CpSolver, model: cp_model.CpModel, stop_requested: StopRequested):
    """solver.solve(model) in a helper thread, stopped early when ``stop_requested()`` turns true.

    CP-SAT releases the GIL while it solves, so the main thread keeps running Python: signal handlers
    run at once and a stop request reaches CP-SAT through stop_search (an ordinary time-limit stop).
    """
    outcome: list = []

    def solve() -> None:
        try:
            outcome.append(solver.solve(model))
        except BaseException as exc:  # handed to the main thread, raised there
            outcome.append(exc)

    thread = threading.Thread(target=solve, daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(POLL_S)
            if stop_requested():
                solver.stop_search()
    finally:
        if thread.is_alive():  # a second Ctrl-C (KeyboardInterrupt): do not leave CP-SAT running
            solver.stop_search()
            thread.join()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]
