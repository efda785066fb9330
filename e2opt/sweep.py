"""Parameter sweeps: a base config x a grid of overrides x named variants x seeds, each run an ordinary run folder.

A sweep file (YAML)::

    name: holes                      # default: the file's stem
    base: ../eternity2.yaml          # the base run config, relative to the sweep file
    seeds: 5                         # seeds 1..5, or a list such as [1, 7, 42]
    set: {stop.max_cpu_s: 30}        # overrides for every run
    grid: {search.holes: [2, 4, 8]}  # dotted key -> values; runs take the cartesian product
    variants:                        # optional, named; each a set of overrides that may bring its own grid
      cpsat: {construct.method: cpsat, grid: {construct.cpsat.relaxed: [0, 8, 16]}}
      random: {construct.method: random}

Overrides apply in the order base < set (then ``--set``) < variant < grid < seed. Every run's config is built
and validated before any run starts. The sweep folder ``runs/<UTC stamp>_<name>/`` holds sweep.yaml (a
copy), runs.json (the expanded runs, written once), status.jsonl (one line per status change, appended by
the sweep process only) and one run folder per run, named by its run id (``cpsat_relaxed=8_s3``). Runs go
out seed by seed, so a sweep stopped halfway has the same number of seeds for every setting.
"""

from __future__ import annotations

import copy
import importlib.util
import itertools
import json
import os
import re
import signal
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from functools import cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Protocol, TextIO

from .board import read_board, rule_violations, score
from .config import config_from_dict, parse_override, read_config_data
from .configload import set_dotted
from .errors import BoardError, ConfigError, E2optError
from .events import read_events
from .fsutil import atomic_write_text
from .progress import format_clock
from .puzzle import Puzzle, read_puzzle
from .stop import Interrupted

SPEC_KEYS = ("name", "base", "seeds", "set", "grid", "variants")
JOURNAL = "runs.json"
STATUS = "status.jsonl"
SPEC_COPY = "sweep.yaml"
STOP_FILE = ".stop"
LOCK_FILE = ".lock"
RUN_CONFIG, RUN_RESULT, RUN_BEST = "config.yaml", "result.json", "best.board"
INTERRUPTS = frozenset({"interrupted", "SIGINT", "SIGTERM"})  # stop reasons of a run stopped by a signal
STATUSES = ("pending", "done", "failed", "interrupted")
_PATH_KEYS = ("instance", "construct.board")  # path values in a sweep file are relative to the sweep file
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")


@dataclass(frozen=True)
class SweepRun:
    """One run of a sweep: its id (= its folder name), its place in the sweep, its validated config."""

    id: str
    variant: str | None
    values: dict[str, Any]  # swept dotted key -> value (the grid point; not the variant's fixed overrides)
    seed: int
    config: dict[str, Any]  # RunConfig.to_dict() of the validated config, paths absolute

    @property
    def setting(self) -> str:
        """The id without the seed: runs that differ only by seed share a setting."""
        label = self.id.removesuffix(f"s{self.seed}").rstrip("_")
        return label or "base"


