"""Sweeps: expansion and validation of sweep files, summary groups, resume after Ctrl-C, failing runs, Dask."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest
import yaml
from conftest import INSTANCES, SET1
from helpers import plain

from e2opt.cli.main import main
from e2opt.core.errors import ConfigError
from e2opt.engine.runfolder import mark
from e2opt.search.config import SearchConfig
from e2opt.sweep import Sweep, create_sweep, execute, expand_sweep, load_sweep, run_sweep
from e2opt.sweep.report import box_groups, write_summary

INSTANCE = SET1 / "set1_04x04.txt"


def write_yaml(path: Path, data: dict) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """A tiny base config: 4x4 puzzle, random start, 200 moves, no pictures."""
    return write_yaml(
        tmp_path / "base.yaml",
        plain(
            {
                "instance": str(INSTANCE),
                "construct": {"method": "random"},
                "search": {"moves": {"assignment": {"holes": 4}}},
                "stop": {"max_iterations": 200},
                "output": {"plots": False, "runs_dir": str(tmp_path / "runs")},
            }
        ),
    )


def sweep_file(tmp_path: Path, **spec) -> Path:
    return write_yaml(tmp_path / "sweep.yaml", {"base": "base.yaml", **spec})


def expand(tmp_path: Path, **spec) -> Sweep:
    path = sweep_file(tmp_path, **spec)
    return expand_sweep(yaml.safe_load(path.read_text()), path)


# --- expansion and validation ---


def test_expansion_is_grid_times_variants_times_seeds_with_the_right_overrides(tmp_path, base):
    spec = {
        "seeds": [3, 7],
        "set": {"search": {"moves": {"assignment": {"bias": 9.0}}}, "stop.max_iterations": 50},
        "grid": {
            "search.moves.assignment.holes": [2, 4],
            "search.moves.assignment.select": ["random", "biased"],
        },
        "variants": {
            "a": {"search.moves.assignment.bias": 1.0},
            "b": {"search.plateau": 7, "grid": {"search.moves.assignment.holes": [8]}},
        },
    }
    sweep = expand(tmp_path, **spec)
    plateau = SearchConfig().plateau  # the base config leaves it at the default
    expected = []
    for seed in (3, 7):
        for holes in (2, 4):
            for select in ("random", "biased"):
                expected.append(
                    (f"a_holes={holes}_select={select}_s{seed}", holes, select, 1.0, plateau, seed)
                )
        expected.append((f"b_holes=8_s{seed}", 8, "biased", 9.0, 7, seed))
    got = [
        (
            run.id,
            run.config["search"]["moves"]["assignment"]["holes"],
            run.config["search"]["moves"]["assignment"]["select"],
            run.config["search"]["moves"]["assignment"]["bias"],
            run.config["search"]["plateau"],
            run.config["seed"],
        )
        for run in sweep.runs
    ]
    assert got == expected
    assert all(run.config["stop"]["max_iterations"] == 50 for run in sweep.runs)
    assert sweep.keys == ["search.moves.assignment.holes", "search.moves.assignment.select"]
    assert sweep.variants == ["a", "b"]
    assert sweep.runs[0].values == {
        "search.moves.assignment.holes": 2,
        "search.moves.assignment.select": "random",
    }
    assert (
        sweep.runs[4].values == {"search.moves.assignment.holes": 8} and sweep.runs[4].setting == "b_holes=8"
    )


def test_seed_count_paths_and_clashing_short_names(tmp_path, base):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "p.txt").write_text(INSTANCE.read_text())
    spec = {
        "seeds": 3,
        "set": {"instance": "sub/p.txt"},
        "grid": {"search.moves.assignment.holes": [2], "stop.holes": [1]},
    }
    with pytest.raises(ConfigError, match=r"sweep\.yaml \(run .*\): unknown key 'stop\.holes'"):
        expand(tmp_path, **spec)
    spec["grid"] = {"search.moves.assignment.tabu_cells": [[1, 2]], "construct.cpsat.relaxed": [0]}
    sweep = expand(tmp_path, **spec)
    assert [run.seed for run in sweep.runs] == [1, 2, 3]
    assert sweep.runs[0].id == "tabu_cells=1-2_relaxed=0_s1"
    assert sweep.runs[0].config["instance"] == str((tmp_path / "sub" / "p.txt").resolve())


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            {"seeds": 1, "grid": {"search.hole": [2]}},
            r"sweep\.yaml \(run hole=2_s1\): unknown key 'search\.hole'",
        ),
        ({"seeds": 1, "set": {"serch.holes": 2}}, r"sweep\.yaml \(run s1\): unknown key 'serch'"),
        (
            {"seeds": 1, "variants": {"v": {"stop.max_iter": 5}}},
            r"sweep\.yaml .*unknown key 'stop\.max_iter'",
        ),
        (
            {"seeds": 1, "grid": {"search.moves.assignment.holes": [1]}},
            r"sweep\.yaml .*key 'search\.moves\.assignment\.holes': needs \[min, max\]",
        ),
        ({"seeds": 1, "grids": {}}, r"sweep\.yaml: unknown key 'grids'"),
        (
            {"seeds": 1, "grid": {"search.moves.assignment.holes": 4}},
            r"sweep\.yaml: key 'grid\.search\.moves\.assignment\.holes': expected a non-empty",
        ),
        ({"seeds": 1, "grid": {"seed": [1, 2]}}, r"sweep\.yaml: key 'grid\.seed': a sweep sets seeds"),
        ({"seeds": 0}, r"sweep\.yaml: key 'seeds': expected a count"),
        ({"seeds": [1, 1]}, r"sweep\.yaml: key 'seeds'"),
        ({}, r"sweep\.yaml: missing key 'seeds'"),
        ({"seeds": 1, "base": "nope.yaml"}, r"sweep\.yaml: key 'base': no config file at .*nope\.yaml"),
        ({"seeds": 1, "set": {"seed.x": 1}}, r"key 'set\.seed\.x': a sweep sets seeds"),
        (
            {"seeds": 1, "set": {"stop.max_iterations.x": 1}},
            r"key 'stop\.max_iterations\.x': .*not a config section",
        ),
    ],
)
def test_validation_errors_name_the_sweep_file_and_the_key(tmp_path, base, spec, message):
    path = sweep_file(tmp_path, **spec)
    with pytest.raises(ConfigError, match=message) as info:
        load_sweep(path)
    assert "\n" not in str(info.value)


def test_an_error_in_the_base_config_names_the_base_file(tmp_path, base):
    write_yaml(base, {"instance": str(INSTANCE), "search": {"holez": 3}})
    with pytest.raises(ConfigError, match=r"base\.yaml: unknown key 'search\.holez'"):
        load_sweep(sweep_file(tmp_path, seeds=1))


def test_command_line_set_and_seeds(tmp_path, base):
    path = sweep_file(
        tmp_path,
        seeds=5,
        set={"search.moves.assignment.bias": 1.0},
        grid={"search.moves.assignment.holes": [2, 4]},
    )
    sweep = load_sweep(path, ["search.moves.assignment.bias=3", "stop.max_iterations=10"], "2,9")
    assert [run.id for run in sweep.runs] == ["holes=2_s2", "holes=4_s2", "holes=2_s9", "holes=4_s9"]
    assert {
        (r.config["search"]["moves"]["assignment"]["bias"], r.config["stop"]["max_iterations"])
        for r in sweep.runs
    } == {(3.0, 10)}
    assert sweep.overrides == [
        "--set search.moves.assignment.bias=3",
        "--set stop.max_iterations=10",
        "--seeds 2,9",
    ]


def test_status_journal_survives_a_torn_last_line(tmp_path, base):
    sweep = expand(tmp_path, seeds=3)
    sweep_dir = tmp_path / "sweep_dir"
    sweep_dir.mkdir()
    mark(sweep_dir, "sweep")
    sweep.write(sweep_dir)
    sweep.set_status(sweep_dir, "s1", "failed", "ValueError: x")
    with open(sweep_dir / "status.jsonl", "a") as f:
        f.write('{"id": "s2", "sta')  # the sweep process was killed mid-write
    sweep.set_status(sweep_dir, "s3", "done")
    loaded = Sweep.load(sweep_dir)
    assert [loaded.status_of(r) for r in ("s1", "s2", "s3")] == ["failed", "pending", "done"]
    assert loaded.error_of("s1") == "ValueError: x" and loaded.runs == sweep.runs


# --- summary groups ---


def test_boxplot_groups_put_a_baseline_variant_beside_the_swept_values(tmp_path, base):
    """Paper 001 Figure 5: one box per relaxed count, plus one for the random start."""
    spec = {
        "seeds": 2,
        "variants": {
            "cpsat": {"construct.method": "cpsat", "grid": {"construct.cpsat.relaxed": [0, 8]}},
            "random": {"construct.method": "random"},
        },
    }
    sweep = expand(tmp_path, **spec)
    scores = {"cpsat_relaxed=0_s1": 10, "cpsat_relaxed=8_s1": 11, "random_s1": 12}
    scores |= {"cpsat_relaxed=0_s2": 13, "cpsat_relaxed=8_s2": 14, "random_s2": 15}
    rows = [{"run": run_id, "status": "done", "best_score": score} for run_id, score in scores.items()]
    rows[-1]["status"] = "failed"
    assert box_groups(sweep, rows, "construct.cpsat.relaxed") == {
        "0": [10, 13],
        "8": [11, 14],
        "random": [12],
    }
    assert box_groups(sweep, rows, None) == {"cpsat": [10, 11, 13, 14], "random": [12]}


# --- running sweeps (real runs on a 4x4 puzzle, in spawned worker processes) ---


def log_call(task: dict, log: str) -> None:
    with open(Path(task["run_dir"]).parent / log, "a") as f:
        f.write(task["id"] + "\n")


def calls(sweep_dir: Path, log: str) -> list[str]:
    path = sweep_dir / log
    return path.read_text().split() if path.exists() else []


def ctrl_c_after_two_runs(task: dict) -> dict:
    """Worker side: a real run; after the second one, Ctrl-C to the sweep process."""
    outcome = execute(task)
    log_call(task, "first.log")
    if len(calls(Path(task["run_dir"]).parent, "first.log")) == 2:
        os.kill(os.getppid(), signal.SIGINT)
    return outcome


def counting(task: dict) -> dict:
    """Worker side: a real run, logged."""
    log_call(task, "second.log")
    return execute(task)


def ctrl_c_during_run(task: dict) -> dict:
    """Worker side: Ctrl-C to the sweep process once the run's search has begun (its first checkpoint)."""
    checkpoint = Path(task["run_dir"]) / "checkpoint"

    def signal_when_searching() -> None:
        while not checkpoint.exists():
            time.sleep(0.05)
        os.kill(os.getppid(), signal.SIGINT)

    threading.Thread(target=signal_when_searching, daemon=True).start()
    return execute(task)


