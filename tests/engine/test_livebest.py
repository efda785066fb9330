"""A new best in the live view before its round answers (engine/livebest.py): at every refresh of a scripted
run the view's figures are the fold of events.jsonl as it stands, and its best is never older than a few
seconds although each round lasts six."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from conftest import ROOT
from helpers import plain_yaml

from e2opt.engine import coordinator, liveview
from e2opt.engine.eventkinds import Best, LiveBest
from e2opt.engine.events import EventLog, read_typed
from e2opt.engine.livebest import BestNotice, LiveBests, clear, live_path
from e2opt.engine.liveview import RunFigures
from e2opt.engine.loader import load_config
from e2opt.engine.run import run_config

ROUND_S = 6.0  # each round this long: without the side channel a best waits up to this for its answer
SLACK_S = 2.5  # a best shown at most this late (one refresh is 0.2 s here; the rest: a loaded machine)


def scripted(tmp_path: Path) -> Path:
    """Two searchers on a 16x16 puzzle from random boards: new bests come for seconds."""
    data = {
        "instance": str(ROOT / "instances/meta2010_16x16.txt"),
        "seed": 1,
        "construct": {"method": "random"},
        "search": {"moves": {"assignment": {"holes": 16}}},
        "stop": {"max_wall_s": 15},
        "run": {"workers": 2, "roles": {"producers": 0}, "share_every_wall_s": 30},
        "output": {
            "runs_dir": str(tmp_path / "runs"),
            "plots": False,
            "log_every_wall_s": 0.2,
            "stats_every_wall_s": 1,
        },
    }
    path = tmp_path / "run.yaml"
    path.write_text(plain_yaml(data))
    return path


@pytest.mark.slow
def test_the_view_shows_each_new_best_before_its_round_answers(tmp_path, monkeypatch, capsys):
    refreshes: list[tuple[float, int | None]] = []
    logs: list[EventLog] = []
    mismatches: list[str] = []
    lines, init, coordinate = (
        liveview.LiveView.lines,
        liveview.LiveView.__init__,
        coordinator.Coordinator.__init__,
    )

    def keep_log(self, events, progress, cfg):
        logs.append(events)
        init(self, events, progress, cfg)

    def long_rounds(self, *args, **kwargs):
        coordinate(self, *args, **kwargs)
        self.round_s = ROUND_S

    def checked(self, wall_s):
        """At each refresh: the figures against a fold of the events file, no event written in between."""
        with logs[-1].lock, self.lock:
            figures = copy.deepcopy(self.figures)
            fold = RunFigures()
            for event in read_typed(logs[-1].path.parent):
                fold.see(event)
        if fold != figures:
            mismatches.append(f"{wall_s:.2f}: view {figures} != events {fold}")
        refreshes.append((wall_s, figures.best))
        return lines(self, wall_s)

    monkeypatch.setattr(liveview.LiveView, "__init__", keep_log)
    monkeypatch.setattr(liveview.LiveView, "lines", checked)
    monkeypatch.setattr(coordinator.Coordinator, "__init__", long_rounds)
    result = run_config(load_config(scripted(tmp_path)), quiet=False)
    capsys.readouterr()
    run_dir = Path(result.run_dir)
    events = list(read_typed(run_dir))
    assert not mismatches, mismatches[:3]
    assert len(refreshes) > 10
    found = [(e.wall_s, e.score) for e in events if isinstance(e, Best) and e.kind == "best"]
    late = [
        (at, shown, score)
        for at, shown in refreshes
        for when, score in found
        if when <= at - SLACK_S and (shown is None or shown < score)
    ]
    assert not late, f"refresh at {late[0][0]:.2f} s showed {late[0][1]}, {late[0][2]} found before"
    # each live_best came before its answer's event (a best, or a worker_best when another worker's answer
    # had raised the run's best meanwhile)
    order = [(e.kind == "live_best", e.worker, e.score) for e in events if isinstance(e, Best | LiveBest)]
    early = [(w, s) for live, w, s in order if live]
    assert early and all(order.index((False, w, s)) > order.index((True, w, s)) for w, s in early)
    assert not list(run_dir.glob(".live-best*"))  # the side channel leaves nothing in the folder


def test_a_file_is_shown_only_for_the_round_in_flight_that_wrote_it(tmp_path):
    log = EventLog(tmp_path)
    live = LiveBests(tmp_path, log, lambda: 40)
    BestNotice(str(live_path(tmp_path, 0)), "old").offer({"event": "best", "score": 50, "wall_s": 1.23456})
    live.tokens[0] = "new"
    live.poll()  # a file of another round (a lost copy, a killed run): not shown
    BestNotice(str(live_path(tmp_path, 0)), "new").offer({"event": "best", "score": 39, "wall_s": 2.0})
    live.poll()  # not above the run's best
    BestNotice(str(live_path(tmp_path, 0)), "new").offer({"event": "best", "score": 51, "wall_s": 2.34567})
    live.poll()
    live.poll()  # read again, written once
    log.close()
    lines = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert lines == [{"event": "live_best", "wall_s": 2.346, "worker": 0, "score": 51}]
    BestNotice(None, "x").offer({"score": 60})  # a quiet run writes nothing
    clear(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["events.jsonl"]
