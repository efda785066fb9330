"""Worker roles: producers feed the run's pool, repairers take its most promising boards (issue 25).

A role split run (the pool itself: test_boardpool.py) meeting every N moves repeats seed for seed; a
killed run resumes with its pool and never a lower best; every produced board is verified and counted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import ClassVar

import pytest
import yaml
from helpers import worker_processes
from test_workers import config_file as workers_config

from e2opt.core.errors import ConfigError
from e2opt.core.verify import verify_files
from e2opt.engine.checkpoint import load_checkpoint
from e2opt.engine.events import read_events
from e2opt.engine.loader import load_config
from e2opt.engine.resume import resume_run
from e2opt.engine.run import run_config

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "instances" / "brendan_set2" / "set2_06x06.txt"


def config_file(tmp_path: Path, **sections) -> Path:
    """test_workers' two-worker run (meeting every 500 moves): worker 1 produces one-beam boards, worker 0
    repairs them, taking the next after 300 moves without a new best."""
    roles = {"producers": 1, "method": "beam", "leave_after_moves": 300, "pool_size": 4}
    run = {"roles": roles, **sections.pop("run", {})}
    search = {"restart_after": None, **sections.pop("search", {})}
    construct = {"beam": {"width": 32, "fanout": 2}}
    return workers_config(tmp_path, construct=construct, search=search, run=run, **sections)


def fingerprint(run_dir: Path) -> tuple:
    """What must repeat: the best board, each worker's figures, the events without times."""
    result = json.loads((run_dir / "result.json").read_text())
    timeless = [
        {k: v for k, v in e.items() if not k.endswith(("_s", "pid", "pids", "per_s")) and k != "time"}
        for e in read_events(run_dir)
        if e["event"] in ("produced", "repaired", "restart", "best", "worker_best")
    ]
    workers = [(w["best_score"], w["iterations"], w["restarts"]) for w in result["workers"]]
    return (run_dir / "best.board").read_text(), workers, timeless


