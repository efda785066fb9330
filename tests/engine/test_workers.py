"""Runs of several workers: reproducible meetings, resume, verified sharing, restarts, kill -9, Dask, config errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path

import numpy as np
import pytest
from helpers import write_run_yaml

from e2opt.cli.main import main
from e2opt.core.board import rule_violations, score
from e2opt.core.errors import ConfigError, E2optError
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.verify import verify_files
from e2opt.engine import coordinator
from e2opt.engine.checkpoint import load_checkpoint
from e2opt.engine.events import read_events
from e2opt.engine.executors.processes import LocalSlots
from e2opt.engine.loader import load_config
from e2opt.engine.plots import worker_series
from e2opt.engine.protocol import Task
from e2opt.engine.report import run_report
from e2opt.engine.resume import resume_run
from e2opt.engine.round import search_round, worker_streams
from e2opt.engine.run import Result, run_config
from e2opt.engine.team import Team

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "instances" / "brendan_set2" / "set2_06x06.txt"


def config_file(tmp_path: Path, **sections) -> Path:
    """A small two-worker run that meets every 500 moves (reproducible), restarting from the elite; both
    workers search (no producers, which ``auto`` would give a run that does not meet every N moves)."""
    data = {
        "instance": str(SMALL),
        "seed": 3,
        "construct": {"method": "random"},
        "search": {
            "moves": {"assignment": {"holes": 6}},
            "plateau": 50,
            "intensify_after": 2,
            "restart_after": 3,
        },
        "stop": {"max_iterations": 3000},
        "run": {"workers": 2, "sync_every_moves": 500, "restart_from": "elite", "roles": {"producers": 0}},
        "output": {"runs_dir": str(tmp_path / "runs"), "plots": False},
    }
    return write_run_yaml(tmp_path, data, sections)


def outcome(run_dir: Path) -> tuple:
    """What must match between two runs: results (without times), best.board, every worker's state."""
    result = json.loads((run_dir / "result.json").read_text())
    figures = [(w["best_score"], w["iterations"], w["restarts"]) for w in result["workers"]]
    state, _, _ = load_checkpoint(run_dir)
    measured = ("extra_move_cpu",)  # CPU seconds the schedule measured per move: times, not replayed
    arrays = {
        k: v.tolist() if isinstance(v, np.ndarray) else v
        for k, v in state.items()
        if k.split(".", 1)[-1] not in measured
    }
    return result["best_score"], result["iterations"], figures, (run_dir / "best.board").read_text(), arrays


@pytest.fixture(scope="module")
def straight(tmp_path_factory) -> Result:
    """The two-worker run of config_file, 3000 moves each without a stop: what the other runs must equal."""
    return run_config(load_config(config_file(tmp_path_factory.mktemp("straight"))))


def test_two_workers_with_fixed_seeds_repeat_exactly_and_share_only_verified_boards(tmp_path, straight):
    first = run_config(load_config(config_file(tmp_path)))
    assert outcome(Path(first.run_dir)) == outcome(Path(straight.run_dir))
    assert first.iterations == 6000 and first.stop_reason == "max_iterations (3000)"
    assert first.cpu_s == pytest.approx(sum(w["cpu_s"] for w in first.workers), abs=0.01)
    run_dir = Path(first.run_dir)
    events = list(read_events(run_dir))
    assert sum(e["event"] == "restart" and e["from"] == "elite" for e in events) > 0
    assert [e["event"] for e in events].count("share") == 6  # one per meeting
    assert verify_files(SMALL, run_dir / "best.board").valid
    curves = worker_series(run_dir)  # the per-worker lines of score.png
    assert {w: points[-1][1] for w, points in curves.items()} == {
        w["worker"]: w["best_score"] for w in first.workers
    }
    best = [e["score"] for e in events if e["event"] == "best"]
    assert best == sorted(best) and best[-1] == first.best_score == max(
        w["best_score"] for w in first.workers
    )


def test_resume_of_two_workers_continues_exactly(tmp_path, straight):
    half = run_config(load_config(config_file(tmp_path), ["stop.max_iterations=1500"]))
    resumed = resume_run(half.run_dir, overrides=("stop.max_iterations=3000",))
    assert resumed.iterations == 6000
    assert outcome(Path(straight.run_dir)) == outcome(Path(resumed.run_dir))


def test_one_worker_searches_like_a_plain_run(tmp_path):
    plain = run_config(load_config(config_file(tmp_path, run={"workers": 1}, search={"restart_after": None})))
    assert plain.workers[0]["restarts"] == 0 and plain.workers[0]["iterations"] == plain.iterations
    team = run_config(load_config(config_file(tmp_path, run={"workers": 1}, search={"restart_after": 10**6})))
    assert team.workers is not None and team.workers[0]["restarts"] == 0
    assert team.best_score == plain.best_score and team.iterations == plain.iterations
    assert Path(team.run_dir, "best.board").read_text() == Path(plain.run_dir, "best.board").read_text()


