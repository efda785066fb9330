"""``e2opt solve``: one perfect board, all of them, or their count, by an exact method; or proof of none.

Methods: ``colorpairs`` (paper 000: offer/demand filtering, backjumping, MinExpectedGap), ``dfs``
(the same kernel without filtering: the baseline), ``domains`` (consistent cell domains: paper 000
section 6.3's edge filtering, with naked and hidden singles), ``scan`` (a static order on the construction's
tables and kernel: the fast one, with optional restarts), ``chessboard`` (paper 001 section 5) and ``cpsat``
(the cross-check). On hint-free puzzles the turn symmetry is broken (symmetry.py) and every found
board stands for its whole orbit, so counts include the turned copies and say how many are distinct.
Limits are CPU seconds of this process (time.process_time): the machine may be shared.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TextIO

from ..config.registry import NoSettings
from ..config.schema import process_count_problem
from ..core.board import Board, format_board
from ..core.errors import E2optError
from ..core.puzzle import Puzzle, format_puzzle
from ..core.verify import verify_texts
from .chessboard import complete
from .cpsat import CpSatSearch
from .domains import DOMAIN_ORDERS, DomainSearch
from .model import ORDERS, VALUE_ORDERS, build_model
from .scan import SCAN_ORDERS, ScanSearch, next_chunk
from .search import DONE, SOLUTION, KernelSearch
from .split import run_split
from .symmetry import orbit, rotation_group


@dataclass
class SolveOptions:
    """What to look for and how: see ``e2opt solve --help``."""

    method: str | None = None  # None: default_method(puzzle)
    find_all: bool = False
    time_limit_s: float | None = None
    order: str | None = None
    value_order: str = "min"
    symmetry: bool = True
    backjump: bool = True
    seed: int = 0
    keep_boards: bool = True
    progress_every_s: float = 5.0
    restarts: int = 0  # scan: limited attempts (Luby node limits) before the final, complete run
    restart_nodes: int = 100_000  # scan: nodes of a Luby unit
    shave: int = 0  # colorpairs: shaving limit L (0: off)
    workers: int = 1  # scan: processes sharing the tree (split.py)
    checkpoint: str | None = None  # scan: file of finished subtrees, to resume a long search (ledger.py)

    def check(self) -> None:
        """E2optError (one line, exit 2) on a bad combination."""
        if self.method not in EXACT_METHODS:
            raise E2optError(f"--method {self.method}: choose one of {', '.join(EXACT_METHODS)}")
        if self.time_limit_s is not None and not self.time_limit_s > 0:
            raise E2optError(f"--max-cpu-s {self.time_limit_s}: must be a positive number of seconds")
        if self.method == "cpsat" and (self.order or self.value_order != "min"):
            raise E2optError("--order and --value-order apply to the depth-first methods, not cpsat")
        orders = EXACT_METHODS[self.method].orders
        if self.order is not None and self.order not in orders:
            raise E2optError(f"--order {self.order}: choose one of {', '.join(orders)} with {self.method}")
        if self.method == "chessboard" and self.order == "mingap":
            raise E2optError("--order mingap needs colour-pair demands on every cell: not with chessboard")
        if self.value_order not in VALUE_ORDERS:
            raise E2optError(f"--value-order {self.value_order}: choose one of {', '.join(VALUE_ORDERS)}")
        if self.method == "scan" and self.value_order not in ("min", "random"):
            raise E2optError(f"--value-order {self.value_order}: scan takes min or random")
        if self.shave < 0 or (self.shave and self.method != "colorpairs"):
            raise E2optError(f"--shave {self.shave}: a limit >= 0, with --method colorpairs only")
        if not self.backjump and self.method != "colorpairs":
            raise E2optError("--no-backjump applies to --method colorpairs only")
        if self.restarts < 0 or self.restart_nodes <= 0:
            raise E2optError("--restarts must be >= 0 and --restart-nodes positive")
        if process_count_problem(self.workers) or (
            self.workers > 1 and (self.method != "scan" or self.restarts)
        ):
            raise E2optError(
                f"--workers {self.workers}: a count >= 1; more than 1 with --method scan only, "
                "without --restarts"
            )
        if self.checkpoint and (
            self.method != "scan" or self.restarts or (self.find_all and self.keep_boards)
        ):
            raise E2optError(
                "--checkpoint needs --method scan without --restarts, and --count without -o or a "
                "first-solution search (boards written before a kill could be written again)"
            )
        if self.restarts and (self.method != "scan" or self.find_all or self.value_order != "random"):
            raise E2optError(
                "--restarts needs --method scan, --value-order random and a first-solution search"
            )


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
            "interrupted (Ctrl-C or SIGTERM)"
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


class _Run:
    """Bookkeeping shared by the methods: the clock, limits, progress lines and found boards."""

    def __init__(self, puzzle: Puzzle, opts: SolveOptions, on_board: OnBoard | None, stream: TextIO | None):
        self.puzzle, self.opts, self.on_board, self.stream = puzzle, opts, on_board, stream
        self.group = rotation_group(puzzle)
        self.broken = opts.symmetry and self.group > 1  # one board found stands for group boards
        self.result = SolveResult(puzzle.name, opts.method, self.group)
        self.cpu0 = time.process_time()
        self.others = 0.0  # CPU seconds of worker processes (split.py)
        self.earlier_cpu = 0.0  # CPU seconds of earlier sessions of a resumed search (ledger.py)
        self.next_progress = opts.progress_every_s

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
        if self.stream is None or self.cpu() < self.next_progress:
            return
        self.next_progress = self.cpu() + self.opts.progress_every_s
        spent = self.cpu() + self.earlier_cpu  # nodes include a resumed search's earlier sessions
        rate = f", {nodes:.3g} nodes ({nodes / max(spent, 1e-9):.3g}/s)" if nodes is not None else ""
        print(
            f"solve: {self.cpu():.0f} s CPU{rate}, {self.result.solutions} found so far{depth}",
            file=self.stream,
            flush=True,
        )


def _order(run: _Run) -> str:
    """The variable order: the one asked for, else the method's first (its default)."""
    return run.opts.order or EXACT_METHODS[run.opts.method].orders[0]


