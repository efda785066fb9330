"""The exact searches' shared machinery: the options every method takes (``SolveOptions``), the result, the run's
bookkeeping (``Run``: clock, limits, progress lines, found boards) and the runners of the depth-first methods and
CP-SAT. exact/solve.py ties each runner to its line of ``EXACT_METHODS``.
Limits are CPU seconds of this process (time.process_time): the machine may be shared.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..core.board import Board, format_board
from ..core.errors import E2optError
from ..core.puzzle import Puzzle, format_puzzle
from ..core.ticks import Ticks
from ..core.verify import verify_texts
from .chessboard import complete
from .cpsat import CpSatSearch
from .domains import DomainSearch
from .model import build_model
from .scan import ScanSearch, next_chunk
from .search import DONE, SOLUTION, KernelSearch
from .split import run_split
from .symmetry import orbit, rotation_group


@dataclass
class SolveOptions:
    """What every exact method takes (see ``e2opt solve --help``); ``settings`` are the method's own (an instance
    of its line's settings class in EXACT_METHODS; None: its defaults)."""

    method: str | None = None  # None: default_method(puzzle)
    find_all: bool = False
    time_limit_s: float | None = None
    settings: Any = None
    symmetry: bool = True
    seed: int = 0  # CP-SAT's, the clique heuristic's; shuffles values with value_order random
    keep_boards: bool = True
    progress_every_s: float = 5.0  # CPU seconds between progress lines (--progress-every-s)

    def check(self, settings: type, orders: tuple[str, ...]) -> None:
        """E2optError (one line, exit 2) on a bad value; ``settings`` and ``orders`` are the method's."""
        if self.time_limit_s is not None and not self.time_limit_s > 0:
            raise E2optError(f"--max-cpu-s {self.time_limit_s}: must be a positive number of seconds")
        if not self.progress_every_s > 0:
            raise E2optError(
                f"--progress-every-s {self.progress_every_s}: must be a positive number of seconds"
            )
        if not isinstance(self.settings, settings):
            raise E2optError(
                f"--method {self.method}: its settings are a {settings.__name__}, not {self.settings!r}"
            )
        if hasattr(self.settings, "check"):
            self.settings.check(self.method, orders, self)


@dataclass
class SolveResult:
    """The outcome: boards found (orbits expanded), their count, and whether the search was complete."""

    puzzle: str
    method: str
    group: int  # turned copies per solution (1 with hints)
    solutions: int = 0
    boards: list[Board] = field(default_factory=list)
    complete: bool = False
    stopped: str | None = None  # "time limit", "interrupted", "first solution"
    nodes: int = 0
    backtracks: int = 0
    cpu_s: float = 0.0

    @property
    def answered(self) -> bool:
        """A perfect board was found and the search says so (the exit code's answer); none is a negative one."""
        return self.solutions > 0 and (self.complete or self.stopped == "first solution")

    @property
    def distinct(self) -> int:
        """Solutions up to turning the board (exact: every orbit has ``group`` members)."""
        return self.solutions // self.group

    def count_line(self) -> str:
        """The ``--count`` line; after an incomplete search it says the count is only a lower bound."""
        turn = f" ({self.distinct} distinct up to rotation)" if self.group > 1 else ""
        if not self.complete:
            return f"solutions: at least {self.solutions}{turn}, search incomplete"
        return f"solutions: {self.solutions}{turn}"

    def summary(self) -> str:
        """The last line: what was found and whether the search proves it."""
        effort = f"{self.nodes:.3g} nodes, {self.cpu_s:.1f} s"
        found = f"{self.solutions} solution{'s' if self.solutions != 1 else ''}"
        if self.complete:
            if self.solutions == 0:
                return f"no solution: complete search, {effort} (no perfect board exists)"
            return f"{found}, complete search, {effort}"
        if self.stopped == "first solution":
            return f"{found} found, stopped at the first (--all or --count to enumerate), {effort}"
        why = (
            "interrupted (Ctrl-C, SIGTERM or SIGHUP)"
            if self.stopped == "interrupted"
            else f"stopped by {self.stopped}"
        )
        return f"{why} after {effort}: {self.solutions} found so far, search incomplete"


OnBoard = Callable[[Board], None]