def test_streams_of_workers_are_distinct_and_worker_0_keeps_the_plain_runs():
    plain = np.random.SeedSequence(7).spawn(2)
    assert [s.generate_state(2).tolist() for s in worker_streams(7, 0)[:2]] == [
        s.generate_state(2).tolist() for s in plain
    ]
    states = {tuple(s.generate_state(2)) for w in range(4) for s in worker_streams(7, w)[:2]}
    assert len(states) == 8


def round_task(cfg, run_dir: Path, worker: int) -> Task:
    return Task(id="t", worker=worker, role="worker", config=cfg, t0=time.time(), state=None, round_end_wall=60.0,
                round_end_moves=200, cpu_limit=None, published=[], stop_file=str(run_dir / "stop"))  # fmt: skip


def test_publishing_refuses_a_board_that_breaks_a_rule(tmp_path):
    cfg = load_config(config_file(tmp_path))
    puzzle = read_puzzle(SMALL)
    team = Team(cfg, tmp_path, puzzle, 2, coordinator.stopping.Clock())
    answers = [search_round(round_task(cfg, tmp_path, w)) for w in (0, 1)]
    team.states = [a.state for a in answers]
    log = coordinator.EventLog(tmp_path)
    team.publish(log)
    assert sorted(e.score for e in team.elite.entries) == sorted(a.state.meta.best_score for a in answers)
    broken = answers[1].state
    corner = int(np.flatnonzero(team.flat.cell_kind == 0)[0])
    broken.best_rot = broken.best_rot.copy()
    broken.best_rot[corner] = (broken.best_rot[corner] + 1) % 4  # a corner turned off its rim
    assert rule_violations(puzzle, team.flat.board(broken.best_piece, broken.best_rot))
    elite = list(team.elite.entries)
    with pytest.raises(E2optError, match="invalid board"):
        team.publish(log)
    assert team.elite.entries == elite and len(team.published) == 2
    log.close()


def test_a_stagnated_worker_restarts_from_a_fresh_construction(tmp_path):
    cfg = load_config(
        config_file(tmp_path, run={"workers": 1, "restart_from": "fresh"}, search={"restart_after": 1})
    )
    result = run_config(cfg)
    events = list(read_events(Path(result.run_dir)))
    restarts = [e for e in events if e["event"] == "restart"]
    assert restarts and all(e["from"] == "fresh" for e in restarts)
    assert result.workers[0]["restarts"] == len(restarts) and result.iterations == 3000
    board = read_board(Path(result.run_dir) / "best.board")
    assert score(read_puzzle(SMALL), board) == result.best_score


def test_auto_workers_divide_the_cores_by_the_construction_threads(tmp_path, monkeypatch):
    monkeypatch.setattr("e2opt.core.cores.usable_cores", lambda: 8)
    cfg = load_config(config_file(tmp_path, run={"workers": "auto"}))
    assert coordinator.worker_count(cfg) == 8
    cpsat = load_config(
        config_file(tmp_path, run={"workers": "auto"}, construct={"method": "cpsat", "cpsat": {"relaxed": 8}})
    )
    assert coordinator.worker_count(cpsat) == 8 // cpsat.construct.cpsat.num_workers


@pytest.mark.parametrize(
    ("section", "key", "problem"),
    [
        ({"workers": 0}, "run.workers", "must be at least 1"),
        ({"workers": "many"}, "run.workers", "expected an integer or 'auto'"),
        ({"share_every_wall_s": -1}, "run.share_every_wall_s", "must be positive"),
        ({"restart_from": "nowhere"}, "run.restart_from", "expected one of"),
    ],
)
def test_bad_worker_settings_are_config_errors_naming_file_and_key(tmp_path, section, key, problem):
    path = config_file(tmp_path, run=section)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(f"{path}: key '{key}'") and problem in message and "\n" not in message