@dataclass
class Sweep:
    """An expanded sweep (runs.json, written once) and the status of each run (status.jsonl)."""

    name: str
    source: str  # the sweep file
    base: str  # the base config file
    keys: list[str]  # swept dotted keys, in order of first appearance
    variants: list[str]
    runs: list[SweepRun]
    overrides: list[str] = field(default_factory=list)  # command-line changes (--set, --seeds)
    status: dict[str, dict[str, Any]] = field(default_factory=dict)  # run id -> {"status", "error"}

    def status_of(self, run_id: str) -> str:
        """pending, done, failed or interrupted."""
        return self.status.get(run_id, {}).get("status", "pending")

    def error_of(self, run_id: str) -> str | None:
        """The one-line error recorded with the run's status, if any."""
        return self.status.get(run_id, {}).get("error")

    def write(self, sweep_dir: Path) -> None:
        """Write runs.json, the expanded runs with their full configs (once, when the sweep folder is made)."""
        head = {k: getattr(self, k) for k in ("name", "source", "base", "keys", "variants", "overrides")}
        data = {**head, "runs": [asdict(run) for run in self.runs]}
        atomic_write_text(sweep_dir / JOURNAL, json.dumps(data, indent=1) + "\n")

    def set_status(self, sweep_dir: Path, run_id: str, status: str, error: str | None = None) -> None:
        """Record a run's new status: one line appended to status.jsonl (by the sweep process only)."""
        self.status[run_id] = {"status": status, "error": error}
        line = json.dumps({"id": run_id, "status": status, "error": error}).encode("utf-8") + b"\n"
        with open(sweep_dir / STATUS, "a+b") as f:
            if f.seek(0, os.SEEK_END) > 0 and f.seek(-1, os.SEEK_END) >= 0 and f.read(1) != b"\n":
                line = b"\n" + line  # after a torn last line (a killed sweep), start a fresh one
            f.write(line)
            f.flush()
            os.fsync(f.fileno())

    @classmethod
    def load(cls, sweep_dir: str | Path) -> Sweep:
        """The sweep of a sweep folder; the last status.jsonl line of a run wins (a torn line is skipped)."""
        path = Path(sweep_dir) / JOURNAL
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            runs = [SweepRun(**item) for item in data.pop("runs")]
            sweep = cls(**data, runs=runs)
        except FileNotFoundError:
            raise E2optError(f"{sweep_dir}: not a sweep folder (no {JOURNAL})") from None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise E2optError(f"{path}: unreadable sweep file ({type(exc).__name__}: {exc})") from None
        try:
            lines = (Path(sweep_dir) / STATUS).read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            lines = []
        for line in lines:
            try:
                entry = json.loads(line)
                sweep.status[entry["id"]] = {"status": entry["status"], "error": entry.get("error")}
            except (ValueError, KeyError, TypeError):
                continue
        return sweep


def _flatten(data: Any, where: str, source: str, prefix: str = "") -> dict[str, Any]:
    """{'stop': {'max_cpu_s': 30}, 'search.holes': 8} -> {'stop.max_cpu_s': 30, 'search.holes': 8}."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: key '{where}': expected a mapping of dotted keys to values")
    flat: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            flat.update(_flatten(value, where, source, dotted))
        else:
            flat[dotted] = value
    for key in flat:
        if key.split(".")[0] == "seed":
            raise ConfigError(f"{source}: key '{where}.{key}': a sweep sets seeds with its 'seeds' key")
    return flat


def _grid(data: Any, where: str, source: str) -> dict[str, list]:
    """A grid mapping, flattened to dotted keys, each with a non-empty list of values."""
    grid = _flatten(data, where, source)
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise ConfigError(f"{source}: key '{where}.{key}': expected a non-empty list of values")
    return grid


def parse_seeds(value: Any, source: str) -> list[int]:
    """``5`` -> [1, 2, 3, 4, 5]; a list of distinct non-negative integers is taken as is."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return list(range(1, value + 1))
    if (
        isinstance(value, list)
        and value
        and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in value)
        and len(set(value)) == len(value)
    ):
        return list(value)
    raise ConfigError(
        f"{source}: key 'seeds': expected a count (5 means seeds 1..5) or a list of distinct "
        f"non-negative integers, got {value!r}"
    )


def _label(key: str, value: Any) -> str:
    """A swept value as it appears in a run id: short, and safe in a folder name."""
    if key in _PATH_KEYS and isinstance(value, str):
        text = Path(value).stem
    elif isinstance(value, bool) or value is None:
        text = str(value).lower()
    elif isinstance(value, list | tuple):
        text = "-".join(_label("", v) for v in value)
    else:
        text = str(value)
    return re.sub(r"[^A-Za-z0-9.+-]", "_", text)


def _short_names(keys: list[str]) -> dict[str, str]:
    """The last part of each dotted key, or the whole key where two swept keys end alike."""
    last = [key.rsplit(".", 1)[-1] for key in keys]
    return {key: (short if last.count(short) == 1 else key) for key, short in zip(keys, last, strict=True)}


def _apply(data: dict, key: str, value: Any, source: str, sweep_dir: Path) -> None:
    """Set one dotted override in raw config data (a path value resolved against the sweep file's folder)."""
    if key in _PATH_KEYS and isinstance(value, str):
        value = str((sweep_dir / Path(value).expanduser()).resolve())
    try:
        set_dotted(data, key, value)
    except ConfigError:
        raise ConfigError(
            f"{source}: key '{key}': '{key.rsplit('.', 1)[0]}' is not a config section"
        ) from None


