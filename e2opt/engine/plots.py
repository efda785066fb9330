"""Run pictures: score over time (score.png) from events.jsonl and the best board (best.svg)."""

from __future__ import annotations

import io
from pathlib import Path

from ..core.board import Board
from ..core.fsutil import atomic_write_bytes, atomic_write_text
from ..core.puzzle import Puzzle
from .events import read_events

CURRENT_KINDS = ("stats", "diversify", "intensify")  # the current score: plateau events are rate-limited too


def _point(event: dict) -> tuple[float, int] | None:
    """(wall seconds, score) of an event; None when it lacks either (a hand-edited or foreign line)."""
    wall, value = event.get("wall_s"), event.get("score")
    if isinstance(wall, int | float) and isinstance(value, int):
        return float(wall), value
    return None


def score_series(run_dir: Path) -> tuple[list[tuple[float, int]], list[tuple[float, int]]]:
    """(best, current): lists of (wall seconds, score), streamed from the run's events.

    Only plotted points are kept: best events that raise the best for the line, CURRENT_KINDS for the dots,
    the constructions (starting boards, one per worker) for both; other kinds are skipped.
    """
    best: list[tuple[float, int]] = []
    current: list[tuple[float, int]] = []
    for event in read_events(run_dir):
        kind, point = event.get("event"), _point(event)
        if point is None:
            continue
        if kind in ("best", "construction") and (not best or point[1] > best[-1][1]):
            # the run's best never falls: a later, weaker construction (another worker's) is no best
            best.append(point)
        if kind in ("construction", *CURRENT_KINDS):
            current.append(point)
    return best, current


def worker_series(run_dir: Path) -> dict[int, list[tuple[float, int]]]:
    """Each worker's best over time (runs with several workers: best and worker_best events name the worker)."""
    series: dict[int, list[tuple[float, int]]] = {}
    for event in read_events(run_dir):
        point, worker = _point(event), event.get("worker")
        if event.get("event") in ("best", "worker_best") and point is not None and isinstance(worker, int):
            series.setdefault(worker, []).append(point)
    return series


def score_png(run_dir: Path, max_score: int, title: str) -> bytes:
    """The score-over-time plot as PNG bytes: best as a step line, current as dots."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    best, current = score_series(run_dir)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    if current:
        ax.plot(*zip(*current, strict=True), ".", color="#9aa5b1", markersize=3, label="current")
    if best:
        if current and current[-1][0] > best[-1][0]:
            best = [*best, (current[-1][0], best[-1][1])]  # the best line runs on to the last sample
        xs, ys = zip(*best, strict=True)
        ax.step(list(xs), list(ys), where="post", color="#1f6feb", linewidth=1.8, label="best")
        workers = worker_series(run_dir)
        for worker, points in sorted(workers.items()) if len(workers) > 1 else ():
            points = [*points, (best[-1][0], points[-1][1])]
            wx, wy = zip(*points, strict=True)
            ax.step(list(wx), list(wy), where="post", linewidth=0.9, alpha=0.8, label=f"worker {worker}")
        low = min(ys)
        ax.set_ylim(max(0, low - 5), max_score + 2)
    ax.axhline(max_score, color="#2da44e", linestyle="--", linewidth=1, label=f"max {max_score}")
    ax.set_xlabel("wall seconds (construction included)")
    ax.set_ylabel("score (matched joins)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return buffer.getvalue()


def refresh_plots(run_dir: Path, puzzle: Puzzle, best: Board | None) -> None:
    """Rewrite score.png and, when a best board is known, best.svg."""
    from ..core.board import score
    from ..core.render import board_svg

    title = f"{puzzle.name}: best score over time"
    atomic_write_bytes(run_dir / "score.png", score_png(run_dir, puzzle.max_score, title))
    if best is not None:
        caption = f"{puzzle.name} — {score(puzzle, best)}/{puzzle.max_score}"
        atomic_write_text(run_dir / "best.svg", board_svg(puzzle, best, caption))
