"""Checkpoints and resume: one run in two parts, damaged or half-renamed checkpoints, a failed write."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import numpy as np
import pytest
import yaml
from small_run import SET1, SMALL, cli, config_file

from e2opt.core import fsutil
from e2opt.core.board import random_board, score
from e2opt.core.formats.read import read_puzzle
from e2opt.engine.checkpoint import CHECKPOINT, PREVIOUS, CheckpointError, load_checkpoint, save_checkpoint
from e2opt.engine.events import read_events
from e2opt.engine.loader import load_config
from e2opt.engine.resume import AlreadyFinished, resume_run
from e2opt.engine.run import run_config
from e2opt.search.flat import FlatPuzzle


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
