"""Dask for real (issue 27): the shipped sweeps on a LocalCluster and on a cluster started from the command
line (``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1), runs of several workers inside a
Dask worker, a Dask worker killed during a sweep, and one killed during a run (counted in result.json, the
events and the report). Slow (run with ``-m slow``, 20 s for the last one). Bounded timeouts; every process
started is ended."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT
from helpers import plain_yaml

from e2opt.engine.events import read_events
from e2opt.sweep import create_sweep, load_sweep, run_sweep
from e2opt.sweep.loop import SweepOutcome

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow

HOLES = ROOT / "config" / "sweeps" / "holes.yaml"
RELAXED = ROOT / "config" / "sweeps" / "relaxed.yaml"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def results(sweep_dir: Path) -> dict[str, dict]:
    """Each run's result.json, by run id."""
    return {p.parent.name: json.loads(p.read_text()) for p in sweep_dir.glob("*/result.json")}


class CommandLineCluster:
    """``dask scheduler`` and two ``dask worker`` processes (one thread each, no nanny) on 127.0.0.1."""

    def __init__(self, folder: Path):
        self.file = folder / "scheduler.json"
        dask = [sys.executable, "-m", "dask"]
        common = ["--no-dashboard", "--scheduler-file", str(self.file)]
        log = open(folder / "cluster.log", "w")  # noqa: SIM115 - closed in close()
        self.log = log
        self.scheduler = subprocess.Popen(
            [*dask, "scheduler", "--host", "127.0.0.1", "--port", "0", *common],
            stdout=log, stderr=log, env=ENV, cwd=folder,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while not self.file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        worker = [*dask, "worker", "--nthreads", "1", "--nworkers", "1", "--no-nanny", "--host", "127.0.0.1"]
        self.workers = [
            subprocess.Popen(
                [*worker, "--memory-limit", "0", *common], stdout=log, stderr=log, env=ENV, cwd=folder
            )
            for _ in range(2)
        ]
        self.address = json.loads(self.file.read_text())["address"]
        with distributed.Client(self.address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)

    def close(self) -> None:
        for proc in [*self.workers, self.scheduler]:
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + 3  # a busy worker may take 10 s to close gracefully: the test is over
        for proc in [*self.workers, self.scheduler]:
            try:
                proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        self.log.close()


@pytest.fixture
def cluster(tmp_path):
    started = CommandLineCluster(tmp_path)
    try:
        yield started
    finally:
        started.close()


@pytest.fixture(scope="module")
def local_cluster():
    """A LocalCluster of two one-thread worker processes, as ``e2opt sweep --executor dask`` starts one, shared
    by the sweeps below, which run in the test process: the shipped configs are 12 and a sweep command costs
    ~1.5 CPU s of start-up (``e2opt sweep`` starting its own cluster: tests/sweep/test_sweep.py)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as started:
        yield started.scheduler_address


def sweep_here(spec: Path, runs: Path, scheduler: str, *sets: str) -> tuple[SweepOutcome, Path]:
    """``e2opt sweep SPEC --seeds 1 --set SETS --runs-dir RUNS --scheduler SCHEDULER``, in this process."""
    loaded = load_sweep(spec, sets, seeds="1")
    sweep_dir = create_sweep(loaded, runs)
    return run_sweep(loaded, sweep_dir, "dask", scheduler=scheduler, out=io.StringIO()), sweep_dir


@pytest.mark.slow
def test_the_shipped_holes_sweep_runs_on_a_local_dask_cluster(tmp_path, local_cluster):
    """Its base, config/eternity2.yaml, has run.workers: auto: each run is one worker, never processes in a
    daemonic Dask worker (that failed every run)."""
    outcome, sweep_dir = sweep_here(HOLES, tmp_path, local_cluster, "stop.max_cpu_s=0.5")
    assert outcome.counts == {"done": 6} and not outcome.interrupted
    found = results(sweep_dir)
    assert len(found) == 6 and all(r["stop_reason"] == "max_cpu_s (0.5 s)" for r in found.values())
    assert all(len(r["workers"]) == 1 for r in found.values())


@pytest.mark.slow
def test_the_shipped_relaxed_sweep_runs_on_a_local_dask_cluster(tmp_path, local_cluster):
    """Its variants, grid and settings, on the 10x10 META 2010 puzzle: CP-SAT's model of the real puzzle takes
    seconds to build, which the test does not look at."""
    small = [
        f"instance={ROOT / 'instances' / 'meta2010_10x10.txt'}",
        "construct.cpsat.time_limit_wall_s=0.5",
        "construct.cpsat.fallback_time_limit_wall_s=0.5",
        "construct.cpsat.num_workers=1",
        "stop.max_iterations=30",
    ]
    outcome, sweep_dir = sweep_here(RELAXED, tmp_path, local_cluster, *small)
    assert outcome.counts == {"done": 6} and not outcome.interrupted
    assert len(results(sweep_dir)) == 6


@pytest.mark.slow
def test_a_command_line_cluster_runs_a_sweep_of_two_worker_runs(tmp_path, cluster):
    """Each run keeps its two workers: its task secedes and submits its rounds to the same cluster. With two
    workers the base config's roles make one a dfs producer: its completions are capped as above."""
    sets = ["stop.max_cpu_s=0.5", "run.workers=2", *dfs_limits(HOLES.parent.parent / "eternity2.yaml")]
    outcome, sweep_dir = sweep_here(HOLES, tmp_path, cluster.address, *sets)
    assert outcome.counts == {"done": 6} and not outcome.interrupted
    found = results(sweep_dir)
    assert len(found) == 6 and all(len(r["workers"]) == 2 for r in found.values())
    for run_id in found:
        where = next(e for e in read_events(sweep_dir / run_id) if e["event"] == "workers")["where"]
        assert where == "Dask on the Dask cluster this run is a task of"


def shorter_holes(tmp_path: Path, holes: list[int]) -> Path:
    """config/sweeps/holes.yaml with fewer values of its grid (runs after a kill go one at a time)."""
    text = HOLES.read_text().replace("base: ../eternity2.yaml", f"base: {ROOT / 'config' / 'eternity2.yaml'}")
    text = text.replace(
        "search.moves.assignment.holes: [2, 4, 8, 16, 32, 64]", f"search.moves.assignment.holes: {holes}"
    )
    assert f"search.moves.assignment.holes: {holes}" in text
    spec = tmp_path / "holes.yaml"
    spec.write_text(text)
    return spec


@pytest.mark.slow
def test_a_killed_dask_worker_loses_no_run(tmp_path, cluster):
    """Three runs on two Dask workers; one worker is killed with the run it executes once a run has a
    checkpoint (both workers are then in a run): every run finishes, one of them resumed or restarted."""
    runs = tmp_path / "sweeps"
    spec = shorter_holes(tmp_path, [8, 16, 32])
    command = [sys.executable, "-m", "e2opt", "sweep", str(spec), "--executor", "dask", "--seeds", "1"]
    command += ["--scheduler", cluster.address, "--runs-dir", str(runs), "--set", "stop.max_cpu_s=2"]
    command += ["--set", "output.checkpoint_every_wall_s=0.5"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not list(runs.glob("*/*/checkpoint")):
            time.sleep(0.2)
        assert list(runs.glob("*/*/checkpoint")), "no run reached a checkpoint"
        victim = cluster.workers[0]
        os.kill(victim.pid, signal.SIGKILL)  # a worker lost with the run it was executing
        victim.wait(10)
        out, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 0, out + err
    sweep_dir = next(runs.glob("*"))
    found = results(sweep_dir)
    assert len(found) == 3 and all(r["stop_reason"] == "max_cpu_s (2 s)" for r in found.values())
    again = [
        run_id
        for run_id in found
        if any(e["event"] in ("resume", "restart") for e in read_events(sweep_dir / run_id))
    ]
    assert again, "the killed worker's run was neither resumed nor restarted"


CONFIGS = sorted((ROOT / "config").glob("*.yaml"))
BUDGETS = ("max_cpu_s", "max_wall_s", "max_iterations", "target_score")  # the stops a run may end by here


def dfs_limits(config: Path) -> list[str]:
    """The DFS completions' own budgets, cut to 0.5 s: they come after the DFS and do not stop at the run's
    budget (a 2 CPU s run of config/eternity2_blackwood.yaml takes 50 s wall), which the test does not check."""
    if "method: dfs" not in config.read_text():
        return []
    return ["construct.dfs.harvest.cpsat_wall_s=0.5", "construct.dfs.harvest.repair_cpu_s=0.5"]


@pytest.mark.slow
def test_every_shipped_config_runs_as_a_sweep_task_on_dask(tmp_path, local_cluster):
    """One test for all shipped configs (a test per config would start the cluster again on each test process
    that runs one); what went wrong with each config is listed."""
    failed = {}
    for config in CONFIGS:
        spec = tmp_path / f"{config.stem}.yaml"
        spec.write_text(f"name: one\nbase: {config}\nseeds: 1\nset:\n  output.plots: false\n")
        limits = ["stop.max_cpu_s=0.3", "stop.max_wall_s=30", *dfs_limits(config)]
        outcome, sweep_dir = sweep_here(spec, tmp_path / config.stem, local_cluster, *limits)
        found = list(results(sweep_dir).values())
        stops = [r["stop_reason"].split(" ")[0] for r in found]
        if outcome.counts != {"done": 1} or len(stops) != 1 or stops[0] not in BUDGETS:
            failed[config.stem] = (outcome.counts, stops, sweep_dir)
    assert not failed, failed


@pytest.mark.slow
def test_a_dask_worker_killed_during_a_run_is_counted_in_result_events_and_report(tmp_path):
    """A two-worker run on a LocalCluster (nannies restart a killed worker): one Dask worker is killed with
    kill -9 while it runs a round; the scheduler runs the round again elsewhere (or the run submits it again),
    and result.json, a worker_lost event and ``e2opt report`` count the loss with its CPU."""
    import threading

    from e2opt.engine.loader import load_config
    from e2opt.engine.report import run_report
    from e2opt.engine.run import run_config

    data = {
        "instance": str(ROOT / "instances/brendan_set2/set2_10x10.txt"),
        "seed": 1,
        "construct": {"method": "random"},
        "search": {"moves": {"assignment": {"holes": 16}}},
        "stop": {"max_wall_s": 14},
        "run": {"workers": 2, "roles": {"producers": 0}, "share_every_wall_s": 1},
        "output": {
            "runs_dir": str(tmp_path / "runs"),
            "plots": False,
            "log_every_wall_s": 1,
            "stats_every_wall_s": 1,
        },
    }
    path = tmp_path / "run.yaml"
    path.write_text(plain_yaml(data))
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as lc,
        distributed.Client(lc) as client,
    ):
        outcome: dict = {}

        def go() -> None:
            try:
                outcome["result"] = run_config(
                    load_config(path), executor="dask", scheduler=lc.scheduler_address
                )
            except BaseException as exc:  # told to the test below
                outcome["error"] = exc

        runner = threading.Thread(target=go)
        runner.start()
        killed, deadline = None, time.monotonic() + 60
        while killed is None and runner.is_alive() and time.monotonic() < deadline:
            runs = list((tmp_path / "runs").glob("*"))
            searching = runs and any(
                e["event"] == "stats" and e.get("iteration", 0) > 0 for e in read_events(runs[0])
            )
            busy = [w for w, keys in client.processing().items() if any(k.startswith("e2opt-") for k in keys)]
            if searching and busy:
                pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
                os.kill(pid, signal.SIGKILL)  # the Dask worker with the round it runs
                killed = pid
            time.sleep(0.1)
        runner.join(120)
    assert killed is not None, "no round seen running during the search"
    assert "error" not in outcome, outcome.get("error")
    result = outcome["result"]
    run_dir = Path(result.run_dir)
    saved = json.loads((run_dir / "result.json").read_text())
    assert saved["lost"] >= 1 and saved["lost"] == result.lost
    assert sum(w["lost"] for w in saved["workers"]) == saved["lost"]
    lost_events = [e for e in read_events(run_dir) if e["event"] == "worker_lost"]
    assert len(lost_events) == saved["lost"] and all(e["cpu_s"] >= 0 for e in lost_events)
    assert "lost with their worker" in run_report(run_dir, plots=False)
