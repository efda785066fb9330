"""Run folders, checkpoints, resume, signals and bad input (issue 5), on tiny instances."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml
from conftest import default_signals, e2opt_here
from helpers import plain_yaml

from e2opt.core import fsutil
from e2opt.core.board import random_board, score
from e2opt.core.errors import ConfigError
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.verify import verify_files
from e2opt.engine.checkpoint import CHECKPOINT, PREVIOUS, CheckpointError, load_checkpoint, save_checkpoint
from e2opt.engine.events import read_events
from e2opt.engine.loader import load_config
from e2opt.engine.resume import AlreadyFinished, resume_run
from e2opt.engine.run import run_config
from e2opt.engine.runfolder import make_run_dir
from e2opt.search.flat import FlatPuzzle

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "instances" / "brendan_set2" / "set2_06x06.txt"
E2 = ROOT / "instances" / "eternity2.txt"
SET1 = ROOT / "instances" / "brendan_set1"
SET1_7X7 = SET1 / "set1_07x07.txt"
RESULT_KEYS = {
    "instance", "seed", "best_score", "max_score", "best_known", "iterations", "moves_per_s",
    "wall_s", "cpu_s", "time_to_best_s", "stop_reason",
}  # fmt: skip


def config_file(tmp_path: Path, instance: Path = SMALL, **sections) -> Path:
    data = {
        "instance": str(instance),
        "seed": 5,
        "construct": {"method": "random"},
        "search": {"moves": {"assignment": {"holes": 6}}},
        "stop": {"max_iterations": 3000},
        "output": {"runs_dir": str(tmp_path / "runs"), "plots": False},
    }
    for key, value in sections.items():
        data.setdefault(key, {})
        if isinstance(value, dict):
            data[key].update(value)
        else:
            data[key] = value
    path = tmp_path / "run.yaml"
    path.write_text(plain_yaml(data))
    return path


def cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "e2opt", *args], capture_output=True, text=True, timeout=300, **kwargs
    )


def test_run_folder_holds_everything_and_verifies(tmp_path):
    cfg = load_config(config_file(tmp_path, output={"plots": True}))
    result = run_config(cfg)
    run_dir = Path(result.run_dir)
    assert run_dir.parent == tmp_path / "runs"
    assert run_dir.name.endswith("_set2_06x06_s5")
    for name in (
        "config.yaml",
        "events.jsonl",
        "best.board",
        CHECKPOINT,
        "result.json",
        "score.png",
        "best.svg",
    ):
        assert (run_dir / name).is_file(), name
    data = json.loads((run_dir / "result.json").read_text())
    assert set(data) >= RESULT_KEYS
    assert data["iterations"] == 3000
    assert data["stop_reason"].startswith("max_iterations")
    report = verify_files(SMALL, run_dir / "best.board")
    assert report.valid and report.score == data["best_score"] == result.best_score
    kinds = [e["event"] for e in read_events(run_dir)]
    assert kinds[:3] == ["start", "workers", "construction"] and kinds[-1] == "end"
    bests = [e["score"] for e in read_events(run_dir) if e["event"] == "best"]
    assert bests == sorted(bests) and bests[-1] == result.best_score
    assert load_config(run_dir / "config.yaml", dumped=True).to_dict() == cfg.to_dict()  # its live settings


def test_run_folders_are_never_reused(tmp_path):
    dirs = {make_run_dir(tmp_path, "same", 1) for _ in range(3)}
    assert len(dirs) == 3 and all(d.is_dir() for d in dirs)


def test_same_seed_same_result_and_resume_equivalence(tmp_path):
    whole = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 4000})))
    again = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 4000})))
    assert whole.best_board == again.best_board

    first = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 1500})))
    resumed = resume_run(first.run_dir, overrides=("stop.max_iterations=4000",))
    assert resumed.iterations == whole.iterations == 4000
    assert resumed.best_score == whole.best_score
    assert resumed.best_board == whole.best_board
    events = list(read_events(Path(first.run_dir)))
    kinds = [e["event"] for e in events]
    # it continued from the checkpoint at move 1500: no second start, and only moves after 1500 were made
    assert kinds.count("resume") == 1 and kinds.count("start") == 1 and "restart" not in kinds
    resume_at = kinds.index("resume")
    assert events[resume_at]["iteration"] == 1500
    assert all(e["iteration"] > 1500 for e in events[resume_at:] if e["event"] == "best")
    assert resumed.moves_per_s > 0 and resumed.cpu_s > first.cpu_s


def test_corrupt_checkpoint_falls_back_to_previous(tmp_path):
    result = run_config(load_config(config_file(tmp_path)))
    run_dir = Path(result.run_dir)
    assert (run_dir / PREVIOUS).is_file()
    data = (run_dir / CHECKPOINT).read_bytes()
    (run_dir / CHECKPOINT).write_bytes(data[: len(data) // 2])
    _state, meta, warnings = load_checkpoint(run_dir)
    assert warnings and "corrupt or truncated" in warnings[0]
    assert meta["iteration"] <= result.iterations
    (run_dir / PREVIOUS).write_bytes(b"garbage")
    with pytest.raises(CheckpointError, match="no usable checkpoint"):
        load_checkpoint(run_dir)
    proc = cli("resume", str(run_dir), "--quiet")
    assert proc.returncode == 2
    assert proc.stderr.startswith("e2opt: error:") and len(proc.stderr.strip().splitlines()) == 1


def test_failed_write_keeps_previous_checkpoint_and_best(tmp_path, monkeypatch):
    result = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 1000})))
    run_dir = Path(result.run_dir)
    before = {name: (run_dir / name).read_bytes() for name in (CHECKPOINT, "best.board")}

    def disk_full(path, data, fsync=True):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(fsutil, "atomic_write_bytes", disk_full)
    monkeypatch.setattr("e2opt.engine.checkpoint.atomic_write_bytes", disk_full)
    with pytest.raises(OSError, match="No space left"):
        resume_run(run_dir, overrides=("stop.max_iterations=3000",))
    for name, data in before.items():
        assert (run_dir / name).read_bytes() == data, name
    assert not any(p.name.endswith(".tmp") for p in run_dir.iterdir())


def test_warm_start_from_board(tmp_path):
    first = run_config(load_config(config_file(tmp_path)))
    board_path = Path(first.run_dir) / "best.board"
    second = run_config(
        load_config(
            config_file(
                tmp_path, construct={"method": "board", "board": str(board_path)}, stop={"max_iterations": 10}
            )
        )
    )
    assert second.construction["method"] == "board"
    assert second.construction["score"] == first.best_score
    assert second.best_score >= first.best_score


def test_warm_start_rejects_a_board_of_another_puzzle(tmp_path):
    other = tmp_path / "other.board"
    other.write_text("2 2\n0:0 1:0\n2:0 3:0\n")
    path = config_file(tmp_path, construct={"method": "board", "board": str(other)})
    proc = e2opt_here("run", str(path), "--quiet")
    assert proc.returncode == 2
    assert "not a valid board" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "sections, key",
    [
        ({"search": {"holez": 3}}, "search.holez"),
        ({"search": {"moves": {"assignment": {"holes": "x"}}}}, "search.moves.assignment.holes"),
        ({"stop": {"max_wall_s": -3}}, "stop.max_wall_s"),
        ({"instance": "missing.txt"}, "instance"),
        ({"construct": {"method": "cpsat", "cpsat": {"relaxed": 19}}}, "construct.cpsat.relaxed"),
        (
            {"construct": {"method": "cpsat", "cpsat": {"relaxed_cells": [[0, 0], [1, 0]]}}},
            "construct.cpsat.relaxed_cells",
        ),
        (
            {"construct": {"method": "board", "board": str(SET1 / "solutions" / "set1_03x03.board")}},
            "construct.board",
        ),
    ],
)
def test_bad_config_fails_before_any_work(tmp_path, sections, key):
    path = config_file(tmp_path, **sections)
    proc = e2opt_here("run", str(path))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("e2opt: error:")
    assert str(path) in lines[0] and f"'{key}'" in lines[0]
    assert not (tmp_path / "runs").exists()


def test_unwritable_runs_dir_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    proc = e2opt_here("run", str(config_file(tmp_path)), "--runs-dir", str(blocker / "runs"))
    assert proc.returncode == 2
    assert "runs directory" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def _wait_for(path: Path, timeout: float = 120) -> None:
    end = time.time() + timeout
    while not path.exists():
        assert time.time() < end, f"{path} never appeared"
        time.sleep(0.1)


def _start_run(config: Path, runs: Path) -> tuple[subprocess.Popen, Path]:
    """``e2opt run CONFIG --quiet`` in a subprocess, and its run folder once it exists."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "e2opt", "run", str(config), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_signals,
    )  # fmt: skip
    _wait_for(runs)
    end = time.time() + 120
    while not any(runs.iterdir()):  # the runs folder is made a moment before the run folder inside it
        assert time.time() < end, f"no run folder in {runs}"
        time.sleep(0.05)
    return proc, next(iter(runs.iterdir()))


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.slow
def test_signal_finishes_cleanly(tmp_path, sig):
    path = config_file(tmp_path, stop={"max_iterations": None, "max_wall_s": 120})
    proc, run_dir = _start_run(path, tmp_path / "runs")
    _wait_for(run_dir / CHECKPOINT)
    time.sleep(1.0)
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err  # stopped by a signal, after saving (docs/faults.md)
    result = json.loads((run_dir / "result.json").read_text())
    assert result["stop_reason"] == signal.Signals(sig).name
    assert result["wall_s"] < 60
    _state, meta, warnings = load_checkpoint(run_dir)
    assert not warnings and meta["iteration"] == result["iterations"]