def _checked(puzzle: Puzzle, board: Board) -> Board:
    """The board, after the independent verifier confirms it is perfect (else a bug: RuntimeError)."""
    report = verify_texts(format_puzzle(puzzle), format_board(board))
    if not report.valid or report.score != puzzle.max_score:
        raise RuntimeError(f"exact search produced a board that is not perfect: {report.text()}")
    return board


class Run:
    """Bookkeeping shared by the methods: the clock, limits, progress lines and found boards."""

    def __init__(self, puzzle: Puzzle, opts: SolveOptions, on_board: OnBoard | None, stream: TextIO | None):
        self.puzzle, self.opts, self.on_board, self.stream = puzzle, opts, on_board, stream
        self.group = rotation_group(puzzle)
        self.broken = opts.symmetry and self.group > 1  # one board found stands for group boards
        self.result = SolveResult(puzzle.name, opts.method, self.group)
        self.cpu0 = time.process_time()
        self.others = 0.0  # CPU seconds of worker processes (split.py)
        self.earlier_cpu = 0.0  # CPU seconds of earlier sessions of a resumed search (ledger.py)
        say = None if stream is None else (lambda line: print(line, file=stream, flush=True))
        self.lines = Ticks(say, opts.progress_every_s, self.cpu)

    def cpu(self) -> float:
        """CPU seconds of this search: this process's and its workers'."""
        return time.process_time() - self.cpu0 + self.others

    def over_limit(self) -> bool:
        """True (and the result says why) once the CPU limit is reached."""
        if self.opts.time_limit_s is not None and self.cpu() >= self.opts.time_limit_s:
            self.result.stopped = "time limit"
            return True
        return False

    def between_slices(self, nodes: int, leaves: int | None, detail: str) -> bool:
        """After a slice of search: True once the CPU limit is reached; else book the count (``leaves``,
        when solutions are counted without boards) and print a progress line when one is due."""
        if self.over_limit():
            return True
        if leaves is not None:
            self.counted(leaves)
        self.progress(nodes, detail)
        return False

    def counted(self, leaves: int) -> None:
        """Solutions counted without boards (see with_orbits)."""
        self.result.solutions = self.with_orbits(leaves)

    def with_orbits(self, leaves: int) -> int:
        """Solutions that ``leaves`` boards stand for: each one's orbit when symmetry is broken."""
        return leaves * (self.group if self.broken else 1)

    def found(self, board: Board) -> None:
        """Record a solution (with its turned copies when symmetry was broken and all are wanted)."""
        boards = orbit(board, self.group) if self.broken and self.opts.find_all else [board]
        for b in boards:
            if self.opts.keep_boards:
                _checked(self.puzzle, b)
                self.result.boards.append(b)
                if self.on_board:
                    self.on_board(b)
        self.result.solutions += len(boards)

    def progress(self, nodes: int | None, depth: str = "") -> None:
        """A ``solve:`` line (nodes, their rate, solutions so far), at most every ``--progress-every`` CPU s."""
        if not self.lines.due():
            return
        spent = self.cpu() + self.earlier_cpu  # nodes include a resumed search's earlier sessions
        rate = f", {nodes:.3g} nodes ({nodes / max(spent, 1e-9):.3g}/s)" if nodes is not None else ""
        self.lines.say(f"solve: {self.cpu():.0f} s CPU{rate}, {self.result.solutions} found so far{depth}")


def scan(run: Run) -> None:
    """scan: the fast plain depth-first search; split over processes or checkpointed when asked."""
    opts, s = run.opts, run.opts.settings
    keep, random = opts.keep_boards or not opts.find_all, s.value_order == "random"
    if s.workers > 1 or s.checkpoint:
        run_split(run, s.workers, s.order, random, opts.seed, keep, s.checkpoint)
        return
    ks = ScanSearch(run.puzzle, s.order, run.broken, random, opts.seed, s.restarts, s.restart_nodes, keep)
    _drive(run, ks, None, keep)


def _model(run: Run, chess: bool = False):
    """The exact model of the puzzle in the run's variable order (values shuffled with --value-order random)."""
    opts = run.opts
    seed = opts.seed if opts.settings.value_order == "random" else None
    return build_model(run.puzzle, opts.settings.order, symmetry=run.broken, chess=chess, shuffle_seed=seed)


