"""``e2opt report RUN_DIR``: the story of a run, finished or not, from the files in its folder."""

from __future__ import annotations

import json
from pathlib import Path

from .bks import best_known
from .board import read_board, rule_violations, score
from .config import load_config
from .errors import BoardError, E2optError
from .events import read_events
from .plots import refresh_plots
from .puzzle import read_puzzle


def run_report(run_dir: str | Path, plots: bool = True) -> str:
    """A summary of the run (score, gap to best known, time to best, moves/s, stop reason); refreshes plots."""
    run_dir = Path(run_dir)
    if not (run_dir / "config.yaml").is_file():
        raise E2optError(f"{run_dir}: not a run folder (no config.yaml)")
    cfg = load_config(run_dir / "config.yaml")
    puzzle = read_puzzle(cfg.instance)
    try:
        best = read_board(run_dir / "best.board")
    except BoardError:
        best = None
    if best is not None and rule_violations(puzzle, best):
        best = None
    events = list(read_events(run_dir))
    last = {e["event"]: e for e in events}
    best_events = [e for e in events if e["event"] == "best"]
    best_score = score(puzzle, best) if best is not None else None
    result_path = run_dir / "result.json"
    if result_path.is_file():
        result = json.loads(result_path.read_text(encoding="utf-8"))
        finished = last.get("end") is not None and events[-1]["event"] == "end"
        status = f"finished, stopped by {result['stop_reason']}" if finished else "resumed, not finished"
    else:
        status = "not finished (running, or killed: `e2opt resume` continues it)"
    stats = last.get("stats") or last.get("end") or {}
    lines = [f"run {run_dir.name}: {puzzle.name} seed {cfg.seed}, {status}"]
    if best_score is None:
        lines.append("no best board yet")
    else:
        known = best_known(puzzle)
        gap = f", best known {known.best_known}, gap {known.best_known - best_score}" if known else ""
        lines.append(f"best {best_score}/{puzzle.max_score}{gap}")
    if best_events:
        b = best_events[-1]
        lines.append(f"best found at {b['wall_s']:.1f} s wall, move {b['iteration']}")
    if stats:
        lines.append(
            f"last seen at {stats.get('wall_s', 0):.1f} s wall, {stats.get('cpu_s', 0):.1f} s CPU, "
            f"move {stats.get('iteration', 0)}, {stats.get('moves_per_s', 0):,.0f} moves/s"
        )
    counts = {k: sum(1 for e in events if e["event"] == k) for k in ("diversify", "intensify", "resume")}
    lines.append(
        f"diversifications {counts['diversify']}, intensifications {counts['intensify']}, "
        f"resumes {counts['resume']}"
    )
    if plots:
        refresh_plots(run_dir, puzzle, best)
        lines.append(f"plots: {run_dir / 'score.png'}" + (f", {run_dir / 'best.svg'}" if best else ""))
    return "\n".join(lines)
