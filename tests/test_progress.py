"""Progress output: live line on a terminal, plain lines otherwise, nothing when quiet."""

from __future__ import annotations

import io

from conftest import SET1

from e2opt.engine.loader import config_from_dict
from e2opt.engine.progress import Progress, format_clock


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def config(**stop):
    data = {"instance": str(SET1 / "set1_03x03.txt"), "stop": stop, "output": {"log_every_s": 1e-9}}
    return config_from_dict(data, "<test>")


INFO = {
    "wall_s": 65.0,
    "cpu_s": 30.0,
    "iteration": 1000,
    "best_score": 10,
    "score": 9,
    "diversifications": 2,
    "intensifications": 1,
}


def test_format_clock():
    assert [format_clock(s) for s in (0, 59.9, 61, 3600 + 62)] == ["0:00:00", "0:00:59", "0:01:01", "1:01:02"]


def test_plain_lines_when_not_a_terminal_show_budget_scores_and_plateaus():
    out = io.StringIO()
    progress = Progress(config(max_wall_s=125), 12, quiet=False, stream=out)
    progress.update(INFO)
    progress.update({**INFO, "wall_s": 66.0, "iteration": 3000})
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and "\r" not in out.getvalue()
    assert lines[0].startswith("0:01:05 / 0:01:00 left  best 10/12  current 9")
    assert "plateaus 3" in lines[0]
    assert "2,000 moves/s" in lines[1]  # 2000 moves in one second


def test_cpu_budget_is_shown_when_there_is_no_wall_budget():
    out = io.StringIO()
    Progress(config(max_cpu_s=100), 12, quiet=False, stream=out).update(INFO)
    assert "0:01:10 CPU left" in out.getvalue()


def test_live_line_on_a_terminal_is_rewritten_and_closed():
    out = FakeTerminal()
    progress = Progress(config(), 12, quiet=False, stream=out)
    progress.update(INFO)
    progress.message("construction (random): 5/12")
    text = out.getvalue()
    assert text.startswith("\r0:01:05  best 10/12") and "\x1b[K\nconstruction" in text


def test_quiet_prints_nothing():
    out = io.StringIO()
    progress = Progress(config(max_wall_s=10), 12, quiet=True, stream=out)
    progress.update(INFO)
    progress.message("hello")
    progress.close()
    assert out.getvalue() == ""
