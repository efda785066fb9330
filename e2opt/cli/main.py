"""Command line: one small class per subcommand; how each ends (exit codes, signals, a closed stdout) is
decided in exits.py, the same for every command."""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

from ..core.errors import E2optError
from . import exits
from .bench import BenchCmd
from .clique import ExportCliqueCmd
from .command import RETIRED, Command, add_budgets, add_executor_options, budget_overrides
from .convert import ConvertCmd
from .puzzles import GenerateCmd, InfoCmd, RenderCmd, VerifyCmd
from .settings import SettingsCmd
from .solve import SolveCmd
from .sweep import SweepCmd, SweepReportCmd
from .warmup import WarmUpCmd


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, help="the one integer seed that drives the run")
    add_budgets(
        parser,
        wall="wall-clock budget in seconds from the command's start (stop.max_wall_s)",
        cpu="CPU budget in seconds of all workers (stop.max_cpu_s)",
    )
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
        from ..engine.executors import check_executor

        check_executor(args.executor, args.scheduler)
        announced = _announce(args)  # before the search modules load: they take seconds
        from ..engine.loader import load_config
        from ..engine.run import run_config
        from ..search.stop import process_age

        values = {"seed": args.seed, "stop.max_wall_s": args.max_wall_s, "name": args.name}
        values["stop.max_cpu_s"] = args.max_cpu_s
        values["output.runs_dir"] = args.runs_dir
        values["run.workers"] = _workers_value(args.workers)
        cfg = load_config(args.config, args.set, **values)
        # the wall budget counts from the command's start (``--max-wall-s 40`` ends 40 s after the shell's Enter)
        result = run_config(
            cfg, quiet=args.quiet, executor=args.executor, scheduler=args.scheduler, spent_s=process_age(),
            announced=announced,
        )  # fmt: skip
        print(result.summary())
        return exits.stop_code(result.stop_reason)


def _announce(args: argparse.Namespace) -> int | None:
    """A count this machine cannot serve refused, and ``starting N worker(s)`` said, at once: before the config
    and the search modules load (seconds); the count, None when only the loaded config tells it."""
    from ..engine.capacity import check_workers, peek_workers, where_workers

    workers = peek_workers(args.config, args.set, args.workers)
    if workers is None or workers < 1:
        return None
    check_workers(workers, args.executor, args.scheduler, "--workers (run.workers)")
    if not args.quiet:
        print(
            f"starting {workers} worker(s) on {where_workers(args.executor, workers, args.scheduler)}",
            flush=True,
        )
    if workers > 1 and args.executor == "local":
        from ..engine.prewarm import start_server

        start_server({"config": str(Path(args.config).resolve()), "sets": list(args.set)})
    return workers


class ResumeCmd(Command):
    name = "resume"
    help = "continue a run from its last checkpoint to its original stopping criteria"

    def add_arguments(self, parser):
        parser.add_argument("run_dir", help="the run folder, e.g. runs/20261122T030000Z_eternity2_s1")
        parser.add_argument(
            "--set", action="append", default=[], metavar="stop.KEY=VALUE", help="extend a stopping criterion"
        )
        add_budgets(
            parser,
            wall="extend the wall-clock budget to S seconds in all (as --set stop.max_wall_s=S)",
            cpu="extend the CPU budget to S seconds in all (as --set stop.max_cpu_s=S)",
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
        from ..engine.executors import check_executor
        from ..engine.resume import AlreadyFinished, resume_run

        check_executor(args.executor, args.scheduler)

        for text in args.set:
            if not text.startswith("stop."):
                raise ConfigError(f"--set {text}: resume only changes stop.* criteria")
        changes = (*args.set, *budget_overrides(args))
        try:
            result = resume_run(
                args.run_dir,
                args.quiet,
                changes,
                executor=args.executor,
                scheduler=args.scheduler,
                workers=args.workers,
            )
        except AlreadyFinished as exc:
            if changes:
                raise
            print(exc)  # not a mistake: there is nothing left to do
            return exits.DONE
        print(result.summary())
        return exits.stop_code(result.stop_reason)


class ReportCmd(Command):
    name = "report"
    help = "summarise a run folder (finished or not) and refresh its plots"

    def add_arguments(self, parser):
        parser.add_argument("run_dir")

    def run(self, args):
        from ..engine.report import run_report

        print(run_report(args.run_dir))
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
    WarmUpCmd(),
    SettingsCmd(),
]


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2), like every other user mistake, naming the command; every
    parser of the command line takes --debug, so it works before or after the subcommand."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks")
        self.set_defaults(command_parser=self)  # a subcommand's parser overrides it: the innermost one

    def error(self, message: str):
        name = self.prog.removeprefix("e2opt").strip()
        where = f"{name}: " if name else ""
        self.exit(exits.MISTAKE, f"e2opt: error: {where}{message} (see {self.prog} --help)\n")


