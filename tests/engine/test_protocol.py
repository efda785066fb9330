"""The engine's typed messages (protocol.py) and its roles (roles/), issue 33: Task, Answer and WorkerState
survive to_dict/from_dict, pickle (Dask) and a checkpoint; a checkpoint of the dict-message engine resumes to
the same end; ``producers: auto``; the claim that keeps a stale Dask copy of a producer's round from writing.
"""

from __future__ import annotations

import json
import pickle
import shutil
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import yaml
from test_roles import config_file

from e2opt.config.sections import RunSection
from e2opt.core.board import random_board
from e2opt.core.errors import ConfigError
from e2opt.core.formats.read import read_puzzle
from e2opt.engine import round as round_module
from e2opt.engine.checkpoint import load_checkpoint, save_checkpoint
from e2opt.engine.loader import load_config
from e2opt.engine.protocol import Answer, PoolBoard, Task, WorkerState
from e2opt.engine.resume import resume_run
from e2opt.engine.roles import ROLES, assign, auto_producers, producer_count
from e2opt.engine.round import search_round
from e2opt.engine.roundguard import FolderClaim, StaleRound

ROOT = Path(__file__).resolve().parents[2]
BEFORE = ROOT / "tests" / "data" / "roles_before"


def plain(value):
    """Nested data with arrays as lists, for ==."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return [value.dtype.str, value.tolist()]
    return value


def task_for(cfg, tmp_path: Path, worker: int, role: str, **changes) -> Task:
    """A round of ``worker`` that ends after 200 moves (or its first board)."""
    values = dict(id="t", worker=worker, role=role, config=cfg, t0=time.time(), state=None, round_end_wall=60.0,
                  round_end_moves=200, cpu_limit=None, published=[], stop_file=str(tmp_path / "stop"),
                  log_dir=str(tmp_path / f"worker{worker}"), token="1")  # fmt: skip
    return Task(**(values | changes))


@pytest.fixture(scope="module")
def messages(tmp_path_factory):
    """A repairer's first two rounds (the second carrying a pool board) and their answers."""
    tmp = tmp_path_factory.mktemp("messages")
    cfg = load_config(config_file(tmp))
    first = task_for(cfg, tmp, 0, "repairer")
    answer = search_round(first)
    piece, rot = answer.state.best_piece.copy(), answer.state.best_rot.copy()
    second = task_for(cfg, tmp, 0, "repairer", state=answer.state, take=PoolBoard("k", 1, piece, rot))
    return first, answer, second, search_round(second)


def test_messages_round_trip_through_plain_data_and_pickle(messages):
    first, answer, second, again = messages
    for task in (first, second):
        assert plain(Task.from_dict(task.to_dict()).to_dict()) == plain(task.to_dict())
        assert plain(pickle.loads(pickle.dumps(task)).to_dict()) == plain(task.to_dict())
        json.dumps(task.to_dict()["config"])  # the config as config.yaml holds it
    for reply in (answer, again):
        assert plain(Answer.from_dict(reply.to_dict()).to_dict()) == plain(reply.to_dict())
        assert plain(pickle.loads(pickle.dumps(reply)).to_dict()) == plain(reply.to_dict())
    assert again.took == "k" and any(e.get("from") == "pool" for e in again.events)


def test_a_pickled_task_plays_the_same_round(messages, tmp_path):
    _, _, second, again = messages
    copy = pickle.loads(pickle.dumps(second))  # what a worker process or a Dask worker receives
    replay = search_round(copy)
    measured = {"extra_move_cpu"}  # CPU seconds per move: times, not replayed
    assert plain({k: v for k, v in replay.state.search.items() if k not in measured}) == plain(
        {k: v for k, v in again.state.search.items() if k not in measured}
    )
    assert (replay.moves, replay.current, replay.took) == (again.moves, again.current, again.took)


def test_a_worker_state_survives_a_checkpoint(messages, tmp_path):
    state = messages[3].state
    save_checkpoint(tmp_path, state.arrays(3), {"meta": state.meta.to_dict()})
    arrays, meta, _ = load_checkpoint(tmp_path)
    back = WorkerState.from_arrays(3, arrays, meta["meta"])
    assert plain(back.to_dict()) == plain(json.loads(json.dumps(plain(state.to_dict()))))


def test_a_checkpoint_of_the_dict_message_engine_resumes_to_the_same_end(tmp_path):
    run_dir = tmp_path / "run"
    shutil.copytree(BEFORE / "run", run_dir)
    before = json.loads((BEFORE / "straight.json").read_text())
    result = resume_run(run_dir, overrides=("stop.max_iterations=3000",))
    assert (result.best_score, result.iterations) == (before["best_score"], before["iterations"])
    assert (run_dir / "best.board").read_text() == before["board"]
    assert [w["role"] for w in result.workers] == ["repairer", "producer"]


