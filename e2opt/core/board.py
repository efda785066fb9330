"""Board: which piece sits in each cell and how it is turned; score, mismatches, .board files.

A ``.board`` file is ``rows cols`` then one line per row of ``piece:rotation`` tokens.
The hard rules every board e2opt makes obeys: each piece once, piece kind = cell kind, grey
exactly toward the rim, hints in place (``rule_violations`` lists what breaks them).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from .errors import BoardError
from .fsutil import atomic_write_text, show_token
from .puzzle import KIND_NAMES, Puzzle, check_size, natural_problem


@dataclass(eq=False)
class Board:
    """``piece[r, c]`` is the piece id at (r, c) and ``rot[r, c]`` its clockwise quarter turns."""

    piece: np.ndarray
    rot: np.ndarray

    def __post_init__(self):
        self.piece = np.ascontiguousarray(self.piece, dtype=np.int64)
        self.rot = np.ascontiguousarray(self.rot, dtype=np.int64)
        if self.piece.shape != self.rot.shape or self.piece.ndim != 2:
            raise BoardError(
                f"piece and rotation arrays differ in shape: {self.piece.shape} vs {self.rot.shape}"
            )

    @property
    def shape(self) -> tuple[int, int]:
        return self.piece.shape

    def copy(self) -> Board:
        return Board(self.piece.copy(), self.rot.copy())

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and np.array_equal(self.piece, other.piece)
            and np.array_equal(self.rot, other.rot)
        )

    def colours(self, puzzle: Puzzle) -> np.ndarray:
        """Colours of every cell's sides: array (rows, cols, 4) in t r b l order."""
        return puzzle.oriented[self.piece, self.rot % 4]


