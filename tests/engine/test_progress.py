"""Progress output: a block redrawn in place on a terminal, plain lines otherwise, nothing when quiet (the
figures: tests/engine/test_liveview.py)."""

from __future__ import annotations

import io

from conftest import SET1
from helpers import plain

from e2opt.engine.loader import config_from_dict
from e2opt.engine.progress import Progress, format_clock


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def config(**stop):
    data = {"instance": str(SET1 / "set1_03x03.txt"), "stop": stop, "output": {"log_every_wall_s": 1e-9}}
    return config_from_dict(plain(data), "<test>")


def test_format_clock():
    assert [format_clock(s) for s in (0, 59.9, 61, 3600 + 62)] == ["0:00:00", "0:00:59", "0:01:01", "1:01:02"]


def test_plain_lines_when_not_a_terminal():
    out = io.StringIO()
    progress = Progress(config(max_wall_s=125), quiet=False, stream=out)
    progress.show(["head", "  worker 0 x"])
    progress.message("construction (random): 5/12")
    progress.show(["head", "  worker 0 y"])
    assert out.getvalue() == "head\n  worker 0 x\nconstruction (random): 5/12\nhead\n  worker 0 y\n"
    assert progress.every == 1e-9  # output.log_every_wall_s


def test_the_block_on_a_terminal_is_redrawn_over_itself():
    out = FakeTerminal()
    progress = Progress(config(), quiet=False, stream=out)
    progress.show(["head", "  worker 0 x"])
    progress.show(["head"])
    assert out.getvalue() == "head\x1b[K\n  worker 0 x\x1b[K\n\x1b[2Fhead\x1b[K\n\x1b[J"
    assert progress.every == 0.5  # output.progress_every_wall_s


def test_quiet_prints_nothing():
    out = io.StringIO()
    progress = Progress(config(max_wall_s=10), quiet=True, stream=out)
    progress.show(["head"])
    progress.message("hello")
    progress.close()
    assert out.getvalue() == ""
