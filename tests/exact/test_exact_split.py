"""``e2opt solve --method scan --workers N``: the split tree adds up to the one-process tree exactly."""

from __future__ import annotations

import io
import json
import os
import signal
import time
from contextlib import contextmanager

import numpy as np
import pytest
from conftest import SET1, solve_process
from helpers import worker_processes

from e2opt.core.board import format_board
from e2opt.core.errors import E2optError
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import Hint, Puzzle
from e2opt.core.verify import verify_files
from e2opt.exact import scan_kernel as k
from e2opt.exact.scan import Walk, build_parts
from e2opt.exact.solve import checked, options, solve
from e2opt.exact.split import Tally, prefixes, split_depth


def run(puzzle: Puzzle, **kw):
    kw.setdefault("find_all", True)
    return solve(puzzle, options("scan", **kw), progress=None)


def hinted() -> Puzzle:
    """A generated 4x4 with one inner piece of its planted board fixed: no symmetry, one hint."""
    base, planted = generate(4, 4, 2, 3, 5)
    hint = Hint(int(planted.piece[1, 2]), 1, 2, int(planted.rot[1, 2]))
    return Puzzle(4, 4, base.pieces, (hint,), "hinted")


def whole(walk: Walk) -> tuple[int, int, int]:
    """Run a walk to its end: (nodes, backtracks, leaves)."""
    while walk.step(1 << 40) != k.EXHAUSTED:
        pass
    return walk.nodes, walk.backtracks, walk.leaves


