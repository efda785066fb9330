"""A recipe's numbers derived from the puzzle's own statistics along the fill order, never copied from another.

- **Privileged colours**: a colour is awkward to place late when the placements that show it on a key side
  share their colour pair with few others; the ``n_frame`` frame and ``n_inner`` inner colours with the
  smallest mean bucket size are privileged (ties: lower id). Frame and inner colours are ranked apart.
- **Branching** ``b[p]``: the expected number of exact candidates at position p if the free pieces were
  random: free pieces of the cell's kind x fitting rotations x the chance that each key side matches
  (sum of squared colour shares over the sides of that join's class: frame joins or inner joins).
- **Breaks**: none while the mean of ``b`` over the next row of positions stays above ``onset``; from
  there the cumulative allowance is ``slack`` times the expected number of positions without any exact
  candidate (sum of exp(-b), Poisson), floored, growing to the last cell (Blackwood's froze at 239 of 256,
  where his 470 needed no more; the boards complete better with the allowance growing to the end,
  docs/dfs_results.md "The break allowance to the last cell").
- **Quota**: between the quota value placed by position p when pieces come at random (``expected``) and
  the most any fill can have placed by then (``most``: the largest values of each kind first), a share of
  the way that ramps in from the end of the first row (``lam`` x the square root of the way to ``ramp``
  of the cells), holds ``lam`` to ``hold`` of the cells and rises to ``lam + late x (1 - lam)`` at
  ``until``, where the quota stops (``QuotaShape``).

On the official set these rules give Blackwood's tables back with ``lam`` 0.8 and his colours (his quota
is 0.5 of the way at position 26-28, 0.61 at 40, 0.78-0.80 at 56-102, 0.93 at 160: ``ramp`` 0.22, ``hold``
0.4, ``late`` 0.65, ``until`` 0.625), ``onset`` 0.4 and ``slack`` 0.3 (10 breaks by position 239 of 256,
one at a time, as his): those are the method's constants, fitted once there (docs/dfs.md); the pilot
chooses ``lam`` and ``onset`` per puzzle among a few values.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ...core.puzzle import GREY, Puzzle
from .rules import frame_colours


def awkwardness(puzzle: Puzzle) -> dict[int, float]:
    """Per colour: mean size of the (side, next side) colour-pair buckets of the rotations that show it."""
    pairs: Counter[tuple[int, int]] = Counter()
    for sides in puzzle.pieces:
        for s in range(4):
            pairs[(int(sides[s]), int(sides[(s + 1) & 3]))] += 1
    sizes: dict[int, list[int]] = {}
    for (a, b), n in pairs.items():
        for c in {a, b} - {GREY}:
            sizes.setdefault(c, []).extend([n] * n)
    return {c: float(np.mean(v)) for c, v in sizes.items()}


def derive_privileged(puzzle: Puzzle, n_frame: int, n_inner: int) -> list[int]:
    """The privileged colours (internal ids) by the rule of the module docstring."""
    score = awkwardness(puzzle)
    frame = set(frame_colours(puzzle))
    ranked = sorted(score, key=lambda c: (score[c], c))
    return sorted(
        [c for c in ranked if c in frame][:n_frame] + [c for c in ranked if c not in frame][:n_inner]
    )


def _match_chance(puzzle: Puzzle) -> tuple[float, float]:
    """(frame, inner): the chance that two random sides of that join class show the same colour."""
    frame = set(frame_colours(puzzle))
    counts = np.bincount(puzzle.pieces.ravel(), minlength=puzzle.n_colours).astype(float)
    counts[GREY] = 0.0
    out = []
    for keep in (frame, set(range(1, puzzle.n_colours)) - frame):
        sel = np.array([counts[c] if c in keep else 0.0 for c in range(puzzle.n_colours)])
        total = sel.sum()
        out.append(float(((sel / total) ** 2).sum()) if total else 1.0)
    return out[0], out[1]


def branching(puzzle: Puzzle, seq: list[tuple[int, int]]) -> np.ndarray:
    """b[p], the expected exact candidates of position p (hint positions: inf), module docstring."""
    rows, cols = puzzle.rows, puzzle.cols
    hinted = {(h.row, h.col) for h in puzzle.hints}
    p_frame, p_inner = _match_chance(puzzle)

    def rim(r: int, c: int) -> int:
        return (r == 0) + (r == rows - 1) + (c == 0) + (c == cols - 1)

    left = Counter(min(rim(r, c), 2) for r, c in seq if (r, c) not in hinted)
    when = {rc: i for i, rc in enumerate(seq)}
    out = np.full(len(seq), np.inf)
    for p, (r, c) in enumerate(seq):
        if (r, c) in hinted:
            continue
        kind = min(rim(r, c), 2)
        chance = 1.0
        keys = 0
        for rr, cc in ((r, c - 1), (r + 1, c), (r - 1, c), (r, c + 1)):  # key priority: left, bottom first
            if keys < 2 and 0 <= rr < rows and 0 <= cc < cols and when[(rr, cc)] < p:
                keys += 1
                chance *= p_frame if rim(r, c) and rim(rr, cc) else p_inner
        out[p] = left[kind] * (4 if kind == 0 else 1) * chance
        left[kind] -= 1
    return out


def derived_breaks(b: np.ndarray, window: int, onset: float, slack: float) -> tuple[tuple[int, int], ...]:
    """[position, cumulative breaks] from the branching (module docstring); () when none are allowed."""
    finite = np.where(np.isfinite(b), b, 50.0)
    means = np.array([finite[i : i + window].mean() for i in range(len(finite))])
    below = np.nonzero(means < onset)[0]
    if len(below) == 0:
        return ()
    start = int(below[0])
    expected = np.cumsum(np.exp(-finite[start:]))
    out: list[tuple[int, int]] = []
    for i, e in enumerate(expected):
        most = int(np.floor(slack * e))
        if most > (out[-1][1] if out else 0):
            out.append((start + i, most))
    return tuple(out)


def _kind_of_cell(puzzle: Puzzle, r: int, c: int) -> int:
    """The piece kind a cell takes (corner 0, edge 1, inner 2)."""
    rims = min((r == 0) + (r == puzzle.rows - 1) + (c == 0) + (c == puzzle.cols - 1), 2)
    return {0: 2, 1: 1, 2: 0}[rims]


def quota_bounds(
    puzzle: Puzzle, seq: list[tuple[int, int]], qval: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(expected, most)[p]: quota value placed by positions 0..p-1 when pieces come at random, and at
    most (each cell taking the largest value left of its kind); hints at their own value."""
    hint_at = {(h.row, h.col): h.piece for h in puzzle.hints}
    hinted = set(hint_at.values())
    left = {k: sorted((int(qval[p]) for p in range(len(puzzle.pieces)) if puzzle.kinds[p] == k and p not in hinted),
                      reverse=True) for k in range(3)}  # fmt: skip
    mean = {k: float(np.mean(v)) if v else 0.0 for k, v in left.items()}
    expected, most = np.zeros(len(seq) + 1), np.zeros(len(seq) + 1)
    for p, (r, c) in enumerate(seq):
        if (r, c) in hint_at:
            value = float(qval[hint_at[(r, c)]])
            expected[p + 1], most[p + 1] = expected[p] + value, most[p] + value
            continue
        kind = _kind_of_cell(puzzle, r, c)
        expected[p + 1] = expected[p] + mean[kind]
        most[p + 1] = most[p] + (left[kind].pop(0) if left[kind] else 0)
    return expected, most


