"""The commands on a puzzle file and its boards, none of which runs a search: verify, generate, render,
info."""

from __future__ import annotations

import argparse

from .command import Command


def _add_force(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="replace output files that exist")


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


def _cell(text: str) -> tuple[int, int]:
    """A ``ROW,COL`` argument as a pair of ints (argparse names the option when it fails)."""
    row, sep, col = text.partition(",")
    if not sep or not row.strip().isdigit() or not col.strip().isdigit():
        raise argparse.ArgumentTypeError(f"'{text}' is not ROW,COL (two whole numbers, e.g. 8,7)")
    return int(row), int(col)


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
            "--hint-cells",
            nargs="+",
            type=_cell,
            metavar="ROW,COL",
            help="these solution cells become hints (rows and columns from 0), e.g. E2's clue cells: "
            "8,7 2,2 2,13 13,2 13,13",
        )
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
            args.rows, args.cols, args.frame_colours, args.inner_colours, args.seed, args.hints, args.recolour,
            hint_cells=args.hint_cells,
        )  # fmt: skip
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
