"""``e2opt convert``: puzzles and boards between e2opt's formats and the community's (core/formats/)."""

from __future__ import annotations

import sys

from ..core.formats.convert import convert
from ..core.formats.detect import BOARD_READERS, BOARD_WRITERS, PUZZLE_READERS, PUZZLE_WRITERS
from ..core.fsutil import atomic_write_text, check_outputs
from .command import Command


class ConvertCmd(Command):
    name = "convert"
    help = "convert a puzzle (or, with --puzzle, a board) between e2opt's formats and the community's"

    def add_arguments(self, parser):
        parser.add_argument("input", help="puzzle file, or board file when --puzzle is given")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")
        parser.add_argument(
            "--from",
            dest="source_format",
            metavar="FORMAT",
            help=f"input format (default: from its content); puzzles: {', '.join(PUZZLE_READERS)}; "
            f"boards: {', '.join(BOARD_READERS)}",
        )
        parser.add_argument(
            "--to",
            metavar="FORMAT",
            help=f"output format (default: from -o's extension .csv/.json/.board); puzzles: "
            f"{', '.join(PUZZLE_WRITERS)}; boards: {', '.join(BOARD_WRITERS)}",
        )
        parser.add_argument(
            "--puzzle", help="the board's puzzle file (any puzzle format): INPUT is then a board"
        )
        parser.add_argument("--force", action="store_true", help="replace the output file if it exists")

    def run(self, args):
        inputs = {"input": args.input, "--puzzle": args.puzzle}
        check_outputs({"-o": args.output}, inputs, args.force)
        text = convert(args.input, args.source_format, args.to, args.output, args.puzzle)
        if args.output is None:
            sys.stdout.write(text)
        else:
            atomic_write_text(args.output, text)
            print(f"wrote {args.output}")
        return 0
