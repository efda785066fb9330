"""Independent verifier: re-reads a puzzle and a board from text and re-checks rules and score.

Deliberately slow and obvious, and separate from the fast code: it does not use e2opt.puzzle or
e2opt.board, only plain lists and loops, so a bug there cannot hide itself here.
Rotation convention (instances/README.md): one clockwise turn maps (t, r, b, l) to (l, t, r, b).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .errors import BoardError, PuzzleError
from .fsutil import UnreadableFile, read_user_text

PUZZLE_LIMIT_MB = 64  # the readers' limit (puzzle.py); the verifier imports none of their code

SIDES = ("top", "right", "bottom", "left")
KIND_BY_GREYS = {0: "inner", 1: "edge", 2: "corner"}


@dataclass
class PuzzleData:
    """A puzzle as plain lists: pieces[p] = [t, r, b, l]; hints = [(piece, row, col, rot), ...]."""

    rows: int
    cols: int
    pieces: list[list[int]]
    hints: list[tuple[int, int, int, int]]


@dataclass
class BoardData:
    """A board as plain lists: cells[r][c] = (piece, rotation)."""

    rows: int
    cols: int
    cells: list[list[tuple[int, int]]]


@dataclass
class Report:
    """Verifier result: matched joins, the maximum, and every broken rule as a sentence."""

    score: int
    max_score: int
    problems: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    def text(self) -> str:
        """``470/480 valid``, or the score line followed by one line per problem."""
        if self.valid:
            return f"{self.score}/{self.max_score} valid"
        lines = [f"{self.score}/{self.max_score} INVALID: {len(self.problems)} broken rule(s)"]
        return "\n".join(lines + self.problems)


def _content_lines(text: str) -> list[tuple[int, list[str]]]:
    """(line number, tokens) of every line that is not blank or a ``#`` comment."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        tokens = line.split("#")[0].split()
        if tokens:
            out.append((number, tokens))
    return out


def _is_number(token: str) -> bool:
    """ASCII digits only (str.isdigit() also takes '²'); kept apart from puzzle.is_natural on purpose."""
    return token.isascii() and token.isdigit()


def _number(token: str, path: str, line: int) -> int:
    if not _is_number(token):
        raise PuzzleError(path, line, f"'{token}' is not a non-negative integer")
    return int(token)


def parse_puzzle_text(text: str, path: str = "<puzzle>") -> PuzzleData:
    """Read the puzzle format with no checks beyond what is needed to verify a board."""
    lines = _content_lines(text)
    if not lines or len(lines[0][1]) != 2:
        raise PuzzleError(path, lines[0][0] if lines else 1, "missing header 'rows cols'")
    rows = _number(lines[0][1][0], path, lines[0][0])
    cols = _number(lines[0][1][1], path, lines[0][0])
    if rows < 2 or cols < 2:
        raise PuzzleError(path, lines[0][0], f"a board is at least 2x2, the header says {rows}x{cols}")
    pieces: list[list[int]] = []
    hints: list[tuple[int, int, int, int]] = []
    for number, tokens in lines[1:]:
        if tokens[0] == "hint":
            if len(tokens) != 5:
                raise PuzzleError(path, number, "a hint line is 'hint piece row col rotation'")
            piece, row, col, rot = (_number(t, path, number) for t in tokens[1:])
            if piece >= rows * cols or row >= rows or col >= cols or rot > 3:
                raise PuzzleError(path, number, "hint names a piece, cell or rotation that does not exist")
            hints.append((piece, row, col, rot))
        else:
            if len(tokens) != 4:
                raise PuzzleError(path, number, "a piece line is 4 colours 't r b l'")
            pieces.append([_number(t, path, number) for t in tokens])
    if len(pieces) != rows * cols:
        raise PuzzleError(
            path, lines[-1][0], f"{rows}x{cols} needs {rows * cols} pieces, found {len(pieces)}"
        )
    return PuzzleData(rows, cols, pieces, hints)


def parse_board_text(text: str, path: str = "<board>") -> BoardData:
    """Read the .board format: header ``rows cols`` then one line of ``piece:rotation`` per row."""
    lines = _content_lines(text)
    if not lines or len(lines[0][1]) != 2 or not all(_is_number(t) for t in lines[0][1]):
        raise BoardError(f"{path}, line {lines[0][0] if lines else 1}: missing header 'rows cols'")
    rows, cols = int(lines[0][1][0]), int(lines[0][1][1])
    if len(lines) - 1 != rows:
        raise BoardError(f"{path}: header says {rows} rows, the file has {len(lines) - 1}")
    cells = []
    for number, tokens in lines[1:]:
        if len(tokens) != cols:
            raise BoardError(f"{path}, line {number}: expected {cols} cells, got {len(tokens)}")
        row = []
        for token in tokens:
            parts = token.split(":")
            if len(parts) != 2 or not _is_number(parts[0]) or not _is_number(parts[1]):
                raise BoardError(f"{path}, line {number}: '{token}' is not 'piece:rotation'")
            row.append((int(parts[0]), int(parts[1])))
        cells.append(row)
    return BoardData(rows, cols, cells)