def expand_sweep(
    spec: Any, source: str | Path, extra_set: dict[str, Any] | None = None, seeds: Any = None
) -> Sweep:
    """Every run of a sweep spec (the sweep file's data), each config built and validated.

    ``extra_set`` (command-line ``--set``) applies after the file's ``set``; ``seeds`` replaces its seeds.
    """
    source = str(source)
    sweep_dir = Path(source).resolve().parent
    if not isinstance(spec, dict):
        raise ConfigError(f"{source}: a sweep file must be a mapping (base, seeds, set, grid, variants)")
    for key in spec:
        if key not in SPEC_KEYS:
            raise ConfigError(f"{source}: unknown key '{key}' (known here: {', '.join(sorted(SPEC_KEYS))})")
    name = spec.get("name", Path(source).stem)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ConfigError(f"{source}: key 'name': expected letters, digits and _.+- only, got {name!r}")
    if not isinstance(spec.get("base"), str):
        raise ConfigError(f"{source}: key 'base': expected the path of the base config file")
    base = (sweep_dir / Path(spec["base"]).expanduser()).resolve()
    if not base.is_file():
        raise ConfigError(f"{source}: key 'base': no config file at {base}")
    base_data = read_config_data(base)
    config_from_dict(copy.deepcopy(base_data), str(base), base.parent)  # the base's own errors name the base
    if "seeds" not in spec and seeds is None:
        raise ConfigError(f"{source}: missing key 'seeds' (a count, or a list of seeds)")
    seed_list = parse_seeds(spec["seeds"] if seeds is None else seeds, source)
    common = {**_flatten(spec.get("set") or {}, "set", source), **(extra_set or {})}
    plans = _plans(spec, source)
    keys = list(dict.fromkeys(key for _, _, grid in plans for key in grid))
    short = _short_names(keys)
    runs = []
    for seed in seed_list:
        for variant, overrides, grid in plans:
            for point in itertools.product(*grid.values()):
                values = dict(zip(grid, point, strict=True))
                parts = [variant] if variant else []
                parts += [f"{short[key]}={_label(key, value)}" for key, value in values.items()]
                run_id = "_".join([*parts, f"s{seed}"])
                data = copy.deepcopy(base_data)
                for key, value in {**common, **overrides, **values, "seed": seed}.items():
                    _apply(data, key, value, source, sweep_dir)
                cfg = config_from_dict(data, f"{source} (run {run_id})", base.parent)
                runs.append(SweepRun(run_id, variant, values, seed, cfg.to_dict()))
    twins = [run_id for run_id, n in Counter(run.id for run in runs).items() if n > 1]
    if twins:
        raise ConfigError(
            f"{source}: several runs would share the folder name {twins[0]!r}; make values distinct"
        )
    variants = [variant for variant, _, _ in plans if variant]
    return Sweep(name, str(Path(source).resolve()), str(base), keys, variants, runs)


def _plans(spec: dict, source: str) -> list[tuple[str | None, dict[str, Any], dict[str, list]]]:
    """(variant name, its fixed overrides, its grid) for each variant, or one unnamed plan without variants."""
    grid = _grid(spec.get("grid") or {}, "grid", source)
    variants = spec.get("variants")
    if variants is None:
        return [(None, {}, grid)]
    if not isinstance(variants, dict) or not variants:
        raise ConfigError(f"{source}: key 'variants': expected a mapping of variant names to overrides")
    plans = []
    for name, body in variants.items():
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ConfigError(
                f"{source}: key 'variants.{name}': use letters, digits and _.+- in variant names"
            )
        body = dict(body) if isinstance(body, dict) else body
        own_grid = body.pop("grid", None) if isinstance(body, dict) else None
        overrides = _flatten(body or {}, f"variants.{name}", source)
        vgrid = grid if own_grid is None else _grid(own_grid, f"variants.{name}.grid", source)
        plans.append((name, overrides, vgrid))
    return plans


