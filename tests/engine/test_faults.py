"""Faults while a run goes on (issue 27): two owners of a folder, signals to the process group, a closed
stdout, inputs that are not regular files, damaged events, exit codes and CLI conventions (docs/faults.md)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, TINY_BOARD, TINY_PUZZLE, default_signals, e2opt, e2opt_here
from helpers import one_error_line, write_run_yaml

from e2opt.cli.exits import stop_code
from e2opt.cli.main import main
from e2opt.core.board import score
from e2opt.core.folderlock import FolderBusy, FolderLock, owner
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.fsutil import UnreadableFile, read_user_text
from e2opt.engine.checkpoint import load_checkpoint
from e2opt.engine.eventkinds import Resume
from e2opt.engine.events import EventLog, read_events
from e2opt.engine.report import run_report

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.fixture(scope="module")
def hard(tmp_path_factory) -> Path:
    """A 6x6 puzzle with recoloured sides (no perfect board: colours with odd counts; seed 2's recolouring left
    them even, and a perfect board, which a search could find and stop at): a run goes on until it is stopped."""
    path = tmp_path_factory.mktemp("hard") / "hard.txt"
    args = ["generate", "--rows", 6, "--cols", 6, "--frame-colours", 3, "--inner-colours", 5]
    assert e2opt(*args, "--recolour", 8, "--seed", 3, "-o", path).returncode == 0  # `e2opt solve`: none
    return path


def apart_from_warning(err: str) -> str:
    """A run's stderr without the one warning every run of the hard puzzle gives (its recoloured joins leave
    colours with odd counts, the proof that no perfect board exists)."""
    lines = err.splitlines(keepends=True)
    kept = [
        line for line in lines if not line.startswith("warning: ") or "no perfect board exists" not in line
    ]
    assert len(lines) - len(kept) <= 1, err
    return "".join(kept)


def write_config(tmp_path: Path, puzzle: Path, workers: int = 2, **sections) -> Path:
    """A run of ``workers`` workers whose moves include CP-SAT region repair, an hour's budget."""
    data = {
        "instance": str(puzzle),
        "seed": 1,
        "construct": {"method": "random"},
        "search": {
            "moves": {"assignment": {"weight": 0.3, "holes": 6}, "region": {"weight": 1.0, "sizes": [3, 3]}},
        },
        "stop": {"max_wall_s": 3600},
        "run": {"workers": workers, "roles": {"producers": 0}},  # every worker searches (no pipeline)
        "output": {
            "runs_dir": str(tmp_path / "runs"),
            "plots": False,
            "log_every_wall_s": 0.5,
            "stats_every_wall_s": 0.5,
        },
    }
    return write_run_yaml(tmp_path, data, sections)


def start(args: list, tmp_path: Path, stdout=None) -> subprocess.Popen:
    """``e2opt ARGS`` in its own session (its own process group, as a terminal's job is)."""
    return subprocess.Popen(
        [sys.executable, "-m", "e2opt", *map(str, args)],
        cwd=tmp_path,
        env=ENV,
        stdout=stdout if stdout is not None else open(tmp_path / "out.txt", "w"),
        stderr=open(tmp_path / "err.txt", "w"),
        start_new_session=True,
        preexec_fn=default_signals,
    )


def wait_searching(runs: Path, proc: subprocess.Popen, moves: str = "region", timeout: float = 60) -> Path:
    """The run folder, once every worker searches and a ``moves`` move has run (a stats event counts it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, (runs.parent / "err.txt").read_text()
        for run_dir in runs.glob("*"):
            for event in read_events(run_dir):
                if (
                    event.get("event") == "stats"
                    and event.get("moves", {}).get(moves, {}).get("calls", 0) > 0
                ):
                    return run_dir
        time.sleep(0.2)
    raise AssertionError("the run did not start searching in time")


def assert_kept_everything(run_dir: Path, puzzle: Path, reason: str) -> dict:
    """best.board re-scores to result.json's best, the final checkpoint holds it, the end event is last."""
    result = json.loads((run_dir / "result.json").read_text())
    assert result["stop_reason"] == reason
    board = read_board(run_dir / "best.board")
    assert score(read_puzzle(puzzle), board) == result["best_score"]
    bests = [e["score"] for e in read_events(run_dir) if e["event"] == "best"]
    assert result["best_score"] == max(bests)
    _, meta, warnings = load_checkpoint(run_dir)
    assert meta["best_score"] == result["best_score"] and not warnings
    events = list(read_events(run_dir))
    assert events[-1]["event"] == "end" and events[-2]["event"] == "checkpoint"  # the final checkpoint
    return result


