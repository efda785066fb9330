"""`e2opt report`: a run folder's summary from its files, whatever state result.json is in."""

from __future__ import annotations

import json
import tracemalloc

import pytest
from helpers import EVENTS, make_run

from e2opt.cli.main import main
from e2opt.engine.plots import score_series
from e2opt.engine.report import run_report, summarise_events


def test_finished_run_reads_the_stop_reason_from_result_json(tmp_path):
    run_dir = make_run(tmp_path, EVENTS, json.dumps({"stop_reason": "max_iterations (121)"}))
    lines = run_report(run_dir, plots=False).splitlines()
    assert lines[0] == "run run: tiny seed 0, finished, stopped by max_iterations (121)"
    assert lines[-1].startswith("viewer: https://e2.bucas.name/#puzzle=tiny&board_w=3&board_h=3&board_edges=")
    assert lines[1:-1] == [
        "best 12/12",
        "best found at 1.5 s wall, move 120",
        "last seen at 1.6 s wall, 1.4 s CPU, move 121, 86 moves/s",  # the end event, not the last stats
        "diversifications 1, intensifications 0, resumes 0",
        "best over wall time: end (1.6 s) 12",  # what each hour bought: tests/engine/test_hourly.py
        "hour    run best  best seen  new bests  produced  repaired  raised",
        "0-1 h         12         12          3         1         0       0",
        "boards produced per hour, by score (constructions: the run has no producers):",
        "hour         5   all",
        "0-1 h        1     1",
        "new bests (wall, score, worker, role, move):",
        "         0.1 s     5  worker -   worker    construction",
        "         0.5 s     9  worker -   worker    -",
        "         1.5 s    12  worker -   worker    -",
        "new bests by role and move: worker - 2, worker construction 1",
    ]


@pytest.mark.parametrize("result", ['{"stop_reason": "targ', "[1, 2]", '{"best_score": 12}', ""])
def test_corrupt_or_partial_result_json_falls_back_to_the_events(tmp_path, capsys, result):
    run_dir = make_run(tmp_path, EVENTS, result)
    assert main(["report", str(run_dir)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "finished, stopped by target_score (12) (result.json is unreadable" in out.splitlines()[0]
    assert (run_dir / "score.png").read_bytes()[:4] == b"\x89PNG"


def test_result_json_that_is_not_utf8_falls_back_to_the_events(tmp_path):
    run_dir = make_run(tmp_path, EVENTS, None)
    (run_dir / "result.json").write_bytes(b'{"stop_reason": "\xff"}')
    assert "stopped by target_score (12) (result.json is unreadable" in run_report(run_dir, plots=False)


def test_events_after_the_end_mean_a_resumed_unfinished_run(tmp_path):
    events = [
        *EVENTS,
        {"event": "resume", "wall_s": 2.0},
        {"event": "diversify", "score": 6, "wall_s": 2.1, "diversifications": 2},
    ]
    run_dir = make_run(tmp_path, events, "{not json")
    text = run_report(run_dir, plots=False)
    assert "resumed, not finished" in text and "diversifications 2, intensifications 0, resumes 1" in text


def test_score_series_keeps_the_plotted_points_only(tmp_path):
    events = [*EVENTS, {"event": "best", "wall_s": 2.0}, {"event": "stats", "score": "x", "wall_s": 2.1}]
    best, current = score_series(make_run(tmp_path, events, None))
    assert best == [(0.1, 5), (0.5, 9), (1.5, 12)]
    assert current == [(0.1, 5), (0.6, 7), (1.0, 8)]


def test_the_best_line_of_several_workers_never_falls(tmp_path):
    """Worker 1's construction (458) comes before worker 0's weaker one (457): the run's best stays 458."""
    events = [
        {"event": "start", "wall_s": 0.0},
        {"event": "construction", "worker": 1, "score": 458, "wall_s": 32.5},
        {"event": "best", "worker": 1, "score": 458, "wall_s": 32.5},
        {"event": "construction", "worker": 0, "score": 457, "wall_s": 34.1},
        {"event": "worker_best", "worker": 0, "score": 457, "wall_s": 34.1},
        {"event": "best", "worker": 0, "score": 459, "wall_s": 90.0},
    ]
    best, current = score_series(make_run(tmp_path, events, None))
    assert best == [(32.5, 458), (90.0, 459)]
    assert current == [(32.5, 458), (34.1, 457)]


@pytest.mark.slow
def test_report_and_plots_stream_the_events(tmp_path):
    """A long log is read line by line: memory holds the summary and the plotted points, not the events."""
    filler = {"event": "checkpoint", "iteration": 1, "wall_s": 1.0, "note": "x" * 200}
    run_dir = make_run(tmp_path, [EVENTS[0], *[filler] * 20_000, *EVENTS[1:]], None)
    tracemalloc.start()
    try:
        summary = summarise_events(run_dir)
        best, current = score_series(run_dir)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert summary.ended and summary.last_best.score == 12 and len(best) == 3 and len(current) == 3
    assert peak < 2_000_000, peak  # the events as dicts would take well over 10 MB


def test_bytes_that_are_not_utf8_in_events_are_skipped_like_a_torn_line(tmp_path):
    from e2opt.engine.events import EVENTS, read_events

    (tmp_path / EVENTS).write_bytes(
        b'{"event":"start"}\n{"event":"best","score":\xff\xfe}\n{"event":"end"}\n'
    )
    assert [e["event"] for e in read_events(tmp_path)] == ["start", "end"]