def test_workers_option_errors_are_one_line(tmp_path, capsys):
    assert main(["run", str(config_file(tmp_path)), "--workers", "0"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["e2opt: error: --workers 0: must be at least 1, got 0"]
    assert main(["run", str(config_file(tmp_path)), "--scheduler", "tcp://x:1"]) == 2
    assert "needs --executor dask" in capsys.readouterr().err


def test_dask_local_cluster_runs_the_workers_as_the_local_processes_do(tmp_path, straight):
    distributed = pytest.importorskip("distributed")
    cfg = load_config(config_file(tmp_path))
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as c:
        dask = run_config(cfg, executor="dask", scheduler=c.scheduler_address)
    assert outcome(Path(dask.run_dir)) == outcome(Path(straight.run_dir))
    workers = next(e for e in read_events(Path(dask.run_dir)) if e["event"] == "workers")
    assert workers["where"] == f"Dask on {c.scheduler_address}"


class KilledWorker(Exception):
    """Named like Dask's error for a task whose worker died."""


def test_a_round_lost_with_its_worker_is_submitted_again_from_the_state_held(tmp_path, monkeypatch, straight):
    class FlakyPool(LocalSlots):
        """Loses the third round submitted, as a Dask cluster loses a worker."""

        submitted = 0

        def submit(self, fn, task):
            self.submitted += 1
            if self.submitted == 3:
                future = Future()
                future.set_exception(KilledWorker("worker tcp://10.0.0.7:4000 died"))
                return future
            return super().submit(fn, task)

    cfg = load_config(config_file(tmp_path))
    monkeypatch.setattr(coordinator, "run_executor", lambda executor, n, scheduler, *_: FlakyPool(n))
    flaky = run_config(cfg)
    assert outcome(Path(flaky.run_dir)) == outcome(Path(straight.run_dir))
    assert sum(w["lost"] for w in flaky.workers) == 1
    lost = [e for e in read_events(Path(flaky.run_dir)) if e["event"] == "worker_lost"]
    assert len(lost) == 1 and "died" in lost[0]["error"]
    # every loss said (issue 48): result.json's totals, the event's CPU, the report's line
    assert flaky.lost == 1 and flaky.lost_cpu_s == lost[0]["cpu_s"] >= 0
    assert f"1 round lost with their worker ({lost[0]['cpu_s']:,.1f} CPU s): worker" in run_report(
        flaky.run_dir, plots=False
    )


def worker_pids(run_dir: Path) -> list[int]:
    """The worker processes now alive: the first ones, or their replacements (named in worker_lost events)."""
    events = list(read_events(run_dir))
    pids = next((e["pids"] for e in events if e["event"] == "workers"), [])
    return [pid for pid in pids if Path(f"/proc/{pid}").exists()]


@pytest.mark.slow
def test_a_killed_worker_process_is_replaced_and_the_run_finishes(tmp_path):
    path = config_file(
        tmp_path,
        search={"restart_after": None},
        stop={"max_iterations": None, "max_wall_s": 10},
        run={"sync_every_moves": None, "share_every_wall_s": 1},
        output={"checkpoint_every_wall_s": 1},
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "e2opt", "run", str(path), "--quiet"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    runs = tmp_path / "runs"
    deadline = time.time() + 60
    while time.time() < deadline:
        folders = list(runs.glob("*")) if runs.exists() else []
        if folders and any(
            e["event"] == "checkpoint" and e["iteration"] > 0 for e in read_events(folders[0])
        ):
            break
        time.sleep(0.2)
    run_dir = folders[0]
    before = max(e["score"] for e in read_events(run_dir) if e["event"] == "best")
    victim = worker_pids(run_dir)[0]
    os.kill(victim, signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    lost = [e for e in read_events(run_dir) if e["event"] == "worker_lost"]
    assert len(lost) == 1 and str(victim) in lost[0]["error"]
    result = json.loads((run_dir / "result.json").read_text())
    assert sum(w["lost"] for w in result["workers"]) == 1 and result["best_score"] >= before
    assert all(w["iterations"] > 0 for w in result["workers"])
    assert verify_files(SMALL, run_dir / "best.board").valid


def test_a_cpu_budget_is_shared_by_the_workers(tmp_path):
    path = config_file(
        tmp_path,
        stop={"max_iterations": None, "max_cpu_s": 1.0},
        run={"sync_every_moves": None, "share_every_wall_s": 0.5},
    )
    result = run_config(load_config(path))
    assert result.stop_reason == "max_cpu_s (1 s)"
    assert all(0.45 <= w["cpu_s"] <= 0.7 for w in result.workers), result.workers
    assert result.cpu_s == pytest.approx(sum(w["cpu_s"] for w in result.workers), abs=0.01)


def test_per_move_totals_add_up_over_workers_and_restarts(straight):
    """result.json, the end event and `e2opt report` give the moves of every worker and every search."""
    from e2opt.engine.report import run_report

    run_dir = Path(straight.run_dir)
    for worker in straight.workers:
        assert sum(m["calls"] for m in worker["moves"].values()) == worker["iterations"]
    assert sum(w["restarts"] for w in straight.workers) > 0  # totals carried across restarts too
    end = [e for e in read_events(run_dir) if e["event"] == "end"][-1]
    assert sum(m["calls"] for m in end["moves"].values()) == straight.iterations == 6000
    total = end["moves"]["assignment"]
    assert total["gain"] == sum(w["moves"]["assignment"]["gain"] for w in straight.workers)
    assert "move assignment: 6,000 calls" in run_report(run_dir, plots=False)


def test_a_worker_whose_run_went_away_mid_round_ends_quietly() -> None:
    """The run stopped (Ctrl-C to its process alone) while a round ran: the worker's answer finds the pipe
    closed, and the process ends with status 0 instead of printing BrokenPipeError tracebacks (status 1)."""
    from multiprocessing import get_context

    from e2opt.engine.executors.processes import _serve

    context = get_context("spawn")
    parent, child = context.Pipe()
    worker = context.Process(target=_serve, args=(child,))
    worker.start()
    child.close()
    parent.send((time.sleep, 0.5))
    parent.close()  # gone before the answer comes
    worker.join(timeout=60)
    assert worker.exitcode == 0
