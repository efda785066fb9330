"""Budgets kept: every construction checks the run's wall deadline, not only its own CPU limit, so a run on a
loaded machine (CPU seconds slower than wall seconds) still ends at --max-wall-s; workers whose processes
started after the wall budget was spent run no round."""

from __future__ import annotations

import time
import types

import numpy as np
from conftest import SET1
from helpers import plain_search, plain_yaml

from e2opt.construct import scan
from e2opt.construct.config import BeamConfig
from e2opt.core.formats.read import read_puzzle
from e2opt.engine import coordinator
from e2opt.engine.executors import InProcess
from e2opt.engine.loader import load_config
from e2opt.engine.run import run_config
from e2opt.search.warm import warm_search


def test_a_beam_on_a_starved_cpu_ends_at_the_runs_wall_deadline(tmp_path, monkeypatch):
    puzzle = read_puzzle(
        SET1 / "set1_06x06.txt"
    )  # numba kernels compiled first (a fresh install has no cache):
    scan.build_beam(
        puzzle, BeamConfig(width=4, time_limit_cpu_s=None), np.random.default_rng(0), None, None
    )  # not in the 2 s
    warm_search(plain_search())
    began = time.perf_counter()
    starved = types.SimpleNamespace(  # this process gets a 50th of a core: its beams count CPU that slowly
        process_time=lambda: (time.perf_counter() - began) / 50, perf_counter=time.perf_counter
    )
    monkeypatch.setattr(scan, "time", starved)
    data = {
        "instance": str(SET1 / "set1_06x06.txt"),
        "construct": {"method": "beam", "beam": {"width": 64, "time_limit_cpu_s": 30}},  # 25 min of wall here
        "stop": {"max_wall_s": 2},
        "run": {"workers": 1},
        "output": {"runs_dir": str(tmp_path / "runs"), "plots": False},
    }
    (tmp_path / "run.yaml").write_text(plain_yaml(data))
    result = run_config(load_config(tmp_path / "run.yaml"))
    # the beams repeat until the wall deadline (a perfect board, found on the way, may name the end instead)
    assert result.stop_reason in ("max_wall_s (2 s)", "target_score (60)")
    assert result.construction["beams"] > 1 and result.wall_s < 2 + 10  # stopped by the wall, not 30 CPU s


def test_workers_started_after_the_wall_budget_run_no_round(tmp_path, monkeypatch, capsys):
    """Starting 64 processes on a loaded machine took 3.6 s: a worker whose round would begin after the budget
    only overruns it. Worker 0 still runs one (the run keeps a board); the others are said not started."""
    rounds: list[int] = []

    class Counted(InProcess):
        def submit(self, fn, task):
            rounds.append(task.worker)
            return super().submit(fn, task)

    monkeypatch.setattr(coordinator, "run_executor", lambda *args: Counted())
    data = {
        "instance": str(SET1 / "set1_06x06.txt"),
        "construct": {"method": "random"},
        "stop": {"max_wall_s": 5},
        "run": {"workers": 3},
        "output": {"runs_dir": str(tmp_path / "runs"), "plots": False},
    }
    (tmp_path / "run.yaml").write_text(plain_yaml(data))
    result = run_config(load_config(tmp_path / "run.yaml"), spent_s=6.0)  # the budget spent at the start
    assert rounds == [0] and result.stop_reason == "max_wall_s (5 s)"
    assert [w["worker"] for w in result.workers] == [0]
    assert "2 of 3 workers not started: the wall budget was spent" in capsys.readouterr().err