def _version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("e2opt")
    except PackageNotFoundError:
        return "unknown (not installed)"


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``chosen`` only that command's options: some commands' options come
    from registries that import numba, scipy and OR-Tools (``solve --method``), and ``e2opt verify`` should
    not pay for them."""
    parser = _Parser(
        prog="e2opt", description="Eternity II and edge-matching puzzles: CP-SAT + VLNS tabu search."
    )
    parser.add_argument("--version", action="version", version=f"e2opt {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for cmd in COMMANDS:
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        if chosen in (None, cmd.name):
            cmd.add_arguments(p)
        p.set_defaults(cmd=cmd)
    return parser


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line, or exit 2 with one line; an unknown option is named with its subcommand, an older
    spelling of a budget with the one to use."""
    words = sys.argv[1:] if argv is None else argv
    names = {cmd.name for cmd in COMMANDS}
    chosen = next((word for word in words if word in names), "")  # the first command name: the command
    parser = build_parser(chosen)
    old = next((word.split("=")[0] for word in words if word.split("=")[0] in RETIRED), None)
    if old is not None:
        where = f"e2opt {chosen}" if chosen else "e2opt"
        parser.exit(exits.MISTAKE, f"e2opt: error: {chosen + ': ' if chosen else ''}{old} is spelled "
                    f"{RETIRED[old]} now (see {where} --help)\n")  # fmt: skip
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        args.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``e2opt`` command; its exit code is decided in exits.py, the same on every command."""
    args = parse(argv)
    debug = getattr(args, "debug", False)
    stdout, sys.stdout = sys.stdout, exits.ClosedPipeSafe(sys.stdout)
    try:
        with exits.StopSignalsUnwind():
            code = args.cmd.run(args)
            sys.stdout.flush()
            return code
    except (E2optError, OSError) as exc:
        if debug:
            traceback.print_exc()
        exits.tell(f"e2opt: error: {exc if isinstance(exc, E2optError) else _os_message(exc)}")
        return exits.error_code(exc)
    except KeyboardInterrupt:
        exits.tell("e2opt: interrupted")
        return exits.interrupted_code()
    except Exception as exc:
        missing = _missing(exc)
        if debug or missing is None:
            traceback.print_exc()
        if missing is not None:
            exits.tell(f"e2opt: error: {missing}")
            return exits.ENVIRONMENT
        exits.tell("e2opt: internal error: a bug in e2opt (the traceback above); please report it")
        return exits.BUG
    finally:
        sys.stdout.flush()
        sys.stdout = stdout


def _missing(exc: Exception) -> str | None:
    """A dependency not installed in this Python (not a module of e2opt's own): which, and how to install it."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name or exc.name.split(".")[0] == "e2opt":
        return None
    top = exc.name.split(".")[0]
    extra = "[dask]" if top in ("dask", "distributed") else ""
    return (
        f"the package {top!r} is not installed in {sys.executable}; install e2opt{extra} there as the "
        f'README says (pip install -e ".{extra}")'
    )


def _os_message(exc: OSError) -> str:
    name = f"{Path(exc.filename)}: " if exc.filename else ""
    return f"{name}{exc.strerror or exc}"


if __name__ == "__main__":
    sys.exit(main())