def load_sweep(
    path: str | Path, overrides: tuple[str, ...] | list[str] = (), seeds: str | None = None
) -> Sweep:
    """Read and expand a sweep file; ``overrides`` are ``--set key=value`` texts, ``seeds`` '5' or '1,4,9'."""
    extra = dict(parse_override(text) for text in overrides)
    seed_value = None
    if seeds is not None:
        try:
            parts = [int(s) for s in seeds.split(",")]
        except ValueError:
            raise ConfigError(
                f"--seeds {seeds}: expected a count or a comma-separated list of seeds"
            ) from None
        seed_value = parts if "," in seeds else parts[0]
    sweep = expand_sweep(read_config_data(path), path, extra, seed_value)
    sweep.overrides = [f"--set {text}" for text in overrides] + ([f"--seeds {seeds}"] if seeds else [])
    return sweep


def make_sweep_dir(runs_dir: str | Path, name: str) -> Path:
    """A new sweep folder ``<runs_dir>/<UTC stamp>_<name>``; a clash gets a suffix, never reuses a folder."""
    runs_dir = Path(runs_dir)
    runs_dir.mkdir(parents=True, exist_ok=True)
    base = f"{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}_{name}"
    for attempt in range(1, 1000):
        path = runs_dir / (base if attempt == 1 else f"{base}-{attempt}")
        try:
            path.mkdir()
            return path
        except FileExistsError:
            continue
    raise E2optError(f"runs directory {runs_dir}: too many sweeps named {base}")


def create_sweep(sweep: Sweep, runs_dir: str | Path | None = None) -> Path:
    """Make the sweep folder: a copy of the sweep file and runs.json (every run pending)."""
    runs_dir = runs_dir if runs_dir is not None else sweep.runs[0].config["output"]["runs_dir"]
    sweep_dir = make_sweep_dir(runs_dir, sweep.name)
    note = f"# copy of {sweep.source}" + (
        f"; run with {' '.join(sweep.overrides)}" if sweep.overrides else ""
    )
    atomic_write_text(sweep_dir / SPEC_COPY, note + "\n" + Path(sweep.source).read_text(encoding="utf-8"))
    sweep.write(sweep_dir)
    return sweep_dir


def check_configs(sweep: Sweep, sweep_dir: Path) -> None:
    """Re-validate every run's stored config (the instance files must still be there) before resuming."""
    for run in sweep.runs:
        config_from_dict(copy.deepcopy(run.config), f"{sweep_dir / JOURNAL} (run {run.id})")


@cache
def _puzzle(path: str) -> Puzzle:
    """Puzzles read once per process: every run of a sweep usually shares one."""
    return read_puzzle(path)


