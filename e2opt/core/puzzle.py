"""Puzzle: the pieces, the board size and the hints; reading and writing puzzle files.

File format (see instances/README.md): line 1 ``rows cols``; then one line ``t r b l`` per piece
(piece ids 0.. in file order); then optional ``hint piece row col rotation`` lines.
Blank lines and ``#`` comments are ignored. Sides are indexed top=0, right=1, bottom=2, left=3.
Colour ids are renumbered 1..K in increasing order when a file is read (grey stays 0), so memory depends
on how many colours a puzzle uses, not on their values; ``Puzzle.colour_ids`` keeps the file's ids, and
``format_puzzle`` and messages use them.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import PuzzleError
from .fsutil import atomic_write_text, show_token

CORNER, EDGE, INNER = 0, 1, 2
KIND_NAMES = ("corner", "edge", "inner")
GREY = 0
MAX_SIDE = 1024  # rows and columns of a puzzle or board: far beyond any real instance
MAX_DIGITS = 18  # numbers in puzzle and board files fit a 64-bit integer
PUZZLE_LIMIT_MB = 64


@dataclass(frozen=True)
class Hint:
    """Piece ``piece`` must sit at (row, col) turned ``rot`` clockwise quarter turns."""

    piece: int
    row: int
    col: int
    rot: int


def rotate(sides: tuple[int, ...] | np.ndarray, rot: int) -> tuple[int, ...]:
    """Colours (t, r, b, l) after ``rot`` clockwise quarter turns: one turn maps (t,r,b,l) to (l,t,r,b)."""
    rot %= 4
    return tuple(int(sides[(s - rot) % 4]) for s in range(4))


def piece_kind(sides) -> int:
    """Kind of a piece from its count of grey sides (0 inner, 1 edge, 2 corner)."""
    greys = sum(1 for c in sides if c == GREY)
    return {0: INNER, 1: EDGE, 2: CORNER}[greys]


def cell_rim_sides(rows: int, cols: int, r: int, c: int) -> tuple[bool, bool, bool, bool]:
    """Which sides (t, r, b, l) of cell (r, c) face the rim."""
    return (r == 0, c == cols - 1, r == rows - 1, c == 0)


def cell_kind(rows: int, cols: int, r: int, c: int) -> int:
    """Kind of cell (r, c): corner, edge or inner."""
    return {0: INNER, 1: EDGE, 2: CORNER}[sum(cell_rim_sides(rows, cols, r, c))]


def expected_kind_counts(rows: int, cols: int) -> dict[int, int]:
    """How many corner, edge and inner pieces a rows x cols puzzle has."""
    return {CORNER: 4, EDGE: 2 * (rows - 2) + 2 * (cols - 2), INNER: (rows - 2) * (cols - 2)}


@dataclass(frozen=True, eq=False)
class Puzzle:
    """An edge-matching puzzle: ``pieces[p]`` = (t, r, b, l) colours, grey (0) faces the rim."""

    rows: int
    cols: int
    pieces: np.ndarray
    hints: tuple[Hint, ...] = ()
    name: str = "puzzle"
    path: str | None = None
    warnings: tuple[str, ...] = ()
    colour_ids: tuple[int, ...] = ()  # the file's id of each colour 0..K-1; empty: the ids are the file's
    oriented: np.ndarray = field(init=False, repr=False)
    kinds: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        pieces = np.ascontiguousarray(self.pieces, dtype=np.int64)
        pieces.setflags(write=False)
        object.__setattr__(self, "pieces", pieces)
        oriented = np.empty((len(pieces), 4, 4), dtype=np.int64)
        for rot in range(4):
            oriented[:, rot, :] = np.roll(pieces, rot, axis=1)
        oriented.setflags(write=False)
        object.__setattr__(self, "oriented", oriented)
        kinds = np.array([piece_kind(p) for p in pieces], dtype=np.int64)
        kinds.setflags(write=False)
        object.__setattr__(self, "kinds", kinds)

    @property
    def n_cells(self) -> int:
        return self.rows * self.cols

    @property
    def max_score(self) -> int:
        """Number of joins between adjacent cells: r(c-1) + (r-1)c."""
        return self.rows * (self.cols - 1) + (self.rows - 1) * self.cols

    @property
    def n_colours(self) -> int:
        """Size of a colour-indexed array: max colour id + 1."""
        return int(self.pieces.max()) + 1

    def user_colour(self, colour: int) -> int:
        """The id colour ``colour`` has in the puzzle file."""
        return self.colour_ids[colour] if self.colour_ids else int(colour)

    def cell_kind(self, r: int, c: int) -> int:
        return cell_kind(self.rows, self.cols, r, c)

    def rim_sides(self, r: int, c: int) -> tuple[bool, bool, bool, bool]:
        return cell_rim_sides(self.rows, self.cols, r, c)

    def fits(self, piece: int, r: int, c: int, rot: int) -> bool:
        """True when piece at (r, c) with rotation rot has grey exactly on the sides facing the rim."""
        sides = self.oriented[piece, rot % 4]
        return all((sides[s] == GREY) == rim for s, rim in enumerate(self.rim_sides(r, c)))

    def valid_rotations(self, piece: int, r: int, c: int) -> list[int]:
        """Rotations that put piece at (r, c) with grey exactly toward the rim (empty if none)."""
        return [rot for rot in range(4) if self.fits(piece, r, c, rot)]

    def hint_map(self) -> dict[tuple[int, int], Hint]:
        """Hints keyed by cell."""
        return {(h.row, h.col): h for h in self.hints}


def is_natural(token: str) -> bool:
    """True for a plain non-negative integer: ASCII digits only, since str.isdigit() also takes '²'."""
    return token.isascii() and token.isdigit()


def natural_problem(token: str) -> str | None:
    """Why ``token`` is not a number a puzzle or board file may hold (None when it is one)."""
    if not is_natural(token):
        return f"{show_token(token)} is not a non-negative integer"
    if len(token.lstrip("0")) > MAX_DIGITS:
        return f"{show_token(token)} is out of range (at most {MAX_DIGITS} digits)"
    return None


def _ints(tokens: list[str], path: str, lineno: int) -> list[int]:
    out = []
    for tok in tokens:
        problem = natural_problem(tok)
        if problem:
            raise PuzzleError(path, lineno, problem)
        out.append(int(tok))
    return out


def check_size(rows: int, cols: int) -> str | None:
    """Why a rows x cols board is not allowed (None when it is)."""
    if rows < 2 or cols < 2:
        return f"board {rows}x{cols} is below 2x2"
    if rows > MAX_SIDE or cols > MAX_SIDE:
        return f"board {rows}x{cols} is too large (at most {MAX_SIDE} rows and columns)"
    return None


def parse_puzzle(text: str, path: str = "<string>") -> Puzzle:
    """Parse puzzle text (see module docstring); ``path`` is only used in messages and the name."""
    lines = [(i + 1, ln.split("#", 1)[0].split()) for i, ln in enumerate(text.splitlines())]
    lines = [(no, toks) for no, toks in lines if toks]
    if not lines:
        raise PuzzleError(path, 1, "missing header 'rows cols' (the file is empty)")
    head_no, head = lines[0]
    if len(head) != 2:
        raise PuzzleError(path, head_no, f"bad header: expected 'rows cols', got {len(head)} tokens")
    rows, cols = _ints(head, path, head_no)
    size_problem = check_size(rows, cols)
    if size_problem:
        raise PuzzleError(path, head_no, f"bad header: {size_problem}")
    n = rows * cols

    piece_lines: list[tuple[int, list[int]]] = []
    hint_lines: list[tuple[int, list[int]]] = []
    for no, toks in lines[1:]:
        if toks[0] == "hint":
            if len(toks) != 5:
                raise PuzzleError(
                    path, no, f"hint line needs 'hint piece row col rotation', got {len(toks)} tokens"
                )
            hint_lines.append((no, _ints(toks[1:], path, no)))
            continue
        if hint_lines:
            raise PuzzleError(path, no, "piece line after a hint line (hints come last)")
        if len(toks) != 4:
            raise PuzzleError(path, no, f"a piece line needs 4 colours 't r b l', got {len(toks)} tokens")
        piece_lines.append((no, _ints(toks, path, no)))

    last_no = lines[-1][0]
    if len(piece_lines) != n:
        where = piece_lines[n][0] if len(piece_lines) > n else last_no
        raise PuzzleError(
            path, where, f"wrong number of pieces: {rows}x{cols} needs {n}, the file has {len(piece_lines)}"
        )

    kinds_seen: Counter[int] = Counter()
    expected = expected_kind_counts(rows, cols)
    for pid, (no, sides) in enumerate(piece_lines):
        greys = [s for s in range(4) if sides[s] == GREY]
        if len(greys) >= 3:
            raise PuzzleError(path, no, f"piece {pid} has grey on {len(greys)} sides (at most 2)")
        if len(greys) == 2 and (greys[1] - greys[0]) == 2:
            raise PuzzleError(path, no, f"piece {pid} has grey on opposite sides")
        kind = piece_kind(sides)
        kinds_seen[kind] += 1
        if kinds_seen[kind] > expected[kind]:
            raise PuzzleError(
                path,
                no,
                f"wrong number of {KIND_NAMES[kind]} pieces: piece {pid} is one more than "
                f"the {expected[kind]} a {rows}x{cols} board has",
            )

    ids = (GREY, *sorted({c for _, sides in piece_lines for c in sides} - {GREY}))
    dense = {c: i for i, c in enumerate(ids)}
    colour_ids = () if ids == tuple(range(len(ids))) else ids
    pieces = np.array([[dense[c] for c in sides] for _, sides in piece_lines], dtype=np.int64)
    puzzle = Puzzle(rows, cols, pieces, (), Path(path).stem, path)
    hints = _check_hints(puzzle, hint_lines, path)

    counts = Counter(c for _, sides in piece_lines for c in sides if c != GREY)
    odd = sorted(c for c, k in counts.items() if k % 2)
    warnings = ()
    if odd:
        warnings = (
            f"{path}: colours with an odd count {odd}: no perfect board exists, "
            "but the puzzle can still be optimised",
        )
    return Puzzle(rows, cols, pieces, hints, Path(path).stem, path, warnings, colour_ids)


def _check_hints(puzzle: Puzzle, hint_lines: list[tuple[int, list[int]]], path: str) -> tuple[Hint, ...]:
    hints: list[Hint] = []
    cells: dict[tuple[int, int], int] = {}
    hinted: dict[int, int] = {}
    for no, (piece, r, c, rot) in hint_lines:
        if piece >= len(puzzle.pieces):
            raise PuzzleError(
                path, no, f"hint names piece {piece}, but pieces are 0..{len(puzzle.pieces) - 1}"
            )
        if r >= puzzle.rows or c >= puzzle.cols:
            raise PuzzleError(path, no, f"hint cell ({r},{c}) is off the {puzzle.rows}x{puzzle.cols} board")
        if rot > 3:
            raise PuzzleError(path, no, f"hint rotation {rot} is not 0..3")
        pk, ck = int(puzzle.kinds[piece]), puzzle.cell_kind(r, c)
        if pk != ck:
            raise PuzzleError(
                path, no, f"hint puts {KIND_NAMES[pk]} piece {piece} on {KIND_NAMES[ck]} cell ({r},{c})"
            )
        if not puzzle.fits(piece, r, c, rot):
            raise PuzzleError(
                path,
                no,
                f"hint rotation {rot} of piece {piece} at ({r},{c}) does not turn grey toward the rim",
            )
        if (r, c) in cells:
            raise PuzzleError(path, no, f"two hints on cell ({r},{c}) (first on line {cells[(r, c)]})")
        if piece in hinted:
            raise PuzzleError(path, no, f"piece {piece} is hinted twice (first on line {hinted[piece]})")
        cells[(r, c)] = no
        hinted[piece] = no
        hints.append(Hint(piece, r, c, rot))
    return tuple(hints)


def format_puzzle(puzzle: Puzzle) -> str:
    """The puzzle file text: header, one piece a line, then hint lines."""
    out = [f"{puzzle.rows} {puzzle.cols}"]
    out += [" ".join(str(puzzle.user_colour(int(c))) for c in p) for p in puzzle.pieces]
    out += [f"hint {h.piece} {h.row} {h.col} {h.rot}" for h in puzzle.hints]
    return "\n".join(out) + "\n"


def write_puzzle(puzzle: Puzzle, path: str | os.PathLike) -> None:
    """Write the puzzle file atomically."""
    atomic_write_text(path, format_puzzle(puzzle))
