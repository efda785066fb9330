"""``e2opt solve``: one perfect board, all of them, or their count, by an exact method; or proof of none; or the
best board (``best``, ``clique``). ``EXACT_METHODS`` is the one table: each line's settings class, runner, help
and options (its orders, kernels and command-line flags); the command's options and its refusals come from it.

Methods: ``colorpairs`` (paper 000: offer/demand filtering, backjumping, MinExpectedGap), ``dfs``
(the same kernel without filtering: the baseline), ``domains`` (consistent cell domains: paper 000
section 6.3's edge filtering, with naked and hidden singles), ``scan`` (a static order on the construction's
tables and kernel: the fast one, with optional restarts), ``chessboard`` (paper 001 section 5), ``cpsat``
(the cross-check), ``best`` (``--best``: the maximum score, exact/optimum.py) and ``clique`` (paper 002's
max-clique heuristic, clique/solve.py). On hint-free puzzles the turn symmetry is broken (symmetry.py) and every
found board stands for its whole orbit, so counts include the turned copies and say how many are distinct.
The numba kernels of the chosen method are compiled (or loaded from numba's cache) before its clock starts.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from functools import partial
from typing import Any, TextIO

from ..clique.solve import CLIQUE_FLAGS, CliqueSettings, run_clique
from ..config.registry import Flag, NoSettings, warm_entries
from ..core.errors import E2optError
from ..core.generate import generate
from ..core.puzzle import Puzzle
from . import run as runners
from .domains import DOMAIN_ORDERS
from .model import ORDERS
from .optimum import BEST_FLAGS, BestSettings, run_best
from .run import OnBoard, SolveOptions, SolveResult, search
from .scan import SCAN_ORDERS
from .settings import COLORPAIRS, DEPTH_FIRST, SCAN, ColorpairsSettings, DepthFirstSettings, ScanSettings

Runner = Callable[[Puzzle, SolveOptions, OnBoard | None, TextIO | None], Any]


@dataclass(frozen=True)
class ExactOptions:
    """What an exact method's line says besides its settings: the variable orders it takes (its default first),
    the modules of the numba kernels it runs (compiled before the clock starts), the command-line flags that
    set its settings, whether it enumerates perfect boards (takes --all and --count), and for a method that
    answers another question, how a refusal names it (``is a heuristic for the best board``)."""

    orders: tuple[str, ...] = ()
    kernels: tuple[str, ...] = ()
    flags: tuple[Flag, ...] = ()
    enumerates: bool = True
    role: str = ""


@dataclass(frozen=True)
class ExactMethod:
    """An exact method: its settings class (NoSettings: those of SolveOptions only), how it searches (its result
    has ``boards``, ``summary()``, ``stopped`` and ``answered``), one line of help, its options."""

    settings: type
    run: Runner
    help: str
    options: ExactOptions

    @property
    def orders(self) -> tuple[str, ...]:
        """The variable orders it takes, its default first (``--order``)."""
        return self.options.orders


def _first(default: str, orders: Iterable[str], without: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The orders with the default first (less ``without``)."""
    return (default, *(o for o in orders if o != default and o not in without))


def _clique(puzzle: Puzzle, opts: SolveOptions, on_board: OnBoard | None, progress: TextIO | None):
    """clique: the heuristic's best board (clique/solve.py), with the run's seed, limit and symmetry."""
    return run_clique(
        puzzle,
        opts.settings,
        opts.seed,
        opts.time_limit_s,
        opts.symmetry,
        on_board,
        progress,
        opts.progress_every_s,
    )


RNG = "e2opt.kernels.rng"
KERNEL = ("e2opt.exact.dfs", "e2opt.exact.colorpairs", RNG)
SCAN_KERNELS = ("e2opt.exact.scan_kernel", RNG)
EXACT_METHODS: dict[str, ExactMethod] = {
    "domains": ExactMethod(
        DepthFirstSettings, partial(search, runners.domains), "consistent cell domains (edge colours, naked and hidden singles)",
        ExactOptions(DOMAIN_ORDERS, ("e2opt.exact.domains_kernel", RNG), DEPTH_FIRST),
    ),
    "colorpairs": ExactMethod(
        ColorpairsSettings, partial(search, runners.kernel), "paper 000's model: colour-pair counts, backjumping",
        ExactOptions(_first("mingap", ORDERS), KERNEL, COLORPAIRS),
    ),
    "dfs": ExactMethod(
        DepthFirstSettings, partial(search, runners.kernel), "plain depth-first search",
        ExactOptions(_first("row", ORDERS), KERNEL, DEPTH_FIRST),
    ),
    "scan": ExactMethod(
        ScanSettings, partial(search, runners.scan), "fast plain depth-first search for few colours; --workers, --checkpoint",
        ExactOptions(tuple(SCAN_ORDERS), SCAN_KERNELS, SCAN),
    ),
    "chessboard": ExactMethod(
        DepthFirstSettings, partial(search, runners.kernel), "black cells by search, white cells by assignment",
        ExactOptions(_first("row", ORDERS, ("mingap",)), KERNEL, DEPTH_FIRST),  # mingap needs every cell's demands
    ),
    "cpsat": ExactMethod(NoSettings, partial(search, runners.cpsat), "CP-SAT, the cross-check", ExactOptions()),
    "best": ExactMethod(
        BestSettings, run_best, "a board of maximum score and the proof that none scores more (scan decides the full "
        "score with half of --max-cpu-s, at most 60 CPU s; then CP-SAT); --best is its short name",
        ExactOptions(kernels=SCAN_KERNELS, flags=BEST_FLAGS, enumerates=False, role="runs its own search (scan, then CP-SAT)"),
    ),
    "clique": ExactMethod(
        CliqueSettings, _clique, "paper 002's max-clique heuristic, the best board it finds",
        ExactOptions(kernels=("e2opt.clique.kernels", "e2opt.clique.pls", RNG), flags=CLIQUE_FLAGS,
                     enumerates=False, role="is a heuristic for the best board"),
    ),
}  # fmt: skip


