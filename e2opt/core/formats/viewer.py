"""Links to the community viewer e2.bucas.name (jfbucas/eternityII-viewer) that show a board.

The viewer reads ``name=value`` pairs split on ``&`` from the query and the hash, without URL-decoding:
``board_w`` (columns), ``board_h`` (rows), ``board_edges`` (4 letters per cell, row-major from the top
left, up/right/down/left as placed, letter 'a' + colour, 'a' grey) and optionally ``board_pieces``
(3 decimal digits per cell, 1-based piece number). For the official set the letters are the official
colour ids and ``board_pieces`` the official numbers, so the viewer recognises the set, checks the centre
clue and scores the board; any other puzzle is drawn with its own ids (dense ids when they pass 'z').
"""

from __future__ import annotations

import re

import numpy as np

from ..board import Board
from ..errors import BoardError
from ..puzzle import Puzzle
from .common import letters_map, placed_letters
from .official import official_numbering

VIEWER = "https://e2.bucas.name/#"


def url_name(name: str) -> str:
    """The puzzle name as the viewer can carry it: letters, digits and underscores only."""
    return re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_") or "e2opt"


def board_edges(puzzle: Puzzle, board: Board) -> str | None:
    """The ``board_edges`` value of a board, or None when it cannot be written (colours, bad cells)."""
    letters = letters_map(puzzle)
    n = len(puzzle.pieces)
    if letters is None or board.piece.min() < 0 or board.piece.max() >= n:
        return None
    rows, cols = board.shape
    return "".join(
        placed_letters(puzzle, letters, int(board.piece[r, c]), int(board.rot[r, c]))
        for r in range(rows)
        for c in range(cols)
    )


def viewer_url(puzzle: Puzzle, board: Board) -> str | None:
    """The viewer link of ``board``; None when the puzzle's colours do not fit the viewer's letters."""
    edges = board_edges(puzzle, board)
    if edges is None:
        return None
    rows, cols = board.shape
    params = [f"puzzle={url_name(puzzle.name)}", f"board_w={cols}", f"board_h={rows}", f"board_edges={edges}"]
    official = official_numbering(puzzle)
    if official is not None and board.shape == (16, 16):
        numbers = (official.number[int(p)] + 1 for p in board.piece.ravel())
        params.append("board_pieces=" + "".join(f"{n:03d}" for n in numbers))
    params.append("show_conflicts=1")
    return VIEWER + "&".join(params)


LINK = re.compile(r"(^|[#?&])board_(edges|w|h|pieces)=", re.MULTILINE)


def looks_like(text: str) -> bool:
    """A viewer link (or its bare parameters): holds ``board_edges=``, ``board_w=``, ``board_h=`` or
    ``board_pieces=``."""
    return LINK.search(text) is not None


def _params(text: str, path: str) -> dict[str, str]:
    """The viewer's parameters: the text after '#' or '?' (else all of it), split on '&' and '='."""
    line = next((ln.strip() for ln in text.splitlines() if LINK.search(ln)), "")
    body = re.split(r"[#?]", line, maxsplit=1)[-1] if re.search(r"[#?]", line) else line
    out = {}
    for part in body.split("&"):
        key, _, value = part.partition("=")
        out[key] = value
    return out


def parse_link(text: str, path: str, puzzle: Puzzle) -> Board:
    """The board a viewer link shows: each cell's four letters matched to a piece of ``puzzle`` (a piece
    used once; identical pieces in file order). Only the viewer's default colour order is read."""
    p = _params(text, path)
    if p.get("motifs_order"):
        raise BoardError(
            f"{path}: the link uses motifs_order={p['motifs_order']}: only links in the viewer's default "
            "colour order (the official ids) are read"
        )
    try:
        cols, rows = int(p.get("board_w", "")), int(p.get("board_h", ""))
    except ValueError:
        raise BoardError(f"{path}: the link needs numbers board_w and board_h") from None
    edges = p.get("board_edges")
    if not edges:
        raise BoardError(
            f"{path}: the viewer link has no board_edges=: e2opt reads a link's board from its edge letters"
        )
    if (rows, cols) != (puzzle.rows, puzzle.cols) or len(edges) != 4 * rows * cols:
        raise BoardError(
            f"{path}: the link shows a {cols}x{rows} (board_w x board_h) board with {len(edges)} edge letters; "
            f"the puzzle needs {puzzle.cols}x{puzzle.rows} and {4 * puzzle.n_cells}"
        )
    letters = letters_map(puzzle)
    if letters is None:
        raise BoardError(f"{path}: the puzzle has more colours than the viewer's 26 letters")
    shows: dict[str, list[tuple[int, int]]] = {}
    for piece in range(len(puzzle.pieces)):
        for rot in range(4):
            shows.setdefault(placed_letters(puzzle, letters, piece, rot), []).append((piece, rot))
    used: set[int] = set()
    piece = np.empty(rows * cols, dtype=np.int64)
    rot = np.empty(rows * cols, dtype=np.int64)
    for i in range(rows * cols):
        word = edges[4 * i : 4 * i + 4]
        options = shows.get(word)
        if not options:
            raise BoardError(
                f"{path}: cell {i} (row {i // cols}, col {i % cols}) shows '{word}', which no piece of "
                f"{puzzle.name} shows in any rotation"
            )
        piece[i], rot[i] = next(((q, k) for q, k in options if q not in used), options[0])
        used.add(int(piece[i]))
    return Board(piece.reshape(rows, cols), rot.reshape(rows, cols))