@pytest.mark.slow
def test_kill_dash_nine_then_resume_never_loses_the_best(tmp_path):
    """Six kill -9s at random moments of a real run and of the resumes that follow each (a resume may be
    killed before it saved anything), then a resume to the end."""
    rng = np.random.default_rng(7)
    path = config_file(
        tmp_path, instance=E2, search={"moves": {"assignment": {"holes": 16}}}, stop={"max_iterations": None, "max_wall_s": 3600},
        output={"checkpoint_every_wall_s": 0.5},
    )  # fmt: skip
    puzzle = read_puzzle(E2)
    runs = tmp_path / "runs"
    command = [sys.executable, "-m", "e2opt", "run", str(path), "--quiet"]
    recorded = 0
    for kill in range(6):
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if kill == 0:
            _wait_for(runs)
        run_dir = next(iter(runs.iterdir()))
        _wait_for(run_dir / CHECKPOINT)
        time.sleep(float(rng.uniform(0.2, 2.5)))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        bests = [e["score"] for e in read_events(run_dir) if e["event"] == "best"]
        assert bests == sorted(bests) and bests[-1] >= recorded  # no resume starts below what was saved
        recorded = bests[-1]
        assert score(puzzle, read_board(run_dir / "best.board")) >= recorded
        load_checkpoint(run_dir)  # raises on a corrupt checkpoint with no good fallback
        command = [sys.executable, "-m", "e2opt", "resume", str(run_dir), "--quiet"]
    command.append(f"--set=stop.max_wall_s={load_checkpoint(run_dir)[1]['wall_s'] + 1.0}")
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads((run_dir / "result.json").read_text())
    assert result["best_score"] >= recorded
    assert verify_files(E2, run_dir / "best.board").score == result["best_score"]
    assert os.listdir(runs) == [run_dir.name]


