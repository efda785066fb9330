"""Board pictures: each cell as four triangles coloured by its edge colours, as Eternity II is drawn.

One scene (triangles, cell outlines, hint dots, mismatch bars, title) is computed once and then written
either as SVG text by hand (no dependency; reports embed it) or as PNG with matplotlib's Agg backend.
"""

from __future__ import annotations

import colorsys
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from .board import Board, join_matches, rule_violations, score
from .errors import BoardError, E2optError
from .fsutil import atomic_write_bytes, atomic_write_text
from .puzzle import Puzzle

CELL = 40.0  # cell side in SVG user units (pixels at 100%)
MARGIN = 14.0
TITLE_H = 36.0
TITLE_SIZE = 16.0
GREY_FILL = "#4d4d4d"
EDGE_STROKE = "#1a1a1a"
MARK = "#ff1a1a"
# Colour ids 1.. take these in order: strong, well separated hues first (frame colours are small ids).
PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#17becf", "#e377c2", "#bcbd22", "#8c564b",
    "#00635a", "#393b79", "#ffbb78", "#98df8a", "#aec7e8", "#c5b0d5", "#f7b6d2", "#dbdb8d",
    "#9edae5", "#c49c94", "#637939", "#e7ba52", "#843c39", "#7b4173", "#6baed6", "#fd8d3c",
    "#74c476", "#9e9ac8", "#ad494a", "#a55194", "#8c6d31", "#5254a3",
)  # fmt: skip


def colour_of(colour_id: int) -> str:
    """Fill for a colour id: dark grey for 0, the fixed palette, then golden-angle hues beyond it."""
    if colour_id == 0:
        return GREY_FILL
    if colour_id <= len(PALETTE):
        return PALETTE[colour_id - 1]
    hue = (colour_id * 0.618033988749895) % 1.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.55, 0.6)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


@dataclass
class Scene:
    """Everything drawn, in SVG user units with y pointing down."""

    width: float
    height: float
    title: str
    triangles: list[tuple[tuple[tuple[float, float], ...], str]] = field(default_factory=list)
    cells: list[tuple[float, float]] = field(default_factory=list)  # top-left corners of cell outlines
    hints: list[tuple[float, float]] = field(default_factory=list)  # hint dot centres
    marks: list[tuple[float, float, float, float]] = field(default_factory=list)  # mismatch bars


def _title(puzzle: Puzzle, board: Board, title: str | None) -> str:
    """Name, score and what is wrong: "eternity2 · 458/480 · 22 mismatched joins"."""
    got = score(puzzle, board)
    text = f"{title or puzzle.name} · {got}/{puzzle.max_score}"
    notes = []
    if got < puzzle.max_score:
        notes.append(f"{puzzle.max_score - got} mismatched joins")
    broken = len(rule_violations(puzzle, board))
    if broken:
        notes.append(f"INVALID: {broken} broken rules")
    return " · ".join([text, *notes])


def scene(puzzle: Puzzle, board: Board, title: str | None = None) -> Scene:
    """Lay out the picture of ``board``; raise BoardError when it cannot be drawn for this puzzle."""
    rows, cols = puzzle.rows, puzzle.cols
    if board.shape != (rows, cols):
        raise BoardError(f"cannot draw a {board.shape[0]}x{board.shape[1]} board for a {rows}x{cols} puzzle")
    if board.piece.min() < 0 or board.piece.max() >= len(puzzle.pieces):
        raise BoardError(f"cannot draw: the board names pieces outside 0..{len(puzzle.pieces) - 1}")
    text = _title(puzzle, board, title)
    width = max(cols * CELL, 0.6 * TITLE_SIZE * len(text)) + 2 * MARGIN
    left = (width - cols * CELL) / 2
    top = TITLE_H
    out = Scene(width, top + rows * CELL + MARGIN, text)
    colours = board.colours(puzzle)
    for r in range(rows):
        for c in range(cols):
            x, y = left + c * CELL, top + r * CELL
            mid = (x + CELL / 2, y + CELL / 2)
            corners = ((x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL))
            for side in range(4):  # top, right, bottom, left: side s spans corners s and s+1
                tri = (corners[side], corners[(side + 1) % 4], mid)
                out.triangles.append((tri, colour_of(int(colours[r, c, side]))))
            out.cells.append((x, y))
    for h in puzzle.hints:
        out.hints.append((left + (h.col + 0.5) * CELL, top + (h.row + 0.5) * CELL))
    horizontal, vertical = join_matches(puzzle, board)
    inset = 0.18 * CELL
    for r, c in zip(*(~horizontal).nonzero(), strict=True):
        x = left + (c + 1) * CELL
        out.marks.append((x, top + r * CELL + inset, x, top + (r + 1) * CELL - inset))
    for r, c in zip(*(~vertical).nonzero(), strict=True):
        y = top + (r + 1) * CELL
        out.marks.append((left + c * CELL + inset, y, left + (c + 1) * CELL - inset, y))
    return out