def statuses(sweep_dir: Path) -> dict[str, str]:
    sweep = Sweep.load(sweep_dir)
    return {run.id: sweep.status_of(run.id) for run in sweep.runs}


@pytest.mark.slow
def test_ctrl_c_then_resume_finishes_without_redoing_finished_runs(tmp_path, base, capsys):
    sweep = load_sweep(sweep_file(tmp_path, seeds=3, grid={"search.moves.assignment.holes": [2, 4]}))
    sweep_dir = create_sweep(sweep)
    outcome = run_sweep(sweep, sweep_dir, workers=1, runner=ctrl_c_after_two_runs)
    assert outcome.interrupted
    assert "stopping (SIGINT)" in capsys.readouterr().out
    first = statuses(sweep_dir)
    done_first = sorted(run_id for run_id, status in first.items() if status == "done")
    assert 2 <= len(done_first) < 6 and set(done_first) <= set(calls(sweep_dir, "first.log"))
    # a finished run whose files no longer check out is run again (resumed from its checkpoint)
    tampered, kept = done_first[0], done_first[1:]
    result_path = sweep_dir / tampered / "result.json"
    result = json.loads(result_path.read_text())
    result_path.write_text(json.dumps({**result, "best_score": result["best_score"] + 1}))
    stamps = {run_id: (sweep_dir / run_id / "result.json").stat().st_mtime_ns for run_id in kept}

    with open(sweep_dir / "status.jsonl", "a") as f:
        f.write('{"id": "holes=2_s1", "sta')  # a torn last line (killed mid-write) is skipped
    outcome = run_sweep(Sweep.load(sweep_dir), sweep_dir, workers=1, runner=counting)
    assert not outcome.interrupted and outcome.counts == {"done": 6}
    assert set(statuses(sweep_dir).values()) == {"done"}
    assert sorted(calls(sweep_dir, "second.log")) == sorted({*first, tampered} - set(kept))
    assert {run_id: (sweep_dir / run_id / "result.json").stat().st_mtime_ns for run_id in kept} == stamps
    assert json.loads(result_path.read_text())["best_score"] == result["best_score"]


