"""Run pictures: score.png (best score against log wall time, boards per hour by score; from events.jsonl
through hourly.py) and the best board (best.svg)."""

from __future__ import annotations

import io
import tempfile
from collections import Counter
from pathlib import Path

from ..core.board import Board
from ..core.fsutil import atomic_write_bytes, atomic_write_text
from ..core.puzzle import Puzzle
from .envfail import is_fault
from .eventkinds import Best, Construction, Diversify, Intensify, Stats
from .events import read_typed
from .hourly import HourlyHistory, point, row, score_columns, span

CURRENT_KINDS = (Stats, Diversify, Intensify)  # the current score: plateau events are rate-limited too
PRODUCED_HATCH, REPAIRED_HATCH = "", "//"
MAIN_TICKS = (1e-3, 1e-2, 0.1, 1, 10, 60, 600, 3600, 36000, 360000)  # seconds
MORE_TICKS = (
    2e-3,
    5e-3,
    2e-2,
    5e-2,
    0.2,
    0.5,
    2,
    5,
    20,
    30,
    120,
    300,
    1800,
    7200,
    4 * 3600,
    8 * 3600,
    16 * 3600,
)


def series(run_dir: Path) -> tuple[HourlyHistory, list[tuple[float, int]]]:
    """(history, current): the best line, new bests and per-hour counts (hourly.py), and (wall s, score) of
    the current score for the dots (CURRENT_KINDS and the constructions), in one pass over the events."""
    found = HourlyHistory()
    current: list[tuple[float, int]] = []
    for event in read_typed(run_dir):
        found.add(event)
        at = point(event)
        if at is not None and isinstance(event, (Construction, *CURRENT_KINDS)):
            current.append(at)
    return found, current


def score_series(run_dir: Path) -> tuple[list[tuple[float, int]], list[tuple[float, int]]]:
    """(best, current): lists of (wall seconds, score), streamed from the run's events.

    The best line is hourly.py's (best events that raise it and the constructions, starting boards, one per
    worker); the dots are CURRENT_KINDS and the constructions; other kinds are skipped.
    """
    found, current = series(run_dir)
    return found.best_line, current


def worker_series(run_dir: Path) -> dict[int, list[tuple[float, int]]]:
    """Each worker's best over time (runs with several workers: best and worker_best events name the worker)."""
    lines: dict[int, list[tuple[float, int]]] = {}
    for event in read_typed(run_dir):
        at = point(event)
        if isinstance(event, Best) and at is not None and event.worker is not None:  # worker_best included
            lines.setdefault(event.worker, []).append(at)
    return lines


def _log_floor(points: list[tuple[float, int]]) -> float:
    """Where the log time axis starts: a little before the first positive time (a time of 0 is drawn there)."""
    positive = [wall for wall, _ in points if wall > 0]
    return min(positive) / 2 if positive else 1e-3


def _seconds_label(seconds: float, _position: object = None) -> str:
    """Tick labels of the log time axis: 10 ms, 1 s, 5 min, 2 h."""
    if seconds < 1:
        return f"{seconds * 1000:g} ms"
    return span(seconds)


def _ticks(low: float, high: float) -> list[float]:
    """Round times for the log axis between low and high: decades and minutes/hours, with halves when few."""
    main = [t for t in MAIN_TICKS if low <= t <= high]
    if len(main) >= 3:
        return main
    return sorted(t for t in (*MAIN_TICKS, *MORE_TICKS) if low <= t <= high)