def _svg(sc: Scene) -> str:
    """The scene as a standalone SVG document."""
    f = "{:.1f}".format
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{f(sc.width)}" height="{f(sc.height)}" '
        f'viewBox="0 0 {f(sc.width)} {f(sc.height)}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>{escape(sc.title)}</title>",
        f'<rect width="{f(sc.width)}" height="{f(sc.height)}" fill="#ffffff"/>',
        f'<text x="{f(sc.width / 2)}" y="{f(TITLE_H * 0.62)}" font-size="{TITLE_SIZE:g}" '
        f'text-anchor="middle" fill="#222222">{escape(sc.title)}</text>',
        f'<g class="triangles" stroke="{EDGE_STROKE}" stroke-width="0.35" stroke-linejoin="round">',
    ]
    for tri, fill in sc.triangles:
        points = " ".join(f"{f(x)},{f(y)}" for x, y in tri)
        parts.append(f'<polygon points="{points}" fill="{fill}"/>')
    parts.append(f'</g><g class="cells" fill="none" stroke="{EDGE_STROKE}" stroke-width="1.2">')
    parts += [f'<rect x="{f(x)}" y="{f(y)}" width="{CELL:g}" height="{CELL:g}"/>' for x, y in sc.cells]
    parts.append("</g>")
    for x, y in sc.hints:
        parts.append(
            f'<circle class="hint" cx="{f(x)}" cy="{f(y)}" r="{0.13 * CELL:.1f}" '
            f'fill="#ffffff" stroke="{EDGE_STROKE}" stroke-width="1.5"/>'
        )
    for x1, y1, x2, y2 in sc.marks:
        line = f'x1="{f(x1)}" y1="{f(y1)}" x2="{f(x2)}" y2="{f(y2)}" stroke-linecap="round"'
        parts.append(
            f'<g class="mismatch"><line {line} stroke="#ffffff" stroke-width="{0.2 * CELL:.1f}"/>'
            f'<line {line} stroke="{MARK}" stroke-width="{0.12 * CELL:.1f}"/></g>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _png(sc: Scene, dpi: int = 200) -> bytes:
    """The scene drawn with matplotlib (Agg) into PNG bytes; 100 user units = 1 inch."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, Rectangle

    pt = 0.72  # points per user unit at 100 units per inch
    fig = Figure(figsize=(sc.width / 100, sc.height / 100), dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, sc.width)
    ax.set_ylim(sc.height, 0)
    ax.set_axis_off()
    ax.add_collection(
        PolyCollection(
            [tri for tri, _ in sc.triangles],
            facecolors=[fill for _, fill in sc.triangles],
            edgecolors=EDGE_STROKE,
            linewidths=0.35 * pt,
        )
    )
    for x, y in sc.cells:
        ax.add_patch(Rectangle((x, y), CELL, CELL, fill=False, edgecolor=EDGE_STROKE, linewidth=1.2 * pt))
    for x, y in sc.hints:
        ax.add_patch(
            Circle((x, y), 0.13 * CELL, facecolor="#ffffff", edgecolor=EDGE_STROKE, linewidth=1.5 * pt)
        )
    segments = [((x1, y1), (x2, y2)) for x1, y1, x2, y2 in sc.marks]
    for colour, w in (("#ffffff", 0.2), (MARK, 0.12)):
        ax.add_collection(LineCollection(segments, colors=colour, linewidths=w * CELL * pt, capstyle="round"))
    ax.text(
        sc.width / 2, TITLE_H * 0.62, sc.title, fontsize=TITLE_SIZE * pt, ha="center", va="baseline",
        color="#222222",
    )  # fmt: skip
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, facecolor="#ffffff")
    return buffer.getvalue()


def board_svg(puzzle: Puzzle, board: Board, title: str | None = None) -> str:
    """The board as SVG text, for reports that embed it."""
    return _svg(scene(puzzle, board, title))


def render_board(puzzle: Puzzle, board: Board, path: str | os.PathLike, title: str | None = None) -> None:
    """Draw the board to ``path``: SVG or PNG chosen by the extension; written atomically."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        atomic_write_text(path, board_svg(puzzle, board, title))
    elif suffix == ".png":
        atomic_write_bytes(path, _png(scene(puzzle, board, title)))
    else:
        raise E2optError(f"{path}: cannot render to '{suffix or 'no extension'}': use .svg or .png")
