"""Helpers shared by tests in several folders: the one-error-line check, the tiny puzzle's malformed
variants, a finished-looking run folder written by hand, a command's worker processes, a run config
written from a base and overrides, and the plain run most tests write (``PLAIN``, ``plain``)."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import yaml
from conftest import TINY_BOARD, TINY_PUZZLE

from e2opt.config.schema import set_dotted
from e2opt.config.translate import OLD_DEFAULTS
from e2opt.engine.loader import config_from_dict
from e2opt.engine.runfolder import mark
from e2opt.search.config import ScheduleConfig, SearchConfig
from e2opt.search.moves import assignment_alone

# The plain run: a random start (one beam when a test asks for a beam), one worker restarted fresh, Algorithm
# 1's move alone, no wall limit: the code's defaults before they became the pipeline of config/eternity2.yaml,
# as old run folders read them (translate.OLD_DEFAULTS). The tests that run a search or read its settings
# write it under their own keys, so that they stay small, fast and about one thing.
PLAIN: dict = {}
for _key, _value in OLD_DEFAULTS:
    set_dotted(PLAIN, _key, copy.deepcopy(_value))


def plain(data: dict, base: dict | None = None) -> dict:
    """``data`` merged over ``PLAIN``, section by section (its keys win; a ``moves`` section of its own
    replaces PLAIN's, as a file's replaces the default mix)."""
    out = copy.deepcopy(PLAIN if base is None else base)
    for key, value in data.items():
        mergeable = isinstance(value, dict) and isinstance(out.get(key), dict) and key != "moves"
        out[key] = plain(value, out[key]) if mergeable else copy.deepcopy(value)
    return out


def plain_search(**settings: Any) -> SearchConfig:
    """``SearchConfig.of(**settings)`` over the plain search: Algorithm 1's move alone, the adaptive schedule."""
    return SearchConfig.of(
        **{"moves": assignment_alone(), "schedule": ScheduleConfig(kind="adaptive"), **settings}
    )


def plain_yaml(data: dict) -> str:
    """The YAML text of ``plain(data)``."""
    return yaml.safe_dump(plain(data))


