"""The base class of e2opt's subcommands (main.py lists them; puzzles.py, solve.py, sweep.py, bench.py and
others hold them) and the options several of them share."""

from __future__ import annotations

import argparse


class Command:
    """A subcommand: ``name``, ``help``, ``add_arguments`` and ``run`` (returns the exit code)."""

    name = ""
    help = ""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        pass

    def run(self, args: argparse.Namespace) -> int:
        raise NotImplementedError


def add_executor_options(parser: argparse.ArgumentParser, what: str) -> None:
    """--executor and --scheduler, for the commands that run on local processes or a Dask cluster."""
    parser.add_argument("--executor", choices=("local", "dask"), default="local", help="default: local")
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help=f"Dask scheduler address for the {what} (default: a LocalCluster)",
    )


# older spellings of the budgets, refused with the one to use instead
RETIRED = {"--max-runtime": "--max-wall-s", "--time-limit": "--max-cpu-s", "--cpu-s": "--max-cpu-s"}


def add_budgets(
    parser: argparse.ArgumentParser, wall: str | None = None, cpu: str | None = None, **cpu_options: object
) -> None:
    """--max-wall-s S and --max-cpu-s S, the one spelling of a budget on every command (help texts ``wall``
    and ``cpu``; a None budget is not offered); ``cpu_options`` (default, nargs, required) go to --max-cpu-s."""
    if wall is not None:
        parser.add_argument("--max-wall-s", dest="max_wall_s", type=float, metavar="S", help=wall)
    if cpu is not None:
        parser.add_argument("--max-cpu-s", dest="max_cpu_s", type=float, metavar="S", help=cpu, **cpu_options)


def budget_overrides(args: argparse.Namespace) -> list[str]:
    """--max-wall-s and --max-cpu-s as ``stop.*`` overrides, for the commands whose budgets live in a run's
    config (resume, sweep): the same as ``--set stop.max_wall_s=S``."""
    budgets = {key: getattr(args, key, None) for key in ("max_wall_s", "max_cpu_s")}
    return [f"stop.{key}={value:g}" for key, value in budgets.items() if value is not None]