def _scan(run: _Run) -> None:
    """scan: the fast plain depth-first search; split over processes or checkpointed when asked."""
    opts, order = run.opts, _order(run)
    keep, random = opts.keep_boards or not opts.find_all, opts.value_order == "random"
    if opts.workers > 1 or opts.checkpoint:
        run_split(run, opts.workers, order, random, opts.seed, keep, opts.checkpoint)
        return
    ks = ScanSearch(run.puzzle, order, run.broken, random, opts.seed, opts.restarts, opts.restart_nodes, keep)
    _drive(run, ks, None, keep)


def _model(run: _Run, chess: bool = False):
    """The exact model of the puzzle in the run's variable order (values shuffled with --value-order random)."""
    opts = run.opts
    seed = opts.seed if opts.value_order == "random" else None
    return build_model(run.puzzle, _order(run), symmetry=run.broken, chess=chess, shuffle_seed=seed)


def _domains(run: _Run) -> None:
    """domains: consistent cell domains at every node."""
    opts = run.opts
    wants_boards = opts.keep_boards or not opts.find_all
    ds = DomainSearch(_model(run), _order(run), opts.value_order, wants_boards, opts.seed)
    _drive(run, ds, None, wants_boards)


def _kernel(run: _Run) -> None:
    """dfs, colorpairs, chessboard: the searches of the shared numba kernel."""
    opts = run.opts
    chess, colour = opts.method == "chessboard", opts.method == "colorpairs"
    model = _model(run, chess)
    wants_boards = chess or opts.keep_boards or not opts.find_all
    ks = KernelSearch(
        model,
        filtering=colour or chess,
        backjump=colour and opts.backjump,
        order=_order(run),
        value_order=opts.value_order,
        stop_at_solution=wants_boards,
        chess=chess,
        shave=opts.shave,
    )
    _drive(run, ks, model.forbid if chess else None, wants_boards)


