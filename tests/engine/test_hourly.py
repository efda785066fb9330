"""What each hour bought (engine/hourly.py): per-hour board counts against a recount of events.jsonl, the new
bests with role and move, the report's text and score.png's two panels, old run folders without roles."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from helpers import EVENTS, make_run

from e2opt.engine.hourly import HOUR, report_lines, run_history
from e2opt.engine.plots import score_figure, score_png
from e2opt.engine.report import run_report


def role_events(seed: int, hours: float = 3.5) -> list[dict]:
    """A run of two producers and two repairers over ``hours`` wall hours, drawn at random (no search)."""
    rng = np.random.default_rng(seed)
    roles = {0: "producer", 1: "producer", 2: "repairer", 3: "repairer"}
    events: list[dict] = [{"event": "start", "seed": seed}]
    best, own = 0, {}
    wall = 0.0
    while wall < hours * HOUR:
        wall += float(rng.exponential(90.0))
        worker = int(rng.integers(4))
        role = roles[worker]
        t = round(wall, 3)
        if role == "producer":
            value = int(rng.integers(450, 462))
            kept = bool(rng.random() < 0.5)
            events.append(
                {
                    "event": "produced",
                    "worker": worker,
                    "role": role,
                    "score": value,
                    "wall_s": t,
                    "cpu_s": t,
                    "method": "beam",
                    "kept": kept,
                }
            )
            move = "construction"
        else:
            before = int(rng.integers(452, 460))
            value = before + int(rng.integers(0, 3))
            events.append(
                {
                    "event": "repaired",
                    "worker": worker,
                    "role": role,
                    "score_before": before,
                    "score": value,
                    "wall_s": t,
                    "cpu_s": t,
                }
            )
            move = str(rng.choice(["region", "tsr", "assignment"]))
        kind = "best" if value > best else "worker_best"
        best = max(best, value)
        if value <= own.get(worker, 0):
            continue  # the worker's own best did not rise: no best event
        own[worker] = value
        events.append(
            {
                "event": kind,
                "worker": worker,
                "role": role,
                "move": move,
                "score": value,
                "wall_s": t,
                "cpu_s": t,
                "iteration": len(events),
            }
        )
        if rng.random() < 0.3:
            events.append({"event": "stats", "score": value - 3, "wall_s": t, "cpu_s": t, "iteration": 1})
    events.append({"event": "end", "stop_reason": "max_wall_s", "wall_s": round(wall, 3)})
    return events


def write_log(run_dir: Path, events: list[dict], extra: str = "") -> None:
    run_dir.mkdir(exist_ok=True)
    (run_dir / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events) + extra)


def recount(path: Path, kind: str) -> dict[int, Counter]:
    """The per-hour score counts of one kind of event, straight from the file's lines."""
    counts: dict[int, Counter] = {}
    for line in path.read_text().splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") == kind:
            counts.setdefault(int(event["wall_s"] // 3600), Counter())[event["score"]] += 1
    return counts


@pytest.mark.parametrize("seed", range(6))
def test_per_hour_counts_equal_a_recount_of_the_log(tmp_path, seed):
    events = role_events(seed)
    write_log(tmp_path, events, extra='{"event":"produced","score":4\n')  # a torn last line is skipped
    found = run_history(tmp_path)
    produced, repaired = (
        recount(tmp_path / "events.jsonl", "produced"),
        recount(tmp_path / "events.jsonl", "repaired"),
    )
    assert found.produced_counts() == produced and found.repaired == repaired
    assert found.hours() == [0, 1, 2, 3] and set(produced) <= {0, 1, 2, 3}
    assert sum(sum(c.values()) for c in produced.values()) == sum(e["event"] == "produced" for e in events)
    raised = Counter(
        int(e["wall_s"] // 3600)
        for e in events
        if e["event"] == "repaired" and e["score"] > e["score_before"]
    )
    assert {h: n for h, n in found.improved.items() if n} == dict(raised)
    bests = [e for e in events if e["event"] == "best"]
    assert [(b.wall_s, b.score, b.worker, b.role, b.move) for b in found.bests()] == [
        (e["wall_s"], e["score"], e["worker"], e["role"], e["move"]) for e in bests
    ]


def test_the_text_tables_hold_the_recounted_numbers(tmp_path):
    events = role_events(3)
    write_log(tmp_path, events)
    lines = report_lines(run_history(tmp_path))
    start = lines.index(next(x for x in lines if x.startswith("boards produced per hour")))
    for k, kind in enumerate(("produced", "repaired")):
        table = recount(tmp_path / "events.jsonl", kind)
        at = start + k * 6
        if k:
            assert lines[at] == "boards repaired per hour, by the best score reached:"
        head = lines[at + 1].split()
        assert head[0] == "hour" and head[-1] == "all"
        scores = [int(h) for h in head[1:-1] if not h.startswith("<")]  # the table's 8 highest scores
        everything = sorted({s for counts in table.values() for s in counts}, reverse=True)
        assert scores == sorted(everything[:8]) and head[1] == f"<{min(scores)}"
        for hour in range(4):
            cells = lines[at + 2 + hour].split()
            assert cells[0] == f"{hour}-{hour + 1}"
            numbers = [int(c) for c in cells[2:]]
            counts = table.get(hour, Counter())
            assert numbers[-1] == sum(counts.values())
            assert numbers[-1 - len(scores) : -1] == [counts[s] for s in scores]
            assert sum(numbers[:-1]) == numbers[-1]
    summary = lines[2 : 2 + 4]
    best_at_end = [
        max(e["score"] for e in events if e["event"] == "best" and e["wall_s"] < (h + 1) * 3600)
        for h in range(4)
    ]
    assert [int(x.split()[2]) for x in summary] == best_at_end
    marks = lines[0]
    assert marks.startswith("best over wall time: 1 min ") and ", 3 h " in marks and ", 4 h" not in marks


def test_best_at_the_marks_follows_the_best_line(tmp_path):
    write_log(tmp_path, role_events(1, hours=2.2))
    found = run_history(tmp_path)
    for t, value in found.marks():
        earlier = [s for w, s in found.best_line if w <= t]
        assert value == (max(earlier) if earlier else None)
    assert [t for t, _ in found.marks()] == [60, 120, 300, 600, 1800, 3600, 7200]


def test_an_old_run_folder_counts_its_constructions_and_names_no_role_or_move(tmp_path):
    """Runs from before roles: no produced/repaired events, best events without role or move."""
    run_dir = make_run(tmp_path, EVENTS, json.dumps({"stop_reason": "max_iterations (121)"}))
    text = run_report(run_dir, plots=True)
    assert "boards produced per hour, by score (constructions: the run has no producers):" in text
    assert "boards repaired per hour" not in text
    found = run_history(run_dir)
    assert found.produced_counts() == {0: Counter({5: 1})} and not found.roles
    assert [(b.score, b.role, b.move) for b in found.bests()] == [
        (5, "worker", "construction"),
        (9, "worker", "-"),
        (12, "worker", "-"),
    ]
    assert "new bests by role and move: worker - 2, worker construction 1" in text
    assert (run_dir / "score.png").read_bytes()[:4] == b"\x89PNG"


def test_produced_events_replace_the_constructions_in_the_counts(tmp_path):
    events = [
        {"event": "construction", "worker": 0, "score": 450, "wall_s": 10.0},
        {"event": "produced", "worker": 0, "role": "producer", "score": 450, "wall_s": 10.0, "kept": True},
        {"event": "produced", "worker": 0, "role": "producer", "score": 455, "wall_s": 3700.0, "kept": False},
    ]
    write_log(tmp_path, events)
    found = run_history(tmp_path)
    assert found.produced_counts() == {0: Counter({450: 1}), 1: Counter({455: 1})}
    lines = report_lines(found)  # a construction raised the best line; the produced boards did not
    assert (
        lines[0]
        == "best over wall time: 1 min 450, 2 min 450, 5 min 450, 10 min 450, 30 min 450, 1 h 450, end (1.03 h) 450"
    )


@pytest.mark.parametrize("walls", [(0.0, 0.002, 0.01, 0.3), (0.2, 0.4, 0.5, 0.9)])
def test_the_log_axis_plot_renders_runs_shorter_than_a_second(tmp_path, walls):
    events = [
        {"event": "construction", "worker": 0, "score": 5, "wall_s": walls[0]},
        {"event": "best", "worker": 0, "score": 7, "wall_s": walls[1], "iteration": 3},
        {"event": "stats", "score": 6, "wall_s": walls[2], "cpu_s": 0.01, "iteration": 9},
        {"event": "best", "worker": 0, "score": 9, "wall_s": walls[3], "iteration": 20},
    ]
    write_log(tmp_path, events)
    png = score_png(tmp_path, 12, "tiny")
    assert png[:4] == b"\x89PNG" and len(png) > 10_000
    fig = score_figure(tmp_path, 12, "tiny")
    top, bottom = fig.axes[:2]
    assert top.get_xscale() == "log" and top.get_xlim()[0] > 0
    assert sum(p.get_height() for p in bottom.patches) == 1  # the one construction


def test_the_hours_panel_stacks_every_counted_board(tmp_path):
    events = role_events(2)
    write_log(tmp_path, events)
    fig = score_figure(tmp_path, 480, "e2")
    bottom = fig.axes[1]
    hatched = sum(p.get_height() for p in bottom.patches if p.get_hatch())
    plain = sum(p.get_height() for p in bottom.patches if not p.get_hatch())
    assert plain == sum(e["event"] == "produced" for e in events)
    assert hatched == sum(e["event"] == "repaired" for e in events)


def test_an_empty_log_reports_no_hourly_part_and_still_plots(tmp_path):
    write_log(tmp_path, [{"event": "start"}])
    assert report_lines(run_history(tmp_path)) == []
    assert score_png(tmp_path, 12, "tiny")[:4] == b"\x89PNG"


def test_a_construction_that_raised_the_best_takes_its_workers_role(tmp_path):
    """Construction events name no role: the one the worker's other events name is shown."""
    events = [
        {"event": "construction", "worker": 1, "score": 440, "wall_s": 3.0},
        {"event": "construction", "worker": 0, "score": 430, "wall_s": 3.1},
        {"event": "construction", "worker": 2, "score": 445, "wall_s": 3.2},
        {"event": "produced", "worker": 1, "role": "producer", "score": 440, "wall_s": 3.0, "kept": True},
        {"event": "best", "worker": 0, "role": "repairer", "move": "pool", "score": 446, "wall_s": 4.0},
    ]
    write_log(tmp_path, events)
    found = run_history(tmp_path)
    assert [(b.worker, b.role, b.move) for b in found.bests()] == [
        (1, "producer", "construction"),
        (2, "worker", "construction"),  # worker 2 names no role anywhere
        (0, "repairer", "pool"),
    ]


def test_a_pipeline_killed_before_its_first_board_has_producers(tmp_path):
    """Issue 33: the roles come from the workers event, so a killed pipeline is not called a run without them."""
    write_log(
        tmp_path,
        [
            {"event": "start", "seed": 1, "max_score": 60, "workers": 2},
            {
                "event": "workers",
                "workers": 2,
                "roles": ["repairer", "producer"],
                "methods": ["beam", "breakdfs"],
            },
            {"event": "construction", "worker": 0, "method": "beam", "score": 40, "wall_s": 3.0},
            {"event": "best", "worker": 0, "score": 40, "wall_s": 3.0, "move": "construction"},
        ],
    )
    found = run_history(tmp_path)
    text = "\n".join(report_lines(found))
    assert found.roles and "the run has no producers" not in text
    assert "boards produced per hour, by score (producers' boards):" in text
    assert found.produced_counts() == {}  # the repairer's construction is no produced board
    assert [b.role for b in found.bests()] == ["repairer"]