@pytest.mark.slow
def test_report_on_an_unfinished_run(tmp_path):
    result = run_config(load_config(config_file(tmp_path)))
    run_dir = Path(result.run_dir)
    (run_dir / "result.json").unlink()
    proc = cli("report", str(run_dir))
    assert proc.returncode == 0, proc.stderr
    assert "not finished" in proc.stdout
    assert f"best {result.best_score}/{result.max_score}" in proc.stdout
    assert (run_dir / "score.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_resume_overrides_are_kept_for_the_next_resume(tmp_path):
    first = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 500})))
    extended = resume_run(first.run_dir, overrides=("stop.max_iterations=1200",))
    assert extended.iterations == 1200
    assert load_config(Path(first.run_dir) / "config.yaml").stop.max_iterations == 1200
    run_dir = Path(first.run_dir)
    before = {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file()}
    with pytest.raises(AlreadyFinished, match="finished already"):  # no --set: the extended limit holds
        resume_run(first.run_dir)
    with pytest.raises(AlreadyFinished, match="already past it"):  # a budget the run has spent already
        resume_run(first.run_dir, overrides=("stop.max_iterations=800",))
    assert {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file()} == before
    assert json.loads(before["result.json"])["iterations"] == extended.iterations


def test_plateau_events_are_sampled_not_one_per_plateau(tmp_path):
    path = config_file(
        tmp_path, search={"moves": {"assignment": {"holes": 4}}, "plateau": 2, "intensify_after": 2}
    )
    result = run_config(load_config(path))
    run_dir = Path(result.run_dir)
    kinds = [e["event"] for e in read_events(run_dir)]
    assert result.diversifications + result.intensifications > 200
    assert (
        1 <= kinds.count("diversify") <= 2 and 1 <= kinds.count("intensify") <= 2
    )  # run < stats_every_wall_s
    last = [e for e in read_events(run_dir) if e["event"] in ("diversify", "intensify")][-1]
    assert last["diversifications"] <= result.diversifications