def join_matches(puzzle: Puzzle, board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Boolean arrays: horizontal joins (rows, cols-1) and vertical joins (rows-1, cols) that match."""
    col = board.colours(puzzle)
    horizontal = col[:, :-1, 1] == col[:, 1:, 3]
    vertical = col[:-1, :, 2] == col[1:, :, 0]
    return horizontal, vertical


def score(puzzle: Puzzle, board: Board) -> int:
    """Number of matched joins between adjacent cells (frame joins included)."""
    horizontal, vertical = join_matches(puzzle, board)
    return int(horizontal.sum() + vertical.sum())


def mismatches(puzzle: Puzzle, board: Board) -> int:
    """max_score - score."""
    return puzzle.max_score - score(puzzle, board)


def cell_mismatches(puzzle: Puzzle, board: Board) -> np.ndarray:
    """Per cell, how many of its joins with neighbours do not match: array (rows, cols)."""
    horizontal, vertical = join_matches(puzzle, board)
    bad_h, bad_v = ~horizontal, ~vertical
    out = np.zeros(board.shape, dtype=np.int64)
    out[:, :-1] += bad_h
    out[:, 1:] += bad_h
    out[:-1, :] += bad_v
    out[1:, :] += bad_v
    return out


def rule_violations(puzzle: Puzzle, board: Board) -> list[str]:
    """Every broken hard rule as a sentence naming cell and piece; empty when the board is valid."""
    if board.shape != (puzzle.rows, puzzle.cols):
        return [f"board is {board.shape[0]}x{board.shape[1]}, puzzle is {puzzle.rows}x{puzzle.cols}"]
    out = []
    n = len(puzzle.pieces)
    seen: dict[int, tuple[int, int]] = {}
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            p, k = int(board.piece[r, c]), int(board.rot[r, c])
            if not 0 <= p < n:
                out.append(f"cell ({r},{c}): piece {p} does not exist (pieces are 0..{n - 1})")
                continue
            if not 0 <= k <= 3:
                out.append(f"cell ({r},{c}): piece {p} has rotation {k}, not 0..3")
                continue
            if p in seen:
                out.append(f"cell ({r},{c}): piece {p} is used twice (also at {seen[p]})")
            seen[p] = (r, c)
            pk, ck = int(puzzle.kinds[p]), puzzle.cell_kind(r, c)
            if pk != ck:
                out.append(f"cell ({r},{c}): {KIND_NAMES[pk]} piece {p} on a {KIND_NAMES[ck]} cell")
            elif not puzzle.fits(p, r, c, k):
                out.append(f"cell ({r},{c}): piece {p} rotation {k} does not turn grey exactly to the rim")
    for h in puzzle.hints:
        p, k = int(board.piece[h.row, h.col]), int(board.rot[h.row, h.col])
        if (p, k) != (h.piece, h.rot):
            out.append(
                f"cell ({h.row},{h.col}): hint wants piece {h.piece} rotation {h.rot}, board has {p}:{k}"
            )
    missing = sorted(set(range(n)) - set(seen))
    if missing:
        out.append(f"pieces not on the board: {missing[:20]}{' ...' if len(missing) > 20 else ''}")
    return out


def format_board(board: Board) -> str:
    """The .board file text."""
    rows, cols = board.shape
    lines = [f"{rows} {cols}"]
    for r in range(rows):
        lines.append(" ".join(f"{int(board.piece[r, c])}:{int(board.rot[r, c])}" for c in range(cols)))
    return "\n".join(lines) + "\n"


def write_board(board: Board, path: str | os.PathLike, fsync: bool = True) -> None:
    """Write the .board file atomically (see fsutil for ``fsync``)."""
    atomic_write_text(path, format_board(board), fsync)


def parse_board(text: str, path: str = "<string>") -> Board:
    """Parse .board text; raise BoardError naming the file and line (and the cell) on any malformed token."""
    lines = [(i + 1, ln.split("#", 1)[0].split()) for i, ln in enumerate(text.splitlines())]
    lines = [(no, toks) for no, toks in lines if toks]
    if not lines or len(lines[0][1]) != 2 or any(natural_problem(t) for t in lines[0][1]):
        raise BoardError(f"{path}, line {lines[0][0] if lines else 1}: missing header 'rows cols'")
    rows, cols = (int(t) for t in lines[0][1])
    size_problem = check_size(rows, cols)
    if size_problem:
        raise BoardError(f"{path}, line {lines[0][0]}: bad header: {size_problem}")
    body = lines[1:]
    if len(body) != rows:
        where = body[rows][0] if len(body) > rows else (body[-1][0] if body else lines[0][0])
        raise BoardError(f"{path}, line {where}: expected {rows} rows of cells, found {len(body)}")
    piece = np.empty((rows, cols), dtype=np.int64)
    rot = np.empty((rows, cols), dtype=np.int64)
    for r, (no, toks) in enumerate(body):
        if len(toks) != cols:
            raise BoardError(f"{path}, line {no}: expected {cols} cells 'piece:rotation', got {len(toks)}")
        for c, tok in enumerate(toks):
            p, sep, k = tok.partition(":")
            if not sep or natural_problem(p) or natural_problem(k):
                raise BoardError(f"{path}, line {no}: {show_token(tok)} is not 'piece:rotation'")
            if int(k) > 3:
                raise BoardError(f"{path}, line {no}: cell ({r},{c}): rotation {k} of piece {p} is not 0..3")
            piece[r, c], rot[r, c] = int(p), int(k)
    return Board(piece, rot)


def random_board(puzzle: Puzzle, rng: np.random.Generator) -> Board:
    """A valid board with pieces shuffled within their kind, grey to the rim, hints in place.

    Inner pieces get a random rotation; border pieces the one rotation that fits.
    """
    rows, cols = puzzle.rows, puzzle.cols
    piece = np.full((rows, cols), -1, dtype=np.int64)
    rot = np.zeros((rows, cols), dtype=np.int64)
    hinted = set()
    for h in puzzle.hints:
        piece[h.row, h.col], rot[h.row, h.col] = h.piece, h.rot
        hinted.add(h.piece)
    for kind in range(3):
        cells = [
            (r, c)
            for r in range(rows)
            for c in range(cols)
            if piece[r, c] < 0 and puzzle.cell_kind(r, c) == kind
        ]
        free = [p for p in np.flatnonzero(puzzle.kinds == kind) if p not in hinted]
        order = rng.permutation(len(free))
        for (r, c), i in zip(cells, order, strict=True):
            p = int(free[i])
            piece[r, c] = p
            options = puzzle.valid_rotations(p, r, c)
            rot[r, c] = options[int(rng.integers(len(options)))] if len(options) > 1 else options[0]
    return Board(piece, rot)