# --- one owner per run folder ---


def test_a_second_owner_is_refused_with_the_owners_pid_and_killed_owners_leave_no_lock(tmp_path, hard):
    proc = start(["run", write_config(tmp_path, hard, workers=1)], tmp_path)
    run_dir = wait_searching(tmp_path / "runs", proc, moves="assignment")
    assert owner(run_dir) == proc.pid
    assert run_report(run_dir, plots=False).splitlines()[0].endswith(f"running (pid {proc.pid})")
    second = e2opt_here("resume", run_dir)
    assert second.returncode == 2 and second.stdout == ""
    assert second.stderr.strip().splitlines() == [
        f"e2opt: error: {run_dir}: another e2opt run (pid {proc.pid}) owns this folder; "
        "wait for it to end or stop it (Ctrl-C / kill PID) first"
    ]
    events = [e["event"] for e in read_events(run_dir)]
    assert "resume" not in events  # the refused process wrote nothing
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    assert owner(run_dir) is None  # the OS released the lock with the process
    assert "not finished: killed before its end" in run_report(run_dir, plots=False)
    resumed = e2opt_here("resume", run_dir, "--set", "stop.max_wall_s=1", "--quiet")
    assert resumed.returncode == 0, resumed.stderr  # nobody owns it now


def test_a_folder_lock_refuses_a_second_holder_even_in_the_same_process(tmp_path):
    with FolderLock(tmp_path, "sweep"):
        with pytest.raises(FolderBusy, match=rf"another e2opt sweep \(pid {os.getpid()}\) owns"):
            FolderLock(tmp_path, "run").__enter__()
        assert owner(tmp_path) == os.getpid()
    assert owner(tmp_path) is None and (tmp_path / ".lock").read_text() == ""
    with FolderLock(tmp_path, "run"):  # free again
        pass


# --- signals keep everything; exit codes ---


@pytest.mark.slow
def test_sigint_to_the_process_group_of_a_two_worker_cpsat_run_keeps_everything(tmp_path, hard):
    proc = start(["run", write_config(tmp_path, hard)], tmp_path)
    run_dir = wait_searching(tmp_path / "runs", proc)
    time.sleep(1.0)  # CP-SAT region moves have run in both workers
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    assert proc.wait(60) == 130
    out, err = (tmp_path / "out.txt").read_text(), apart_from_warning((tmp_path / "err.txt").read_text())
    assert "lost" not in out + err and err == ""
    result = assert_kept_everything(run_dir, hard, "SIGINT")
    assert len(result["workers"]) == 2 and all(w["lost"] == 0 for w in result["workers"])
    assert not any(e["event"] == "worker_lost" for e in read_events(run_dir))
    assert "stopped by SIGINT: `e2opt resume` continues it" in run_report(run_dir, plots=False)


@pytest.mark.parametrize(("sig", "group"), [(signal.SIGHUP, True), (signal.SIGTERM, False)])
@pytest.mark.slow
def test_hangup_and_sigterm_end_the_run_after_saving_with_128_plus_the_signal(tmp_path, hard, sig, group):
    proc = start(["run", write_config(tmp_path, hard)], tmp_path)
    run_dir = wait_searching(tmp_path / "runs", proc)
    if group:
        os.killpg(proc.pid, sig)  # a closed terminal hangs up its whole session
    else:
        proc.send_signal(sig)
    assert proc.wait(60) == 128 + sig
    assert_kept_everything(run_dir, hard, signal.Signals(sig).name)


def _ignore_hangup() -> None:
    """In the child: signals at their defaults, then SIGHUP ignored, as `nohup` starts a command."""
    default_signals()
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


