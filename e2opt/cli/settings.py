"""``e2opt settings``: the one table of every setting, generated from the registries (docs/settings.md)."""

from __future__ import annotations

import sys

from ..core.fsutil import atomic_write_text, check_outputs
from .command import Command


class SettingsCmd(Command):
    name = "settings"
    help = "print the table of every config setting with its default and clock (docs/settings.md)"

    def add_arguments(self, parser):
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")
        parser.add_argument("--force", action="store_true", help="replace the output file if it exists")

    def run(self, args):
        from ..config.table import markdown
        from ..engine.config import RunConfig

        check_outputs({"-o": args.output}, {}, args.force)
        text = markdown(RunConfig)
        if args.output:
            atomic_write_text(args.output, text)
        else:
            sys.stdout.write(text)
        return 0