@pytest.mark.slow
def test_ctrl_c_stops_a_run_in_flight_cleanly_and_resume_continues_it(tmp_path, base):
    unsolvable = {"instance": str(INSTANCES / "meta2010_10x10.txt")}  # not solved in 3 s: no early stop
    spec = {"seeds": 1, "set": {**unsolvable, "stop": {"max_iterations": None, "max_wall_s": 3}}}
    sweep = load_sweep(sweep_file(tmp_path, **spec))
    sweep_dir = create_sweep(sweep)
    run_dir = sweep_dir / "s1"
    outcome = run_sweep(sweep, sweep_dir, workers=1, runner=ctrl_c_during_run)
    assert outcome.interrupted and statuses(sweep_dir) == {"s1": "interrupted"}
    first = json.loads((run_dir / "result.json").read_text())
    assert first["stop_reason"] == "SIGTERM" and first["wall_s"] < 3
    assert (run_dir / "checkpoint").exists()

    outcome = run_sweep(Sweep.load(sweep_dir), sweep_dir, workers=1)
    assert outcome.counts == {"done": 1}
    final = json.loads((run_dir / "result.json").read_text())
    assert final["stop_reason"].startswith("max_wall_s") and final["iterations"] > first["iterations"]
    events = [json.loads(line)["event"] for line in (run_dir / "events.jsonl").read_text().splitlines()]
    assert events.count("start") == 1 and events.count("resume") == 1


