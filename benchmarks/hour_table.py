"""A long run's figures as docs/dfs.md tables them: the best at given run CPU s, who found each new best and
when, the producer's boards (pieces, scores, mean score by pieces, the DFS attempts begun by each) and the
pilot's choice. Read from the run folder alone.

python benchmarks/hour_table.py RUN_DIR [RUN_DIR ...] [--marks 600 1800 3600 6840] [--attempts]

``--attempts`` adds, per producer and DFS attempt, its boards' count, the mean of its first three, the mean of
the rest and its best, and over every attempt of the runs given with at least six boards, Spearman's rank
correlation of the first three's mean with the rest's: whether an attempt's first boards tell how good it is
(the question behind an abort-by-score restart policy; docs/dfs_results.md).

The run's CPU clock (what ``--max-cpu-s`` counts) is in its ``stats`` events, every few wall seconds; a
``best`` event's wall time is placed on that clock by linear interpolation between the two stats events
around it. A run folder made by ``benchmarks/long_pair.sh`` is ``DIR/<puzzle>_s<seed>_<label>/<run>/``.
"""

from __future__ import annotations

import argparse
import json
from bisect import bisect_left
from collections import Counter
from pathlib import Path

from pilot_said import pilot_lines  # benchmarks/ is the script's folder: sys.path[0]
from scipy.stats import spearmanr

from e2opt.engine.events import read_events

FIRST = 3  # boards that open an attempt, for --attempts


def cpu_at(clock: list[tuple[float, float]], wall: float) -> float:
    """The run's CPU s at wall time ``wall``, from (wall s, CPU s) points in wall order."""
    i = bisect_left(clock, (wall, float("-inf")))
    if i == 0:
        return clock[0][1] if clock else 0.0
    if i == len(clock):
        return clock[-1][1]
    (w0, c0), (w1, c1) = clock[i - 1], clock[i]
    return c0 + (c1 - c0) * (wall - w0) / (w1 - w0) if w1 > w0 else c1


def by_attempt(run_dir: Path) -> dict[str, dict[int, list[int]]]:
    """The producers' board scores per worker and DFS attempt, in the order they were made."""
    out: dict[str, dict[int, list[int]]] = {}
    for produced_dir in sorted(run_dir.glob("worker*/produced")):
        for info in (json.loads(p.read_text()) for p in sorted(produced_dir.glob("*.json"))):
            if info.get("attempts") is not None:
                worker = out.setdefault(produced_dir.parent.name, {})
                worker.setdefault(int(info["attempts"]), []).append(int(info["score"]))
    return out


def summary(run_dir: Path, marks: list[float]) -> list[str]:
    """The lines printed for one run folder."""
    clock: list[tuple[float, float]] = []
    found: list[tuple[int, float, str]] = []  # score, wall s, role of each new best
    produced: list[dict] = []
    for event in read_events(run_dir):
        kind = event.get("event")
        if kind == "stats" and event.get("cpu_s") is not None:
            clock.append((float(event["wall_s"]), float(event["cpu_s"])))
        elif kind == "best":
            found.append((int(event["score"]), float(event["wall_s"]), str(event.get("role", "?"))))
        elif kind == "produced":
            produced.append(event)
    clock.sort()
    bests = [(s, cpu_at(clock, w), w, role) for s, w, role in found]
    at_marks = [max((s for s, c, _, _ in bests if c <= mark), default=0) for mark in marks]
    lines = [
        f"{run_dir}: best at {', '.join(f'{m:g}' for m in marks)} run CPU s: {', '.join(map(str, at_marks))}"
    ]
    lines.append("  new bests (score, run CPU s, wall s, role): " + ", ".join(
        f"({s}, {c:.0f}, {w:.0f}, {role})" for s, c, w, role in bests))  # fmt: skip
    if produced:
        scores = Counter(int(e["score"]) for e in produced)
        by_placed: dict[int, list[int]] = {}
        for e in produced:
            if e.get("placed") is not None:
                by_placed.setdefault(int(e["placed"]), []).append(int(e["score"]))
        mean = sum(s * n for s, n in scores.items()) / len(produced)
        hist = ", ".join(f"{s} x{n}" for s, n in sorted(scores.items()))
        pieces = f"{min(by_placed)}-{max(by_placed)} pieces, " if by_placed else ""
        lines.append(f"  producer boards: {len(produced)}, {pieces}{hist} (mean {mean:.1f})")
        if by_placed:
            lines.append("  by pieces placed (pieces: boards, mean score): " + ", ".join(
                f"{k}: {len(v)}, {sum(v) / len(v):.1f}" for k, v in sorted(by_placed.items())))  # fmt: skip
    for worker, attempts in by_attempt(run_dir).items():  # a worker's attempt count only grows
        begun = " ".join(str(a) for a, scores in sorted(attempts.items()) for _ in scores)
        lines.append(f"  DFS attempts begun by each board ({worker}): {begun}")
    return lines + [f"  {line}" for line in pilot_lines(run_dir)]


def attempt_lines(runs: list[Path]) -> list[str]:
    """--attempts: each attempt's opening boards against the rest, and their rank correlation over the runs."""
    lines, pairs = [], []
    for run in runs:
        for worker, attempts in by_attempt(run).items():
            for attempt, scores in sorted(attempts.items()):
                first, rest = scores[:FIRST], scores[FIRST:]
                rest_mean = f"{sum(rest) / len(rest):.2f}" if rest else "-"
                lines.append(f"{run} {worker} attempt {attempt}: {len(scores)} boards, first {FIRST} mean "
                             f"{sum(first) / len(first):.2f}, rest mean {rest_mean}, best {max(scores)}")  # fmt: skip
                if len(scores) >= 2 * FIRST:
                    pairs.append((sum(first) / len(first), sum(rest) / len(rest)))
    if len(pairs) >= 3:
        rho, p = spearmanr(*zip(*pairs, strict=True))
        lines.append(f"{len(pairs)} attempts of >= {2 * FIRST} boards: Spearman {rho:.2f} (p {p:.2f})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--marks", nargs="+", type=float, default=[600, 1800, 3600, 6840])
    parser.add_argument("--attempts", action="store_true")
    args = parser.parse_args()
    for run in args.runs:
        print("\n".join(summary(run, args.marks)))
    if args.attempts:
        print("\n".join(attempt_lines(args.runs)))


if __name__ == "__main__":
    main()
