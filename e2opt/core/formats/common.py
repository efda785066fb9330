"""Shared by the format modules: line tokens, numbers with line-naming errors, and one gate through which
every foreign puzzle passes e2opt's own checks (puzzle.parse_puzzle), its messages pointing at the line of
the foreign file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import BoardError, E2optError, PuzzleError
from ..puzzle import Puzzle, check_size, natural_problem, parse_puzzle


def content_lines(text: str, comments: bool = True) -> list[tuple[int, str]]:
    """(line number, stripped text) of every line that is neither blank nor a comment: text from ``#`` on
    with ``comments``, else only whole lines starting with ``#`` (links hold a ``#``)."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if comments:
            line = line.split("#", 1)[0]
        line = line.strip()
        if line and not line.startswith("#"):
            out.append((number, line))
    return out


def puzzle_number(token: str, path: str, line: int, what: str) -> int:
    """A non-negative integer of a puzzle file, or PuzzleError naming the line and what it should be."""
    problem = natural_problem(token.strip())
    if problem:
        raise PuzzleError(path, line, f"{what}: {problem}")
    return int(token)


def board_number(token: str, path: str, line: int, what: str) -> int:
    """A non-negative integer of a board file, or BoardError naming the file, line and what it should be."""
    problem = natural_problem(token.strip())
    if problem:
        raise BoardError(f"{path}, line {line}: {what}: {problem}")
    return int(token)


def puzzle_size(rows: int, cols: int, path: str, line: int) -> None:
    """PuzzleError when the header's size is not one e2opt accepts."""
    problem = check_size(rows, cols)
    if problem:
        raise PuzzleError(path, line, f"bad header: {problem}")


@dataclass
class Draft:
    """A puzzle as a foreign reader found it, in e2opt's terms (t r b l, clockwise turns, 0-based ids and
    cells), with the foreign line of every piece and hint so that e2opt's checks can name it."""

    rows: int
    cols: int
    header_line: int
    pieces: list[tuple[int, int, int, int]] = field(default_factory=list)
    piece_lines: list[int] = field(default_factory=list)
    hints: list[tuple[int, int, int, int]] = field(default_factory=list)  # piece, row, col, rot
    hint_lines: list[int] = field(default_factory=list)

    def build(self, path: str, last_line: int) -> Puzzle:
        """The checked Puzzle: e2opt's own parser on the equivalent e2opt text, its line numbers mapped back."""
        lines = [f"{self.rows} {self.cols}"] + [" ".join(map(str, p)) for p in self.pieces]
        lines += [f"hint {p} {r} {c} {k}" for p, r, c, k in self.hints]
        where = [self.header_line, *self.piece_lines, *self.hint_lines]
        try:
            return parse_puzzle("\n".join(lines) + "\n", path)
        except PuzzleError as exc:

            def mapped(number: int) -> int:
                return where[number - 1] if number <= len(where) else last_line

            line = None if exc.line is None else mapped(exc.line)
            problem = re.sub(r"line (\d+)", lambda m: f"line {mapped(int(m.group(1)))}", exc.problem)
            raise PuzzleError(path, line, problem) from None


def user_sides(puzzle: Puzzle, piece: int, rot: int = 0) -> tuple[int, ...]:
    """Colours (t, r, b, l) with the puzzle file's ids of ``piece`` turned ``rot`` clockwise."""
    return tuple(puzzle.user_colour(int(c)) for c in puzzle.oriented[piece, rot % 4])


def letters_map(puzzle: Puzzle) -> dict[int, str] | None:
    """Dense colour -> viewer letter ('a' + colour): the file's ids when they fit a..z, else dense ids;
    None when the puzzle has more than 26 colours (the viewer's alphabet)."""
    ids = [puzzle.user_colour(c) for c in range(puzzle.n_colours)]
    if max(ids) <= 25:
        return {c: chr(97 + user) for c, user in enumerate(ids)}
    if puzzle.n_colours <= 26:
        return {c: chr(97 + c) for c in range(puzzle.n_colours)}
    return None


def placed_letters(puzzle: Puzzle, letters: dict[int, str], piece: int, rot: int) -> str:
    """The four viewer letters (up, right, down, left) of ``piece`` turned ``rot``."""
    return "".join(letters[int(c)] for c in puzzle.oriented[piece, rot % 4])


def no_hints(puzzle: Puzzle, fmt: str) -> None:
    """E2optError: a format without hints cannot hold this puzzle losslessly."""
    if puzzle.hints:
        raise E2optError(
            f"{puzzle.name}: {fmt} files have no hints and the puzzle has {len(puzzle.hints)}; "
            "write it in a format that keeps them (e2opt or csv)"
        )


def read_pieces(draft: Draft, lines: list[tuple[int, str]], path: str, names: tuple[str, ...]) -> None:
    """Append one piece per line of four numbers; ``names`` are the file's sides in file order (each one
    of 'top', 'right', 'bottom', 'left'), mapped to e2opt's top, right, bottom, left."""
    order = [names.index(side) for side in ("top", "right", "bottom", "left")]
    for no, line in lines:
        tokens = line.split()
        if len(tokens) != 4:
            raise PuzzleError(
                path, no, f"a piece line is 4 colours '{' '.join(names)}', got {len(tokens)} tokens"
            )
        values = [puzzle_number(t, path, no, "colour") for t in tokens]
        draft.pieces.append(tuple(values[i] for i in order))
        draft.piece_lines.append(no)


def header(lines: list[tuple[int, str]], path: str, count: int, shape: str) -> tuple[int, list[int]]:
    """The first line's ``count`` numbers (``shape`` names them in messages) and its line number."""
    if not lines:
        raise PuzzleError(path, 1, f"missing header '{shape}' (the file is empty)")
    no, line = lines[0]
    tokens = line.split()
    if len(tokens) != count:
        raise PuzzleError(path, no, f"bad header: expected '{shape}', got {len(tokens)} tokens")
    return no, [puzzle_number(t, path, no, "bad header") for t in tokens]


def cells_once(path: str, cells: dict, key: tuple[int, int], no: int, rows: int, cols: int) -> None:
    """BoardError when cell ``key`` is off the board or already filled (by the line in ``cells``)."""
    r, c = key
    if not (0 <= r < rows and 0 <= c < cols):
        raise BoardError(f"{path}, line {no}: cell (row {r}, col {c}) is off the {rows}x{cols} board")
    if key in cells:
        raise BoardError(
            f"{path}, line {no}: cell (row {r}, col {c}) is filled twice (also line {cells[key]})"
        )
    cells[key] = no


def cell_error(path: str, line: int, text: str) -> BoardError:
    """A BoardError naming file and line."""
    return BoardError(f"{path}, line {line}: {text}")


def parse_width_first(text: str, path: str, shape: str, sides: tuple[str, ...]) -> Puzzle:
    """A puzzle whose header starts ``width height`` (``shape`` names all its numbers) followed by one
    line of four colours per piece, ``sides`` naming them in file order (Clark's and Brendan's files)."""
    lines = content_lines(text)
    no, numbers = header(lines, path, len(shape.split()), shape)
    width, height = numbers[:2]
    puzzle_size(height, width, path, no)
    draft = Draft(height, width, no)
    read_pieces(draft, lines[1:], path, sides)
    return draft.build(path, lines[-1][0])
