"""A sweep's summary, rebuilt from its run folders: summary.csv (one row per run), summary.md (statistics per
setting), one boxplot per swept parameter and the mean best-score-over-time curve of each setting."""

from __future__ import annotations

import csv
import io
import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.bks import best_known
from ..core.fsutil import STATE_FILE_MB, atomic_write_bytes, atomic_write_text, read_user_text
from ..engine.plots import score_series
from ..engine.runfolder import RESULT, is_finished
from .spec import Sweep

RESULT_COLUMNS = (
    "best_score", "max_score", "best_known", "time_to_best_s", "moves_per_s", "wall_s", "cpu_s", "iterations",
    "stop_reason",
)  # fmt: skip


@dataclass(frozen=True)
class Stats:
    """Order statistics of the best scores of one setting's finished runs."""

    n: int
    min: int
    median: float
    mean: float
    max: int


def describe(scores: Sequence[int]) -> Stats | None:
    """n, min, median, mean, max of the scores; None when there are none."""
    if not scores:
        return None
    return Stats(len(scores), min(scores), statistics.median(scores), statistics.fmean(scores), max(scores))


def run_rows(sweep: Sweep, sweep_dir: Path) -> list[dict[str, Any]]:
    """One row per run: where it sits in the sweep, its status and its result.json numbers (when written).

    A run counts as done only when its folder checks out (runfolder.is_finished); a journal entry saying done
    for a folder that does not is reported as ``unverified``.
    """
    rows = []
    for run in sweep.runs:
        run_dir = sweep_dir / run.id
        status = sweep.status_of(run.id)
        if is_finished(run_dir, run.config["instance"]):
            status = "done"
        elif status == "done":
            status = "unverified"
        try:
            result = json.loads(read_user_text(run_dir / RESULT, STATE_FILE_MB))
        except (OSError, ValueError):
            result = {}
        row: dict[str, Any] = {"run": run.id, "setting": run.setting, "variant": run.variant or ""}
        row.update({key: run.values.get(key, "") for key in sweep.keys})
        row.update(seed=run.seed, status=status, instance=result.get("instance", ""))
        row.update({column: result.get(column, "") for column in RESULT_COLUMNS})
        row["error"] = "" if status == "done" else sweep.error_of(run.id) or ""
        rows.append(row)
    return rows


@dataclass(frozen=True)
class SettingSummary:
    """Statistics of one setting: its finished runs' best scores, the best known score and the gap to it."""

    setting: str
    stats: Stats | None
    runs: int
    best_known: int | None
    mean_time_to_best_s: float | None
    mean_moves_per_s: float | None

    @property
    def gap(self) -> int | None:
        """Best known minus the setting's best score."""
        if self.stats is None or self.best_known is None:
            return None
        return self.best_known - self.stats.max


def summarise(rows: list[dict[str, Any]]) -> list[SettingSummary]:
    """One SettingSummary per setting, in the sweep's order; only runs with status done enter the statistics."""
    settings: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        settings.setdefault(row["setting"], []).append(row)
    summaries = []
    for setting, group in settings.items():
        done = [row for row in group if row["status"] == "done"]
        known = {best_known(row["instance"]) for row in done}
        entry = known.pop() if len(known) == 1 else None
        summaries.append(
            SettingSummary(
                setting=setting,
                stats=describe([int(row["best_score"]) for row in done]),
                runs=len(group),
                best_known=entry.best_known if entry else None,
                mean_time_to_best_s=statistics.fmean(r["time_to_best_s"] for r in done) if done else None,
                mean_moves_per_s=statistics.fmean(r["moves_per_s"] for r in done) if done else None,
            )
        )
    return summaries


def _csv(rows: list[dict[str, Any]], keys: list[str], variants: bool) -> str:
    """summary.csv: the run id, variant (when any), swept values, seed, status, result numbers, error."""
    columns = ["run", *(["variant"] if variants else []), *keys, "seed", "status", *RESULT_COLUMNS, "error"]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def _num(value: float | None, digits: int = 1) -> str:
    """A table cell: whole numbers without decimals, others with ``digits``, – for nothing."""
    if value is None:
        return "–"
    return (
        f"{value:,.{digits}f}"
        if isinstance(value, float) and not float(value).is_integer()
        else f"{value:,.0f}"
    )