@pytest.fixture(scope="module")
def split(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("split")
    return run_config(load_config(config_file(tmp))), tmp


def test_a_role_split_run_repeats_seed_for_seed(split, tmp_path):
    first, _ = split
    again = run_config(load_config(config_file(tmp_path)))
    assert fingerprint(Path(first.run_dir)) == fingerprint(Path(again.run_dir))


def test_two_producers_and_a_repairer_repeat_seed_for_seed_and_share_one_pool(tmp_path):
    roles = {"producers": 2, "method": "beam", "leave_after_moves": 300, "pool_size": 6}
    stop = {"max_iterations": 1500}
    runs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        path = config_file(tmp_path / name, run={"workers": 3, "roles": roles}, stop=stop)
        runs.append(run_config(load_config(path)))
    assert fingerprint(Path(runs[0].run_dir)) == fingerprint(Path(runs[1].run_dir))
    events = list(read_events(Path(runs[0].run_dir)))
    produced = [e for e in events if e["event"] == "produced"]
    assert {e["worker"] for e in produced} == {1, 2} and len({e["key"] for e in produced}) == len(produced)
    taken = [e for e in events if e["event"] == "restart" and e.get("from") == "pool"]
    assert taken and {e["worker"] for e in taken} == {0}
    assert [w["role"] for w in runs[0].workers] == ["repairer", "producer", "producer"]


def test_producers_feed_the_pool_and_the_repairer_takes_from_it(split):
    result, _ = split
    run_dir = Path(result.run_dir)
    events = list(read_events(run_dir))
    produced = [e for e in events if e["event"] == "produced"]
    assert produced and {e["worker"] for e in produced} == {1}
    assert all(e["role"] == "producer" and e["method"] == "beam" for e in produced)
    taken = [e for e in events if e["event"] == "restart" and e.get("from") == "pool"]
    assert taken and {e["worker"] for e in taken} == {0}
    repaired = [e for e in events if e["event"] == "repaired"]
    assert len(repaired) == len(taken)  # a repairer leaves one board for each board it takes
    assert all(e["score"] >= e["score_before"] for e in repaired)
    # the repairer took the best waiting boards: every taken score is one a producer offered and kept
    kept = [e["score"] for e in produced if e["kept"]]
    assert all(e["score"] in kept for e in taken)
    assert result.best_score >= max(e["score"] for e in produced)
    bests = [e["score"] for e in events if e["event"] == "best"]
    assert bests == sorted(set(bests)) and bests[-1] == result.best_score
    assert {e["role"] for e in events if e["event"] == "best"} <= {"producer", "repairer"}
    assert verify_files(SMALL, run_dir / "best.board").valid
    assert result.workers[1]["iterations"] == 0 and result.workers[0]["iterations"] == 3000
    assert result.stop_reason.startswith("max_iterations")


def test_a_stopped_role_split_run_resumes_with_its_pool(split, tmp_path):
    straight, _ = split
    half = run_config(load_config(config_file(tmp_path), ["stop.max_iterations=1500"]))
    state, meta, _ = load_checkpoint(Path(half.run_dir))
    pool = meta["team"]["pool"]
    assert pool["entries"] and all(f"pool{j}.piece" in state for j in range(len(pool["entries"])))
    resumed = resume_run(half.run_dir, overrides=("stop.max_iterations=3000",))
    assert resumed.best_score >= half.best_score
    assert fingerprint(Path(resumed.run_dir)) == fingerprint(Path(straight.run_dir))


def test_roles_on_a_dask_cluster_repeat_the_local_run(split, tmp_path):
    distributed = pytest.importorskip("distributed")
    cfg = load_config(config_file(tmp_path))
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        dask = run_config(cfg, executor="dask", scheduler=cluster.scheduler_address)
    assert fingerprint(Path(dask.run_dir)) == fingerprint(Path(split[0].run_dir))


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [
        ("producers", -1, "run.roles.producers"),
        ("method", "teleport", "run.roles.method"),
        ("similar", 1.5, "run.roles.similar"),
        ("leave_after_wall_s", 0, "run.roles.leave_after_wall_s"),
        ("pools", 3, "run.roles.pools"),
        ("leave_after_moves", None, "run.roles.leave_after_moves"),  # sync_every_moves needs it to repeat
    ],
)
def test_bad_role_settings_name_the_key(tmp_path, key, value, problem):
    path = config_file(tmp_path)
    data = yaml.safe_load(path.read_text())
    data["run"]["roles"][key] = value
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert problem in str(info.value) and str(path) in str(info.value)


def test_rounds_lost_by_a_producer_and_by_a_repairer_are_run_again_and_lose_nothing(
    split, tmp_path, monkeypatch
):
    from concurrent.futures import Future

    from e2opt.engine import coordinator
    from e2opt.engine.executors import InProcess, WorkerDied

    class FlakyPool(InProcess):
        """Loses the third round of the producer and the fourth of the repairer, as a dead process would."""

        lost: ClassVar[set] = set()

        def submit(self, fn, task):
            which = (task.role, task.id.rsplit("-r", 1)[1])
            if which in (("producer", "3"), ("repairer", "4")) and which not in self.lost:
                self.lost.add(which)
                fn(task)  # the round ran (a producer's board was made), then its process died
                future = Future()
                future.set_exception(WorkerDied("worker process 4242 ended (exit code -9)"))
                return future
            return super().submit(fn, task)

    monkeypatch.setattr(coordinator, "run_executor", lambda executor, n, scheduler, *_: FlakyPool())
    flaky = run_config(load_config(config_file(tmp_path)))
    straight, _ = split
    assert fingerprint(Path(flaky.run_dir)) == fingerprint(Path(straight.run_dir))
    assert [w["lost"] for w in flaky.workers] == [1, 1]
    produced = [e for e in read_events(Path(flaky.run_dir)) if e["event"] == "produced"]
    files = sorted(p.name for p in (Path(flaky.run_dir) / "worker1" / "produced").glob("*.board"))
    assert files == [
        f"{n:06d}.board" for n in range(len(produced))
    ]  # the lost board was handed over, not made twice