def domains(run: Run) -> None:
    """domains: consistent cell domains at every node."""
    opts, s = run.opts, run.opts.settings
    wants_boards = opts.keep_boards or not opts.find_all
    ds = DomainSearch(_model(run), s.order, s.value_order, wants_boards, opts.seed)
    _drive(run, ds, None, wants_boards)


def kernel(run: Run) -> None:
    """dfs, colorpairs, chessboard: the searches of the shared numba kernel."""
    opts, s = run.opts, run.opts.settings
    chess, colour = opts.method == "chessboard", opts.method == "colorpairs"
    model = _model(run, chess)
    wants_boards = chess or opts.keep_boards or not opts.find_all
    ks = KernelSearch(
        model,
        filtering=colour or chess,
        backjump=colour and s.backjump,
        order=s.order,
        value_order=s.value_order,
        stop_at_solution=wants_boards,
        chess=chess,
        shave=s.shave if colour else 0,
    )
    _drive(run, ks, model.forbid if chess else None, wants_boards)


def _drive(run: Run, ks: KernelSearch | ScanSearch | DomainSearch, chess_forbid, wants_boards: bool) -> None:
    """Step the search in slices of about scan.SLICE_S CPU seconds: boards, limits, progress, Ctrl-C."""
    opts, puzzle = run.opts, run.puzzle
    budget = 2000
    try:
        while True:
            start = time.process_time()
            event = ks.step(budget)
            took = time.process_time() - start
            budget = next_chunk(budget, took)
            if event == SOLUTION:
                boards = [ks.board()]
                if chess_forbid is not None:
                    boards = complete(puzzle, ks.board(), chess_forbid, opts.find_all)
                for board in boards:
                    run.found(board)
                if boards and not opts.find_all:
                    run.result.stopped = "first solution"
                    break
            elif event == DONE:
                run.result.complete = True
                break
            leaves = None if wants_boards else ks.solutions  # counted in the kernel, without boards
            if run.between_slices(ks.nodes, leaves, f", depth {ks.depth}/{ks.levels}"):
                break
    except KeyboardInterrupt:
        run.result.stopped = "interrupted"
    if not wants_boards:
        run.counted(ks.solutions)
    run.result.nodes, run.result.backtracks = ks.nodes, ks.backtracks


def _all_hints(run: Run) -> None:
    """Every cell is a hint: the hints are the one board there is, a solution if it is perfect (the
    searches need a cell to branch on, so every method answers here)."""
    puzzle = run.puzzle
    piece = [[0] * puzzle.cols for _ in range(puzzle.rows)]
    rot = [[0] * puzzle.cols for _ in range(puzzle.rows)]
    for h in puzzle.hints:
        piece[h.row][h.col], rot[h.row][h.col] = h.piece, h.rot
    board = Board(piece, rot)
    report = verify_texts(format_puzzle(puzzle), format_board(board))
    if report.valid and report.score == puzzle.max_score:
        run.found(board)
    run.result.complete = True


def cpsat(run: Run) -> None:
    """cpsat: the CP-SAT cross-check, stopped by the run's limit or Ctrl-C."""
    opts = run.opts
    cs = CpSatSearch.for_puzzle(run.puzzle, symmetry=run.broken, find_all=opts.find_all, seed=opts.seed)
    try:
        while not cs.wait():
            if run.over_limit():
                cs.stop()
                break
            run.progress(None, f", {len(cs.boards)} boards")
    except KeyboardInterrupt:
        run.result.stopped = "interrupted"
        cs.stop()
    for board in cs.boards:
        run.found(board)
    run.result.complete = run.result.stopped is None and cs.complete
    if run.result.stopped is None and not cs.complete and run.result.solutions:
        run.result.stopped = "first solution"
    run.result.nodes, run.result.backtracks = cs.nodes, cs.backtracks


def search(
    runner: Callable[[Run], None],
    puzzle: Puzzle,
    opts: SolveOptions,
    on_board: OnBoard | None,
    progress: TextIO | None,
) -> SolveResult:
    """Search ``puzzle`` by ``runner`` as ``opts`` (checked, settings resolved) say: the clock starts here."""
    run = Run(puzzle, opts, on_board, progress)
    if len(puzzle.hints) == puzzle.rows * puzzle.cols:
        _all_hints(run)
    else:
        runner(run)
    run.result.cpu_s = run.cpu() + run.earlier_cpu
    return run.result
