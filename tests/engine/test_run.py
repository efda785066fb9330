"""A run from start to end: its folder, result and events, warm starts, bad input, the Python API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import e2opt_here
from small_run import SET1, SMALL, cli, config_file

from e2opt.core.board import score
from e2opt.core.errors import ConfigError
from e2opt.core.formats.read import read_puzzle
from e2opt.core.verify import verify_files
from e2opt.engine.checkpoint import CHECKPOINT
from e2opt.engine.events import read_events
from e2opt.engine.loader import load_config
from e2opt.engine.run import run_config
from e2opt.engine.runfolder import make_run_dir

RESULT_KEYS = {
    "instance", "seed", "best_score", "max_score", "best_known", "iterations", "moves_per_s",
    "wall_s", "cpu_s", "time_to_best_s", "stop_reason",
}  # fmt: skip


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