@pytest.mark.slow
def test_a_run_started_under_nohup_goes_on_after_a_hangup_and_stops_on_sigterm(tmp_path, hard):
    """A signal the shell left ignored stays ignored (docs/guide.md, "Command line"): the night goes on when the
    terminal that started `nohup e2opt run ...` closes; SIGTERM still ends it after saving."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "e2opt", "run", write_config(tmp_path, hard)], cwd=tmp_path, env=ENV,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        preexec_fn=_ignore_hangup,
    )  # fmt: skip
    run_dir = wait_searching(tmp_path / "runs", proc)
    os.killpg(proc.pid, signal.SIGHUP)  # the terminal closes: its whole session is hung up
    time.sleep(2.0)
    assert proc.poll() is None and not (run_dir / "result.json").exists()  # every process still at work
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(60) == 128 + signal.SIGTERM
    assert_kept_everything(run_dir, hard, "SIGTERM")


@pytest.mark.slow
def test_a_closed_stdout_never_stops_the_run_nor_changes_its_exit_code(tmp_path, hard):
    config = write_config(tmp_path, hard, workers=1, stop={"max_wall_s": 4})
    proc = start(["run", config], tmp_path, stdout=subprocess.PIPE)
    proc.stdout.readline()  # `| head -1`: one line read, then the pipe is closed
    proc.stdout.close()
    assert proc.wait(60) == 0
    err = apart_from_warning((tmp_path / "err.txt").read_text())
    assert err == ""  # no "Broken pipe", no traceback
    run_dir = next((tmp_path / "runs").glob("*"))
    assert_kept_everything(run_dir, hard, "max_wall_s (4 s)")


def test_exit_codes_follow_the_shell_convention():
    assert stop_code("max_wall_s (4)") == 0 and stop_code("target_score (480)") == 0
    assert stop_code("SIGINT") == 130 and stop_code("SIGTERM") == 143 and stop_code("SIGHUP") == 129
    assert stop_code("interrupted") == 130  # the stop file, created by someone else: as a Ctrl-C


# --- inputs that are not regular files ---


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    return path


def test_a_named_pipe_as_puzzle_board_or_config_is_one_line_never_a_hang(tmp_path, tiny, fifo):
    puzzle, board = tiny
    one_error_line(e2opt("verify", puzzle, fifo), "is a named pipe")  # hung forever before
    one_error_line(e2opt_here("info", fifo), "is a named pipe, not a file")
    one_error_line(e2opt_here("verify", fifo, board), "is a named pipe")
    one_error_line(e2opt_here("render", puzzle, fifo, "-o", tmp_path / "x.svg"), "is a named pipe")
    one_error_line(e2opt_here("convert", fifo, "--to", "csv", "-o", tmp_path / "x.csv"), "is a named pipe")
    one_error_line(e2opt_here("run", fifo), "is a named pipe")
    config = tmp_path / "c.yaml"
    config.write_text(f"instance: {fifo}\n")
    # the config check: "no puzzle file at …/pipe.txt"
    one_error_line(e2opt_here("run", config), "pipe.txt")


def test_a_device_as_puzzle_is_one_line_without_reading_it(tmp_path, tiny):
    one_error_line(e2opt_here("info", "/dev/zero"), "is a character device, not a file")
    one_error_line(e2opt_here("verify", "/dev/zero", tiny[1]), "is a character device")
    with pytest.raises(UnreadableFile, match="character device"):
        read_user_text("/dev/urandom", 1)


def test_every_reader_drops_a_bom_and_reads_crlf_and_tabs_alike(tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_bytes(b"\xef\xbb\xbf" + TINY_PUZZLE.replace(" ", "\t").replace("\n", "\r\n").encode())
    board = tmp_path / "b.board"
    board.write_bytes(b"\xef\xbb\xbf" + TINY_BOARD.replace("\n", "\r\n").encode())
    assert read_user_text(puzzle, 1).startswith("3\t3\n")
    assert read_puzzle(puzzle).max_score == 12
    verified = e2opt("verify", puzzle, board)  # the independent verifier reads the same way
    assert verified.returncode == 0 and "12/12" in verified.stdout, verified.stderr


@pytest.mark.slow
def test_a_named_pipe_in_a_run_folder_is_skipped_not_read(tmp_path, hard):
    config = write_config(tmp_path, hard, workers=1, stop={"max_iterations": 300})
    assert e2opt_here("run", config, "--quiet").returncode == 0
    run_dir = next((tmp_path / "runs").glob("*"))
    (run_dir / "checkpoint.prev").unlink(missing_ok=True)
    (run_dir / "checkpoint").unlink()
    os.mkfifo(run_dir / "checkpoint")
    proc = e2opt("resume", run_dir, "--set", "stop.max_iterations=600")
    one_error_line(proc, "no usable checkpoint", "is a named pipe")
    (run_dir / "events.jsonl").unlink()
    os.mkfifo(run_dir / "events.jsonl")
    report = e2opt("report", run_dir)
    assert report.returncode == 0 and "events.jsonl is not a regular file" in report.stdout


# --- report and events ---


def test_report_names_damaged_event_lines_and_a_resume_starts_a_fresh_line(tmp_path, hard):
    config = write_config(tmp_path, hard, workers=1, stop={"max_iterations": 300})
    assert e2opt_here("run", config, "--quiet").returncode == 0
    run_dir = next((tmp_path / "runs").glob("*"))
    lines = (run_dir / "events.jsonl").read_text().splitlines(keepends=True)
    lines[1] = lines[1][:7] + "\n"  # a damaged line inside
    damaged = "".join(lines[:-1]) + lines[-1][:15]  # and the end event torn, as a kill mid-write leaves it
    (run_dir / "events.jsonl").write_text(damaged)
    text = run_report(run_dir, plots=False)
    n = len(lines)
    assert f"events.jsonl is damaged: 2 line(s) could not be read (line 2, {n})" in text
    assert "not finished: killed before its end" in text
    log = EventLog(run_dir)
    log.write(Resume(iteration=1))
    log.close()
    assert [e["event"] for e in read_events(run_dir)][-1] == "resume"  # not glued to the torn line


# --- CLI conventions ---


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("e2opt 0.")


def test_quiet_keeps_warnings_and_both_time_budgets_have_one_spelling(tmp_path):
    odd = tmp_path / "odd.txt"
    odd.write_text(TINY_PUZZLE.replace("3 4 3 4", "3 4 3 5"))  # one colour now appears an odd number of times
    warned = read_puzzle(odd).warnings
    assert warned
    config = write_config(tmp_path, odd, workers=1, stop={"max_iterations": 50, "max_wall_s": None})
    quiet = e2opt_here("run", config, "--quiet", "--max-wall-s", "30", "--max-cpu-s", "20")
    assert quiet.returncode == 0, quiet.stderr
    assert f"warning: {warned[0]}" in quiet.stderr  # --quiet hides progress, not warnings
    assert "constructing" not in quiet.stdout
    run_dir = Path(quiet.stdout.split("run folder: ")[1].split()[0])
    stored = yaml.safe_load((run_dir / "config.yaml").read_text())
    assert stored["stop"]["max_wall_s"] == 30 and stored["stop"]["max_cpu_s"] == 20


@pytest.mark.slow
def test_constructing_lines_come_at_the_progress_cadence(tmp_path, hard):
    slow = write_config(
        tmp_path,
        hard,
        workers=1,
        construct={"method": "beam", "beam": {"width": 64, "time_limit_cpu_s": 1.5}},
        stop={"max_iterations": 10},
        output={"log_every_wall_s": 0.3},
    )
    shown = e2opt("run", slow)
    assert shown.returncode == 0, shown.stderr
    lines = [line for line in shown.stdout.splitlines() if "constructing (beam) 0:00:0" in line]
    assert len(lines) >= 2 and lines[0].startswith("  worker 0 searcher  constructing")


@pytest.mark.slow
def test_resume_with_more_workers_goes_on_as_a_larger_team(tmp_path, hard):
    config = write_config(tmp_path, hard, workers=1, stop={"max_iterations": 300, "max_wall_s": None})
    assert e2opt_here("run", config, "--quiet").returncode == 0
    run_dir = next((tmp_path / "runs").glob("*"))
    one_error_line(  # the refusals in this process (fast); the runs in their own
        e2opt_here("resume", run_dir, "--workers", "0", "--set", "stop.max_iterations=900"),
        "at least 1",
    )
    grown = e2opt("resume", run_dir, "--workers", "2", "--set", "stop.max_iterations=900", "--quiet")
    assert grown.returncode == 0, grown.stderr
    result = json.loads((run_dir / "result.json").read_text())
    assert [w["worker"] for w in result["workers"]] == [0, 1]
    assert any(e["event"] == "workers_added" for e in read_events(run_dir))
    shrink = e2opt_here("resume", run_dir, "--workers", "1", "--set", "stop.max_iterations=2000")
    one_error_line(shrink, "this run has 2 workers")


# --- process counts of a run that is a sweep task ---


def test_a_sweep_task_runs_auto_as_one_worker_and_n_workers_in_its_own_process(tmp_path, hard):
    from e2opt.engine.loader import load_config
    from e2opt.sweep.worker import execute

    for workers, expected in (("auto", 1), (2, 2)):
        config = write_config(
            tmp_path, hard, workers=workers, stop={"max_iterations": 200, "max_wall_s": None}
        )
        run_dir = tmp_path / f"task-{workers}"
        task = {"id": "t", "config": load_config(config).to_dict(), "run_dir": str(run_dir)}
        answer = execute({**task, "stop_file": str(tmp_path / ".stop")})
        assert answer["status"] == "done", answer
        assert len(answer["result"]["workers"]) == expected
        where = next(e for e in read_events(run_dir) if e["event"] == "workers")
        assert where["where"] == "this process"  # no process started: the task takes one slot