def turned(sides: list[int], rot: int) -> list[int]:
    """The colours (t, r, b, l) of a piece after ``rot`` clockwise quarter turns, one turn at a time."""
    out = list(sides)
    for _ in range(rot):
        out = [out[3], out[0], out[1], out[2]]
    return out


def verify(puzzle: PuzzleData, board: BoardData) -> Report:
    """Check every hard rule cell by cell and count the matched joins."""
    rows, cols = puzzle.rows, puzzle.cols
    max_score = rows * (cols - 1) + (rows - 1) * cols
    if (board.rows, board.cols) != (rows, cols):
        return Report(0, max_score, [f"board is {board.rows}x{board.cols}, puzzle is {rows}x{cols}"])

    problems: list[str] = []
    n = len(puzzle.pieces)
    where_used: dict[int, tuple[int, int]] = {}
    colours: list[list[list[int] | None]] = [[None] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            piece, rot = board.cells[r][c]
            cell = f"cell ({r},{c}), piece {piece}"
            if piece >= n:
                problems.append(f"{cell}: piece id out of range (pieces are 0..{n - 1})")
                continue
            if piece in where_used:
                problems.append(f"{cell}: piece used twice (also at {where_used[piece]})")
            else:
                where_used[piece] = (r, c)  # on the board even when badly turned: not "missing"
            if rot > 3:
                problems.append(f"{cell}: rotation {rot} is not 0..3")
                continue
            sides = turned(puzzle.pieces[piece], rot)
            colours[r][c] = sides
            rim = [r == 0, c == cols - 1, r == rows - 1, c == 0]
            piece_greys = sum(1 for colour in sides if colour == 0)
            piece_kind = KIND_BY_GREYS.get(piece_greys, f"{piece_greys}-grey")
            cell_kind = KIND_BY_GREYS[sum(rim)]
            if piece_kind != cell_kind:
                problems.append(f"{cell}: piece kind {piece_kind} on cell kind {cell_kind}")
                continue
            for s in range(4):
                if rim[s] and sides[s] != 0:
                    problems.append(f"{cell}: rim side {SIDES[s]} is colour {sides[s]}, not grey")
                elif not rim[s] and sides[s] == 0:
                    problems.append(f"{cell}: grey side {SIDES[s]} does not face the rim")
    for piece, r, c, rot in puzzle.hints:
        have_piece, have_rot = board.cells[r][c]
        if (have_piece, have_rot) != (piece, rot):
            problems.append(
                f"cell ({r},{c}), piece {have_piece}: hint not in place "
                f"(the hint wants {piece}:{rot}, the board has {have_piece}:{have_rot})"
            )
    for piece in range(n):
        if piece not in where_used:
            problems.append(f"piece {piece}: missing from the board")

    score = 0
    for r in range(rows):
        for c in range(cols):
            here = colours[r][c]
            right = colours[r][c + 1] if c + 1 < cols else None
            below = colours[r + 1][c] if r + 1 < rows else None
            if here is not None and right is not None and here[1] == right[3]:
                score += 1
            if here is not None and below is not None and here[2] == below[0]:
                score += 1
    return Report(score, max_score, problems)


def verify_texts(
    puzzle_text: str, board_text: str, puzzle_path: str = "<puzzle>", board_path: str = "<board>"
) -> Report:
    """Verify a board given as text against a puzzle given as text (paths only name them in errors)."""
    return verify(parse_puzzle_text(puzzle_text, puzzle_path), parse_board_text(board_text, board_path))


def verify_files(puzzle_path: str | os.PathLike, board_path: str | os.PathLike) -> Report:
    """Verify a .board file against a puzzle file, both read from disk (as every e2opt reader reads a file:
    a regular file of bounded size, fsutil.read_user_text's encoding rules)."""
    try:
        puzzle_text = read_user_text(puzzle_path, PUZZLE_LIMIT_MB)
    except UnreadableFile as exc:
        raise PuzzleError(str(puzzle_path), None, str(exc)) from None
    try:
        board_text = read_user_text(board_path, PUZZLE_LIMIT_MB)
    except UnreadableFile as exc:
        raise BoardError(f"{board_path}: cannot read board file: {exc}") from None
    return verify_texts(puzzle_text, board_text, str(puzzle_path), str(board_path))