def test_newest_complete_checkpoint_wins_after_a_kill_between_the_renames(tmp_path):
    result = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 1000})))
    run_dir = Path(result.run_dir)
    newest = (run_dir / CHECKPOINT).read_bytes()
    # killed after "checkpoint -> checkpoint.prev" and before ".checkpoint.new -> checkpoint"
    os.replace(run_dir / CHECKPOINT, run_dir / PREVIOUS)
    (run_dir / ".checkpoint.new").write_bytes(newest)
    (run_dir / PREVIOUS).write_bytes(b"older and corrupt")
    _state, meta, warnings = load_checkpoint(run_dir)
    assert meta["iteration"] == result.iterations and not warnings
    resumed = resume_run(run_dir, overrides=("stop.max_iterations=1500",))
    assert resumed.iterations == 1500 and resumed.best_score >= result.best_score


def test_saved_best_newer_than_the_checkpoint_is_adopted_with_its_time(tmp_path):
    result = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 3000})))
    run_dir = Path(result.run_dir)
    late = [e for e in read_events(run_dir) if e["event"] == "best"][-1]
    state, meta, _ = load_checkpoint(run_dir)
    # the checkpoint as if written before the last new best (best.board and events.jsonl are newer)
    puzzle = read_puzzle(SMALL)
    older = random_board(puzzle, np.random.default_rng(0))
    state["w0.best_piece"], state["w0.best_rot"] = FlatPuzzle.of(puzzle).flatten(older)
    state["w0.best_score"] = score(puzzle, older)
    meta["team"]["meta"][0]["best_score"] = meta["team"]["best"]["score"] = meta["best_score"] = score(
        puzzle, older
    )
    assert state["w0.best_score"] < late["score"]
    save_checkpoint(run_dir, state, meta)
    # killed after the last checkpoint: the criteria hold, only the end is missing
    (run_dir / "result.json").unlink()
    resumed = resume_run(run_dir)
    assert resumed.iterations == 3000 and resumed.moves_per_s > 0
    assert resumed.best_score == late["score"] == result.best_score
    assert resumed.time_to_best_s == pytest.approx(late["wall_s"], abs=1e-3)
    assert any(e["event"] == "resume" and e["adopted_best"] for e in read_events(run_dir))


CPSAT_SLOW = {  # a CP-SAT construction that takes seconds: Brendan 7x7 with no relaxed cell is not solved
    "method": "cpsat",
    "cpsat": {"relaxed": 0, "time_limit_wall_s": 60, "num_workers": 1, "fallback": []},
}


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.slow
def test_signal_during_cpsat_construction_ends_cleanly_and_resume_starts_again(tmp_path, sig):
    path = config_file(
        tmp_path, instance=SET1_7X7, construct=CPSAT_SLOW, stop={"max_iterations": 300, "max_wall_s": 600}
    )
    proc, run_dir = _start_run(path, tmp_path / "runs")
    _wait_for(run_dir / "events.jsonl")
    time.sleep(2.0)  # inside CP-SAT's 60 s round
    started = time.time()
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, err
    assert time.time() - started < 15
    result = json.loads((run_dir / "result.json").read_text())
    assert result["stop_reason"] == signal.Signals(sig).name and result["iterations"] == 0
    assert result["construction"]["interrupted"] is True
    assert verify_files(SET1_7X7, run_dir / "best.board").score == result["best_score"]
    assert not (run_dir / CHECKPOINT).exists()
    if sig != signal.SIGINT:
        return  # the folder is the same but for the stop reason (both are interrupts): one resume is enough
    # resume starts the run again from its construction (here made short) and finishes it
    # (the seconds the stopped attempt spent count, so the budget is what it spent and 6 s more)
    budget = result["wall_s"] + 6
    done = cli("resume", str(run_dir), "--quiet", "--set", f"stop.max_wall_s={budget:.1f}")
    assert done.returncode == 0, done.stderr
    result = json.loads((run_dir / "result.json").read_text())
    assert result["stop_reason"].startswith(("max_iterations", "max_wall_s"))  # not the signal any more
    assert (run_dir / CHECKPOINT).is_file()
    assert verify_files(SET1_7X7, run_dir / "best.board").score == result["best_score"]
    assert [e["event"] for e in read_events(run_dir)].count("restart") == 1


def test_python_api_run_takes_a_path_or_a_config_with_dotted_overrides(tmp_path):
    import e2opt

    path = config_file(tmp_path, stop={"max_iterations": 400})
    by_path = e2opt.run(path, stop__max_iterations=700, seed=9)
    assert by_path.iterations == 700 and by_path.seed == 9
    by_config = e2opt.run(load_config(path), stop__max_iterations=700, seed=9)
    assert by_config.best_board == by_path.best_board and by_config.best_score == by_path.best_score
    assert Path(by_config.run_dir) != Path(by_path.run_dir)
    assert score(read_puzzle(SMALL), by_path.best_board) == by_path.best_score
    with pytest.raises(ConfigError, match=r"search\.nope"):
        e2opt.run(path, search__nope=1)
    assert not hasattr(e2opt, "solve")  # the older name of run: solve_exact is the exact search


