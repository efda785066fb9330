"""Command line: one small class per subcommand; user errors become one line and exit code 2, a run ended by a
full disk or lost permission one line and exit code 74."""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

from ..core.errors import E2optError
from .bench import BenchCmd
from .clique import ExportCliqueCmd
from .command import Command, add_executor_options
from .convert import ConvertCmd
from .exits import exit_code, say
from .solve import SolveCmd
from .sweep import SweepCmd, SweepReportCmd


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, help="the one integer seed that drives the run")
    parser.add_argument(
        "--max-wall-s",
        "--max-runtime",
        dest="max_runtime",
        type=float,
        metavar="S",
        help="wall-clock budget in seconds (stop.max_wall_s; --max-runtime is the older spelling)",
    )
    parser.add_argument("--max-cpu-s", type=float, metavar="S", help="CPU budget in seconds (stop.max_cpu_s)")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY.PATH=VALUE", help="override a config value"
    )
    parser.add_argument("--name", help="run name used in the run folder (default: the config's name)")
    parser.add_argument("--runs-dir", help="where run folders go (default: output.runs_dir)")
    parser.add_argument(
        "--quiet", action="store_true", help="no progress output (warnings still go to stderr)"
    )


def _workers_value(text: str | None) -> int | str | None:
    """--workers N or auto, as the config value run.workers (the config check names a bad one)."""
    if text is None or text == "auto":
        return text
    try:
        return int(text)
    except ValueError:
        return text


def _add_force(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="replace output files that exist")


class RunCmd(Command):
    name = "run"
    help = "construct an initial board and search from it; writes a run folder"

    def add_arguments(self, parser):
        parser.add_argument("config", help="YAML config file, e.g. config/eternity2.yaml")
        _add_run_options(parser)
        parser.add_argument(
            "--workers",
            metavar="N|auto",
            help="search processes (run.workers; auto: usable cores / CP-SAT threads)",
        )
        add_executor_options(parser, "workers")

    def run(self, args):
        from ..engine.loader import load_config
        from ..engine.pools import check_executor
        from ..engine.run import run_config
        from ..search.stop import process_age

        check_executor(args.executor, args.scheduler)
        values = {"seed": args.seed, "stop.max_wall_s": args.max_runtime, "name": args.name}
        values["stop.max_cpu_s"] = args.max_cpu_s
        values["output.runs_dir"] = args.runs_dir
        values["run.workers"] = _workers_value(args.workers)
        cfg = load_config(args.config, args.set, **values)
        # the wall budget counts from the command's start (``--max-wall-s 40`` ends 40 s after the shell's Enter)
        result = run_config(
            cfg, quiet=args.quiet, executor=args.executor, scheduler=args.scheduler, spent_s=process_age()
        )
        say(result.summary())
        return exit_code(result.stop_reason)


class ResumeCmd(Command):
    name = "resume"
    help = "continue a run from its last checkpoint to its original stopping criteria"

    def add_arguments(self, parser):
        parser.add_argument("run_dir", help="the run folder, e.g. runs/20261122T030000Z_eternity2_s1")
        parser.add_argument(
            "--set", action="append", default=[], metavar="stop.KEY=VALUE", help="extend a stopping criterion"
        )
        parser.add_argument(
            "--quiet", action="store_true", help="no progress output (warnings still go to stderr)"
        )
        parser.add_argument(
            "--workers", type=int, metavar="N", help="go on with N workers (default: as many as the run had)"
        )
        add_executor_options(parser, "workers")

    def run(self, args):
        from ..core.errors import ConfigError
        from ..engine.pools import check_executor
        from ..engine.resume import AlreadyFinished, resume_run

        check_executor(args.executor, args.scheduler)

        for text in args.set:
            if not text.startswith("stop."):
                raise ConfigError(f"--set {text}: resume only changes stop.* criteria")
        try:
            result = resume_run(
                args.run_dir,
                args.quiet,
                tuple(args.set),
                executor=args.executor,
                scheduler=args.scheduler,
                workers=args.workers,
            )
        except AlreadyFinished as exc:
            if args.set:
                raise
            say(str(exc))  # not a mistake: there is nothing left to do
            return 0
        say(result.summary())
        return exit_code(result.stop_reason)


class ReportCmd(Command):
    name = "report"
    help = "summarise a run folder (finished or not) and refresh its plots"

    def add_arguments(self, parser):
        parser.add_argument("run_dir")

    def run(self, args):
        from ..engine.report import run_report

        print(run_report(args.run_dir))
        return 0


class VerifyCmd(Command):
    name = "verify"
    help = "re-check a board against its puzzle file independently: rules and score"

    def add_arguments(self, parser):
        parser.add_argument("puzzle", help="puzzle file (any format e2opt reads: docs/formats.md)")
        parser.add_argument(
            "board", help="board file (e2opt, Blackwood, anjou JSON, Clark or Brendan solution)"
        )
        parser.add_argument("--url", action="store_true", help="also print the board's viewer link")

    def run(self, args):
        from ..core.formats.detect import verifier_texts
        from ..core.verify import verify_files, verify_texts

        texts = verifier_texts(args.puzzle, args.board)
        if texts is None:
            report = verify_files(args.puzzle, args.board)
        else:
            report = verify_texts(*texts, args.puzzle, args.board)
        print(report.text())
        if args.url:
            print(_viewer_line(args.puzzle, args.board))
        return 0 if report.valid else 1


