"""``e2opt solve``: its options and its refusals come from the one table of methods, exact/solve.py
EXACT_METHODS (each line's flags, whether it enumerates, its role); ``--best`` is ``--method best``."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..core.errors import E2optError
from . import exits
from .command import Command, add_budgets

if TYPE_CHECKING:
    from ..config.registry import Flag
    from ..exact.solve import ExactMethod

ENUMERATE = ("--all", "--count")  # taken by the methods that enumerate perfect boards


def _owners() -> dict[str, list[str]]:
    """Each method-owned option -> the methods that take it, in the table's order."""
    from ..exact.solve import EXACT_METHODS

    owners: dict[str, list[str]] = {}
    for name, entry in EXACT_METHODS.items():
        spellings = [f.spelling for f in entry.options.flags] + list(
            ENUMERATE if entry.options.enumerates else ()
        )
        for spelling in spellings:
            owners.setdefault(spelling, []).append(name)
    return owners


def _flags() -> dict[str, Flag]:
    """Every method-owned flag once, by spelling (a flag several methods take is one object)."""
    from ..exact.solve import EXACT_METHODS

    return {f.spelling: f for entry in EXACT_METHODS.values() for f in entry.options.flags}


class SolveCmd(Command):
    name = "solve"
    help = "exact search: one perfect board, all of them, or their count; or proof that none exists"

    def add_arguments(self, parser):
        from ..exact.solve import EXACT_METHODS, SolveOptions

        parser.add_argument("puzzle")
        parser.add_argument(
            "--method",
            help="; ".join(
                f"{name}: {m.help}" + (f" (orders: {' | '.join(m.orders)})" if m.orders else "")
                for name, m in EXACT_METHODS.items()
            )
            + " (default domains, colorpairs past colour 63)",
        )
        parser.add_argument("--best", action="store_true", help="short for --method best")
        owners = _owners()
        parser.add_argument("--all", action="store_true", help="enumerate every perfect board")
        parser.add_argument("--count", action="store_true", help="count the perfect boards (implies --all)")
        for spelling, flag in _flags().items():
            who = ", ".join(owners[spelling])
            if flag.parse is None:
                kind = {"action": "store_const", "const": flag.switch}
            else:
                kind = {"type": flag.parse, "metavar": flag.metavar}
            parser.add_argument(spelling, dest=flag.field, default=None, help=f"{who}: {flag.help}", **kind)
        add_budgets(parser, cpu="CPU seconds before giving up")
        parser.add_argument(
            "-o", "--output", metavar="DIR", help="write each board as DIR/<puzzle>_<k>.board"
        )
        parser.add_argument("--no-symmetry", action="store_true", help="do not break the turn symmetry")
        parser.add_argument(
            "--seed",
            type=int,
            default=0,
            help="CP-SAT's and the clique heuristic's seed; shuffles values with --value-order random",
        )
        parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
        parser.add_argument(
            "--progress-every-s",
            type=float,
            metavar="S",
            default=SolveOptions.progress_every_s,
            help="CPU seconds between progress lines (default %(default)g)",
        )

    def run(self, args):
        from ..core.board import format_board
        from ..core.boardwriter import BoardWriter
        from ..core.formats.read import read_puzzle
        from ..exact.solve import EXACT_METHODS, SolveOptions, default_method, solve

        puzzle = read_puzzle(args.puzzle)
        name = "best" if args.best else args.method or default_method(puzzle)
        if name not in EXACT_METHODS:
            raise E2optError(f"--method {name}: choose one of {', '.join(EXACT_METHODS)}")
        entry = EXACT_METHODS[name]
        settings = entry.settings(**self._owned(args, name, entry))
        find_all = bool(args.all or args.count)
        opts = SolveOptions(
            name,
            find_all,
            args.max_cpu_s,
            settings,
            not args.no_symmetry,
            args.seed,
            keep_boards=bool(args.output) or not find_all or args.all,
            progress_every_s=args.progress_every_s,
        )
        writer = BoardWriter(args.output, puzzle.name) if args.output else None
        result = solve(puzzle, opts, writer, None if args.quiet else sys.stderr)
        if not writer:
            for board in result.boards:
                print(format_board(board))
        if args.count:
            print(result.count_line())
        print(result.summary())
        return exits.answer_code(result.stopped, result.answered)  # no perfect board is a negative answer

    @staticmethod
    def _owned(args: argparse.Namespace, name: str, entry: ExactMethod) -> dict[str, Any]:
        """The method's settings the command line gives; E2optError (the one rule) on a method-owned option that
        the chosen method does not take: one line naming them, the method, and what each goes with."""
        from ..config.registry import refusal

        own = {f.spelling for f in entry.options.flags} | set(ENUMERATE if entry.options.enumerates else ())
        given = [s for s in ENUMERATE if getattr(args, s[2:]) and s not in own]
        given += [s for s, f in _flags().items() if getattr(args, f.field) is not None and s not in own]
        if args.best and args.method not in (None, "best"):
            given.insert(0, f"--method {args.method}")
        if given:
            subject = (
                "--best" if args.best else f"--method {name}" + ("" if args.method else " (the default here)")
            )
            role = f" {entry.options.role}" if entry.options.role else ""
            owners = {s: f"--method {', '.join(names)}" for s, names in _owners().items()}
            raise E2optError(refusal(subject + role, given, owners))
        return {
            f.field: getattr(args, f.field) for f in entry.options.flags if getattr(args, f.field) is not None
        }
