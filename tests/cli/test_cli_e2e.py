"""The run, resume and sweep command lines end to end: every option reaches the run, every exit code (issue 14)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import INSTANCES, SET1, default_signals, e2opt, e2opt_here
from helpers import plain

from e2opt.core.errors import E2optError
from e2opt.engine import runfolder as run_module
from e2opt.engine.run import make_run_dir
from e2opt.sweep import create_sweep, load_sweep

UNSOLVED = INSTANCES / "meta2010_10x10.txt"  # not solved within seconds: time budgets decide when runs stop


def write(path: Path, data: dict) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def base_config(tmp_path: Path, instance: Path = SET1 / "set1_04x04.txt", **stop) -> Path:
    data = {
        "instance": str(instance),
        "seed": 1,
        "search": {"moves": {"assignment": {"holes": 4}}},
        "stop": stop or {"max_iterations": 200},
        "output": {"plots": False, "runs_dir": str(tmp_path / "default_runs")},
    }
    return write(tmp_path / "base.yaml", plain(data))


@pytest.mark.slow
def test_every_run_option_reaches_the_run(tmp_path):
    config = base_config(tmp_path, UNSOLVED, max_iterations=None)
    runs = tmp_path / "mine"
    proc = e2opt(
        "run", config, "--seed", "7", "--name", "trial", "--max-wall-s", "1.5",
        "--set", "search.moves.assignment.holes=3", "--runs-dir", runs, "--quiet",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()  # --quiet: the summary only (its two lines and the viewer link)
    assert proc.stderr == "" and len(lines) == 3 and lines[2].startswith("viewer: https://e2.bucas.name/")
    (run_dir,) = runs.iterdir()
    assert run_dir.name.endswith("_trial_s7") and not (tmp_path / "default_runs").exists()
    result = json.loads((run_dir / "result.json").read_text())
    assert result["seed"] == 7 and result["stop_reason"] == "max_wall_s (1.5 s)"
    assert 1.5 <= result["wall_s"] < 10
    stored = yaml.safe_load((run_dir / "config.yaml").read_text())
    holes = stored["search"]["moves"]["assignment"][
        "holes"
    ]  # stored in the new spelling of search.moves.assignment.holes
    assert (stored["seed"], stored["name"], holes) == (7, "trial", 3)
    assert stored["stop"]["max_wall_s"] == 1.5
    other = e2opt_here("run", config, "--seed", "8", "--max-wall-s", "0.5", "--runs-dir", runs)
    assert other.returncode == 0 and "construction (random)" in other.stdout  # progress lines without --quiet
    assert {p.name.rsplit("_", 1)[1] for p in runs.iterdir()} == {"s7", "s8"}


def test_resume_options_end_to_end(tmp_path):
    config = base_config(tmp_path, max_iterations=300)
    assert e2opt_here("run", config, "--quiet").returncode == 0
    (run_dir,) = (tmp_path / "default_runs").iterdir()
    proc = e2opt("resume", run_dir, "--set", "stop.max_iterations=700", "--quiet")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert json.loads((run_dir / "result.json").read_text())["iterations"] == 700
    again = e2opt_here("resume", run_dir)
    assert again.returncode == 0 and "finished already" in again.stdout


def test_runs_dir_not_writable_is_reported(tmp_path, monkeypatch):
    """The os.access branch itself (root can write anywhere, so the test makes os.access say no)."""
    calls = []

    def no_access(path, mode):
        calls.append(Path(path))
        return False

    monkeypatch.setattr(run_module.os, "access", no_access)
    try:
        make_run_dir(tmp_path / "runs", "x", 1)
    except E2optError as exc:
        assert str(exc) == f"runs directory {tmp_path / 'runs'} (output.runs_dir or --runs-dir): not writable"
    else:
        raise AssertionError("make_run_dir wrote into a runs directory it may not write")
    assert calls == [tmp_path / "runs"] and list((tmp_path / "runs").iterdir()) == []


def sweep_spec(tmp_path: Path, **spec) -> Path:
    return write(tmp_path / "s.yaml", {"base": "base.yaml", "seeds": 1, **spec})


@pytest.mark.slow
def test_sweep_options_and_exit_code_0(tmp_path):
    base_config(tmp_path)
    spec = sweep_spec(tmp_path, grid={"search.moves.assignment.holes": [2, 4]})
    runs = tmp_path / "sweeps"
    proc = e2opt(
        "sweep", spec, "--seeds", "3,5", "--set", "stop.max_iterations=150", "--runs-dir", runs,
        "--workers", "1", "--executor", "local",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (sweep_dir,) = runs.iterdir()
    assert "4 done" in proc.stdout and f"folder {sweep_dir}" in proc.stdout
    table = "| setting | n | min | median | mean | max | best known | gap | mean time to best (s) | mean moves/s |"
    assert table in proc.stdout.splitlines() and table not in proc.stderr  # the summary is the output
    assert sorted(p.name for p in sweep_dir.iterdir() if p.is_dir()) == [
        "holes=2_s3", "holes=2_s5", "holes=4_s3", "holes=4_s5",
    ]  # fmt: skip
    result = json.loads((sweep_dir / "holes=4_s5" / "result.json").read_text())
    assert result["seed"] == 5 and result["iterations"] == 150
    again = e2opt("sweep", "--resume", sweep_dir, "--workers", "1")
    assert again.returncode == 0 and "4 done" in again.stdout


@pytest.mark.slow
def test_sweep_exit_code_1_when_a_run_fails_and_the_users_folder_is_untouched(tmp_path):
    base_config(tmp_path)
    sweep = load_sweep(sweep_spec(tmp_path, seeds=2))
    sweep_dir = create_sweep(sweep, tmp_path / "sweeps")
    mine = sweep_dir / "s1"
    mine.mkdir()
    (mine / "config.yaml").write_text("# the user's own file in the way\n")
    proc = e2opt("sweep", "--resume", sweep_dir)
    assert proc.returncode == 1, proc.stderr
    assert "1 done, 1 failed" in proc.stdout or "1 failed, 1 done" in proc.stdout
    assert (mine / "config.yaml").read_text() == "# the user's own file in the way\n"


@pytest.mark.slow
def test_sweep_exit_code_130_on_ctrl_c(tmp_path):
    base_config(tmp_path, UNSOLVED, max_iterations=None, max_wall_s=60)
    spec = sweep_spec(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "e2opt", "sweep", str(spec), "--runs-dir", str(tmp_path / "sweeps")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_signals,
    )  # fmt: skip
    deadline = time.time() + 120
    while not list((tmp_path / "sweeps").glob("*/s1/checkpoint")):
        assert time.time() < deadline and proc.poll() is None, "the sweep's run never started its search"
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted: continue with  e2opt sweep --resume" in err and "Traceback" not in err
    assert "1 interrupted" in out