def default_method(puzzle: Puzzle) -> str:
    """The method ``e2opt solve`` uses when none is named: domains, whose colour sets fit one 64-bit word,
    and colorpairs past colour 63."""
    return "domains" if puzzle.n_colours <= 64 else "colorpairs"


def options(method: str, **given: Any) -> SolveOptions:
    """SolveOptions from one flat list of keywords, as the Python API takes them: the shared ones, the rest the
    method's settings (an E2optError names a keyword that neither takes)."""
    if method not in EXACT_METHODS:
        raise E2optError(f"--method {method}: choose one of {', '.join(EXACT_METHODS)}")
    settings = EXACT_METHODS[method].settings
    own = {f.name for f in fields(settings)}
    shared = {f.name for f in fields(SolveOptions)} - {"method", "settings"}
    if unknown := sorted(set(given) - own - shared):
        raise E2optError(
            f"method {method} takes no {', '.join(unknown)} (its settings: {', '.join(own) or 'none'})"
        )
    mine = {k: v for k, v in given.items() if k in own}
    return SolveOptions(method, settings=settings(**mine), **{k: v for k, v in given.items() if k not in own})


def checked(opts: SolveOptions, puzzle: Puzzle | None = None) -> SolveOptions:
    """``opts`` with its method (the puzzle's default when None and a puzzle is given), its settings (the method's
    defaults when None) and its variable order (the method's default) resolved, then checked (E2optError)."""
    if opts.method is None and puzzle is not None:
        opts = replace(opts, method=default_method(puzzle))
    if opts.method not in EXACT_METHODS:
        raise E2optError(f"--method {opts.method}: choose one of {', '.join(EXACT_METHODS)}")
    entry = EXACT_METHODS[opts.method]
    settings = entry.settings() if opts.settings is None else opts.settings
    if getattr(settings, "order", "") is None:
        settings = replace(settings, order=entry.orders[0])
    opts = replace(opts, settings=settings)
    opts.check(entry.settings, entry.orders)
    return opts


def solve(
    puzzle: Puzzle,
    opts: SolveOptions,
    on_board: OnBoard | None = None,
    progress: TextIO | None = sys.stderr,
) -> SolveResult:
    """Search ``puzzle`` as ``opts`` says; ``on_board`` sees each board as it is found. The method's kernels are
    compiled first, so its clock (and its CPU limit) counts the search only. The result is the method's: a
    SolveResult for the perfect-board searches, BestResult for best, CliqueSolveResult for clique."""
    opts = checked(opts, puzzle)
    warm_methods([opts.method])
    return EXACT_METHODS[opts.method].run(puzzle, opts, on_board, progress)


_warmed: set[str] = set()


def warm_methods(names: Iterable[str]) -> list[str]:
    """Compile or load the kernels of the named methods; the names warmed now, in order."""
    return warm_entries(EXACT_METHODS, names, _warmed, _warm_method)


def _warm_method(name: str) -> None:
    """Solve a tiny generated puzzle by the method, once per value order (their kernels differ), whole."""
    puzzle, _ = generate(4, 4, 2, 3, 1)
    entry = EXACT_METHODS[name]
    value_orders = (
        ("min", "random") if any(f.field == "value_order" for f in entry.options.flags) else (None,)
    )
    for value_order, find_all in ((v, f) for v in value_orders for f in (False, True)):
        if find_all and not entry.options.enumerates:
            continue
        settings = entry.settings() if value_order is None else entry.settings(value_order=value_order)
        opts = checked(SolveOptions(name, find_all, settings=settings, keep_boards=not find_all), puzzle)
        entry.run(puzzle, opts, None, None)
