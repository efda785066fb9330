"""E2-like puzzles with a planted perfect solution, for tests and benchmarks of known optimum.

Every join of the planted board gets a colour: frame colours 1..F on joins between two border cells,
inner colours F+1..F+K on every other join, grey (0) on the rim. Joins are resampled until all pieces
are distinct up to rotation; then pieces are shuffled and turned at random for the file.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .board import Board
from .errors import E2optError
from .puzzle import INNER, Hint, Puzzle, cell_kind, check_size

MAX_RESAMPLE_ROUNDS = 2000


def _canonical(sides: np.ndarray) -> tuple[int, ...]:
    """The same key for a piece in any rotation: the smallest of its four rotations."""
    return min(tuple(int(x) for x in np.roll(sides, k)) for k in range(4))


def _necklaces(k: int) -> int:
    """How many pieces with four sides from k colours are distinct up to rotation (Burnside)."""
    return (k**4 + k**2 + 2 * k) // 4


def _check_hint_cells(rows: int, cols: int, hints: int, cells: Sequence[tuple[int, int]] | None) -> None:
    """Named hint cells: on the board, each once, and not together with a drawn count."""
    if cells is None:
        return
    if hints:
        raise E2optError("generate: give --hints N or --hint-cells, not both")
    for r, c in cells:
        if not (0 <= r < rows and 0 <= c < cols):
            raise E2optError(f"generate: hint cell {r},{c} is off the {rows}x{cols} board (rows 0..{rows - 1}, "
                             f"columns 0..{cols - 1})")  # fmt: skip
    if len(set(cells)) < len(cells):
        raise E2optError(f"generate: a hint cell is named twice in {' '.join(f'{r},{c}' for r, c in cells)}")


def _check_params(rows: int, cols: int, frame: int, inner: int, hints: int, seed: int) -> None:
    """Reject sizes and colour counts for which no puzzle with distinct pieces exists, and bad seeds."""
    size_problem = check_size(rows, cols)
    if size_problem:
        raise E2optError(f"generate: --rows {rows} --cols {cols}: {size_problem}")
    if seed < 0:
        raise E2optError(f"generate: --seed {seed}: must be non-negative")
    if frame < 1:
        raise E2optError(f"generate: need at least 1 frame colour, got {frame}")
    has_inner_joins = rows > 2 and cols > 2
    if has_inner_joins and inner < 1:
        raise E2optError(f"generate: a {rows}x{cols} board has inner joins: need at least 1 inner colour")
    if inner < 0:
        raise E2optError(f"generate: the number of inner colours cannot be negative, got {inner}")
    if not 0 <= hints <= rows * cols:
        raise E2optError(f"generate: hints must be 0..{rows * cols} for a {rows}x{cols} board, got {hints}")
    n_edges = 2 * (rows - 2) + 2 * (cols - 2)
    # An edge piece has frame, frame and a third side: inner when the board has inner cells, else frame.
    edge_shapes = frame * frame * (inner if has_inner_joins else frame)
    needs = [
        ("corner", 4, frame * frame),
        ("edge", n_edges, edge_shapes),
        ("inner", (rows - 2) * (cols - 2), _necklaces(inner)),
    ]
    for kind, count, shapes in needs:
        if count > shapes:
            raise E2optError(
                f"generate: too few colours for distinct pieces: {count} {kind} pieces but only {shapes} "
                f"distinct {kind} shapes with {frame} frame and {inner} inner colours"
            )


def _joins(rows: int, cols: int) -> tuple[list[tuple[int, int, int, int]], list[bool]]:
    """All joins (r1, c1, r2, c2), cell 2 right of or below cell 1, and whether each is a frame join."""
    joins, frame = [], []
    for r in range(rows):
        for c in range(cols):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < rows and c2 < cols:
                    joins.append((r, c, r2, c2))
                    border = cell_kind(rows, cols, r, c) != INNER and cell_kind(rows, cols, r2, c2) != INNER
                    frame.append(border)
    return joins, frame


def _solution_sides(rows: int, cols: int, joins, colour: np.ndarray) -> np.ndarray:
    """Side colours (rows, cols, 4) in t r b l order of the planted board; the rim stays grey."""
    sides = np.zeros((rows, cols, 4), dtype=np.int64)
    for (r, c, r2, c2), col in zip(joins, colour, strict=True):
        if r2 == r:  # horizontal neighbour: my right, its left
            sides[r, c, 1] = sides[r2, c2, 3] = col
        else:  # vertical neighbour: my bottom, its top
            sides[r, c, 2] = sides[r2, c2, 0] = col
    return sides


def _recolour(sides: np.ndarray, n: int, frame: int, inner: int, rng: np.random.Generator) -> None:
    """Give n sides (of n different inner joins, on different pieces) another inner colour, keeping
    the pieces distinct: the planted board loses those n joins, and the puzzle usually has no perfect
    board (a test case for ``e2opt solve --best``)."""
    rows, cols, _ = sides.shape
    candidates = [
        (r, c, s) for r in range(rows) for c in range(cols) for s in range(4) if sides[r, c, s] > frame
    ]
    changed: set[tuple[int, int]] = set()
    seen = {_canonical(sides[r, c]) for r in range(rows) for c in range(cols)}
    for i in rng.permutation(len(candidates)):
        r, c, s = candidates[i]
        nr, nc = r + (-1, 0, 1, 0)[s], c + (0, 1, 0, -1)[s]
        if len(changed) == 2 * n or (r, c) in changed or (nr, nc) in changed:
            continue
        old = sides[r, c].copy()
        sides[r, c, s] = frame + 1 + (sides[r, c, s] - frame + int(rng.integers(inner - 1))) % inner
        key = _canonical(sides[r, c])
        if key in seen:
            sides[r, c] = old
            continue
        seen.discard(_canonical(old))
        seen.add(key)
        changed.update({(r, c), (nr, nc)})
    if len(changed) < 2 * n:
        raise E2optError(
            f"generate: --recolour {n}: only {len(changed) // 2} inner joins could be recoloured"
        )


def generate(
    rows: int,
    cols: int,
    frame_colours: int,
    inner_colours: int,
    seed: int,
    hints: int = 0,
    recolour: int = 0,
    hint_cells: Sequence[tuple[int, int]] | None = None,
) -> tuple[Puzzle, Board]:
    """A puzzle with distinct pieces and its planted board (in the shuffled piece ids), perfect unless
    ``recolour`` sides were changed (then it misses that many joins).

    One ``np.random.default_rng(seed)`` drives the join colours, the recoloured sides, the shuffle,
    the file rotations and the choice of hint cells. ``hint_cells`` (row, col) names the hint cells
    instead of ``hints`` drawn ones; the pieces are those of the same seed without hints either way.
    """
    _check_params(rows, cols, frame_colours, inner_colours, hints, seed)
    _check_hint_cells(rows, cols, hints, hint_cells)
    if recolour < 0 or (recolour and inner_colours < 2):
        raise E2optError(
            f"generate: --recolour {recolour}: a count >= 0, and it needs 2 or more inner colours"
        )
    rng = np.random.default_rng(seed)
    joins, is_frame = _joins(rows, cols)
    is_frame = np.array(is_frame)
    low = np.where(is_frame, 1, frame_colours + 1)
    high = np.where(is_frame, frame_colours + 1, frame_colours + inner_colours + 1)
    colour = rng.integers(low, high)
    # Which joins touch each cell, to resample the joins of a duplicated piece.
    cell_joins: dict[tuple[int, int], list[int]] = {}
    for j, (r, c, r2, c2) in enumerate(joins):
        cell_joins.setdefault((r, c), []).append(j)
        cell_joins.setdefault((r2, c2), []).append(j)

    for _ in range(MAX_RESAMPLE_ROUNDS):
        sides = _solution_sides(rows, cols, joins, colour)
        seen: set[tuple[int, ...]] = set()
        duplicates = []
        for r in range(rows):
            for c in range(cols):
                key = _canonical(sides[r, c])
                if key in seen:
                    duplicates.append((r, c))
                seen.add(key)
        if not duplicates:
            break
        for cell in duplicates:
            j = cell_joins[cell][int(rng.integers(len(cell_joins[cell])))]
            colour[j] = rng.integers(low[j], high[j])
    else:
        raise E2optError(
            f"generate: too few colours for distinct pieces: {frame_colours} frame and {inner_colours} "
            f"inner colours gave duplicates after {MAX_RESAMPLE_ROUNDS} resampling rounds on {rows}x{cols}"
        )

    if recolour:
        _recolour(sides, recolour, frame_colours, inner_colours, rng)
    n = rows * cols
    order = rng.permutation(n)  # file piece i comes from solution cell order[i]
    file_rot = rng.integers(0, 4, size=n)  # turning file piece i by file_rot[i] gives its solution sides
    flat = sides.reshape(n, 4)
    pieces = np.array([np.roll(flat[order[i]], -file_rot[i]) for i in range(n)], dtype=np.int64)
    piece = np.empty(n, dtype=np.int64)
    rot = np.empty(n, dtype=np.int64)
    piece[order] = np.arange(n)
    rot[order] = file_rot
    solution = Board(piece.reshape(rows, cols), rot.reshape(rows, cols))

    if hint_cells is None:
        chosen = sorted(int(i) for i in rng.choice(n, size=hints, replace=False))
    else:
        chosen = sorted(r * cols + c for r, c in hint_cells)
    hint_list = tuple(Hint(int(piece[i]), i // cols, i % cols, int(rot[i])) for i in chosen)
    name = f"gen_{rows}x{cols}_f{frame_colours}_k{inner_colours}_s{seed}" + (
        f"_r{recolour}" if recolour else ""
    )
    return Puzzle(rows, cols, pieces, hint_list, name), solution