def _drive(run: _Run, ks: KernelSearch | ScanSearch | DomainSearch, chess_forbid, wants_boards: bool) -> None:
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


def _all_hints(run: _Run) -> None:
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


def _cpsat(run: _Run) -> None:
    """The CP-SAT cross-check, stopped by the run's limit or Ctrl-C."""
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


@dataclass(frozen=True)
class ExactOptions:
    """What an exact method's line says besides its settings: the variable orders it takes (its default first),
    the modules of the numba kernels it runs (compiled before the clock starts)."""

    orders: tuple[str, ...] = ()
    kernels: tuple[str, ...] = ()


@dataclass(frozen=True)
class ExactMethod:
    """An exact method: its settings (NoSettings: those of SolveOptions only), how it searches, one line of
    help, its options."""

    settings: type
    run: Callable[[_Run], None]
    help: str
    options: ExactOptions

    @property
    def orders(self) -> tuple[str, ...]:
        """The variable orders it takes, its default first (``--order``)."""
        return self.options.orders


def _first(default: str, orders) -> tuple[str, ...]:
    """The orders with the default first."""
    return (default, *(o for o in orders if o != default))


KERNEL = ("e2opt.exact.dfs", "e2opt.exact.colorpairs", "e2opt.kernels.rng")
EXACT_METHODS: dict[str, ExactMethod] = {
    "domains": ExactMethod(
        NoSettings, _domains, "consistent cell domains (edge colours, naked and hidden singles)",
        ExactOptions(DOMAIN_ORDERS, ("e2opt.exact.domains_kernel", "e2opt.kernels.rng")),
    ),
    "colorpairs": ExactMethod(
        NoSettings, _kernel, "paper 000's model: colour-pair counts, backjumping", ExactOptions(_first("mingap", ORDERS), KERNEL),
    ),
    "dfs": ExactMethod(NoSettings, _kernel, "plain depth-first search", ExactOptions(_first("row", ORDERS), KERNEL)),
    "scan": ExactMethod(
        NoSettings, _scan, "fast plain depth-first search for few colours; --workers, --checkpoint",
        ExactOptions(tuple(SCAN_ORDERS), ("e2opt.exact.scan_kernel", "e2opt.kernels.rng")),
    ),
    "chessboard": ExactMethod(
        NoSettings, _kernel, "black cells by search, white cells by assignment", ExactOptions(_first("row", ORDERS), KERNEL),
    ),
    "cpsat": ExactMethod(NoSettings, _cpsat, "CP-SAT, the cross-check (and --best's optimiser)", ExactOptions()),
}  # fmt: skip
METHODS = tuple(EXACT_METHODS)


def default_method(puzzle: Puzzle) -> str:
    """The method ``e2opt solve`` uses when none is named: domains, whose colour sets fit one 64-bit word,
    and colorpairs past colour 63."""
    return "domains" if puzzle.n_colours <= 64 else "colorpairs"


def solve(
    puzzle: Puzzle,
    opts: SolveOptions,
    on_board: OnBoard | None = None,
    progress: TextIO | None = sys.stderr,
) -> SolveResult:
    """Search ``puzzle`` exactly as ``opts`` says; ``on_board`` sees each perfect board as it is found."""
    if opts.method is None:
        opts = replace(opts, method=default_method(puzzle))
    opts.check()
    run = _Run(puzzle, opts, on_board, progress)
    if len(puzzle.hints) == puzzle.rows * puzzle.cols:
        _all_hints(run)
    else:
        EXACT_METHODS[opts.method].run(run)
    run.result.cpu_s = run.cpu() + run.earlier_cpu
    return run.result
