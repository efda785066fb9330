"""``e2opt info``: a short human description of a puzzle (size, kinds, colours, hints, best known)."""

from __future__ import annotations

from collections import Counter

from .bks import best_known
from .formats import official
from .puzzle import CORNER, EDGE, GREY, INNER, KIND_NAMES, Puzzle


def frame_sides(puzzle: Puzzle, piece: int) -> list[int]:
    """Sides of a border piece that face another border cell when placed: next to a grey side, or any
    non-grey side when the board has no inner cells (2xN). Inner pieces have none."""
    sides = puzzle.pieces[piece]
    kind = int(puzzle.kinds[piece])
    if kind == INNER:
        return []
    no_inner_cells = puzzle.rows == 2 or puzzle.cols == 2
    return [
        s
        for s in range(4)
        if sides[s] != GREY
        and (no_inner_cells or kind == CORNER or GREY in (sides[s - 1], sides[(s + 1) % 4]))
    ]


def _counts_line(counts: Counter[int], colours: list[int]) -> str:
    return " ".join(f"{c}:{counts[c]}" for c in colours) or "-"


def shape_warnings(puzzle: Puzzle, counts: Counter[int]) -> list[str]:
    """What ``info`` warns of beyond the reader's warnings: colours with an odd count (each join takes two
    sides of a colour, so no perfect board exists; the e2opt reader says so already, other formats do not)
    and pieces that are the same piece up to rotation (a board then has twins: searches see it as two)."""
    out = []
    odd = sorted(c for c, k in counts.items() if k % 2)
    if odd and not any("odd count" in w for w in puzzle.warnings):
        out.append(f"colours with an odd count {odd}: no perfect board exists")
    same: dict[tuple[int, ...], list[int]] = {}
    for p in range(len(puzzle.pieces)):
        same.setdefault(min(tuple(int(x) for x in o) for o in puzzle.oriented[p]), []).append(p)
    groups = [group for group in same.values() if len(group) > 1]
    if groups:
        shown = "; ".join(" = ".join(map(str, group)) for group in groups[:5]) + (
            "; ..." if len(groups) > 5 else ""
        )
        copies = sum(len(group) - 1 for group in groups)
        out.append(f"{copies} piece(s) duplicate another up to rotation (pieces {shown})")
    return out


def describe(puzzle: Puzzle) -> str:
    """Several lines: size, piece kinds, frame and inner colours with counts, hints, max and best score."""
    kinds = Counter(int(k) for k in puzzle.kinds)
    n = len(puzzle.pieces)
    counts, frame_count, inner_count = Counter[int](), Counter[int](), Counter[int]()
    for p in range(n):
        on_frame = frame_sides(puzzle, p)
        for s in range(4):
            colour = puzzle.user_colour(int(puzzle.pieces[p][s]))
            if colour != GREY:
                counts[colour] += 1
                (frame_count if s in on_frame else inner_count)[colour] += 1
    frame, inner = set(frame_count), set(inner_count)
    shapes = {min(tuple(int(x) for x in o) for o in puzzle.oriented[p]) for p in range(n)}
    # A piece equal to itself turned by one quarter is also equal turned by two, so one test covers both.
    symmetric = sum(1 for p in range(n) if (puzzle.oriented[p, 2] == puzzle.oriented[p, 0]).all())

    kind_counts = ", ".join(f"{kinds[k]} {KIND_NAMES[k]}" for k in (CORNER, EDGE, INNER))
    lines = [
        f"{puzzle.name}: {puzzle.rows}x{puzzle.cols}, {puzzle.n_cells} pieces ({kind_counts})",
        f"pieces distinct up to rotation: {len(shapes)}/{n}, rotationally symmetric: {symmetric}",
        f"colours: {len(counts)} besides grey ({len(frame)} frame, {len(inner)} inner)",
        f"  frame: {_counts_line(counts, sorted(frame))}",
        f"  inner: {_counts_line(counts, sorted(inner))}",
    ]
    hints = ", ".join(f"piece {h.piece} at ({h.row},{h.col}) rot {h.rot}" for h in puzzle.hints)
    lines.append(f"hints: {len(puzzle.hints)}" + (f" ({hints})" if hints else ""))
    lines.append(f"max score: {puzzle.max_score}")
    lines += official.describe(puzzle)
    bks = best_known(puzzle)
    if bks is not None:
        lines.append(f"best known: {bks.best_known}/{bks.max_score} ({bks.source})")
    warnings = list(puzzle.warnings) + shape_warnings(puzzle, counts)
    both = sorted(frame & inner)
    if both:
        warnings.append(f"colours used both on frame joins and inner joins: {both}")
    lines += [f"warning: {w}" for w in warnings]
    return "\n".join(lines)
