"""The official Eternity II set: recognise it, number its pieces 1-256, name the clue convention.

The official numbers follow one rule that the community viewer (jfbucas/eternityII-viewer) uses: write each
piece as four letters 'a' + colour (up, right, down, left), take the smallest of its four rotations, and
sort those: the piece at position i of the sorted list is official piece i+1, and its official orientation
(rotation 0 of Blackwood's board text and of the viewer's paste box) is that smallest rotation turned by two
quarter turns. The set is recognised when the sorted list is the viewer's own list (stored as its SHA-256);
colours must carry the viewer's default ids, as they do in ``instances/eternity2.txt`` and anjou's CSV.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

from ..puzzle import Puzzle
from .common import user_sides

# SHA-256 of the viewer's E2_PIECES string (init.js): the 256 smallest rotations, sorted, joined by ','.
OFFICIAL_SHA256 = "6f19b5d05c9df9f095482f9145473c6787905d01ad96d12b019ead42b0456707"
# The five clues of the official puzzle: official number, row, column (0-based from the top left), and the
# letters (up, right, down, left) the placed piece shows; #139 is the mandatory centre (starter) clue.
OFFICIAL_CLUES = (
    (139, 8, 7, "ijjm"),
    (208, 2, 2, "wlmn"),
    (255, 2, 13, "wswu"),
    (181, 13, 2, "ujvm"),
    (249, 13, 13, "qvpr"),
)
CONVENTIONS = {1: "starter-only", 5: "strict 5-clue"}


def _letters(sides: tuple[int, ...]) -> str:
    return "".join(chr(97 + c) for c in sides)


def _turned(word: str, rot: int) -> str:
    """Letters (u, r, d, l) turned ``rot`` clockwise: one turn brings the left side up."""
    rot %= 4
    return word[4 - rot :] + word[: 4 - rot] if rot else word


@dataclass(frozen=True)
class Numbering:
    """How a puzzle's pieces are named outside e2opt: ``number[p]`` (0-based) and ``turn[p]``, the turns
    that bring piece p from its e2opt orientation to the numbering's (external rot = our rot - turn)."""

    number: tuple[int, ...]
    turn: tuple[int, ...]
    official: bool

    def piece_of(self, number: int) -> int | None:
        """Our piece id of external 0-based ``number`` (None when out of range)."""
        return self._inverse().get(number)

    def _inverse(self) -> dict[int, int]:
        return _inverse(self.number)


@lru_cache(maxsize=16)
def _inverse(number: tuple[int, ...]) -> dict[int, int]:
    return {n: p for p, n in enumerate(number)}


def _smallest(puzzle: Puzzle) -> list[str] | None:
    """Each piece's smallest rotation as viewer letters; None when a colour id is beyond 'z'."""
    out = []
    for p in range(len(puzzle.pieces)):
        sides = user_sides(puzzle, p)
        if max(sides) > 25:
            return None
        out.append(min(_turned(_letters(sides), k) for k in range(4)))
    return out


def is_official(puzzle: Puzzle) -> bool:
    """True for the 256 official Eternity II pieces with the viewer's colour ids, in any order and turn."""
    return official_numbering(puzzle) is not None


def official_numbering(puzzle: Puzzle) -> Numbering | None:
    """The official numbers 1-256 (0-based here) and orientations of an official set, else None."""
    if (puzzle.rows, puzzle.cols) != (16, 16):
        return None
    return _official_cached(puzzle)


def find_official_numbering(puzzle: Puzzle) -> Numbering | None:
    """official_numbering without its cache: the full check, every call (benchmarks/formats_bench.py times it)."""
    smallest = _smallest(puzzle)
    if smallest is None:
        return None
    ordered = sorted(smallest)
    if hashlib.sha256(",".join(ordered).encode()).hexdigest() != OFFICIAL_SHA256:
        return None
    rank = {word: i for i, word in enumerate(ordered)}
    number, turn = [], []
    for p, word in enumerate(smallest):
        number.append(rank[word])
        own = _letters(user_sides(puzzle, p))
        target = _turned(word, 2)  # the official orientation
        turn.append(next(k for k in range(4) if _turned(own, k) == target))
    return Numbering(tuple(number), tuple(turn), True)


_official_cached = lru_cache(maxsize=8)(find_official_numbering)


def numbering(puzzle: Puzzle) -> Numbering:
    """Official numbering for the official set; otherwise file order and e2opt's orientation."""
    found = official_numbering(puzzle)
    if found is not None:
        return found
    n = len(puzzle.pieces)
    return Numbering(tuple(range(n)), (0,) * n, False)


def clue_convention(puzzle: Puzzle) -> str | None:
    """``'1/5'`` (starter-only), ``'5/5'`` (strict), ``'k/5'`` for other official subsets, or a note when
    a hint is not an official clue; None for puzzles that are not the official set."""
    if not is_official(puzzle):
        return None
    clues = {(row, col): word for _, row, col, word in OFFICIAL_CLUES}
    found = 0
    for h in puzzle.hints:
        placed = _letters(user_sides(puzzle, h.piece, h.rot))
        if clues.get((h.row, h.col)) != placed:
            return f"{len(puzzle.hints)} hints, not all official clues"
        found += 1
    return f"{found}/5"


def clue_label(puzzle: Puzzle) -> str | None:
    """``clues 1/5 (starter-only)`` for people; None for other puzzles."""
    convention = clue_convention(puzzle)
    if convention is None:
        return None
    if "/" not in convention:
        return f"clues: {convention}"
    name = CONVENTIONS.get(int(convention.split("/")[0]))
    return f"clues {convention}" + (f" ({name})" if name else "")


def describe(puzzle: Puzzle) -> list[str]:
    """Lines for ``e2opt info``: the official set, its clue convention and our ids' official numbers."""
    found = official_numbering(puzzle)
    if found is None:
        return []
    lines = [f"official Eternity II set; {clue_label(puzzle)}"]
    if found.number == tuple(range(256)) and not any(found.turn):
        lines.append(
            "official numbers: piece id i is official #i+1 (file order), in the official orientation"
        )
        return lines
    lines.append("official numbers (id:#official, +t = turns from e2opt's orientation to the official one):")
    pairs = [
        f"{p}:#{n + 1}" + (f"+{t}" if t else "")
        for p, (n, t) in enumerate(zip(found.number, found.turn, strict=True))
    ]
    lines += ["  " + " ".join(pairs[i : i + 16]) for i in range(0, 256, 16)]
    return lines