def test_auto_producers_follow_the_workers():
    assert [auto_producers(n) for n in range(1, 10)] == [0, 1, 1, 2, 2, 3, 3, 4, 4]
    timed = RunSection()
    assert timed.roles.producers == "auto"  # the default
    assert [producer_count(timed, n) for n in (1, 2, 4, 8)] == [0, 1, 2, 4]
    synced = RunSection(
        sync_every_moves=100
    )  # auto: a run that must repeat without leave_after_moves has none
    assert producer_count(synced, 8) == 0
    names = [role.name for role in assign(timed, 8)]
    assert names == ["repairer", *["producer"] * 4, *["repairer"] * 3]
    assert {role.name for role in assign(timed, 1)} == {"worker"}
    assert set(ROLES) == {"worker", "producer", "repairer"}


@pytest.mark.parametrize(("value", "expected"), [("auto", "auto"), (3, 3), (0, 0)])
def test_producers_take_auto_or_a_count(tmp_path, value, expected):
    path = config_file(tmp_path)
    data = yaml.safe_load(path.read_text())
    data["run"]["roles"]["producers"] = value
    path.write_text(yaml.safe_dump(data))
    assert load_config(path).run.roles.producers == expected


def test_producers_refuse_other_words(tmp_path):
    path = config_file(tmp_path)
    data = yaml.safe_load(path.read_text())
    data["run"]["roles"]["producers"] = "many"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError, match=r"run\.roles\.producers"):
        load_config(path)


def test_a_later_claim_makes_the_running_copy_stale_and_waits_for_it(tmp_path):
    order = []
    with FolderClaim(tmp_path, "1") as first:
        assert not first.stale()

        def second() -> None:
            with FolderClaim(tmp_path, "2") as claim:
                order.append(("second", claim.stale()))

        thread = threading.Thread(target=second)
        thread.start()
        deadline = time.monotonic() + 5
        while (tmp_path / ".round-token").read_text() != "2" and time.monotonic() < deadline:
            time.sleep(0.01)
        with pytest.raises(StaleRound):
            first.check()
        assert first.stale() and not order  # the second copy waits until the first lets go
        order.append(("first", True))
    thread.join(5)
    assert order == [("first", True), ("second", False)]
    with pytest.raises(StaleRound):  # a copy older than the claim on the folder never starts
        FolderClaim(tmp_path, "1").__enter__()


def copies_on_threads(first: Task, second: Task, started: threading.Event) -> list:
    """Two copies of a round on threads of this process, the second once the first has started: outcomes."""
    outcome: list = [None, None]

    def play(k: int, task: Task) -> None:
        try:
            outcome[k] = search_round(task)
        except StaleRound as exc:
            outcome[k] = exc

    threads = [
        threading.Thread(target=play, args=(0, first)),
        threading.Thread(target=play, args=(1, second)),
    ]
    threads[0].start()
    assert started.wait(10)
    threads[1].start()
    for thread in threads:
        thread.join(20)
    return outcome


def copies_on_dask(first: Task, second: Task, started: threading.Event) -> list:
    """The same on a Dask cluster: the first copy lost to the coordinator, still running, the second submitted."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as c,
        distributed.Client(c) as client,
    ):
        futures = [client.submit(search_round, first, pure=False)]
        assert started.wait(10)
        futures.append(client.submit(search_round, second, pure=False))
        distributed.wait(futures, timeout=30)
        return [f.exception() or f.result() for f in futures]


@pytest.mark.parametrize("where", [copies_on_threads, copies_on_dask])
def test_a_stale_copy_of_a_producers_round_never_writes_its_folder(tmp_path, monkeypatch, where):
    """Two copies of a producer's first round, the second submitted while the first still builds: the first
    stops, writes no board and ends with StaleRound; never two writers in the folder at once."""
    cfg = load_config(config_file(tmp_path))
    puzzle = read_puzzle(cfg.instance)
    writing, most, started = [], [0], threading.Event()

    def slow_construct(puzzle_, how, rng, deadline, log_dir, stop, report):
        harvest = log_dir / "harvest"
        harvest.mkdir(parents=True, exist_ok=True)
        writing.append(1)
        most[0] = max(most[0], len(writing))
        started.set()
        for step in range(100):  # a DFS writing its state until it is asked to stop
            (harvest / "state").write_text(str(step))
            if stop():
                break
            time.sleep(0.02)
        writing.pop()
        return random_board(puzzle, rng), {"method": "beam", "score": 0}

    monkeypatch.setattr(round_module, "construct", slow_construct)
    tasks = [task_for(cfg, tmp_path, 1, "producer", token=token) for token in ("1", "2")]
    stale, again = where(*tasks, started)
    assert isinstance(stale, StaleRound) and isinstance(again, Answer)
    assert len(again.produced) == 1 and most[0] == 1
    files = sorted(p.name for p in (tmp_path / "worker1" / "produced").iterdir())
    assert files == ["000000.board", "000000.json"]
