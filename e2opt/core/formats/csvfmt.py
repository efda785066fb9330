"""The puzzle CSV of the McGavin/Blackwood engines as anjou's engines read it (raphael-anjou/eternity2,
``engine/data/official_eternity2.csv`` and ``e2-io/src/csv.rs``).

Line 1 is the board side N (square boards only); then one line per piece ``top,right,bottom,left[,x,y,rot]``
with each colour a 16-bit binary word (``1111111111111111`` is grey; ``0000000000000000`` is read as grey
too, as anjou does). ``x,y,rot`` not all zero pins the piece at column x, row y (0-based from the top left)
turned rot clockwise quarter turns. The pieces stand in this file turned by two quarter turns from e2opt's
orientation: that is how the community's official CSV lists them, so that e2opt writes that very file for
``instances/eternity2_5hints.txt`` (a test checks its SHA-256) and reads it back to the same puzzle.
"""

from __future__ import annotations

import re

from ..errors import E2optError, PuzzleError
from ..puzzle import Puzzle, rotate
from .common import Draft, content_lines, puzzle_number, puzzle_size, user_sides

GREY_WORD = "1" * 16
WORD = re.compile(r"[01]{16}")
TURN = 2  # quarter turns from e2opt's orientation to the CSV's


def looks_like(lines: list[tuple[int, str]]) -> bool:
    """Commas on the second line (the header's own mistakes are then reported as the CSV's)."""
    return len(lines) >= 2 and "," in lines[1][1]


def _colour(word: str, path: str, line: int, side: str) -> int:
    word = word.strip()
    if not WORD.fullmatch(word):
        raise PuzzleError(path, line, f"{side} colour '{word[:20]}' is not a 16-digit binary word")
    value = int(word, 2)
    return 0 if value == 0xFFFF else value


def parse(text: str, path: str) -> Puzzle:
    """Read a CSV puzzle; PuzzleError names the line of anything wrong."""
    lines = content_lines(text, comments=False)
    if not lines:
        raise PuzzleError(path, 1, "missing header: the board side N (the file is empty)")
    head_no, head = lines[0]
    if "," in head or len(head.split()) != 1:
        raise PuzzleError(path, head_no, f"bad header: expected the board side N, got '{head[:40]}'")
    side = puzzle_number(head, path, head_no, "bad header")
    puzzle_size(side, side, path, head_no)
    draft = Draft(side, side, head_no)
    for no, line in lines[1:]:
        fields = line.split(",")
        if len(fields) not in (4, 7):
            raise PuzzleError(
                path, no, f"a piece line is 'top,right,bottom,left[,x,y,rot]', got {len(fields)} fields"
            )
        sides = tuple(
            _colour(w, path, no, s) for w, s in zip(fields, ("top", "right", "bottom", "left"), strict=False)
        )
        pid = len(draft.pieces)
        draft.pieces.append(rotate(sides, -TURN))
        draft.piece_lines.append(no)
        if len(fields) == 7:
            x, y, rot = (
                puzzle_number(f, path, no, n) for f, n in zip(fields[4:], ("x", "y", "rot"), strict=True)
            )
            if (x, y, rot) == (0, 0, 0):
                continue
            if x >= side or y >= side or rot > 3:
                raise PuzzleError(
                    path,
                    no,
                    f"pinned piece x={x} y={y} rot={rot} is off the {side}x{side} board (x, y "
                    f"0..{side - 1}, rot 0..3)",
                )
            draft.hints.append((pid, y, x, (rot + TURN) % 4))
            draft.hint_lines.append(no)
    return draft.build(path, lines[-1][0])


def _word(colour: int, name: str) -> str:
    if colour == 0:
        return GREY_WORD
    if colour >= 0xFFFF:
        raise E2optError(f"{name}: colour {colour} does not fit a 16-bit word below {0xFFFF}")
    return f"{colour:016b}"


def format_puzzle(puzzle: Puzzle) -> str:
    """The CSV text of a square puzzle; E2optError for what the format cannot hold."""
    if puzzle.rows != puzzle.cols:
        raise E2optError(
            f"{puzzle.name}: the CSV format holds square boards only, this one is {puzzle.rows}x{puzzle.cols}"
        )
    pinned = {h.piece: h for h in puzzle.hints}
    out = [str(puzzle.rows)]
    for p in range(len(puzzle.pieces)):
        words = [_word(c, puzzle.name) for c in rotate(user_sides(puzzle, p), TURN)]
        hint = pinned.get(p)
        where = (0, 0, 0) if hint is None else (hint.col, hint.row, (hint.rot - TURN) % 4)
        if hint is not None and where == (0, 0, 0):
            raise E2optError(
                f"{puzzle.name}: the CSV format cannot pin piece {p} at x=0 y=0 rot=0 (it reads as unpinned)"
            )
        out.append(",".join(words + [str(v) for v in where]))
    return "\n".join(out) + "\n"
