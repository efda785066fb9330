"""Signals and kills of a real run: SIGINT, SIGTERM (also inside CP-SAT), two SIGINTs, kill -9, resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import default_signals
from small_run import E2, SET1_7X7, SMALL, cli, config_file

from e2opt.core.board import score
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.verify import verify_files
from e2opt.engine.checkpoint import CHECKPOINT, load_checkpoint
from e2opt.engine.events import read_events
from e2opt.engine.loader import load_config
from e2opt.engine.resume import resume_run
from e2opt.engine.run import run_config


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
