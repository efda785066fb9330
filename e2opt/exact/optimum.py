"""``e2opt solve --best``: a board of maximum score, and the proof that no board scores more.

Paper 003's lesson for optimisation: once a good solution is known, a bound prunes everything that
cannot beat it. The soft CP-SAT model (cpsat/relaxed_model.build_model with soft=True: one Boolean
per join, their sum maximised) gets the best known score as a constraint, score >= known + 1, and
the known board as a solution hint; CP-SAT's own bound (propagation, LP relaxation) closes the rest.
A complete search then proves a better board optimal, or that no board beats the known score. The
known score comes from ``--from BOARD`` (e.g. the best.board of an ``e2opt run``) or ``--bound N``.
The bound from above comes first: the fast plain DFS (``scan``) decides whether a perfect board
exists, with part of the time (CP-SAT proves "no perfect board" far more slowly: 6x6, 1.8 s against
more than 300 s); if none does, the model gets score <= max - 1, and a board of that score is optimal
as soon as it is found. Every board reported is re-checked by the independent verifier first.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from ortools.sat.python import cp_model

from ..config.registry import Flag
from ..core.board import Board, format_board
from ..core.errors import E2optError
from ..core.formats.read import read_board
from ..core.puzzle import Puzzle, format_puzzle
from ..core.verify import verify_texts
from ..cpsat.relaxed_model import PuzzleModel, build_model, symmetry_applies
from . import run as runners
from .cpsat import BoardCollector, CpSatSearch
from .run import SolveOptions, search
from .scan import SCAN_ORDERS
from .settings import ScanSettings
from .symmetry import orbit, rotation_group

PERFECT_SHARE = 0.5  # of --max-cpu-s, for the perfect-board DFS
PERFECT_CAP_S = 60.0  # its CPU seconds at most (also without a limit)


@dataclass
class BestResult:
    """The best board found (a better one, else the known board) and what the search proves."""

    puzzle: str
    max_score: int
    known: int | None  # the score a board had to beat (None: nothing known)
    board: Board | None = None
    score: int | None = None
    upper: int | None = None  # no board scores more than this (proved)
    complete: bool = False
    stopped: str | None = None  # "time limit", "interrupted"
    branches: int = 0
    conflicts: int = 0
    dfs_nodes: int = 0  # of the perfect-board DFS
    cpu_s: float = 0.0

    @property
    def boards(self) -> list[Board]:
        """The board to show: the best one found (the known board when none beats it), if any."""
        return [] if self.board is None else [self.board]

    @property
    def answered(self) -> bool:
        """The search proved its answer (exit 0); else a limit or Ctrl-C came first."""
        return self.complete

    def summary(self) -> str:
        """The last line: the best score and whether it is proved optimal."""
        m = self.max_score
        effort = f"{self.dfs_nodes:.3g} DFS nodes + {self.branches:.3g} branches, {self.cpu_s:.1f} s"
        best = f"best {self.score}/{m}" if self.score is not None else None
        if self.complete:
            if best:
                return f"{best}, optimal: no board scores more (complete search), {effort}"
            return f"no board scores more than {self.known}/{m} (complete search), {effort}"
        why = (
            "interrupted (Ctrl-C, SIGTERM or SIGHUP)"
            if self.stopped == "interrupted"
            else f"stopped by {self.stopped}"
        )
        return (
            f"{why} after {effort}: {best or 'no board'} found, no board scores more than "
            f"{self.upper}/{m}, search incomplete"
        )


def checked_score(puzzle: Puzzle, board: Board) -> int:
    """The board's score by the independent verifier; E2optError (one line) if it breaks a rule."""
    report = verify_texts(format_puzzle(puzzle), format_board(board))
    if not report.valid:
        head, first = report.text().splitlines()[:2]  # "1/24 INVALID: 24 broken rule(s)", the first rule
        raise E2optError(f"the board is not a valid placement ({head.split(': ', 1)[1]}; first: {first})")
    return report.score


def _hint(pm: PuzzleModel, board: Board, group: int) -> None:
    """Hint the solver with the turned copy of ``board`` that the model's symmetry rule keeps."""
    for copy in orbit(board, group):
        index = {}
        for cell, (pieces, rots) in pm.options.items():
            at = ((pieces == copy.piece[cell]) & (rots == copy.rot[cell])).nonzero()[0]
            if len(at) == 0:
                break
            index[cell] = int(at[0])
        else:
            for cell, i in index.items():
                pm.model.add_hint(pm.choice[cell], i)
            return


def _perfect_first(
    puzzle: Puzzle,
    result: BestResult,
    symmetry: bool,
    time_limit_s: float | None,
    progress: TextIO | None,
    every_s: float,
) -> int:
    """Decide by the fast DFS whether a perfect board exists: if one does, ``result`` gets it (optimal,
    complete); the highest score still possible is returned (max - 1 when the search proved none)."""
    m = puzzle.max_score
    share = PERFECT_CAP_S if time_limit_s is None else min(PERFECT_CAP_S, PERFECT_SHARE * time_limit_s)
    scan = SolveOptions(
        "scan", time_limit_s=share, settings=ScanSettings(next(iter(SCAN_ORDERS))), symmetry=symmetry,
        progress_every_s=every_s,
    )  # fmt: skip
    perfect = search(runners.scan, puzzle, scan, None, progress)
    result.dfs_nodes = perfect.nodes
    if perfect.boards:
        result.board, result.score = perfect.boards[0], m  # search() had it checked by the verifier
        result.complete, result.upper = True, m
    elif perfect.stopped == "interrupted":
        result.stopped, result.upper = "interrupted", m
    elif progress is not None:
        said = "no perfect board (complete search)" if perfect.complete else "perfect board not decided"
        print(f"solve: DFS {perfect.nodes:.3g} nodes: {said}", file=progress, flush=True)
    return m - 1 if perfect.complete and not perfect.boards else m