@pytest.mark.slow
def test_a_killed_role_split_run_resumes_with_its_pool_and_its_best(tmp_path):
    path = config_file(
        tmp_path,
        stop={"max_iterations": None, "max_wall_s": 40},
        run={"sync_every_moves": None, "share_every_wall_s": 1,
             "roles": {"producers": 1, "method": "beam", "leave_after_wall_s": 1, "pool_size": 5000}},
        output={"checkpoint_every_wall_s": 1},
    )  # fmt: skip
    run_dir = _kill_9_when(
        path, tmp_path, lambda d: len(load_checkpoint(d)[1]["team"]["pool"]["entries"]) >= 3
    )
    _, meta, _ = load_checkpoint(run_dir)
    before_keys = {e["key"] for e in meta["team"]["pool"]["entries"]}
    before_best = max(e["score"] for e in read_events(run_dir) if e["event"] == "best")
    resumed = resume_run(str(run_dir), overrides=("stop.max_wall_s=45",), quiet=True)
    _, after, _ = load_checkpoint(run_dir)
    assert before_keys <= {e["key"] for e in after["team"]["pool"]["entries"]}
    assert resumed.best_score >= before_best
    assert verify_files(SMALL, run_dir / "best.board").valid


def _two_producers_and_a_repairer(
    tmp_path: Path, wall_s: float, repair_s: float, checkpoint_s: float
) -> Path:
    """A config of three workers in local processes: two beam producers and a repairer, a wall budget."""
    return config_file(
        tmp_path,
        stop={"max_iterations": None, "max_wall_s": wall_s},
        run={"workers": 3, "sync_every_moves": None, "share_every_wall_s": 1,
             "roles": {"producers": 2, "method": "beam", "leave_after_wall_s": repair_s, "pool_size": 5000}},
        output={"checkpoint_every_wall_s": checkpoint_s},
    )  # fmt: skip