@dataclass(frozen=True)
class QuotaShape:
    """The share of the way from ``expected`` to ``most`` the quota asks along the fill order (fractions of
    the cells): a square-root ramp to ``lam`` at ``ramp``, ``lam`` to ``hold``, then a straight rise to
    ``lam + late x (1 - lam)`` at ``until``, where the quota ends."""

    ramp: float
    hold: float
    late: float
    until: float

    def share(self, lam: float, p: int, start: int, cells: int) -> float:
        """The share at position ``p`` (``start``: the end of the first row, where the quota begins)."""
        x = p / cells
        if x < self.ramp:
            return lam * (max(0, p - start) / max(1.0, self.ramp * cells - start)) ** 0.5
        if x <= self.hold:
            return lam
        return lam + self.late * (1 - lam) * min(1.0, (x - self.hold) / (self.until - self.hold))


def derived_quota(
    expected: np.ndarray, most: np.ndarray, lam: float, start: int, shape: QuotaShape, knots: int = 12
) -> tuple[tuple[int, int], ...]:
    """[position, minimum quota value]: 0 at ``start``, then ``knots`` evenly spaced knots up to the
    shape's ``until``, each ``shape.share`` of the way from ``expected`` to ``most``."""
    cells = len(expected) - 1
    end = max(start + 1, round(shape.until * cells))
    points = [(start, 0)]
    for i in range(1, knots + 1):
        p = start + round((end - start) * i / knots)
        value = int(np.floor(expected[p] + shape.share(lam, p, start, cells) * (most[p] - expected[p])))
        if p > points[-1][0] and value >= points[-1][1]:
            points.append((p, value))
    return tuple(points)
