"""``e2opt solve --method clique``: paper 002's Max-Clique formulation on a whole (small) puzzle.

The puzzle's graph (graph.puzzle_graph), GLP's heuristic for q selections or until a perfect clique
(pls.CliqueSearch), then the holes of the best clique filled by the region model (place.fill); the
board is re-checked by the independent verifier before it is shown. Times are CPU seconds of this process.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from ..config.registry import Flag
from ..core.board import Board, format_board, score
from ..core.errors import E2optError
from ..core.puzzle import Puzzle, format_puzzle
from ..core.ticks import Ticks
from ..core.verify import verify_texts
from .graph import CliqueGraph, fixed_board, puzzle_graph
from .place import board_of, fill, is_clique
from .pls import CliqueSearch

CHUNK = 200_000  # selections between two looks at the clock and Ctrl-C (~0.2-0.5 s)
DEFAULT_SELECTIONS = 10_000_000  # paper 002's middle q


@dataclass
class Snapshot:
    """The best clique after ``selections`` selections (a mark of the run, or its end)."""

    selections: int
    cpu_s: float
    nodes: np.ndarray


@dataclass
class CliqueRun:
    """One heuristic run on one graph: its snapshots and why it stopped."""

    graph: CliqueGraph
    build_s: float  # CPU seconds for the graph and its bitset
    snapshots: list[Snapshot] = field(default_factory=list)
    stopped: str = "selections"  # "selections" | "perfect clique" | "time limit" | "interrupted"

    @property
    def last(self) -> Snapshot:
        return self.snapshots[-1]


def run_heuristic(
    graph: CliqueGraph,
    selections: int,
    seed: int,
    *,
    time_limit_s: float | None = None,
    marks: tuple[int, ...] = (),
    progress: TextIO | None = None,
    progress_every_s: float = 5.0,
    adj: np.ndarray | None = None,
) -> CliqueRun:
    """GLP on ``graph`` for ``selections`` (a snapshot at each of ``marks`` too), stopping early at a
    perfect clique, the CPU limit or Ctrl-C. One seeded run: a mark's result is the same as a run of that q."""
    start = time.process_time()
    adj = graph.bitset() if adj is None else adj
    search = CliqueSearch(adj, seed)
    run = CliqueRun(graph, time.process_time() - start)
    stops = sorted({int(m) for m in marks if 0 < m < selections} | {int(selections)})
    say = None if progress is None else (lambda line: print(line, file=progress, flush=True))
    lines = Ticks(say, progress_every_s, lambda: time.process_time() - start)
    try:
        for stop in stops:
            while search.selections < stop and search.best_size < graph.target:
                search.run(min(stop, search.selections + CHUNK), graph.target)
                cpu = time.process_time() - start
                if time_limit_s is not None and cpu >= time_limit_s:
                    run.stopped = "time limit"
                    break
                if lines.due():
                    lines.say(f"solve: {cpu:.0f} s CPU, {search.selections:.3g} selections, best clique "
                              f"{search.best_size}/{graph.target}")  # fmt: skip
            run.snapshots.append(Snapshot(search.selections, time.process_time() - start, search.best()))
            if run.stopped == "time limit" or search.best_size >= graph.target:
                break
    except KeyboardInterrupt:
        run.stopped = "interrupted"
        run.snapshots.append(Snapshot(search.selections, time.process_time() - start, search.best()))
    if search.best_size >= graph.target:
        run.stopped = "perfect clique"
    if not is_clique(adj, run.last.nodes):
        raise RuntimeError("clique heuristic returned nodes that are not pairwise joined")
    return run


def checked_board(puzzle: Puzzle, board: Board) -> int:
    """The board's joins after the independent verifier accepts it (else a bug: RuntimeError)."""
    report = verify_texts(format_puzzle(puzzle), format_board(board))
    if not report.valid or report.score != score(puzzle, board):
        raise RuntimeError(f"clique board rejected by the verifier: {report.text()}")
    return report.score