@pytest.mark.slow
def test_kill_9_of_the_coordinator_of_three_workers_then_resume_counts_each_board_once(tmp_path):
    """Two producers and a repairer; the coordinator and its workers get SIGKILL between two checkpoints, so
    boards produced after the last one are handed again by the resumed producers (from worker<i>/produced):
    the pool keeps every board it had, the best never falls, and each board has one "produced" event."""

    path = _two_producers_and_a_repairer(tmp_path, wall_s=60, repair_s=1, checkpoint_s=3)

    def counted_since_checkpoint(run_dir: Path) -> bool:
        pool = load_checkpoint(run_dir)[1]["team"]["pool"]["entries"]
        kinds = [e["event"] for e in read_events(run_dir)]
        since = kinds[len(kinds) - kinds[::-1].index("checkpoint") :] if "checkpoint" in kinds else []
        return {e["worker"] for e in pool} == {1, 2} and "produced" in since  # handed again on resume

    run_dir = _kill_9_when(path, tmp_path, counted_since_checkpoint, poll_s=0.1)
    _, meta, _ = load_checkpoint(run_dir)
    before_keys = {e["key"] for e in meta["team"]["pool"]["entries"]}
    before_best = max(e["score"] for e in read_events(run_dir) if e["event"] == "best")
    # a budget of the repairer's moves, not wall seconds: the workers' start-up varies with the machine's load
    moves = f"stop.max_iterations={meta['team']['moves'][0] + 30_000}"
    resumed = resume_run(str(run_dir), overrides=(moves, "stop.max_wall_s=null"), quiet=True)
    _, after, _ = load_checkpoint(run_dir)
    assert before_keys <= {e["key"] for e in after["team"]["pool"]["entries"]}
    assert resumed.best_score >= before_best
    assert [w["role"] for w in resumed.workers] == ["repairer", "producer", "producer"]
    produced = [e for e in read_events(run_dir) if e["event"] == "produced"]
    keys = [e["key"] for e in produced]
    assert len(keys) == len(set(keys)) and {e["worker"] for e in produced} == {1, 2}
    for i in (1, 2):
        files = list((run_dir / f"worker{i}" / "produced").glob("*.json"))
        assert sum(e["worker"] == i for e in produced) <= len(files)
    assert verify_files(SMALL, run_dir / "best.board").valid


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the worker processes in /proc")
def test_kill_9_of_a_lone_producer_and_of_a_lone_repairer_loses_nothing_and_the_run_goes_on(tmp_path):
    """Three workers (two producers, a repairer) in local processes; worker processes get SIGKILL one at a time
    until a producer's round and the repairer's round have each been lost. The run goes on to its budget:
    the pool keeps every board it had, the best never falls, each board has one "produced" event."""
    import os
    import signal
    import subprocess
    import sys
    import time

    path = _two_producers_and_a_repairer(tmp_path, wall_s=50, repair_s=2, checkpoint_s=1)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "e2opt", "run", str(path), "--quiet"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    try:
        run_dir, before_keys, before_best, lost_roles = None, set(), 0, set()
        deadline = time.time() + 40
        while time.time() < deadline and len(lost_roles) < 2:
            time.sleep(0.5)
            folders = list((tmp_path / "runs").glob("*")) if (tmp_path / "runs").exists() else []
            if not folders or not (folders[0] / "checkpoint").exists():
                continue
            run_dir = folders[0]
            events = list(read_events(run_dir))
            roles = next((e["roles"] for e in events if e["event"] == "workers"), None)
            if roles is None or not any(e["event"] == "best" for e in events):
                continue
            lost_roles = {roles[e["worker"]] for e in events if e["event"] == "worker_lost"}
            if not before_keys:  # what the run had before its first loss
                before_keys = {e["key"] for e in load_checkpoint(run_dir)[1]["team"]["pool"]["entries"]}
                before_best = max(e["score"] for e in events if e["event"] == "best")
                if not before_keys:
                    continue
            children = worker_processes(proc.pid)
            if children and len(lost_roles) < 2:
                os.kill(children[len(lost_roles) % len(children)], signal.SIGKILL)
                time.sleep(1.0)  # the coordinator notices, writes worker_lost and submits the round again
        _out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, err
    assert lost_roles == {"producer", "repairer"} and before_keys
    events = list(read_events(run_dir))
    bests = [e["score"] for e in events if e["event"] == "best"]
    assert bests == sorted(bests) and bests[-1] >= before_best
    _, after, _ = load_checkpoint(run_dir)
    assert before_keys <= {e["key"] for e in after["team"]["pool"]["entries"]}
    produced = [e["key"] for e in events if e["event"] == "produced"]
    assert len(produced) == len(set(produced))
    result = json.loads((run_dir / "result.json").read_text())
    assert sum(w["lost"] for w in result["workers"]) >= 2 and result["best_score"] == bests[-1]
    assert verify_files(SMALL, run_dir / "best.board").valid


def _kill_9_when(path: Path, tmp_path: Path, ready, poll_s: float = 0.3) -> Path:
    """Start ``e2opt run path`` in its own process group, wait (90 s at most) until its run folder has a
    checkpoint and ``ready(run_dir)``, then SIGKILL the run and its worker processes at once; the folder."""
    import os
    import signal
    import subprocess
    import sys
    import time

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "e2opt", "run", str(path), "--quiet"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    runs, deadline, run_dir = tmp_path / "runs", time.time() + 90, None
    while time.time() < deadline:
        folders = list(runs.glob("*")) if runs.exists() else []
        if folders and (folders[0] / "checkpoint").exists() and ready(folders[0]):
            run_dir = folders[0]
            break
        time.sleep(poll_s)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert run_dir is not None
    return run_dir
