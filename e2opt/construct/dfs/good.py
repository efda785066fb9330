"""Verhaard's "good" pieces derived from the puzzle: the pieces easiest to surround, by one fixed rule.

Verhaard's program carries 60 groups of ~150 good pieces recovered from its binary (anjou's
``verhaard_good_groups.in``); its quota asks for a minimum number of them on the board by given
depths. e2opt derives one group from any puzzle instead: a piece's surround count is the product, over
its non-grey sides, of the number of sides of that colour on the other pieces (how many neighbours
could meet each side). Each kind (corner, edge, inner) gives its share of the ``count`` good pieces in
proportion to its size (Verhaard's groups hold all three kinds, and a quota counted from the first
row, a frame row, needs frame pieces), the largest counts within the kind first (ties: lower piece id),
hints left out. Deterministic, no search.
"""

from __future__ import annotations

import numpy as np

from ...core.puzzle import GREY, Puzzle


def surround_counts(puzzle: Puzzle) -> np.ndarray:
    """Per piece, the product over its non-grey sides of the other pieces' sides of that colour."""
    totals = np.bincount(puzzle.pieces.ravel(), minlength=puzzle.n_colours)
    out = np.ones(len(puzzle.pieces), dtype=np.float64)
    for p, sides in enumerate(puzzle.pieces):
        own = np.bincount(sides, minlength=puzzle.n_colours)
        for c in sides:
            if c != GREY:
                out[p] *= totals[c] - own[c]
    return out


def good_pieces(puzzle: Puzzle, count: int | None) -> np.ndarray:
    """Piece ids of the good group: ``count`` (None: 150 on 256 pieces, scaled) largest surround counts."""
    n = len(puzzle.pieces)
    count = round(150 * n / 256) if count is None else count
    hinted = {h.piece for h in puzzle.hints}
    score = surround_counts(puzzle)
    out: list[int] = []
    for kind in range(3):
        mine = [p for p in range(n) if puzzle.kinds[p] == kind and p not in hinted]
        share = round(count * int((puzzle.kinds == kind).sum()) / n)
        out += sorted(mine, key=lambda p: (-score[p], p))[:share]
    return np.array(sorted(out), dtype=np.int64)