def is_finished(run_dir: Path, instance: str) -> bool:
    """A run that needs nothing more: result.json written after its last event, not stopped by a signal,
    and best.board obeys the rules and re-scores to the result's best score."""
    try:
        result = json.loads((run_dir / RUN_RESULT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(result, dict) or result.get("stop_reason") in INTERRUPTS:
        return False
    last: dict[str, Any] = {}
    for last in read_events(run_dir):  # noqa: B007 - only the last event matters
        pass
    if last.get("event") != "end":
        return False
    try:
        board = read_board(run_dir / RUN_BEST)
    except BoardError:
        return False
    puzzle = _puzzle(instance)
    return not rule_violations(puzzle, board) and score(puzzle, board) == result.get("best_score")


def default_workers(sweep: Sweep) -> int:
    """Cores divided by the CP-SAT workers one run uses (1 for runs that do not construct with CP-SAT or regions)."""
    per_run = max(
        run.config["construct"][method]["num_workers"] if method in ("cpsat", "regions") else 1
        for run in sweep.runs
        for method in [run.config["construct"]["method"]]
    )
    return max(1, (os.cpu_count() or 1) // per_run)


# --- worker side: plain data in, plain data out, so it pickles to processes and Dask clusters ---


def _raise_interrupt(signum: int, frame: Any) -> None:
    """SIGTERM handler outside the search: unwind the run like a Ctrl-C."""
    raise KeyboardInterrupt


class _StopWatcher:
    """While a run executes in a process's main thread, the sweep's stop file becomes a SIGTERM to this process:
    run.py turns it into a clean stop after the current move (a KeyboardInterrupt before the search starts).

    Dask runs tasks in threads, which signals cannot reach: there the watcher does nothing.
    """

    def __init__(self, path: Path):
        self.path = path
        self.active = threading.current_thread() is threading.main_thread()
        self.done = threading.Event()

    def _watch(self) -> None:
        """Thread body: poll for the stop file twice a second until the run ends."""
        while not self.done.wait(0.5):
            if self.path.exists():
                os.kill(os.getpid(), signal.SIGTERM)
                return

    def __enter__(self) -> _StopWatcher:
        if self.active:
            self.old = signal.signal(signal.SIGTERM, _raise_interrupt)
            self.thread = threading.Thread(target=self._watch, daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.active:
            self.done.set()
            self.thread.join()
            signal.signal(signal.SIGTERM, self.old)


def execute(task: dict[str, Any]) -> dict[str, Any]:
    """Run one sweep run in its folder, or resume it when the folder already holds its config; never raises.

    Returns {"id", "status": done | interrupted | failed | pending (not started: the sweep is stopping),
    "result": result.json data, "error": one line}. A failure's traceback goes to error.txt in the run folder.
    """
    from .run import resume_run, run_config  # here, not at the top: sweep-report needs no search code

    run_dir, stop_file = Path(task["run_dir"]), Path(task["stop_file"])
    if stop_file.exists():
        return {"id": task["id"], "status": "pending"}
    try:
        with _StopWatcher(stop_file):
            if (run_dir / RUN_CONFIG).is_file():
                result = resume_run(run_dir, quiet=True)
            else:
                cfg = config_from_dict(copy.deepcopy(task["config"]), f"sweep run {task['id']}")
                result = run_config(cfg, quiet=True, run_dir=run_dir)
    except KeyboardInterrupt:
        return {
            "id": task["id"],
            "status": "interrupted",
            "error": "stopped outside its search (construction)",
        }
    except Exception as exc:
        run_dir.mkdir(parents=True, exist_ok=True)
        atomic_write_text(run_dir / "error.txt", traceback.format_exc())
        return {"id": task["id"], "status": "failed", "error": f"{type(exc).__name__}: {exc}".splitlines()[0]}
    data = result.to_json()
    status = "interrupted" if data["stop_reason"] in INTERRUPTS else "done"
    return {"id": task["id"], "status": status, "result": data}


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent (which stops them through the stop file); a run's search
    still installs its own handler and stops cleanly on a Ctrl-C from the terminal."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- parent side: executors, progress, the loop ---


class Pool(Protocol):
    """What run_sweep needs of an executor: futures in the ``concurrent.futures`` style."""

    waits_for_running: bool  # on stop, wait for runs in flight (they stop cleanly) or leave them
    stop_note: str  # what happens to runs in flight on stop, for the user

    def describe(self) -> str:
        """Where the runs go, for the sweep's first line."""
        ...

    def submit(self, fn: Callable[[dict], dict], task: dict) -> Any:
        """Start fn(task) somewhere; a future."""
        ...

    def wait(self, futures: set, timeout: float) -> set:
        """The futures done within ``timeout`` seconds (at least one, unless the time ran out)."""
        ...

    def cancel(self, futures: set) -> None:
        """Cancel the futures not started yet."""
        ...

    def close(self, wait: bool = True) -> None:
        """Release the workers (``wait=False``: do not wait for runs in flight)."""
        ...


class LocalPool:
    """A process pool (spawn start method). Stopping waits for the runs in flight: they stop after their move."""

    waits_for_running = True
    stop_note = "runs in flight stop after their current move (Ctrl-C again to abandon them)"

    def __init__(self, workers: int):
        self.workers = workers
        self.pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=_ignore_sigint)

    def describe(self) -> str:
        return f"{self.workers} local worker process{'es' if self.workers > 1 else ''}"

    def submit(self, fn: Callable[[dict], dict], task: dict) -> Any:
        return self.pool.submit(fn, task)

    def wait(self, futures: set, timeout: float) -> set:
        return wait_futures(futures, timeout, FIRST_COMPLETED).done

    def cancel(self, futures: set) -> None:
        for future in futures:
            future.cancel()

    def close(self, wait: bool = True) -> None:
        self.pool.shutdown(wait=wait, cancel_futures=True)


class DaskPool:
    """A Dask client, on a scheduler address or on a LocalCluster of one-thread worker processes.

    Runs in flight cannot be signalled through Dask: on Ctrl-C a LocalCluster is shut down (its runs resume
    from their last checkpoint with ``--resume``); on a remote cluster they go on until they finish.
    """

    waits_for_running = False

    def __init__(self, workers: int, scheduler: str | None):
        import distributed

        self.distributed = distributed
        self.cluster = None
        try:
            if scheduler:
                self.client = distributed.Client(scheduler, timeout="20s")
            else:
                self.cluster = distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
                )
                self.client = distributed.Client(self.cluster)
        except (OSError, TimeoutError) as exc:
            raise E2optError(f"dask scheduler {scheduler or '(local)'}: cannot connect: {exc}") from None
        except ValueError as exc:  # distributed's answer to a malformed address or unknown scheme
            raise E2optError(f"--scheduler {scheduler!r}: not a Dask scheduler address: {exc}") from None
        self.where = scheduler or f"a local Dask cluster of {workers} worker process(es)"
        self.stop_note = (
            "runs in flight keep going on the cluster until they finish"
            if scheduler
            else "runs in flight end with the local cluster; --resume continues them from their last checkpoint"
        )

    def describe(self) -> str:
        return f"Dask on {self.where}"

    def submit(self, fn: Callable[[dict], dict], task: dict) -> Any:
        return self.client.submit(fn, task, key=f"e2opt-{task['id']}-{os.urandom(4).hex()}", pure=False)

    def wait(self, futures: set, timeout: float) -> set:
        try:
            return set(
                self.distributed.wait(list(futures), timeout=timeout, return_when=FIRST_COMPLETED).done
            )
        except TimeoutError:
            return set()

    def cancel(self, futures: set) -> None:
        self.client.cancel(list(futures))

    def close(self, wait: bool = True) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def check_executor(executor: str, scheduler: str | None) -> None:
    """Refuse executor options that cannot work, before a sweep folder is made."""
    if executor not in ("local", "dask"):
        raise E2optError(f"--executor {executor}: expected local or dask")
    if scheduler and executor != "dask":
        raise E2optError("--scheduler needs --executor dask")
    if executor == "dask" and importlib.util.find_spec("distributed") is None:
        raise E2optError('--executor dask needs Dask: pip install "e2opt[dask]"')


def make_pool(executor: str, workers: int, scheduler: str | None) -> Pool:
    """The executor named on the command line."""
    check_executor(executor, scheduler)
    return LocalPool(workers) if executor == "local" else DaskPool(workers, scheduler)


class SweepProgress:
    """One line per finished run: counts over all runs, elapsed time and an ETA from this session's pace."""

    def __init__(self, sweep: Sweep, todo: int, out: TextIO):
        self.sweep, self.todo, self.out = sweep, todo, out
        self.start = time.perf_counter()
        self.finished = 0

    def line(self, run_id: str, outcome: dict[str, Any]) -> None:
        """Print the line for a run that just finished (statuses already recorded in the sweep)."""
        self.finished += 1
        counts = Counter(self.sweep.status_of(run.id) for run in self.sweep.runs)
        total = len(self.sweep.runs)
        elapsed = time.perf_counter() - self.start
        left = self.todo - self.finished
        eta = f", ETA {format_clock(elapsed / self.finished * left)}" if left else ""
        what = outcome["status"]
        if "result" in outcome:
            r = outcome["result"]
            what += f" {r['best_score']}/{r['max_score']} in {r['wall_s']:.0f} s"
        elif outcome.get("error"):
            what += f": {outcome['error']}"
        self.out.write(
            f"[{counts['done'] + counts['failed']}/{total}] {run_id} {what} | done {counts['done']}, "
            f"failed {counts['failed']}, total {total} | {format_clock(elapsed)} elapsed{eta}\n"
        )
        self.out.flush()


@dataclass
class SweepOutcome:
    """How a call of run_sweep ended: counts by status over all runs, and whether it was interrupted."""

    counts: dict[str, int]
    interrupted: bool


class _Lock:
    """One sweep process per sweep folder at a time (an flock on .lock, released when the process ends)."""

    def __init__(self, sweep_dir: Path):
        self.path = sweep_dir / LOCK_FILE

    def __enter__(self) -> _Lock:
        import fcntl

        self.file = open(self.path, "w")
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.file.close()
            raise E2optError(f"{self.path.parent}: another e2opt sweep is running on this folder") from None
        return self

    def __exit__(self, *exc: Any) -> None:
        self.file.close()


def run_sweep(
    sweep: Sweep,
    sweep_dir: str | Path,
    executor: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    runner: Callable[[dict], dict] = execute,
    out: TextIO | None = None,
) -> SweepOutcome:
    """Run every run of the sweep that is not finished yet: start new ones, resume interrupted or failed ones.

    First Ctrl-C (or SIGTERM): no new runs start; runs in flight stop cleanly after their current move (local
    executor; see DaskPool for Dask) and stay resumable (``e2opt sweep --resume``); a second Ctrl-C abandons
    them at once. Every status change is appended to status.jsonl as it happens.
    """
    from .run import StopSignals

    sweep_dir = Path(sweep_dir)
    out = out or sys.stdout
    stop_file = sweep_dir / STOP_FILE
    with _Lock(sweep_dir):
        stop_file.unlink(missing_ok=True)
        todo = []
        for run in sweep.runs:
            status = "done" if is_finished(sweep_dir / run.id, run.config["instance"]) else "pending"
            if status == "pending":
                todo.append(run)
            if sweep.status_of(run.id) != status:
                sweep.set_status(sweep_dir, run.id, status)
        if not todo:
            return SweepOutcome(dict(Counter(sweep.status_of(r.id) for r in sweep.runs)), False)
        pool = make_pool(executor, workers or default_workers(sweep), scheduler)
        started = sum((sweep_dir / run.id).is_dir() for run in todo)
        out.write(
            f"sweep {sweep.name}: {len(sweep.runs)} runs, {len(sweep.runs) - len(todo)} finished, "
            f"{started} to resume, {len(todo) - started} to start; {pool.describe()}; folder {sweep_dir}\n"
        )
        progress = SweepProgress(sweep, len(todo), out)
        interrupted = Interrupted()
        pending: dict[Any, SweepRun] = {}
        stopping = abandoned = False
        try:
            with StopSignals(interrupted):
                for run in todo:
                    task = {"id": run.id, "config": run.config, "run_dir": str(sweep_dir / run.id)}
                    pending[pool.submit(runner, {**task, "stop_file": str(stop_file)})] = run
                while pending:
                    if interrupted.triggered and not stopping:
                        stopping = True
                        stop_file.touch()
                        pool.cancel(set(pending))
                        out.write(f"stopping ({interrupted.reason}): no new runs; {pool.stop_note}\n")
                        if not pool.waits_for_running:
                            break
                    for future in pool.wait(set(pending), 0.5):
                        run = pending.pop(future)
                        outcome = _outcome(future, run.id, stopping)
                        sweep.set_status(sweep_dir, run.id, outcome["status"], outcome.get("error"))
                        if outcome["status"] != "pending":
                            progress.line(run.id, outcome)
        except KeyboardInterrupt:
            abandoned = True
        finally:
            for run in pending.values():
                if (sweep_dir / run.id).is_dir():
                    sweep.set_status(sweep_dir, run.id, "interrupted", "in flight when the sweep stopped")
            pool.close(wait=not abandoned)
            stop_file.unlink(missing_ok=True)
        counts = dict(Counter(sweep.status_of(run.id) for run in sweep.runs))
        return SweepOutcome(counts, stopping or abandoned)


def _outcome(future: Any, run_id: str, stopping: bool) -> dict[str, Any]:
    """The worker's answer, or a record of how the future ended (cancelled, lost worker, …)."""
    if future.cancelled():
        return {"id": run_id, "status": "pending"}
    exc = future.exception()  # a worker process that died, or Dask giving up on a task
    if exc is None:
        return future.result()
    status = "interrupted" if stopping else "failed"
    return {"id": run_id, "status": status, "error": f"{type(exc).__name__}: {exc}".splitlines()[0]}
