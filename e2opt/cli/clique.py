"""``e2opt export-clique``: paper 002's clique graph of a puzzle, or of a window of a board, as a DIMACS file."""

from __future__ import annotations

from ..core.errors import E2optError
from .command import Command


class ExportCliqueCmd(Command):
    name = "export-clique"
    help = "write the max-clique graph of a puzzle or of a board window in DIMACS format (paper 002)"

    def add_arguments(self, parser):
        parser.add_argument("puzzle")
        parser.add_argument("--board", help="a board of the puzzle: the graph of --window against it")
        parser.add_argument(
            "--window",
            type=int,
            nargs=4,
            metavar=("ROW", "COL", "HEIGHT", "WIDTH"),
            help="the window's top-left cell and size (needs --board)",
        )
        parser.add_argument(
            "--no-symmetry",
            action="store_true",
            help="whole puzzle: keep the turned copies (default: a corner piece is fixed)",
        )
        parser.add_argument("-o", "--output", required=True, help="DIMACS file to write")
        parser.add_argument("--force", action="store_true", help="replace output files that exist")

    def run(self, args):
        from ..clique.dimacs import write_dimacs
        from ..clique.graph import puzzle_graph, window_cells, window_graph
        from ..core.formats.read import read_board, read_puzzle
        from ..core.fsutil import check_outputs
        from ..exact.optimum import checked_score

        if (args.board is None) != (args.window is None):
            raise E2optError("--board and --window go together (without both: the whole puzzle's graph)")
        if args.window is not None and args.no_symmetry:
            raise E2optError("--no-symmetry applies to the whole puzzle's graph, not to a window")
        check_outputs({"-o": args.output}, {"puzzle": args.puzzle, "--board": args.board}, args.force)
        puzzle = read_puzzle(args.puzzle)
        if args.board is None:
            graph = puzzle_graph(puzzle, not args.no_symmetry)
            title = f"e2opt clique graph of {puzzle.name} ({puzzle.rows}x{puzzle.cols})"
        else:
            board = read_board(args.board)
            if board.shape != (puzzle.rows, puzzle.cols):
                raise E2optError(
                    f"--board {args.board}: {board.shape[0]}x{board.shape[1]}, the puzzle is "
                    f"{puzzle.rows}x{puzzle.cols}"
                )
            try:
                checked_score(puzzle, board)
            except E2optError as exc:
                raise E2optError(f"--board {args.board}: {exc}") from None
            r0, c0, height, width = args.window
            cells = window_cells(puzzle, r0, c0, height, width)
            if len(cells) == 0:
                raise E2optError(f"--window {r0} {c0} {height} {width}: every cell of it is a hint")
            graph = window_graph(puzzle, board, cells)
            title = f"e2opt clique graph of {puzzle.name}, window rows {r0}..{r0 + height - 1} cols {c0}..{c0 + width - 1}"
        nodes, edges = write_dimacs(graph, args.output, title)
        pairs = nodes * (nodes - 1) // 2
        density = f"{100 * edges / pairs:.1f}%" if pairs else "-"
        print(
            f"wrote {args.output}: {nodes} nodes, {edges} edges, density {density}, "
            f"a perfect clique has {graph.target} nodes"
        )
        return 0