def best_board(
    puzzle: Puzzle,
    *,
    known_board: Board | None = None,
    known_score: int | None = None,
    symmetry: bool = True,
    time_limit_s: float | None = None,
    seed: int = 0,
    progress: TextIO | None = sys.stderr,
    progress_every_s: float = SolveOptions.progress_every_s,
) -> BestResult:
    """Search for a board that beats the known one (or score), up to a proof of optimality; a progress line
    every ``progress_every_s`` CPU seconds."""
    cpu0, m = time.process_time(), puzzle.max_score
    if known_board is not None:
        known_score = checked_score(puzzle, known_board)
    if known_score is not None and not 0 <= known_score <= m:
        raise E2optError(f"--bound {known_score}: a score from 0 to {m}")
    result = BestResult(
        puzzle.name, m, known_score, known_board, None if known_board is None else known_score
    )
    if known_score == m:  # nothing can beat a perfect board
        result.complete, result.upper = True, m
        return result
    try:
        cap = _perfect_first(puzzle, result, symmetry, time_limit_s, progress, progress_every_s)
        if result.complete or result.stopped or (known_score is not None and known_score >= cap):
            result.complete = result.complete or result.stopped is None  # else: the known score is the best
            result.upper = result.upper or known_score
        else:
            _cpsat_phase(puzzle, result, cap, symmetry, time_limit_s, seed, cpu0, progress, progress_every_s)
    except KeyboardInterrupt:  # while a model was built: say what is known
        result.stopped, result.complete = "interrupted", False
        result.upper = max(result.upper or m, result.score or 0)
    result.cpu_s = time.process_time() - cpu0
    return result


def _cpsat_phase(
    puzzle: Puzzle,
    result: BestResult,
    cap: int,
    symmetry: bool,
    time_limit_s: float | None,
    seed: int,
    cpu0: float,
    progress: TextIO | None,
    every_s: float,
) -> None:
    """The soft CP-SAT model between the known score (exclusive) and ``cap``; fills ``result``."""
    m, known_score, known_board = puzzle.max_score, result.known, result.board
    group = rotation_group(puzzle)
    broken = symmetry and group > 1 and symmetry_applies(puzzle, [])
    pm = build_model(puzzle, [], symmetry=broken, soft=True)
    if known_score is not None:
        pm.model.add(sum(pm.matches) >= known_score + 1)
    if cap < m:
        pm.model.add(sum(pm.matches) <= cap)
    if known_board is not None:
        _hint(pm, known_board, group if broken else 1)
    cs = CpSatSearch(pm.model, BoardCollector(pm.board, find_all=True), find_all=False, seed=seed)
    next_progress = time.process_time() - cpu0 + every_s
    try:
        while not cs.wait():
            cpu = time.process_time() - cpu0
            if time_limit_s is not None and cpu >= time_limit_s:
                result.stopped = "time limit"
                cs.stop()
                break
            if progress is not None and cpu >= next_progress:
                next_progress = cpu + every_s
                found = checked_score(puzzle, cs.boards[-1]) if cs.boards else result.score
                print(f"solve: {cpu:.0f} s CPU, best {found}/{m} so far", file=progress, flush=True)
    except KeyboardInterrupt:
        result.stopped = "interrupted"
        cs.stop()
    if cs.boards:  # each is better than the known score and than the one before: the last is the best
        result.board, result.score = cs.boards[-1], checked_score(puzzle, cs.boards[-1])
    result.complete = result.stopped is None and cs.status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    if result.complete:
        result.upper = max(s for s in (result.score, known_score) if s is not None)
    else:  # CP-SAT's bound means something only once it has a solution (FEASIBLE); else it reads 0
        bound = min(cap, int(cs.solver.best_objective_bound)) if cs.status == cp_model.FEASIBLE else cap
        result.upper = max(bound, known_score or 0, result.score or 0)
    result.branches, result.conflicts = cs.nodes, cs.backtracks


@dataclass(frozen=True)
class BestSettings:
    """``best``'s own settings: a score already reached (``bound``) or a board already found (``start``, a file:
    its score is the bound, the board a hint)."""

    bound: int | None = None
    start: str | None = None

    def check(self, method: str, orders: tuple[str, ...], shared: object) -> None:
        """E2optError (one line, exit 2) when both are given."""
        if self.bound is not None and self.start:
            raise E2optError("--bound and --from: give one (--from's board sets the bound)")


BEST_FLAGS = (
    Flag(
        "--bound",
        "bound",
        "a score already reached; only boards that beat it are searched",
        parse=int,
        metavar="N",
    ),
    Flag(
        "--from", "start", "a board already found (its score is the bound, the board a hint)", metavar="BOARD"
    ),
)


def run_best(
    puzzle: Puzzle, opts: SolveOptions, on_board: Callable[[Board], None] | None, progress: TextIO | None
) -> BestResult:
    """The method's runner (exact/solve.py EXACT_METHODS): the best board, also handed to ``on_board``."""
    settings: BestSettings = opts.settings
    start = read_board(settings.start, puzzle) if settings.start else None
    if start is not None:
        try:
            checked_score(puzzle, start)
        except E2optError as exc:
            raise E2optError(f"--from {settings.start}: {exc}") from None
    result = best_board(
        puzzle,
        known_board=start,
        known_score=settings.bound,
        symmetry=opts.symmetry,
        time_limit_s=opts.time_limit_s,
        seed=opts.seed,
        progress=progress,
        progress_every_s=opts.progress_every_s,
    )
    if result.board is not None and on_board is not None:
        on_board(result.board)
    return result
