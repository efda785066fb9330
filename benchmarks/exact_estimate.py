"""Expected search-tree sizes of a static-order DFS on a puzzle, in the random-colour model.

    python benchmarks/exact_estimate.py instances/brendan_set1/set1_06x06.txt benchmarks/results/exact/set1_09x09.txt

For the first d cells of a fill order, the expected number of partial boards that fit is (ways to put
distinct pieces of the right kinds there, interior pieces in 4 turns) x (probability that every join
among them matches), a join matching with probability sum_c p_c^2 over the frame colours (rim joins)
or the inner colours. The tree size is the sum over d (plus the root); E[solutions] is the term of the
full board. Printed as log10. The model treats the colours of different joins as independent, which a
generated puzzle is not; docs/exact_results.md "Tree-size estimates" compares it with measured trees.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from e2opt import read_puzzle
from e2opt.core.puzzle import CORNER, EDGE, GREY, INNER, Puzzle
from e2opt.fill.order import ORDERS


def match_probabilities(puzzle: Puzzle) -> tuple[float, float]:
    """P(a rim join matches), P(an inner join matches): sum of squared colour shares of each kind."""
    frame = set()
    for sides in puzzle.pieces[puzzle.kinds != INNER]:
        for s in range(4):
            if sides[s] == GREY:
                frame.update(int(sides[t]) for t in ((s + 1) % 4, (s + 3) % 4) if sides[t] != GREY)
    counts = np.bincount(puzzle.pieces.ravel(), minlength=puzzle.n_colours).astype(float)
    inner = [c for c in range(1, puzzle.n_colours) if c not in frame and counts[c] > 0]
    shares = [counts[list(group)] / counts[list(group)].sum() for group in (sorted(frame), inner)]
    return float((shares[0] ** 2).sum()), float((shares[1] ** 2).sum())


def tree_log10(puzzle: Puzzle, cells: list[tuple[int, int]]) -> tuple[float, float]:
    """(log10 expected nodes, log10 expected solutions) of a DFS visiting ``cells`` in order."""
    rows, cols = puzzle.rows, puzzle.cols
    left = {CORNER: int((puzzle.kinds == CORNER).sum()), EDGE: int((puzzle.kinds == EDGE).sum())}
    left[INNER] = len(puzzle.pieces) - left[CORNER] - left[EDGE]
    p_rim, p_inner = match_probabilities(puzzle)
    placed: set[tuple[int, int]] = set()
    level, total = 0.0, 1.0
    for r, c in cells:
        kind = {2: CORNER, 1: EDGE, 0: INNER}[(r in (0, rows - 1)) + (c in (0, cols - 1))]
        level += math.log10(left[kind] * (4 if kind == INNER else 1))
        left[kind] -= 1
        for rr, cc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if (rr, cc) in placed:
                rim = (rr == r and r in (0, rows - 1)) or (cc == c and c in (0, cols - 1))
                level += math.log10(p_rim if rim else p_inner)
        placed.add((r, c))
        total += 10**level
    return math.log10(total), level


def main() -> None:
    names = ("row_scan", "column_scan", "spiral", "frame_first")
    print("| puzzle | " + " | ".join(f"{n} log10 nodes" for n in names) + " | log10 E[solutions] |")
    print("|---" * (len(names) + 2) + "|")
    for path in sys.argv[1:]:
        puzzle = read_puzzle(path)
        sizes = [tree_log10(puzzle, ORDERS[n](puzzle.rows, puzzle.cols)) for n in names]
        print(f"| {puzzle.name} | " + " | ".join(f"{t:.1f}" for t, _ in sizes) + f" | {sizes[0][1]:.1f} |")


if __name__ == "__main__":
    main()
