"""The live view (issue 33): one line per worker under the run's best, redrawn in place on a terminal, plain
lines when piped; every figure equals a recount from events.jsonl."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from conftest import SET1
from helpers import plain, plain_yaml
from test_roles import config_file as roles_config

from e2opt.engine.eventkinds import Construction, Start, Stats
from e2opt.engine.events import EventLog, read_events
from e2opt.engine.liveview import LiveView
from e2opt.engine.loader import config_from_dict, load_config
from e2opt.engine.progress import Progress, format_clock
from e2opt.engine.run import run_config

ESCAPE = re.compile(r"\x1b\[(\d*)([A-Za-z])|\n|\r|[^\x1b\n\r]+")


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def screen(text: str) -> list[str]:
    """What a terminal shows after ``text``: the cursor moves and erasures progress.py uses, applied."""
    lines, row, col = [""], 0, 0
    for match in ESCAPE.finditer(text):
        token, count, code = match.group(0), match.group(1), match.group(2)
        if token == "\n":
            row, col = row + 1, 0
            lines += [""] * (row + 1 - len(lines))
        elif token == "\r":
            col = 0
        elif code == "F":
            row, col = max(0, row - int(count or 1)), 0
        elif code == "K":
            lines[row] = lines[row][:col]
        elif code == "J":
            lines[row] = lines[row][:col]
            del lines[row + 1 :]
        elif code is None:
            lines[row] = lines[row][:col] + token + lines[row][col + len(token) :]
            col += len(token)
    return [line for line in lines if line]


def recount(run_dir: Path) -> tuple[int | None, list[dict]]:
    """The run's best and each worker's figures, counted here from events.jsonl (not by liveview.py)."""
    events = list(read_events(run_dir))
    plan = next(e for e in events if e["event"] == "workers")
    stats = [e for e in events if e["event"] == "stats"]
    best = max((e["score"] for e in events if e["event"] in ("best", "live_best")), default=None)
    workers = []
    for i, role in enumerate(plan["roles"]):
        mine = [e for e in events if e.get("worker") == i]
        points = [
            (s["wall_s"], w["iteration"], w["score"]) for s in stats for w in s["workers"] if w["worker"] == i
        ]
        rate = None
        last = [w for s in stats for w in s["workers"] if w["worker"] == i][-1:]
        if last and last[0].get("moves_per_s") is not None:  # the last interval's rate (issue 48)
            rate = last[0]["moves_per_s"]
        elif len(points) >= 2 and points[-1][0] > points[-2][0]:
            rate = (points[-1][1] - points[-2][1]) / (points[-1][0] - points[-2][0])
        produced = [e["score"] for e in mine if e["event"] == "produced"]
        built = [e["score"] for e in mine if e["event"] == "construction"]  # the score until the first stats
        workers.append(
            {
                "role": {"worker": "searcher"}.get(role, role),
                "score": points[-1][2] if points else built[-1] if built else None,
                "best": max(
                    (e["score"] for e in mine if e["event"] in ("best", "worker_best", "live_best")),
                    default=None,
                ),
                "rate": rate,
                "produced": len(produced),
                "produced_best": max(produced, default=None),
                "repaired": sum(e["event"] == "repaired" for e in mine),
            }
        )
    return best, workers


def shown(number: str) -> int | None:
    return None if number == "-" else int(number.replace(",", ""))


def check_block(block: list[str], run_dir: Path) -> None:
    """Every figure of the view's last block equals the recount from the run's events.jsonl."""
    best, workers = recount(run_dir)
    assert re.search(r" best (\S+)/", block[0]).group(1) == ("-" if best is None else str(best))
    assert len(block) == 1 + len(workers)
    for i, (line, want) in enumerate(zip(block[1:], workers, strict=True)):
        assert line.split()[:3] == ["worker", str(i), want["role"]]
        if want["role"] == "producer":
            assert f"produced {want['produced']}" in line
            if want["produced_best"] is not None:
                assert f"(best {want['produced_best']})" in line
            continue
        figures = re.search(r"score (\S+)  best (\S+)  (\S+) moves/s", line)
        assert shown(figures.group(1)) == want["score"] and shown(figures.group(2)) == want["best"]
        rate = figures.group(3)
        assert (rate == "-") if want["rate"] is None else rate == f"{want['rate']:,.0f}"
        if want["role"] == "repairer":
            assert line.endswith(f"repaired {want['repaired']}")


def last_block(lines: list[str]) -> list[str]:
    start = max(i for i, line in enumerate(lines) if " elapsed" in line and " best " in line)
    return [lines[start]] + [line for line in lines[start + 1 :] if line.startswith("  worker ")]


def test_piped_view_of_a_pipeline_run_matches_a_recount_from_events(tmp_path, capsys):
    cfg = load_config(
        roles_config(
            tmp_path,
            stop={"max_iterations": 6000},
            output={"log_every_wall_s": 0.2, "stats_every_wall_s": 0.2},
        )
    )
    result = run_config(cfg, quiet=False)
    out = capsys.readouterr().out
    assert "\x1b[" not in out  # plain lines when piped
    lines = out.splitlines()
    assert (
        sum(" elapsed" in line for line in lines) >= 2
    )  # a block at every log_every_wall_s, and one at the end
    block = last_block(lines)
    check_block(block, Path(result.run_dir))
    assert "repairer" in block[1] and "producer" in block[2]
    assert "produced 0" not in block[2]  # the producer's boards are counted


def test_terminal_view_redraws_in_place(tmp_path, hard_config, monkeypatch):
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    result = run_config(load_config(hard_config), quiet=False)
    text = terminal.getvalue()
    assert "\x1b[2F" in text  # cursor up over the block (header + one worker), then redrawn
    final = screen(text)
    assert sum("constructing (beam)" in line for line in text.split("\x1b[2F")) > 3  # redrawn while it built
    assert not any("constructing" in line for line in final)  # not left as copies on the screen
    assert sum(line.startswith("construction (beam)") for line in final) == 1
    block = [line for line in final if " elapsed" in line or line.startswith("  worker ")]
    assert len(block) == 2
    check_block(block, Path(result.run_dir))


def test_messages_go_above_the_block_and_a_closed_terminal_silences_it():
    cfg = config_from_dict(plain({"instance": str(SET1 / "set1_03x03.txt")}), "<test>")
    terminal = FakeTerminal()
    progress = Progress(cfg, quiet=False, stream=terminal)
    progress.show(["head", "  worker 0 a"])
    progress.message("hello")
    progress.show(["head 2", "  worker 0 b"])
    assert screen(terminal.getvalue()) == ["hello", "head 2", "  worker 0 b"]
    terminal.close()
    progress.show(["head 3"])  # a closed output: progress goes quiet, the run goes on
    assert progress.quiet


def test_the_fold_resets_rates_at_a_resume_and_shows_the_budget(tmp_path):
    cfg = config_from_dict(
        plain({"instance": str(SET1 / "set1_03x03.txt"), "stop": {"max_wall_s": 100}}), "<test>"
    )
    log = EventLog(tmp_path)
    log.write(Start(max_score=12, workers=1))
    log.write(Construction(worker=0, method="random", score=5, wall_s=1.0))
    log.write(
        Stats(wall_s=3.0, cpu_s=2.0, moves_per_s=50.0, workers=[{"worker": 0, "score": 7, "iteration": 100}])
    )
    log.write(
        Stats(wall_s=5.0, cpu_s=4.0, moves_per_s=75.0, workers=[{"worker": 0, "score": 8, "iteration": 250}])
    )
    log.close()
    view = LiveView(EventLog(tmp_path), Progress(cfg, quiet=True), cfg)  # replays the log
    lines = view.lines(40.0)
    assert lines[0] == f"0:00:40 elapsed / {format_clock(60)} left  best -/12  75 moves/s"
    assert lines[1] == "  worker 0 searcher  score 8  best -  75 moves/s"
    view.see({"event": "resume", "iteration": 250, "wall_s": 4.0})
    assert "- moves/s" in view.lines(41.0)[1]  # no rate across a resume


@pytest.fixture
def hard_config(tmp_path: Path) -> Path:
    """A one-worker run whose beam construction takes a second (many redraws meanwhile)."""
    data = {
        "instance": str(SET1 / "set1_06x06.txt"),
        "seed": 1,
        "construct": {"method": "beam", "beam": {"width": 64, "time_limit_cpu_s": 1.0}},
        "search": {"moves": {"assignment": {"holes": 6}}},
        "stop": {"max_iterations": 2000},
        "run": {"workers": 1},
        "output": {"runs_dir": str(tmp_path / "runs"), "plots": False, "progress_every_wall_s": 0.05},
    }
    path = tmp_path / "run.yaml"
    path.write_text(plain_yaml(data))
    return path
