"""``e2opt solve``: its options, the exact searches (exact/solve.py) and ``--best`` (exact/optimum.py)."""

from __future__ import annotations

import argparse
import sys

from ..core.errors import E2optError
from . import exits
from .command import Command, add_budgets


def _workers(text: str) -> int:
    """``--workers``: a count, or ``auto``: as many one-thread searches as fit on the usable cores."""
    if text == "auto":
        from ..engine.pools import slots_for

        return slots_for(1)
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a number of processes or auto") from None


class SolveCmd(Command):
    name = "solve"
    help = "exact search: one perfect board, all of them, or their count; or proof that none exists"

    def add_arguments(self, parser):
        from ..exact.model import VALUE_ORDERS
        from ..exact.solve import EXACT_METHODS

        parser.add_argument("puzzle")
        parser.add_argument("--all", action="store_true", help="enumerate every perfect board")
        parser.add_argument("--count", action="store_true", help="count the perfect boards (implies --all)")
        parser.add_argument(
            "--method",
            help="; ".join(f"{name}: {m.help}" for name, m in EXACT_METHODS.items())
            + "; clique: paper 002's max-clique heuristic, the best board it finds (default domains, colorpairs"
            " past colour 63; cpsat with --best)",
        )
        parser.add_argument(
            "--selections", type=float, metavar="Q", help="clique: the heuristic's selections q (default 1e7)"
        )
        add_budgets(
            parser, cpu="CPU seconds before giving up (--time-limit: older)", old={"cpu": "--time-limit"}
        )
        parser.add_argument(
            "-o", "--output", metavar="DIR", help="write each board as DIR/<puzzle>_<k>.board"
        )
        parser.add_argument(
            "--order",
            help="variable order, the method's default first: "
            + "; ".join(f"{name}: {' | '.join(m.orders)}" for name, m in EXACT_METHODS.items() if m.orders),
        )
        parser.add_argument("--value-order", default="min", help=f"{' | '.join(VALUE_ORDERS)} (default min)")
        parser.add_argument("--no-symmetry", action="store_true", help="do not break the turn symmetry")
        parser.add_argument("--no-backjump", action="store_true", help="colorpairs: plain backtracking")
        parser.add_argument(
            "--seed", type=int, default=0, help="CP-SAT seed; shuffles values with --value-order random"
        )
        parser.add_argument(
            "--restarts", type=int, default=0, help="scan: limited attempts before the final run"
        )
        parser.add_argument(
            "--restart-nodes", type=int, default=100_000, help="scan: nodes of a Luby restart unit"
        )
        parser.add_argument(
            "--shave", type=int, default=0, metavar="L", help="colorpairs: shaving limit (0: off)"
        )
        parser.add_argument(
            "--workers",
            type=_workers,
            default=1,
            metavar="N",
            help="scan: processes sharing the search tree, or auto (the usable cores; default 1)",
        )
        parser.add_argument(
            "--checkpoint",
            metavar="FILE",
            help="scan: record finished subtrees in FILE; the same command resumes from it",
        )
        parser.add_argument(
            "--best",
            action="store_true",
            help="a board of maximum score and the proof that none scores more (scan decides "
            "the full score with half of --max-cpu-s, at most 60 CPU s; then CP-SAT)",
        )
        parser.add_argument(
            "--bound",
            type=int,
            metavar="N",
            help="--best: a score already reached; only boards that beat it are searched",
        )
        parser.add_argument(
            "--from",
            dest="start",
            metavar="BOARD",
            help="--best: a board already found (its score is the bound, the board a hint)",
        )
        parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")

    def run(self, args):
        from ..core.board import format_board
        from ..core.boardwriter import BoardWriter
        from ..core.formats.read import read_puzzle
        from ..exact.solve import SolveOptions, default_method, solve

        if args.method == "clique":
            from ..clique.solve import solve_command

            result = solve_command(args)  # a heuristic: its q selections are an answer, a limit is not
            return exits.answer_code(result.stopped, result.stopped != "time limit")
        if args.selections is not None:
            raise E2optError("--selections goes with --method clique")
        if args.best or args.bound is not None or args.start:
            return self._best(args)
        find_all = args.all or args.count
        puzzle = read_puzzle(args.puzzle)
        opts = SolveOptions(
            args.method or default_method(puzzle),
            find_all,
            args.max_cpu_s,
            args.order,
            args.value_order,
            not args.no_symmetry,
            not args.no_backjump,
            args.seed,
            keep_boards=bool(args.output) or not find_all or args.all,
            restarts=args.restarts,
            restart_nodes=args.restart_nodes,
            shave=args.shave,
            workers=args.workers,
            checkpoint=args.checkpoint,
        )
        opts.check()
        writer = BoardWriter(args.output, puzzle.name) if args.output else None
        result = solve(puzzle, opts, writer, None if args.quiet else sys.stderr)
        if not writer and (args.all or not find_all):
            for board in result.boards:
                print(format_board(board))
        if args.count:
            print(result.count_line())
        print(result.summary())
        found = result.solutions > 0 and (result.complete or result.stopped == "first solution")
        return exits.answer_code(result.stopped, found)  # no perfect board is a negative answer

    def _best(self, args) -> int:
        """``--best``: the maximum score (exact/optimum.py)."""
        from ..core.board import format_board
        from ..core.boardwriter import BoardWriter
        from ..core.formats.read import read_board, read_puzzle
        from ..exact.optimum import best_board, checked_score

        others = {
            "--all": args.all,
            "--count": args.count,
            "--order": args.order,
            "--shave": args.shave,
            "--value-order": args.value_order != "min",
            "--restarts": args.restarts,
            "--restart-nodes": args.restart_nodes != 100_000,
            "--workers": args.workers != 1,
            "--checkpoint": args.checkpoint,
            "--no-backjump": args.no_backjump,
        }
        if not args.best:
            raise E2optError("--bound and --from go with --best")
        if args.method not in (None, "cpsat") or any(others.values()):
            given = [f"--method {args.method}"] if args.method not in (None, "cpsat") else []
            given += [name for name, value in others.items() if value]
            raise E2optError(f"--best runs its own search (scan, then CP-SAT): not with {', '.join(given)}")
        if args.bound is not None and args.start:
            raise E2optError("--bound and --from: give one (--from's board sets the bound)")
        if args.max_cpu_s is not None and not args.max_cpu_s > 0:
            raise E2optError(f"--max-cpu-s {args.max_cpu_s}: must be a positive number of seconds")
        puzzle = read_puzzle(args.puzzle)
        writer = BoardWriter(args.output, puzzle.name) if args.output else None
        start = read_board(args.start, puzzle) if args.start else None
        if start is not None:
            try:
                checked_score(puzzle, start)
            except E2optError as exc:
                raise E2optError(f"--from {args.start}: {exc}") from None
        result = best_board(
            puzzle,
            known_board=start,
            known_score=args.bound,
            symmetry=not args.no_symmetry,
            time_limit_s=args.max_cpu_s,
            seed=args.seed,
            progress=None if args.quiet else sys.stderr,
        )
        if result.board is not None and writer:
            writer(result.board)
        elif result.board is not None:
            print(format_board(result.board))
        print(result.summary())
        return exits.answer_code(result.stopped, result.complete)
