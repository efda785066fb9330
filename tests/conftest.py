"""Shared test helpers: where the shipped instances are, a tiny hand-checked puzzle, the CLI runner."""

from __future__ import annotations

import contextlib
import io
import signal
import subprocess
import sys
from pathlib import Path

import pytest

# The tests stand for a terminal's job: when they run as a background job (SIGINT ignored, as a shell starts
# `cmd &`), Ctrl-C is given back to this process, since e2opt keeps a signal left ignored (tests that send
# SIGINT to a sweep running in this process need it)
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parents[1]
INSTANCES = ROOT / "instances"
BOARDS = INSTANCES / "boards"
SET1 = INSTANCES / "brendan_set1"

# A valid 3x3 puzzle (line numbers matter to the error tests: header on line 1, piece p on line p + 2)
# and its perfect board. Pieces 0, 1, 5, 8 are corners, 2, 3, 4, 6 edges, 7 the inner piece.
TINY_PUZZLE = """3 3
1 0 0 1
2 0 0 2
3 1 0 2
1 3 2 0
1 4 2 0
0 0 2 1
2 4 1 0
3 4 3 4
2 0 0 1
"""
TINY_BOARD = """3 3
5:3 3:1 0:3
4:0 7:2 6:2
1:1 2:0 8:0
"""


WARM_UP = (  # e2opt warm-up's registries in two processes of about the same compile time (~20 CPU s each)
    "from e2opt.cli.warmup import registries; [warm() for _, warm in registries()[:2]]",
    "from e2opt.cli.warmup import registries; [warm() for _, warm in registries()[2:]]",
)


def pytest_configure(config: pytest.Config) -> None:
    """Compile every numba kernel once before the first test when pytest-xdist runs the tests (in the one
    process that starts its workers): with a cold cache (a fresh clone, CI) each test process and each run it
    started compiled the same kernels itself, ~115 of the suite's ~850 CPU s; the warm-up costs ~36, ~3 when
    the cache is warm. A run in one process (a file, the suite-time smoke) compiles only what its tests meet."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return  # one test process compiles each kernel once anyway: the first test that needs it writes the cache
    procs = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT) for code in WARM_UP]
    if any([proc.wait() for proc in procs]):  # both waited for, even when the first failed
        raise pytest.UsageError("the numba warm-up before the tests failed (its error is above)")


def e2opt(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Run ``python -m e2opt ARGS`` in a subprocess and capture its output as text."""
    return subprocess.run(
        [sys.executable, "-m", "e2opt", *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def e2opt_here(*args: str) -> subprocess.CompletedProcess:
    """``e2opt ARGS`` run in this process, its output captured, as ``e2opt`` gives it: for what a command says
    and returns before it starts any work (a subprocess cost ~0.8 CPU s of imports); a test of signals,
    pipes or processes uses ``e2opt``."""
    from e2opt.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(map(str, args)))
        except SystemExit as exc:  # argparse's mistakes
            code = exc.code
    return subprocess.CompletedProcess(["e2opt", *args], code, out.getvalue(), err.getvalue())


def puzzle_for_board(board_path: Path) -> Path:
    """The instance file a shipped .board file belongs to."""
    if board_path.parent.name == "solutions":
        return SET1 / f"{board_path.stem}.txt"
    for stem in ("clue1_6x6", "clue2_6x12"):
        if board_path.name.startswith(stem):
            return INSTANCES / f"{stem}.txt"
    return INSTANCES / "eternity2.txt"


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, Path]:
    """The tiny puzzle and its perfect board written to tmp_path."""
    puzzle, board = tmp_path / "tiny.txt", tmp_path / "tiny.board"
    puzzle.write_text(TINY_PUZZLE)
    board.write_text(TINY_BOARD)
    return puzzle, board


def default_signals() -> None:
    """In a child (``preexec_fn``): Ctrl-C, SIGTERM and a hang-up as in a terminal, even when the tests run
    with them ignored (a background job ignores SIGINT, nohup SIGHUP): e2opt keeps a signal left ignored."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def solve_process(*args: str, group: bool = False) -> subprocess.Popen:
    """``e2opt solve ARGS`` running in the background (stdout and stderr piped), signals at their defaults;
    ``group``: in its own process group, as a terminal job, so a signal can reach it and its workers."""
    return subprocess.Popen(
        [sys.executable, "-m", "e2opt", "solve", *map(str, args)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=group,
        preexec_fn=default_signals,
    )


@pytest.fixture(autouse=True)
def _translation_lines_said_anew() -> None:
    """Each test sees the one line about older settings (a process says it once per set of keys)."""
    from e2opt.config import translate

    translate._SAID.clear()