def _markdown(sweep: Sweep, rows: list[dict[str, Any]], plots: list[str]) -> str:
    """summary.md: where the sweep came from, the table per setting, unfinished runs, the plots."""
    counts = {
        s: sum(row["status"] == s for row in rows) for s in dict.fromkeys(row["status"] for row in rows)
    }
    told = ", ".join(f"{n} {status}" for status, n in counts.items())
    lines = [
        f"# Sweep `{sweep.name}`",
        "",
        f"Sweep file `{sweep.source}`, base config `{sweep.base}`"
        + (f", command-line changes `{' '.join(sweep.overrides)}`" if sweep.overrides else "")
        + ".",
        f"{len(rows)} runs: {told}.",
        "",
        "Statistics of the best score of each finished run (higher is better). Gap = best known score "
        "(e2opt/data/bks.csv) minus the best score of the setting.",
        "",
        "| setting | n | min | median | mean | max | best known | gap | mean time to best (s) | mean moves/s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in summarise(rows):
        st = s.stats
        cells = [s.setting, f"{st.n if st else 0}/{s.runs}"]
        cells += [_num(v) for v in (st.min, st.median, st.mean, st.max)] if st else ["–"] * 4
        cells += [_num(s.best_known), _num(s.gap), _num(s.mean_time_to_best_s), _num(s.mean_moves_per_s, 0)]
        lines.append("| " + " | ".join(cells) + " |")
    unfinished = [row for row in rows if row["status"] != "done"]
    if unfinished:
        lines += ["", "## Runs not finished", ""]
        lines += [
            f"- `{row['run']}`: {row['status']}" + (f" — {row['error']}" if row["error"] else "")
            for row in unfinished
        ]
    if plots:
        lines += ["", "## Plots", ""] + [f"![{name}]({name})" for name in plots]
    return "\n".join(lines) + "\n"


def box_groups(sweep: Sweep, rows: list[dict[str, Any]], key: str | None) -> dict[str, list[int]]:
    """Best scores of done runs grouped by the value of one swept key (runs without it: by variant)."""
    with_key = {run.variant for run in sweep.runs if key in run.values}
    groups: dict[str, list[int]] = {}
    runs = {run.id: run for run in sweep.runs}
    for row in rows:
        run = runs[row["run"]]
        if key is not None and key in run.values:
            label = f"{run.values[key]}"
            label = f"{run.variant} {label}" if len(with_key) > 1 else label
        else:
            label = run.variant or "base"
        scores = groups.setdefault(label, [])
        if row["status"] == "done":
            scores.append(int(row["best_score"]))
    return {label: scores for label, scores in groups.items() if scores}


def mean_curve(series: list[list[tuple[float, int]]], points: int = 300) -> tuple[np.ndarray, np.ndarray]:
    """Mean over runs of the best score as a step function of time; starts once every run has a score,
    and a run that has ended keeps its last best."""
    series = [s for s in series if s]
    if not series:
        return np.zeros(0), np.zeros(0)
    start = max(s[0][0] for s in series)
    end = max(s[-1][0] for s in series)
    times = np.linspace(start, max(end, start), points)
    values = []
    for s in series:
        at = np.array([t for t, _ in s], dtype=float)
        scores = np.array([v for _, v in s], dtype=float)
        values.append(scores[np.searchsorted(at, times, side="right") - 1])
    return times, np.mean(values, axis=0)


def _png(fig: Any) -> bytes:
    """A matplotlib figure as PNG bytes (then closed)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return buffer.getvalue()


def _boxplot(title: str, groups: dict[str, list[int]], xlabel: str) -> bytes:
    """One box per group of best scores, whiskers at the extremes."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(5, 1 + 0.9 * len(groups)), 4.5), dpi=100)
    ax.boxplot(list(groups.values()), whis=(0, 100))  # whiskers to the extremes, as in paper 001 Figure 5
    ax.set_xticks(range(1, len(groups) + 1), list(groups), rotation=30 if len(groups) > 8 else 0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("best score")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    return _png(fig)


def _curves(title: str, curves: dict[str, tuple[np.ndarray, np.ndarray]]) -> bytes:
    """One line per setting: mean best score over wall seconds."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    for label, (times, values) in curves.items():
        ax.plot(times, values, label=label, linewidth=1.5)
    ax.set_xlabel("wall seconds (construction included)")
    ax.set_ylabel("mean best score")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize="small")
    return _png(fig)


def _plots(sweep: Sweep, sweep_dir: Path, rows: list[dict[str, Any]]) -> list[str]:
    """Write the boxplots and curves.png; returns the file names written."""
    import matplotlib

    matplotlib.use("Agg")
    written = []
    keys: list[str | None] = list(sweep.keys) or ([None] if len(sweep.variants) > 1 else [])
    for key in keys:
        groups = box_groups(sweep, rows, key)
        if groups:
            name = f"boxplot_{key or 'variant'}.png"
            png = _boxplot(f"{sweep.name}: best score by {key or 'variant'}", groups, key or "variant")
            atomic_write_bytes(sweep_dir / name, png)
            written.append(name)
    by_setting: dict[str, list[list[tuple[float, int]]]] = {}
    for row in (row for row in rows if row["status"] == "done"):
        series = score_series(sweep_dir / row["run"])[0]
        if series:  # held at its last best until the run ended
            by_setting.setdefault(row["setting"], []).append([*series, (row["wall_s"], series[-1][1])])
    curves = {setting: mean_curve(series) for setting, series in by_setting.items()}
    curves = {setting: curve for setting, curve in curves.items() if len(curve[0])}
    if curves:
        atomic_write_bytes(
            sweep_dir / "curves.png", _curves(f"{sweep.name}: mean best score over time", curves)
        )
        written.append("curves.png")
    return written


def write_summary(sweep_dir: str | Path, plots: bool = True) -> str:
    """Rebuild summary.csv, summary.md and (unless ``plots`` is false) the plots; returns summary.md's text."""
    sweep_dir = Path(sweep_dir)
    sweep = Sweep.load(sweep_dir)
    rows = run_rows(sweep, sweep_dir)
    atomic_write_text(sweep_dir / "summary.csv", _csv(rows, sweep.keys, bool(sweep.variants)))
    names = _plots(sweep, sweep_dir, rows) if plots else []
    text = _markdown(sweep, rows, names)
    atomic_write_text(sweep_dir / "summary.md", text)
    return text