def board_from_clique(
    puzzle: Puzzle, graph: CliqueGraph, nodes: np.ndarray, *, fill_limit_s: float = 10.0, seed: int = 0
) -> tuple[Board, int, int]:
    """The verified board of a puzzle-graph clique (holes filled by the region model), its joins, holes."""
    base = fixed_board(puzzle)
    filled = fill(puzzle, graph, nodes, base, time_limit_s=fill_limit_s, seed=seed)
    board = board_of(puzzle, graph, filled, base)
    return board, checked_board(puzzle, board), filled.holes


@dataclass
class CliqueSolveResult:
    """What ``solve --method clique`` prints: the board, its joins, the clique and the effort."""

    board: Board
    joins: int
    max_joins: int
    clique: int
    target: int
    selections: int
    stopped: str
    cpu_s: float
    nodes: int

    @property
    def boards(self) -> list[Board]:
        """The board to show: the best one found."""
        return [self.board]

    @property
    def answered(self) -> bool:
        """Its q selections (or a perfect clique) are an answer; a limit that came first is not."""
        return self.stopped != "time limit"

    def summary(self) -> str:
        """The last line: the clique, the board's joins, the effort."""
        perfect = " (perfect board)" if self.joins == self.max_joins else ""
        return (
            f"clique {self.clique}/{self.target} after {self.selections:.3g} selections ({self.stopped}), "
            f"graph {self.nodes} nodes: best board {self.joins}/{self.max_joins}{perfect}, "
            f"{self.cpu_s:.1f} s CPU"
        )


def solve_clique(
    puzzle: Puzzle,
    selections: int = DEFAULT_SELECTIONS,
    seed: int = 0,
    time_limit_s: float | None = None,
    symmetry: bool = True,
    progress: TextIO | None = None,
    *,
    progress_every_s: float,
) -> CliqueSolveResult:
    """Best board the clique heuristic finds on the whole puzzle (module docstring)."""
    if selections < 1:
        raise E2optError(f"--selections {selections}: must be at least 1")
    if time_limit_s is not None and not time_limit_s > 0:
        raise E2optError(f"--max-cpu-s {time_limit_s}: must be a positive number of seconds")
    start = time.process_time()
    graph = puzzle_graph(puzzle, symmetry)
    run = run_heuristic(
        graph,
        selections,
        seed,
        time_limit_s=time_limit_s,
        progress=progress,
        progress_every_s=progress_every_s,
    )
    board, joins, _ = board_from_clique(puzzle, graph, run.last.nodes, seed=seed)
    return CliqueSolveResult(
        board,
        joins,
        puzzle.max_score,
        len(run.last.nodes),
        graph.target,
        run.last.selections,
        run.stopped,
        time.process_time() - start,
        graph.n_nodes,
    )


@dataclass(frozen=True)
class CliqueSettings:
    """``e2opt solve --method clique``'s own setting: the heuristic's selections q (paper 002's middle q)."""

    selections: float = DEFAULT_SELECTIONS

    def check(self, method: str, orders: tuple[str, ...], shared: object) -> None:
        """E2optError (one line, exit 2) unless q is a whole number, at least 1."""
        if self.selections != int(self.selections) or self.selections < 1:
            raise E2optError(f"--selections {self.selections:g}: a whole number of selections, at least 1")


CLIQUE_FLAGS = (
    Flag(
        "--selections", "selections", "the heuristic's selections q (default 1e7)", parse=float, metavar="Q"
    ),
)


def run_clique(
    puzzle: Puzzle,
    settings: CliqueSettings,
    seed: int,
    time_limit_s: float | None,
    symmetry: bool,
    on_board: Callable[[Board], None] | None,
    progress: TextIO | None,
    progress_every_s: float,
) -> CliqueSolveResult:
    """The method's runner (exact/solve.py EXACT_METHODS): its best board, also handed to ``on_board``."""
    result = solve_clique(
        puzzle,
        int(settings.selections),
        seed,
        time_limit_s,
        symmetry,
        progress,
        progress_every_s=progress_every_s,
    )
    if on_board is not None:
        on_board(result.board)
    return result
