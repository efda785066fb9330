"""Run folders know themselves (issue 14): markers, foreign folders left alone, finished runs, input copies."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import e2opt_here
from helpers import one_error_line
from small_run import SMALL, config_file

from e2opt.engine.loader import load_config
from e2opt.engine.resume import resume_run
from e2opt.engine.run import run_config
from e2opt.engine.runfolder import MARKER, marker_kind


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under folder (hidden ones too) -> sha256 of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def users_folder(tmp_path: Path) -> Path:
    """A folder of the user's own files that looks like a run folder: config.yaml, best.board, result.json."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "config.yaml").write_text(f"# my notes, keep them\ninstance: {SMALL}\nseed: 1\n")
    (folder / "best.board").write_text("2 2\n0:0 1:0\n2:0 3:0\n")
    (folder / "result.json").write_text('{"mine": true}\n')
    return folder


@pytest.mark.parametrize(
    "command",
    [
        ["resume"],
        ["resume", "--set", "stop.max_iterations=10"],
        ["report"],
        ["sweep", "--resume"],
        ["sweep-report"],
    ],
)
def test_a_folder_e2opt_did_not_make_is_refused_and_left_byte_identical(users_folder, command):
    before = snapshot(users_folder)
    line = one_error_line(e2opt_here(*command, users_folder))
    assert "not an e2opt" in line and "nothing was changed" in line
    assert snapshot(users_folder) == before
    assert sorted(p.name for p in users_folder.iterdir()) == ["best.board", "config.yaml", "result.json"]


def test_run_and_sweep_folders_carry_their_marker(tmp_path):
    result = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 200})))
    run_dir = Path(result.run_dir)
    assert marker_kind(run_dir) == "run"
    assert json.loads((run_dir / MARKER).read_text())["format"] == 1
    line = one_error_line(e2opt_here("sweep", "--resume", run_dir))
    assert "is an e2opt run folder, not a sweep folder" in line


def test_resuming_a_finished_run_says_so_and_changes_nothing(tmp_path):
    result = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 400})))
    run_dir = Path(result.run_dir)
    before = snapshot(run_dir)
    proc = e2opt_here("resume", run_dir, "--quiet")
    assert proc.returncode == 0 and "finished already" in proc.stdout and proc.stderr == ""
    assert snapshot(run_dir) == before
    assert json.loads((run_dir / "result.json").read_text())["moves_per_s"] > 0
    line = one_error_line(e2opt_here("resume", run_dir, "--quiet", "--set", "stop.max_iterations=100"))
    assert "--set stop.max_iterations=100: the run is already past it" in line
    assert snapshot(run_dir) == before


def test_a_run_folder_keeps_its_puzzle_so_report_and_resume_work_after_the_original_moves(tmp_path):
    moved = tmp_path / "elsewhere" / SMALL.name
    moved.parent.mkdir()
    shutil.copyfile(SMALL, moved)
    result = run_config(load_config(config_file(tmp_path, instance=moved, stop={"max_iterations": 300})))
    run_dir = Path(result.run_dir)
    assert (run_dir / "inputs" / SMALL.name).read_bytes() == SMALL.read_bytes()
    moved.unlink()
    proc = e2opt_here("report", run_dir)
    assert proc.returncode == 0, proc.stderr
    assert f"best {result.best_score}/" in proc.stdout
    resumed = resume_run(run_dir, overrides=("stop.max_iterations=600",))
    assert resumed.iterations == 600 and resumed.instance == SMALL.stem
    stored = yaml.safe_load((run_dir / "config.yaml").read_text())
    assert stored["instance"] == str(moved) and stored["stop"]["max_iterations"] == 600  # where it came from


def test_a_warm_start_board_is_kept_too(tmp_path):
    board = tmp_path / "start.board"
    first = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 100})))
    shutil.copyfile(Path(first.run_dir) / "best.board", board)
    result = run_config(
        load_config(config_file(tmp_path, construct={"method": "board", "board": str(board)}))
    )
    run_dir = Path(result.run_dir)
    assert (run_dir / "inputs" / "start-start.board").read_bytes() == board.read_bytes()
    board.unlink()
    (run_dir / "checkpoint").unlink()  # resume must start again from construction: it needs the board
    (run_dir / "checkpoint.prev").unlink(missing_ok=True)
    assert resume_run(run_dir).iterations == 3000


def test_a_run_folder_without_its_marker_is_refused_and_left_as_it_was(tmp_path):
    result = run_config(load_config(config_file(tmp_path, stop={"max_iterations": 300})))
    run_dir = Path(result.run_dir)
    (run_dir / MARKER).unlink()
    before = snapshot(run_dir)
    line = one_error_line(e2opt_here("resume", run_dir, "--set", "stop.max_iterations=500"))
    assert line.endswith(f"{run_dir}: not an e2opt run folder (no {MARKER} marker); nothing was changed")
    assert snapshot(run_dir) == before


def test_a_folder_whose_events_were_not_written_by_e2opt_is_not_adopted(users_folder):
    (users_folder / "events.jsonl").write_text('{"event": "something else"}\n')
    before = snapshot(users_folder)
    assert "not an e2opt run folder" in one_error_line(e2opt_here("resume", users_folder))
    assert snapshot(users_folder) == before


def test_missing_or_plain_file_run_dir(tmp_path):
    assert "no such folder" in one_error_line(e2opt_here("report", tmp_path / "nope"))
    (tmp_path / "f").write_text("x")
    assert "not a folder" in one_error_line(e2opt_here("resume", tmp_path / "f"))
