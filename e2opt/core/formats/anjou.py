"""anjou's board JSON (raphael-anjou/eternity2, ``e2-io/src/format.rs`` ``BoardDoc``).

Keys: ``name``, ``size`` (square side), ``score``, ``breaks`` (max - score), ``board`` (row-major,
``piece*4 + rot``, -1 empty), ``board_hash`` (FNV-1a of the codes as 32-bit little-endian integers),
``board_edges`` (viewer letters), ``board_pieces`` (3 digits per cell, 1-based), ``url``. e2opt adds
``width`` and ``height`` so that non-square boards fit, and writes ``size`` only for square ones.
Rotations count from the orientation of anjou's CSV, two quarter turns from e2opt's (see csvfmt), and
piece numbers are official numbers for the official set, else file order. When ``board_edges`` is
present, every cell must show those edges, and ``score`` must be the board's: a mismatch is reported,
never guessed around.
"""

from __future__ import annotations

import json

import numpy as np

from ..board import Board, score
from ..errors import BoardError
from ..puzzle import Puzzle
from .common import letters_map, placed_letters
from .csvfmt import TURN
from .official import numbering
from .viewer import board_edges, url_name, viewer_url


def looks_like(text: str) -> bool:
    return text.lstrip()[:1] in ("{", "[")


def fnv1a(codes: list[int]) -> int:
    """anjou's board hash: FNV-1a over each code's four little-endian bytes."""
    h = 0xCBF29CE484222325
    for code in codes:
        for byte in (code & 0xFFFFFFFF).to_bytes(4, "little"):
            h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def _shape(doc: dict, path: str, puzzle: Puzzle) -> tuple[int, int]:
    if "width" in doc or "height" in doc:
        width, height = doc.get("width"), doc.get("height")
    elif "size" in doc:
        width = height = doc["size"]
    else:
        return puzzle.rows, puzzle.cols
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in (width, height)):
        raise BoardError(f"{path}: 'size' / 'width' / 'height' must be positive integers")
    return height, width


def parse(text: str, path: str, puzzle: Puzzle) -> Board:
    """Read a board JSON; BoardError for bad JSON, a wrong cell count, bad codes or edges that disagree."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError(f"{path}, line {exc.lineno}: not valid JSON: {exc.msg}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("board"), list):
        raise BoardError(f"{path}: a board JSON is an object with a 'board' list (piece*4 + rot per cell)")
    rows, cols = _shape(doc, path, puzzle)
    codes = doc["board"]
    if len(codes) != rows * cols:
        raise BoardError(f"{path}: 'board' has {len(codes)} cells, a {rows}x{cols} board has {rows * cols}")
    names = numbering(puzzle)
    piece = np.empty(rows * cols, dtype=np.int64)
    rot = np.empty(rows * cols, dtype=np.int64)
    for i, code in enumerate(codes):
        where = f"{path}: board cell {i} (row {i // cols}, col {i % cols})"
        if not isinstance(code, int) or isinstance(code, bool):
            raise BoardError(f"{where}: {json.dumps(code)[:20]} is not an integer code piece*4 + rot")
        if code < 0:
            raise BoardError(f"{where} is empty ({code}): e2opt boards are complete")
        p = names.piece_of(code >> 2)
        if p is None:
            raise BoardError(
                f"{where}: piece {(code >> 2) + 1} does not exist (pieces are 1..{len(puzzle.pieces)})"
            )
        piece[i], rot[i] = p, ((code & 3) + TURN + names.turn[p]) % 4
    board = Board(piece.reshape(rows, cols), rot.reshape(rows, cols))
    if "board_edges" in doc:
        _check_edges(doc["board_edges"], board, puzzle, path)
    if "score" in doc and board.shape == (puzzle.rows, puzzle.cols) and doc["score"] != score(puzzle, board):
        raise BoardError(
            f"{path}: 'score' says {json.dumps(doc['score'])[:20]}, the board scores {score(puzzle, board)}"
        )
    return board


def _check_edges(edges: object, board: Board, puzzle: Puzzle, path: str) -> None:
    """BoardError unless ``board_edges`` shows exactly the pieces ``board`` places."""
    rows, cols = board.shape
    letters = letters_map(puzzle)
    if not isinstance(edges, str) or len(edges) != 4 * rows * cols:
        raise BoardError(f"{path}: 'board_edges' must be a string of {4 * rows * cols} letters")
    if letters is None:
        return
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        want = placed_letters(puzzle, letters, int(board.piece[r, c]), int(board.rot[r, c]))
        if edges[4 * i : 4 * i + 4] != want:
            raise BoardError(
                f"{path}: board cell {i} (row {r}, col {c}): 'board_edges' shows '{edges[4 * i : 4 * i + 4]}' "
                f"but the code places '{want}' there"
            )


def format_board(puzzle: Puzzle, board: Board) -> str:
    """The JSON document of a board (pretty-printed, as anjou writes it)."""
    names = numbering(puzzle)
    rows, cols = board.shape
    codes = []
    for p, k in zip(board.piece.ravel(), board.rot.ravel(), strict=True):
        codes.append(names.number[int(p)] * 4 + (int(k) - TURN - names.turn[int(p)]) % 4)
    got = score(puzzle, board)
    doc: dict = {"name": url_name(puzzle.name)}
    if rows == cols:
        doc["size"] = rows
    doc |= {"width": cols, "height": rows, "score": got, "breaks": puzzle.max_score - got, "board": codes}
    doc["board_hash"] = fnv1a(codes)
    edges = board_edges(puzzle, board)
    if edges is not None:
        doc["board_edges"] = edges
    doc["board_pieces"] = "".join(f"{(code >> 2) + 1:03d}" for code in codes)
    url = viewer_url(puzzle, board)
    if url is not None:
        doc["url"] = url
    return json.dumps(doc, indent=2) + "\n"