def test_python_api_solve_exact_and_resume(tmp_path):
    import e2opt

    result = e2opt.solve_exact(SET1 / "set1_04x04.txt", find_all=True)
    assert result.complete and result.solutions > 0
    first = e2opt.run(config_file(tmp_path, stop={"max_iterations": 300}))
    resumed = e2opt.resume(first.run_dir, overrides=("stop.max_iterations=600",))
    assert resumed.iterations == 600 and resumed.best_score >= first.best_score


@pytest.mark.slow
@pytest.mark.parametrize("gap", [0.002, 0.6])
def test_two_sigints_leave_a_stopped_run(tmp_path, gap):
    """Two SIGINTs ``gap`` s apart: within REPEAT_S (``timeout -s INT`` signals the command and its group) one
    request, the run stops after its move; later, at once (or after the clean stop, which a one-worker run
    makes within the gap). Either way the folder is a stopped run's: a whole checkpoint, best.board and
    result.json (before, two signals a few ms apart left no result.json and said only `e2opt: interrupted`)."""
    path = config_file(tmp_path, instance=E2, stop={"max_iterations": None, "max_wall_s": 120})
    proc, run_dir = _start_run(path, tmp_path / "runs")
    _wait_for(run_dir / CHECKPOINT)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    time.sleep(gap)
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    if gap < 0.25:  # one request: the clean stop, said by its exit code alone
        assert proc.returncode == 130 and "interrupted" not in err, (proc.returncode, err)
    else:  # at once (130), or the second signal reached a process that had stopped already (-2)
        assert proc.returncode in (130, -signal.SIGINT), (proc.returncode, err)
    assert "Traceback" not in err
    load_checkpoint(run_dir)  # raises if no checkpoint is whole
    result = json.loads((run_dir / "result.json").read_text())
    assert result["stop_reason"] == "SIGINT"
    report = verify_files(E2, run_dir / "best.board")
    assert report.valid and report.score == result["best_score"]


def test_a_run_left_at_once_still_ends_as_a_stopped_run_and_resumes(tmp_path, monkeypatch):
    """A second Ctrl-C (KeyboardInterrupt inside the coordinator's loop) drops the rounds in flight, but the
    run still writes its checkpoint, best.board and result.json from what the coordinator holds, with a stop
    reason that `resume` continues."""
    from e2opt.engine.coordinator import Coordinator

    absorb = Coordinator.absorb

    def absorb_then_ctrl_c(self, answer):
        going = absorb(self, answer)
        if sum(self.team.moves) > 0:
            raise KeyboardInterrupt
        return going

    monkeypatch.setattr(Coordinator, "absorb", absorb_then_ctrl_c)
    path = config_file(
        tmp_path,
        run={"workers": 2, "share_every_wall_s": 1.0},
        stop={"max_iterations": 10**9, "max_wall_s": 600},
    )
    with pytest.raises(KeyboardInterrupt):
        run_config(load_config(path))
    run_dir = next((tmp_path / "runs").iterdir())
    load_checkpoint(run_dir)
    result = json.loads((run_dir / "result.json").read_text())
    assert result["stop_reason"] == "interrupted" and result["iterations"] > 0
    assert verify_files(SMALL, run_dir / "best.board").score == result["best_score"]
    monkeypatch.setattr(Coordinator, "absorb", absorb)
    more = result["iterations"] + 500
    resumed = resume_run(run_dir, overrides=(f"stop.max_iterations={more}",))
    assert resumed.iterations == more and resumed.best_score >= result["best_score"]


@pytest.mark.parametrize("other", [SET1 / "set1_05x05.txt", SET1 / "set1_06x06.txt"])
def test_resume_against_another_puzzle_is_a_clear_error(tmp_path, other):
    result = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 300})))
    run_dir = Path(result.run_dir)
    config = yaml.safe_load((run_dir / "config.yaml").read_text())
    config["instance"] = str(other)  # the puzzle file was swapped under the run: other size, or other pieces
    (run_dir / "config.yaml").write_text(yaml.safe_dump(config))
    proc = cli("resume", str(run_dir), "--quiet", "--set", "stop.max_iterations=600")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "checkpoint does not fit" in lines[0]