def one_error_line(proc, *parts: str) -> str:
    """The one ``e2opt: error:`` line of a command that exited 2; it holds every one of ``parts``."""
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("e2opt: error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    assert all(part in lines[0] for part in parts), lines[0]
    return lines[0]


def lines_with(replace: dict[int, str] | None = None, extra: str = "", drop: int | None = None) -> str:
    """TINY_PUZZLE with some lines (1-based) replaced or dropped and extra text appended."""
    lines = TINY_PUZZLE.splitlines()
    for no, text in (replace or {}).items():
        lines[no - 1] = text
    if drop is not None:
        del lines[drop - 1]
    return "\n".join(lines) + "\n" + extra


# (case, file text, line the message must name, words the message must contain)
MALFORMED = [
    ("empty file", "", 1, "missing header"),
    ("header with four numbers", lines_with({1: "3 3 3 3"}), 1, "bad header"),  # three: Dave Clark's format
    ("header not a number", lines_with({1: "3 x"}), 1, "'x' is not a non-negative integer"),
    ("too few pieces", lines_with(drop=10), 9, "wrong number of pieces"),
    ("too many pieces", lines_with(extra="3 4 3 4\n"), 11, "wrong number of pieces"),
    ("negative colour", lines_with({5: "1 3 -2 0"}), 5, "'-2' is not a non-negative integer"),
    ("word for colour", lines_with({5: "1 3 blue 0"}), 5, "'blue' is not a non-negative integer"),
    ("unicode digit in the header", lines_with({1: "3 ³"}), 1, "'³' is not a non-negative integer"),
    ("unicode digit for colour", lines_with({5: "1 3 ² 0"}), 5, "'²' is not a non-negative integer"),
    ("unicode digit in a hint", lines_with(extra="hint 7 1 1 ²\n"), 11, "'²' is not a non-negative integer"),
    ("three colours on a line", lines_with({5: "1 3 2"}), 5, "4 colours"),
    ("five colours on a line", lines_with({5: "1 3 2 0 7"}), 5, "4 colours"),
    ("grey on opposite sides", lines_with({9: "0 4 0 4"}), 9, "grey on opposite sides"),
    ("grey on three sides", lines_with({9: "0 0 0 4"}), 9, "grey on 3 sides"),
    ("grey on four sides", lines_with({9: "0 0 0 0"}), 9, "grey on 4 sides"),
    ("an edge piece too many", lines_with({9: "3 4 3 0"}), 9, "wrong number of edge pieces"),
    ("a corner too many", lines_with({6: "1 4 0 0"}), 10, "wrong number of corner pieces"),
    ("hint line too short", lines_with(extra="hint 7 1 1\n"), 11, "hint line needs"),
    ("hint names a missing piece", lines_with(extra="hint 9 1 1 0\n"), 11, "hint names piece 9"),
    ("hint cell off the board", lines_with(extra="hint 7 3 1 0\n"), 11, "off the 3x3 board"),
    ("hint rotation above 3", lines_with(extra="hint 7 1 1 4\n"), 11, "rotation 4 is not 0..3"),
    ("hint cell of the wrong kind", lines_with(extra="hint 7 0 0 0\n"), 11, "inner piece 7 on corner cell"),
    ("hint turns grey inward", lines_with(extra="hint 8 2 2 1\n"), 11, "does not turn grey toward the rim"),
    (
        "two hints on one cell",
        lines_with(extra="hint 8 2 2 0\nhint 1 2 2 0\n"),
        12,
        "two hints on cell (2,2)",
    ),
    (
        "one piece hinted twice",
        lines_with(extra="hint 8 2 2 0\nhint 8 0 2 3\n"),
        12,
        "piece 8 is hinted twice",
    ),
    ("piece after a hint", lines_with(extra="hint 7 1 1 2\n3 4 3 4\n"), 12, "piece line after a hint"),
]


EVENTS = [
    {"event": "start", "instance": "tiny", "seed": 0, "max_score": 12},
    {"event": "construction", "score": 5, "wall_s": 0.1},
    {"event": "best", "score": 9, "wall_s": 0.5, "iteration": 40},
    {"event": "diversify", "score": 7, "wall_s": 0.6, "diversifications": 1},
    {"event": "stats", "score": 8, "wall_s": 1.0, "cpu_s": 0.9, "iteration": 90, "moves_per_s": 100.0},
    {"event": "checkpoint", "iteration": 90, "wall_s": 1.0},
    {"event": "best", "score": 12, "wall_s": 1.5, "iteration": 120},
    {
        "event": "end",
        "stop_reason": "target_score (12)",
        "wall_s": 1.6,
        "cpu_s": 1.4,
        "iterations": 121,
        "moves_per_s": 86.4,
    },
]


def make_run(tmp_path: Path, events: list[dict], result: str | None) -> Path:
    """A finished-looking run folder of the tiny puzzle, written by hand (no search needed)."""
    puzzle = tmp_path / "tiny.txt"
    puzzle.write_text(TINY_PUZZLE)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    mark(run_dir, "run")
    (run_dir / "config.yaml").write_text(
        config_from_dict(plain({"instance": str(puzzle)}), "<test>").to_yaml()
    )
    (run_dir / "best.board").write_text(TINY_BOARD)
    (run_dir / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    if result is not None:
        (run_dir / "result.json").write_text(result)
    return run_dir


def compiled_kernels() -> dict[str, int]:
    """Signatures compiled so far of every numba kernel of the package (a warm-up test compares two counts)."""
    from numba.core.registry import CPUDispatcher

    return {
        f"{name}.{key}": len(value.signatures)
        for name, module in list(sys.modules.items())
        if name.startswith("e2opt.")
        for key, value in vars(module).items()
        if isinstance(value, CPUDispatcher)
    }


def worker_processes(parent: int) -> list[int]:
    """The pids of ``parent``'s worker processes, from /proc: the children of its forkserver (the child that
    runs multiprocessing.forkserver; the workers, forked from it, show its command line too)."""
    table = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            table[int(stat.parent.name)] = (
                ppid,
                b"multiprocessing.forkserver" in (stat.parent / "cmdline").read_bytes(),
            )
        except (OSError, ValueError, IndexError):
            continue
    servers = {pid for pid, (ppid, server) in table.items() if ppid == parent and server}
    return sorted(pid for pid, (ppid, _) in table.items() if ppid in servers)


def write_run_yaml(tmp_path: Path, data: dict, sections: dict) -> Path:
    """``tmp_path/run.yaml``: the plain config ``data`` with each of ``sections`` merged into its section."""
    for key, value in sections.items():
        data.setdefault(key, {}).update(value)
    path = tmp_path / "run.yaml"
    path.write_text(plain_yaml(data))
    return path