def test_a_closed_output_never_stops_a_sweep(tmp_path, base):
    sweep = load_sweep(sweep_file(tmp_path, seeds=1))
    sweep_dir = create_sweep(sweep)

    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    # stdout gone (its reader ended): the sweep's lines go nowhere, its runs still finish
    assert run_sweep(sweep, sweep_dir, workers=1, out=ClosedPipe()).counts == {"done": 1}


def test_a_failing_run_is_recorded_and_the_sweep_goes_on(tmp_path, base):
    warm = tmp_path / "warm.board"  # a valid warm start when the sweep is checked and expanded ...
    warm.write_text((SET1 / "solutions" / "set1_04x04.board").read_text())
    path = sweep_file(
        tmp_path,
        seeds=2,
        variants={"good": {}, "bad": {"construct.method": "board", "construct.board": str(warm)}},
    )
    sweep = load_sweep(path)
    sweep_dir = create_sweep(sweep)
    warm.write_text("not a board\n")  # ... and broken before its runs start: they raise ConfigError
    outcome = run_sweep(sweep, sweep_dir, workers=1)
    assert outcome.counts == {"done": 2, "failed": 2} and not outcome.interrupted
    out = write_summary(sweep_dir)
    assert statuses(sweep_dir) == {
        "good_s1": "done",
        "bad_s1": "failed",
        "good_s2": "done",
        "bad_s2": "failed",
    }
    sweep = Sweep.load(sweep_dir)
    assert sweep.error_of("bad_s1").startswith("ConfigError:") and sweep.error_of("good_s1") is None
    assert "not a valid board" in sweep.error_of("bad_s1") or "header" in sweep.error_of("bad_s1")
    assert "ConfigError" in (sweep_dir / "bad_s1" / "error.txt").read_text()
    rows = list(csv.DictReader((sweep_dir / "summary.csv").open()))
    assert [(r["run"], r["variant"], r["status"]) for r in rows] == [
        ("good_s1", "good", "done"),
        ("bad_s1", "bad", "failed"),
        ("good_s2", "good", "done"),
        ("bad_s2", "bad", "failed"),
    ]
    for r in rows[::2]:
        result = json.loads((sweep_dir / r["run"] / "result.json").read_text())
        assert int(r["best_score"]) == result["best_score"] and float(r["cpu_s"]) == result["cpu_s"]
    assert "| good | 2/2 |" in out and "| bad | 0/2 |" in out and "`bad_s2`: failed — ConfigError" in out
    assert (sweep_dir / "boxplot_variant.png").read_bytes()[:4] == b"\x89PNG"
    summary = (sweep_dir / "summary.csv").read_text()
    (sweep_dir / "summary.csv").unlink()
    assert main(["sweep-report", str(sweep_dir)]) == 0
    assert (sweep_dir / "summary.csv").read_text() == summary


def test_dask_local_cluster_runs_a_sweep_end_to_end(tmp_path, base):
    pytest.importorskip("distributed")
    sweep = load_sweep(sweep_file(tmp_path, seeds=2, grid={"search.moves.assignment.holes": [2, 4]}))
    sweep_dir = create_sweep(sweep)
    outcome = run_sweep(sweep, sweep_dir, executor="dask", workers=1)
    assert outcome.counts == {"done": 4} and not outcome.interrupted
    text = write_summary(sweep_dir)
    assert "| holes=2 | 2/2 |" in text and "| holes=4 | 2/2 |" in text
    assert (sweep_dir / "boxplot_search.moves.assignment.holes.png").exists() and (
        sweep_dir / "curves.png"
    ).exists()
    scores = [json.loads((sweep_dir / r.id / "result.json").read_text())["best_score"] for r in sweep.runs]
    assert all(0 < s <= 24 for s in scores)


def test_malformed_dask_scheduler_address_is_a_one_line_error(tmp_path, base, capsys):
    pytest.importorskip("distributed")
    args = ["sweep", str(sweep_file(tmp_path, seeds=1)), "--executor", "dask", "--scheduler", "notaurl::::"]
    assert main(args) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("e2opt: error: --scheduler 'notaurl::::': not a Dask"), err