def _best_panel(ax, run_dir: Path, found: HourlyHistory, current: list, max_score: int) -> None:
    """The best score (step line, each worker's too) and the current score (dots) against log wall time."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    best = found.best_line
    end = max(found.last_wall, best[-1][0] if best else 0.0)
    floor = _log_floor([*best, *current])
    clip = [(max(w, floor), v) for w, v in current]
    if clip:
        ax.plot(*zip(*clip, strict=True), ".", color="#9aa5b1", markersize=3, label="current")
    if best:
        line = [(max(w, floor), v) for w, v in best]
        line.append((max(end, line[-1][0]), line[-1][1]))  # the best line runs on to the end of the log
        xs, ys = zip(*line, strict=True)
        ax.step(list(xs), list(ys), where="post", color="#1f6feb", linewidth=1.8, label="best")
        workers = worker_series(run_dir)
        for worker, points in sorted(workers.items()) if len(workers) > 1 else ():
            points = [(max(w, floor), v) for w, v in points] + [(line[-1][0], points[-1][1])]
            wx, wy = zip(*points, strict=True)
            ax.step(list(wx), list(wy), where="post", linewidth=0.9, alpha=0.8, label=f"worker {worker}")
        ax.set_ylim(max(0, min(ys) - 5), max_score + 2)
    ax.axhline(max_score, color="#2da44e", linestyle="--", linewidth=1, label=f"max {max_score}")
    ax.set_xscale("log")
    right = max(end, floor * 4)
    ax.set_xlim(floor, right * 1.1)
    ax.xaxis.set_major_locator(FixedLocator(_ticks(floor, right * 1.1)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_major_formatter(FuncFormatter(_seconds_label))
    ax.set_xlabel("wall time, log scale (construction included)")
    ax.set_ylabel("score (matched joins)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")


def _hours_panel(ax, found: HourlyHistory) -> None:
    """Boards per hour as bars stacked by score: produced (plain) and, with roles, repaired (hatched)."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    hours, produced = found.hours(), found.produced_counts()
    tables = [(produced, PRODUCED_HATCH)]
    if found.roles:
        tables.append((found.repaired, REPAIRED_HATCH))
    shown, lower = score_columns([t for t, _ in tables])
    names = ([f"< {lower}"] if lower is not None else []) + [str(s) for s in shown]
    colours = plt.get_cmap("viridis")([i / max(1, len(names) - 1) for i in range(len(names))])
    width = 0.8 / len(tables)
    for k, (table, hatch) in enumerate(tables):
        xs = [h - 0.4 + width * (k + 0.5) for h in hours]
        bottom = [0] * len(hours)
        cells = [row(table.get(h, Counter()), shown, lower) for h in hours]
        for c, name in enumerate(names):
            heights = [cell[c] for cell in cells]
            label = name if k == 0 else None
            style = {"color": colours[c], "hatch": hatch, "edgecolor": "white", "label": label}
            ax.bar(xs, heights, width, bottom=bottom, **style)
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
        for x, total in zip(xs, bottom, strict=True):  # the count on top: a short bar beside a tall one shows
            if total:
                ax.text(x, total, str(total), ha="center", va="bottom", fontsize="x-small")
    ax.set_xticks(hours, [f"{h}-{h + 1} h" for h in hours])
    kinds = "produced (plain) and repaired (hatched)" if found.roles else "constructions"
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("boards")
    ax.set_title(f"boards per wall hour by score: {kinds}", fontsize="medium")
    if names:
        ax.set_ylim(
            0, max(1, *(sum(row(t.get(h, Counter()), shown, lower)) for t, _ in tables for h in hours)) * 1.8
        )
        ax.legend(title="score", fontsize="small", ncol=min(len(names), 5), loc="upper left")
    else:
        ax.text(0.5, 0.5, "no boards counted yet", ha="center", va="center", transform=ax.transAxes)
    ax.grid(alpha=0.3, axis="y")


def score_figure(run_dir: Path, max_score: int, title: str):
    """The run's figure: the best score against log wall time above, the boards per hour by score below."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    found, current = series(run_dir)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7.5), dpi=100, height_ratios=(3, 2))
    _best_panel(top, run_dir, found, current, max_score)
    top.set_title(title)
    _hours_panel(bottom, found)
    fig.tight_layout()
    return fig


def score_png(run_dir: Path, max_score: int, title: str) -> bytes:
    """score_figure as PNG bytes."""
    fig = score_figure(run_dir, max_score, title)
    import matplotlib.pyplot as plt  # after score_figure chose the Agg backend

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return buffer.getvalue()


def refresh_plots(
    run_dir: Path, puzzle: Puzzle, best: Board | None, out_dir: Path | None = None
) -> list[Path]:
    """Rewrite score.png and, when a best board is known, best.svg (in the run folder, or ``out_dir``); their paths."""
    from ..core.board import score
    from ..core.render import board_svg

    out_dir = out_dir or run_dir
    title = f"{puzzle.name}: best score over time"
    written = [out_dir / "score.png"]
    atomic_write_bytes(written[0], score_png(run_dir, puzzle.max_score, title))
    if best is not None:
        caption = f"{puzzle.name} — {score(puzzle, best)}/{puzzle.max_score}"
        written.append(out_dir / "best.svg")
        atomic_write_text(written[1], board_svg(puzzle, best, caption))
    return written


def plots_line(run_dir: Path, puzzle: Puzzle, best: Board | None) -> str:
    """Refresh the pictures and say where they are: the run folder, or, when it cannot be written (read-only,
    full, permission lost), a new temporary folder; ``skipped`` with the reason when neither can be."""
    try:
        return "plots: " + ", ".join(map(str, refresh_plots(run_dir, puzzle, best)))
    except OSError as exc:
        if not is_fault(exc):
            raise
        why = f"{run_dir}: {exc.strerror or exc}"
    try:
        elsewhere = Path(tempfile.mkdtemp(prefix="e2opt-report-"))
        written = refresh_plots(run_dir, puzzle, best, elsewhere)
    except OSError as exc:
        if not is_fault(exc):
            raise
        return f"plots: skipped ({why}; and {exc.filename or 'a temporary folder'}: {exc.strerror or exc})"
    return (
        f"plots: not in the run folder ({why}): written to {elsewhere} ({', '.join(p.name for p in written)})"
    )