def _viewer_line(puzzle_path: str, board_path: str) -> str:
    """``viewer: URL`` for a board file, or why there is no link."""
    from ..core.formats.read import read_board, read_puzzle
    from ..core.formats.viewer import viewer_url

    puzzle = read_puzzle(puzzle_path)
    url = viewer_url(puzzle, read_board(board_path, puzzle))
    return f"viewer: {url}" if url else "viewer: no link (more colours than the viewer's 26 letters)"


class GenerateCmd(Command):
    name = "generate"
    help = "make an E2-like puzzle with a planted perfect solution"

    def add_arguments(self, parser):
        parser.add_argument("--rows", type=int, required=True)
        parser.add_argument("--cols", type=int, required=True)
        parser.add_argument("--frame-colours", type=int, required=True)
        parser.add_argument("--inner-colours", type=int, required=True)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--hints", type=int, default=0, help="how many solution cells become hints")
        parser.add_argument(
            "--recolour",
            type=int,
            default=0,
            metavar="N",
            help="recolour N inner sides: the planted board loses N joins (usually no perfect board)",
        )
        parser.add_argument("-o", "--output", required=True, help="puzzle file to write")
        parser.add_argument("--solution", help="also write the planted solution as a .board file")
        _add_force(parser)

    def run(self, args):
        from ..core.board import write_board
        from ..core.fsutil import check_outputs
        from ..core.generate import generate
        from ..core.puzzle import write_puzzle

        check_outputs({"-o": args.output, "--solution": args.solution}, {}, args.force)
        puzzle, solution = generate(
            args.rows, args.cols, args.frame_colours, args.inner_colours, args.seed, args.hints, args.recolour
        )
        write_puzzle(puzzle, args.output)
        if args.solution:
            write_board(solution, args.solution)
        print(f"wrote {args.output} ({args.rows}x{args.cols}, {len(puzzle.hints)} hints)")
        return 0


class RenderCmd(Command):
    name = "render"
    help = "draw a board as SVG or PNG"

    def add_arguments(self, parser):
        parser.add_argument("puzzle")
        parser.add_argument("board")
        parser.add_argument("-o", "--output", required=True, help="out.svg or out.png")
        parser.add_argument("--title", help="name shown before the score (default: the puzzle file's name)")
        parser.add_argument("--url", action="store_true", help="also print the board's viewer link")
        _add_force(parser)

    def run(self, args):
        from ..core.formats.read import read_board, read_puzzle
        from ..core.fsutil import check_outputs
        from ..core.render import render_board

        check_outputs({"-o": args.output}, {"puzzle": args.puzzle, "board": args.board}, args.force)
        puzzle = read_puzzle(args.puzzle)
        board = read_board(args.board, puzzle)
        render_board(puzzle, board, args.output, title=args.title)
        print(f"wrote {args.output}")
        if args.url:
            print(_viewer_line(args.puzzle, args.board))
        return 0


class InfoCmd(Command):
    name = "info"
    help = "describe a puzzle: size, kinds, colours, hints, best known score"

    def add_arguments(self, parser):
        parser.add_argument("puzzle")

    def run(self, args):
        from ..core.formats.read import read_puzzle
        from ..core.info import describe

        print(describe(read_puzzle(args.puzzle)))
        return 0


COMMANDS: list[Command] = [
    RunCmd(),
    ResumeCmd(),
    ReportCmd(),
    VerifyCmd(),
    GenerateCmd(),
    RenderCmd(),
    InfoCmd(),
    BenchCmd(),
    SweepCmd(),
    SweepReportCmd(),
    SolveCmd(),
    ConvertCmd(),
    ExportCliqueCmd(),
]


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2), like every other user mistake."""

    def error(self, message: str):
        self.exit(
            2, f"e2opt: error: {self.prog.removeprefix('e2opt').strip() or 'e2opt'}: {message} (see --help)\n"
        )


def _version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("e2opt")
    except PackageNotFoundError:
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="e2opt", description="Eternity II and edge-matching puzzles: CP-SAT + VLNS tabu search."
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument("--version", action="version", version=f"e2opt {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for cmd in COMMANDS:
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        cmd.add_arguments(p)
        p.set_defaults(cmd=cmd)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``e2opt`` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.cmd.run(args)
    except (E2optError, OSError) as exc:
        if args.debug:
            traceback.print_exc()
        message = str(exc) if isinstance(exc, E2optError) else _os_message(exc)
        print(f"e2opt: error: {message}", file=sys.stderr)
        return _error_code(exc, args.command)
    except KeyboardInterrupt:
        print("e2opt: interrupted", file=sys.stderr)
        return 130


def _error_code(exc: Exception, command: str) -> int:
    """2 for a user mistake; 74 for a run ended by its environment (envfail.py), or a run or resume that could
    not write its folder before it began (a full disk, lost permission)."""
    from ..engine.envfail import EXIT_CODE, is_fault

    if isinstance(exc, E2optError):
        return getattr(exc, "exit_code", 2)
    return EXIT_CODE if command in ("run", "resume") and is_fault(exc) else 2


def _os_message(exc: OSError) -> str:
    name = f"{Path(exc.filename)}: " if exc.filename else ""
    return f"{name}{exc.strerror or exc}"


if __name__ == "__main__":
    sys.exit(main())
