"""Dask for real (issue 27): the shipped sweeps on a LocalCluster and on a cluster started from the command
line (``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1), runs of several workers inside a
Dask worker, and a Dask worker killed during a sweep. Bounded timeouts; every process started is ended."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT

from e2opt.engine.events import read_events

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow

HOLES = ROOT / "config" / "sweeps" / "holes.yaml"
RELAXED = ROOT / "config" / "sweeps" / "relaxed.yaml"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def sweep(
    tmp_path: Path, spec: Path, *extra: str, timeout: float = 240
) -> tuple[subprocess.CompletedProcess, Path]:
    """``e2opt sweep SPEC --executor dask --seeds 1 EXTRA`` into tmp_path/sweeps; its output and sweep folder."""
    runs = tmp_path / "sweeps"
    command = [sys.executable, "-m", "e2opt", "sweep", str(spec), "--executor", "dask", "--seeds", "1"]
    proc = subprocess.run(
        [*command, "--runs-dir", str(runs), *extra], capture_output=True, text=True, timeout=timeout, env=ENV
    )
    folders = list(runs.glob("*")) if runs.is_dir() else []
    return proc, (folders[0] if folders else runs)


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
        for proc in [*self.workers, self.scheduler]:
            try:
                proc.wait(10)
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


def test_the_shipped_holes_sweep_runs_on_a_local_dask_cluster(tmp_path):
    """Its base, config/eternity2.yaml, has run.workers: auto: each run is one worker, never processes in a
    daemonic Dask worker (that failed every run)."""
    proc, sweep_dir = sweep(tmp_path, HOLES, "--set", "stop.max_cpu_s=0.5")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    found = results(sweep_dir)
    assert len(found) == 6 and all(r["stop_reason"] == "max_cpu_s (0.5 s)" for r in found.values())
    assert all(len(r["workers"]) == 1 for r in found.values())


def test_the_shipped_relaxed_sweep_runs_on_a_local_dask_cluster(tmp_path):
    small = [
        "construct.cpsat.time_limit_s=0.5",
        "construct.cpsat.fallback_time_limit_s=0.5",
        "construct.cpsat.num_workers=1",
        "stop.max_iterations=300",
    ]
    proc, sweep_dir = sweep(tmp_path, RELAXED, *(arg for s in small for arg in ("--set", s)))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(results(sweep_dir)) == 6


def test_a_command_line_cluster_runs_a_sweep_of_two_worker_runs(tmp_path, cluster):
    """Each run keeps its two workers: its task secedes and submits its rounds to the same cluster. With two
    workers the base config's roles make one a dfs producer: its completions are capped as above."""
    sets = ["stop.max_cpu_s=1", "run.workers=2", *dfs_limits(HOLES.parent.parent / "eternity2.yaml")]
    proc, sweep_dir = sweep(
        tmp_path, HOLES, "--scheduler", cluster.address, *(a for s in sets for a in ("--set", s))
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    found = results(sweep_dir)
    assert len(found) == 6 and all(len(r["workers"]) == 2 for r in found.values())
    for run_id in found:
        where = next(e for e in read_events(sweep_dir / run_id) if e["event"] == "workers")["where"]
        assert where == "Dask on the Dask cluster this run is a task of"


def shorter_holes(tmp_path: Path, holes: list[int]) -> Path:
    """config/sweeps/holes.yaml with fewer values of its grid (runs after a kill go one at a time)."""
    text = HOLES.read_text().replace("base: ../eternity2.yaml", f"base: {ROOT / 'config' / 'eternity2.yaml'}")
    text = text.replace("search.holes: [2, 4, 8, 16, 32, 64]", f"search.holes: {holes}")
    assert f"search.holes: {holes}" in text
    spec = tmp_path / "holes.yaml"
    spec.write_text(text)
    return spec


def test_a_killed_dask_worker_loses_no_run(tmp_path, cluster):
    """Three runs on two Dask workers; one worker is killed with the run it executes once a run has a
    checkpoint (both workers are then in a run): every run finishes, one of them resumed or restarted."""
    runs = tmp_path / "sweeps"
    spec = shorter_holes(tmp_path, [8, 16, 32])
    command = [sys.executable, "-m", "e2opt", "sweep", str(spec), "--executor", "dask", "--seeds", "1"]
    command += ["--scheduler", cluster.address, "--runs-dir", str(runs), "--set", "stop.max_cpu_s=3"]
    command += ["--set", "output.checkpoint_every_s=0.5"]
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
    assert len(found) == 3 and all(r["stop_reason"] == "max_cpu_s (3 s)" for r in found.values())
    again = [
        run_id
        for run_id in found
        if any(e["event"] in ("resume", "restart") for e in read_events(sweep_dir / run_id))
    ]
    assert again, "the killed worker's run was neither resumed nor restarted"


CONFIGS = sorted((ROOT / "config").glob("*.yaml"))
AT_ONCE = 4  # sweeps of the shipped configs submitted to the shared cluster together (2 workers run them)


def dfs_limits(config: Path) -> list[str]:
    """The DFS completions' own budgets, cut to 1 s: they come after the DFS and do not stop at the run's
    budget (a 2 CPU s run of config/eternity2_blackwood.yaml takes 50 s wall), which the test does not check."""
    if "method: dfs" not in config.read_text():
        return []
    return ["construct.dfs.harvest.cpsat_s=1", "construct.dfs.harvest.repair_s=1"]


def config_sweep(config: Path, scheduler: str, folder: Path) -> str | None:
    """A one-run sweep of a shipped config on the cluster at ``scheduler``; what went wrong, None if nothing."""
    folder.mkdir()
    spec = folder / "one.yaml"
    spec.write_text(f"name: one\nbase: {config}\nseeds: 1\nset:\n  output.plots: false\n")
    limits = ["stop.max_cpu_s=1", "stop.max_wall_s=30", *dfs_limits(config)]
    proc, sweep_dir = sweep(
        folder, spec, "--scheduler", scheduler, *(a for s in limits for a in ("--set", s))
    )
    if proc.returncode != 0:
        return f"exit {proc.returncode}: {proc.stdout}{proc.stderr}"
    found = list(results(sweep_dir).values())
    if len(found) != 1:
        return f"{len(found)} results"
    if not found[0]["stop_reason"].startswith(("max_cpu_s", "max_wall_s", "max_iterations", "target_score")):
        return f"stopped by {found[0]['stop_reason']}"
    return None


def test_every_shipped_config_runs_as_a_sweep_task_on_dask(tmp_path):
    """All shipped configs in one test: they share one LocalCluster of two one-thread worker processes and
    AT_ONCE sweeps are submitted together (one after the other, most of a sweep's wall time was its own process
    starting). A test per config sharing a module's cluster needs its tests kept on one test process, which
    pytest-xdist's ``--dist loadgroup`` no longer does with pytest 9.2 (pytest-xdist#1386): each test process
    started the cluster and every sweep again."""
    from concurrent.futures import ThreadPoolExecutor

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as c,
        ThreadPoolExecutor(AT_ONCE) as pool,
    ):
        wrong = pool.map(
            lambda config: config_sweep(config, c.scheduler_address, tmp_path / config.stem), CONFIGS
        )
        failed = {config.stem: what for config, what in zip(CONFIGS, wrong, strict=True) if what}
    assert not failed, failed
