"""The base class of e2opt's subcommands (cli.py lists them; solve_command.py holds ``e2opt solve``)."""

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
