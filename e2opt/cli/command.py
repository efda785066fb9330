"""The base class of e2opt's subcommands (cli.py lists them; solve_command.py and sweep_command.py hold the
larger ones) and the options several of them share."""

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