@pytest.mark.parametrize(
    ("puzzle", "symmetry"),
    [
        (read_puzzle(SET1 / "set1_04x05.txt"), True),
        (read_puzzle(SET1 / "set1_05x05.txt"), True),
        (read_puzzle(SET1 / "set1_03x05.txt"), False),
        (hinted(), True),
    ],
    ids=["4x5", "5x5", "3x5-no-symmetry", "hinted"],
)
@pytest.mark.parametrize("order", ["short", "spiral"])
def test_subtrees_below_every_split_depth_add_up_to_the_whole_tree(puzzle, symmetry, order):
    for part in build_parts(puzzle, order, symmetry):
        full = whole(Walk(part, *part.start_board()))
        m = part.order.depth
        for depth in sorted({0, 1, 2, m // 2, m - 1} & set(range(m))):
            found, walk = prefixes(part, depth)
            total = np.array([walk.nodes, walk.backtracks, 0])
            for prefix in found:
                codes, used = part.start_board()
                codes[part.order.cells[:depth]] = prefix
                used[prefix >> 2] = 1
                total += whole(Walk(part, codes, used, depth))
            assert tuple(total) == full, depth
            assert walk.leaves == len(found)


def test_split_depth_is_the_shallowest_with_enough_partial_boards():
    part = build_parts(read_puzzle(SET1 / "set1_05x05.txt"), "short", True)[0]
    depth = split_depth(part, 50)
    assert len(prefixes(part, depth)[0]) >= 50 > len(prefixes(part, depth - 1)[0])
    assert split_depth(part, 10**9) == part.order.depth - 1


def test_two_workers_count_the_same_tree_as_one():
    puzzle = read_puzzle(SET1 / "set1_04x05.txt")
    one = run(puzzle, keep_boards=False)
    two = run(puzzle, keep_boards=False, workers=2)
    assert one.complete and two.complete and two.solutions == one.solutions == 1952
    assert (two.nodes, two.backtracks) == (one.nodes, one.backtracks)


def test_workers_return_every_board_of_the_puzzle_verified(tmp_path):
    puzzle = read_puzzle(SET1 / "set1_05x05.txt")
    one = run(puzzle)
    boards = []
    three = solve(puzzle, options("scan", find_all=True, workers=3), boards.append, progress=None)
    assert three.complete and len(boards) == three.solutions == one.solutions == 16
    assert sorted(map(format_board, boards)) == sorted(map(format_board, one.boards))
    first = run(puzzle, find_all=False, workers=2, value_order="random", seed=3)
    assert first.stopped == "first solution" and not first.complete and len(first.boards) == 1
    (tmp_path / "p.txt").write_text((SET1 / "set1_05x05.txt").read_text())
    (tmp_path / "b.board").write_text(format_board(first.boards[0]))
    assert verify_files(tmp_path / "p.txt", tmp_path / "b.board").score == puzzle.max_score


def test_a_split_search_stopped_by_the_limit_counts_every_process_and_is_incomplete():
    result = run(read_puzzle(SET1 / "set1_08x08.txt"), keep_boards=False, workers=2, time_limit_s=3.0)
    assert result.stopped == "time limit" and not result.complete
    assert result.cpu_s >= 3.0 and result.nodes > 0 and "search incomplete" in result.summary()


@pytest.mark.parametrize(
    "opts",
    [
        dict(method="scan", workers=0),
        dict(method="colorpairs", workers=2),
        dict(method="scan", workers=2, restarts=3, value_order="random"),
        dict(method="colorpairs", checkpoint="c.json"),
        dict(method="scan", find_all=True, checkpoint="c.json"),  # every board kept: not resumable
        dict(method="scan", restarts=3, value_order="random", checkpoint="c.json"),
    ],
)
def test_bad_worker_options_are_user_errors(opts):
    with pytest.raises(E2optError, match=r"--workers|--checkpoint|takes no"):
        checked(options(**opts))


def group_process(*args: str):
    """``e2opt solve ARGS`` in its own process group (as a terminal job), with SIGINT at its default."""
    return solve_process(*args, group=True)


@contextmanager
def checkpointed_count(path):
    """A 2-worker count of set1 5x8 with a checkpoint, in its own process group: yields the process and
    the subtrees finished by its first progress line ("solve: 2 s CPU, ..., 37/1234 subtrees searched");
    the whole group is killed at the end, whatever happened."""
    proc = group_process(
        SET1 / "set1_05x08.txt", "--method", "scan", "--count", "--workers", "2", "--checkpoint", path,
        "--progress-every-s", "2",
    )  # fmt: skip
    try:
        line = proc.stderr.readline()
        yield proc, int(line.split(" subtrees searched")[0].rsplit(" ", 1)[1].split("/")[0])
    finally:
        os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.slow
def test_ctrl_c_stops_every_worker_and_exits_130():
    proc = group_process(
        str(SET1 / "set1_08x08.txt"), "--method", "scan", "--count", "--workers", "2", "--max-cpu-s", "120",
        "--progress-every-s", "0.5",
    )  # fmt: skip
    try:
        assert proc.stderr.readline().startswith("solve: ")  # the workers are running (first progress line)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
        out, err = proc.communicate(timeout=60)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # nothing of a failed test keeps running
    assert proc.returncode == 130, err
    assert out.splitlines()[-1].startswith("interrupted (Ctrl-C, SIGTERM or SIGHUP) after ")
    assert "search incomplete" in out and "Traceback" not in err


@pytest.mark.slow
def test_workers_of_a_killed_solve_stop_too():
    proc = group_process(
        str(SET1 / "set1_08x08.txt"), "--method", "scan", "--count", "--workers", "2", "--max-cpu-s", "120",
        "--progress-every-s", "0.5",
    )  # fmt: skip
    try:
        assert proc.stderr.readline().startswith("solve: ")
        workers = worker_processes(proc.pid)
        assert len(workers) == 2
        os.kill(proc.pid, signal.SIGKILL)  # the parent only, as an out-of-memory kill would
        proc.wait(timeout=10)
        deadline = time.monotonic() + 30
        while any(os.path.exists(f"/proc/{w}") and "Z" not in _state(w) for w in workers):
            assert time.monotonic() < deadline, "orphaned workers still running"
            time.sleep(0.2)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)


def _subtrees_done(path) -> int:
    return sum(b - a + 1 for a, b in json.loads(path.read_text())["done"])


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_the_group_saves_the_checkpoint_and_exits_128_plus_n(tmp_path, sig):
    """SIGTERM as a scheduler or `timeout` stops a job, SIGHUP as a closed terminal does: every process gets
    it; the workers leave it to the parent, which saves and exits 128 + N."""
    path = tmp_path / "count.json"
    with checkpointed_count(path) as (proc, reported):
        os.killpg(proc.pid, sig)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err
    assert (
        out.splitlines()[-1].startswith("interrupted (Ctrl-C, SIGTERM or SIGHUP) after ")
        and "Traceback" not in err
    )
    saved = json.loads(path.read_text())
    assert (
        0 < reported <= _subtrees_done(path) < saved["subtrees"]
    )  # nothing finished before the signal is lost


@pytest.mark.slow
def test_a_dead_worker_is_a_clear_error_and_the_checkpoint_keeps_what_was_finished(tmp_path):
    path = tmp_path / "count.json"
    with checkpointed_count(path) as (proc, reported):
        workers = worker_processes(proc.pid)
        os.kill(workers[0], signal.SIGKILL)  # as an out-of-memory kill of one worker would
        _, err = proc.communicate(timeout=60)
        assert not os.path.exists(f"/proc/{workers[1]}") or "Z" in _state(int(workers[1]))
    assert (
        proc.returncode == 2 and "e2opt: error: a solve worker process died" in err and "Traceback" not in err
    )
    assert 0 < reported <= _subtrees_done(path)


def _state(pid: int) -> str:
    """The process state letter from /proc (Z: zombie, gone as far as work is concerned)."""
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def test_a_count_stopped_early_resumes_from_its_checkpoint_to_the_exact_totals(tmp_path):
    puzzle = read_puzzle(SET1 / "set1_05x05.txt")
    one = run(puzzle, keep_boards=False)
    path = str(tmp_path / "count.json")
    first = run(puzzle, keep_boards=False, workers=2, time_limit_s=0.01, checkpoint=path)
    assert first.stopped == "time limit" and not first.complete
    again = run(puzzle, keep_boards=False, checkpoint=path)  # one worker now: the subtrees stay the same
    assert again.complete and again.solutions == one.solutions == 16
    assert (again.nodes, again.backtracks) == (one.nodes, one.backtracks)
    assert again.cpu_s > first.cpu_s  # the earlier session's CPU is carried over


def test_the_resume_line_counts_solutions_as_the_progress_lines_do(tmp_path):
    """The checkpoint keeps leaves without their turned copies; the resume line shows the full count."""
    puzzle = read_puzzle(SET1 / "set1_05x05.txt")
    path = str(tmp_path / "count.json")
    whole = run(puzzle, keep_boards=False, checkpoint=path)
    assert whole.complete and whole.solutions == 16
    stream = io.StringIO()
    again = solve(puzzle, options("scan", find_all=True, keep_boards=False, checkpoint=path), progress=stream)
    assert again.solutions == 16
    assert "subtrees searched before, 16 solutions," in stream.getvalue()


@pytest.mark.slow
def test_a_long_count_cut_in_two_sessions_adds_up_to_one_run(tmp_path):
    puzzle = read_puzzle(SET1 / "set1_06x07.txt")
    one = run(puzzle, keep_boards=False)
    path = tmp_path / "count.json"
    first = run(puzzle, keep_boards=False, workers=2, time_limit_s=3.0, checkpoint=str(path))
    saved = json.loads(path.read_text())
    done = sum(b - a + 1 for a, b in saved["done"])
    assert not first.complete and 0 < done < saved["subtrees"]
    again = run(puzzle, keep_boards=False, workers=2, checkpoint=str(path))
    assert again.complete and (again.solutions, again.nodes, again.backtracks) == (
        one.solutions,
        one.nodes,
        one.backtracks,
    )


def test_a_checkpoint_of_another_search_or_not_a_checkpoint_is_refused(tmp_path):
    puzzle = read_puzzle(SET1 / "set1_04x04.txt")
    path = str(tmp_path / "c.json")
    run(puzzle, keep_boards=False, checkpoint=path)
    with pytest.raises(E2optError, match="different order"):
        run(puzzle, keep_boards=False, order="spiral", checkpoint=path)
    with pytest.raises(E2optError, match=r"different.*puzzle"):
        run(read_puzzle(SET1 / "set1_03x05.txt"), keep_boards=False, checkpoint=path)
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(E2optError, match="cannot be read"):
        run(puzzle, keep_boards=False, checkpoint=str(tmp_path / "bad.json"))
    first = run(puzzle, find_all=False, checkpoint=str(tmp_path / "first.json"))
    assert first.stopped == "first solution" and len(first.boards) == 1


def test_a_first_solution_search_run_again_from_its_checkpoint_finds_a_board_every_time(tmp_path):
    """The subtree of a board is never recorded as searched, even when its worker finished it before
    the stop: otherwise a second run skips it and wrongly ends with "no perfect board exists"."""
    puzzle = read_puzzle(SET1 / "set1_05x05.txt")
    path = str(tmp_path / "first.json")
    for _ in range(5):  # 4 boards up to rotation: a leak would show by the fifth run
        result = run(puzzle, find_all=False, keep_boards=True, checkpoint=path)
        assert result.stopped == "first solution" and len(result.boards) == 1
        assert json.loads((tmp_path / "first.json").read_text())["totals"]["solutions"] == 0


def test_a_tally_of_a_first_solution_search_keeps_no_subtree_with_a_board():
    first, count = Tally(1, first=True), Tally(1)
    for tally in (first, count):
        tally.take(("task", 0, 1.0, 7, True, 100, 90, 1))  # subtree 7: searched to its end, one board
        tally.take(("task", 0, 2.0, 8, True, 50, 50, 0))
    assert first.done == {8} and first.kept["solutions"] == 0 and first.kept["nodes"] == 50
    assert count.done == {7, 8} and count.kept["solutions"] == 1 and count.kept["nodes"] == 150


def test_a_count_goes_on_from_a_first_solution_checkpoint_to_the_exact_totals(tmp_path):
    puzzle = read_puzzle(SET1 / "set1_05x05.txt")
    one = run(puzzle, keep_boards=False)
    path = tmp_path / "c.json"
    first = run(puzzle, find_all=False, keep_boards=True, checkpoint=str(path))
    assert first.boards and _subtrees_done(path) > 0  # the subtrees searched before the board's
    count = run(puzzle, keep_boards=False, checkpoint=str(path))
    assert count.complete and (count.solutions, count.nodes, count.backtracks) == (
        one.solutions,
        one.nodes,
        one.backtracks,
    )
    assert json.loads(path.read_text())["search"]["all"] is True  # the file is now the count's
    saved = json.loads(path.read_text())
    saved["search"]["all"], saved["totals"]["solutions"] = False, 3  # a first search that found boards
    path.write_text(json.dumps(saved))
    with pytest.raises(E2optError, match="recorded subtrees with boards"):
        run(puzzle, keep_boards=False, checkpoint=str(path))
