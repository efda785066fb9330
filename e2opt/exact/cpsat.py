"""Exact cross-check by CP-SAT: the construction's model (cpsat/relaxed_model.py) with nothing relaxed.

One worker; ``enumerate_all_solutions`` when every solution is wanted. The solve runs in a thread so
the caller can print progress, stop it on a time limit it measures itself, or on Ctrl-C.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ortools.sat.python import cp_model

from ..core.board import Board
from ..core.puzzle import Puzzle
from ..cpsat.relaxed_model import build_model

POLL_S = 0.2


class BoardCollector(cp_model.CpSolverSolutionCallback):
    """Reads each solution's board; stops the search after the first unless all are wanted (in an
    optimisation every solution is better than the one before, so ``boards[-1]`` is the best)."""

    def __init__(self, read: Callable, find_all: bool):
        super().__init__()
        self.read, self.find_all, self.boards = read, find_all, []

    def on_solution_callback(self) -> None:
        self.boards.append(self.read(self.value))
        if not self.find_all:
            self.stop_search()


class CpSatSearch:
    """A CP-SAT solve in a thread; ``wait`` polls it, ``complete`` says if it finished.

    ``collect`` is the solution callback (it keeps ``boards``); the default search is the unrelaxed
    puzzle's feasibility model (``for_puzzle``); optimum.py passes its own model and callback.
    """

    def __init__(self, model: cp_model.CpModel, collect, *, find_all: bool, seed: int):
        self.solver = cp_model.CpSolver()
        p = self.solver.parameters
        p.num_workers = 1
        p.enumerate_all_solutions = find_all
        p.random_seed = seed
        p.catch_sigint_signal = False
        self.collect = collect
        self.find_all = find_all
        self.status: int | None = None
        # An Event, not Thread.join: a join cut by Ctrl-C can return at once afterwards while the
        # solve still runs (then its response is not there yet).
        self.finished = threading.Event()
        threading.Thread(target=self._run, args=(model,), daemon=True).start()

    @classmethod
    def for_puzzle(cls, puzzle: Puzzle, *, symmetry: bool, find_all: bool, seed: int) -> CpSatSearch:
        """Perfect boards of ``puzzle``: the first, or all of them."""
        pm = build_model(puzzle, [], symmetry=symmetry)
        return cls(pm.model, BoardCollector(pm.board, find_all), find_all=find_all, seed=seed)

    def _run(self, model: cp_model.CpModel) -> None:
        try:
            self.status = self.solver.solve(model, self.collect)
        finally:
            self.finished.set()

    def wait(self, seconds: float = POLL_S) -> bool:
        """Wait up to ``seconds``; True once the solve has returned."""
        return self.finished.wait(seconds)

    def stop(self) -> None:
        """Ask the solver to stop and wait for it."""
        self.solver.stop_search()
        self.finished.wait()

    @property
    def boards(self) -> list[Board]:
        return list(self.collect.boards)

    @property
    def complete(self) -> bool:
        """All solutions enumerated (OPTIMAL with enumeration) or none exists (INFEASIBLE)."""
        if self.status == cp_model.INFEASIBLE:
            return True
        return self.find_all and self.status == cp_model.OPTIMAL

    @property
    def nodes(self) -> int:
        return int(self.solver.num_branches)

    @property
    def backtracks(self) -> int:
        return int(self.solver.num_conflicts)
