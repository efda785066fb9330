"""Run and sweep folders know themselves: a marker file written when e2opt creates them, and copies of inputs.

``resume``, ``report`` and ``sweep --resume`` write into a folder only when it carries the marker
(``.e2opt-run``, JSON with the format version and the kind, run or sweep), so a folder of the user's own
files is never touched. A run folder also keeps a copy of its puzzle file (and of a warm-start board)
under ``inputs/``, so it still reports and resumes after the originals move. The names of what a run folder
holds, the making of run and sweep folders, and the tests of a finished run live here too.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from ..core.board import rule_violations, score
from ..core.errors import BoardError, E2optError
from ..core.formats.read import read_board, read_puzzle
from ..core.fsutil import STATE_FILE_MB, atomic_write_text, read_user_text
from ..core.puzzle import Puzzle
from .config import RunConfig
from .eventkinds import End, Event
from .events import read_typed
from .loader import load_config, read_config_data

MARKER = ".e2opt-run"
FORMAT = 1
KINDS = ("run", "sweep")
INPUTS = "inputs"
START_BOARD_PREFIX = "start-"  # a warm-start board's copy: inputs/start-<name>, apart from the puzzle
CONFIG, RESULT, BEST = "config.yaml", "result.json", "best.board"
INTERRUPTS = frozenset(
    {"interrupted", "SIGINT", "SIGTERM", "SIGHUP"}
)  # stop reasons of a run stopped by a signal
WRITE_FAILED = "write failed"  # the stop reason of a run ended by a full disk or lost permission (envfail.py)


def resumable(reason: str | None) -> bool:
    """A stop reason after which ``resume`` goes on: a signal, or a write that failed."""
    return reason in INTERRUPTS or (reason or "").startswith(WRITE_FAILED)


def make_folder(runs_dir: str | Path, base: str, kind: str) -> Path:
    """A new, empty, marked folder ``<runs_dir>/<UTC stamp>_<base>``; a name clash gets a suffix, an earlier
    folder is never reused."""
    runs_dir = Path(runs_dir)
    try:
        runs_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise E2optError(
            f"runs directory {runs_dir} (output.runs_dir or --runs-dir): cannot create it: {exc.strerror}"
        ) from None
    if not os.access(runs_dir, os.W_OK | os.X_OK):
        raise E2optError(f"runs directory {runs_dir} (output.runs_dir or --runs-dir): not writable")
    name = f"{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}_{base}"
    for attempt in range(1, 10_000):
        path = runs_dir / (name if attempt == 1 else f"{name}-{attempt}")
        try:
            path.mkdir()
        except FileExistsError:
            continue
        mark(path, kind)
        return path
    raise E2optError(f"runs directory {runs_dir}: too many {kind}s named {name}")


def make_run_dir(runs_dir: str | Path, name: str, seed: int) -> Path:
    """A new run folder ``<runs_dir>/<UTC stamp>_<name>_s<seed>``."""
    return make_folder(runs_dir, f"{name}_s{seed}", "run")


def make_sweep_dir(runs_dir: str | Path, name: str) -> Path:
    """A new sweep folder ``<runs_dir>/<UTC stamp>_<name>``."""
    return make_folder(runs_dir, name, "sweep")


def mark(folder: Path, kind: str) -> None:
    """Write the marker that says e2opt made ``folder`` (a run or a sweep)."""
    data: dict[str, Any] = {"format": FORMAT, "kind": kind, "created": datetime.now(UTC).isoformat()}
    atomic_write_text(folder / MARKER, json.dumps(data) + "\n")


def marker_kind(folder: Path) -> str | None:
    """The kind recorded in the folder's marker; None when there is no readable marker."""
    try:
        data = json.loads(read_user_text(folder / MARKER, STATE_FILE_MB))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("kind") not in KINDS or not isinstance(data.get("format"), int):
        return None
    return data["kind"]


def require(folder: str | Path, kind: str) -> Path:
    """The folder, when e2opt made it as a ``kind`` folder; otherwise E2optError and nothing is written."""
    folder = Path(folder)
    if not folder.is_dir():
        what = "no such folder" if not folder.exists() else "not a folder"
        raise E2optError(f"{folder}: {what} (expected an e2opt {kind} folder)")
    found = marker_kind(folder)
    if found == kind:
        return folder
    if found is not None:
        raise E2optError(f"{folder}: this is an e2opt {found} folder, not a {kind} folder")
    raise E2optError(f"{folder}: not an e2opt {kind} folder (no {MARKER} marker); nothing was changed")


def keep_inputs(run_dir: Path, instance: str, board: str | None) -> None:
    """Copy the puzzle file (and a warm-start board) into the run folder's inputs/."""
    inputs = run_dir / INPUTS
    inputs.mkdir(exist_ok=True)
    shutil.copyfile(instance, inputs / Path(instance).name)
    if board:
        shutil.copyfile(board, inputs / f"{START_BOARD_PREFIX}{Path(board).name}")


def input_copies(run_dir: Path, data: dict[str, Any]) -> dict[str, str]:
    """Dotted keys of a run's stored config -> the copy under inputs/ to use instead (when the copy exists)."""
    out: dict[str, str] = {}
    run_dir = run_dir.resolve()  # the values are read relative to config.yaml's folder otherwise
    instance = data.get("instance")
    if isinstance(instance, str) and (run_dir / INPUTS / Path(instance).name).is_file():
        out["instance"] = str(run_dir / INPUTS / Path(instance).name)
    construct = data.get("construct")
    board = construct.get("board") if isinstance(construct, dict) else None
    if isinstance(board, str) and (run_dir / INPUTS / f"{START_BOARD_PREFIX}{Path(board).name}").is_file():
        out["construct.board"] = str(run_dir / INPUTS / f"{START_BOARD_PREFIX}{Path(board).name}")
    return out


def load_run_config(run_dir: Path, overrides: tuple[str, ...] = ()) -> tuple[RunConfig, RunConfig]:
    """(config to run with, config to store): the first reads the run's copies of its inputs."""
    data = read_config_data(run_dir / CONFIG)
    copies = input_copies(run_dir, data)
    cfg = load_config(run_dir / CONFIG, overrides, dumped=True, **copies)
    stored = replace(cfg, instance=data["instance"]) if copies else cfg  # the originals' paths, as they were
    if "construct.board" in copies:
        stored = replace(stored, construct=replace(cfg.construct, board=data["construct"]["board"]))
    return cfg, stored


def _last_event(run_dir: Path) -> Event | None:
    """The last readable event of a run folder (None when there is none)."""
    last = None
    for last in read_typed(run_dir):  # noqa: B007 - only the last event matters
        pass
    return last


def has_ended(run_dir: Path, best_score: int) -> bool:
    """The run finished and wrote everything: the last event is the end, result.json agrees with ``best_score``."""
    try:
        result = json.loads(read_user_text(run_dir / RESULT, STATE_FILE_MB))
    except (OSError, ValueError):
        return False
    return (
        isinstance(_last_event(run_dir), End)
        and isinstance(result, dict)
        and result.get("best_score") == best_score
    )


@cache
def _puzzle(path: str) -> Puzzle:
    """Puzzles read once per process: every run of a sweep usually shares one."""
    return read_puzzle(path)


def is_finished(run_dir: Path, instance: str) -> bool:
    """A run that needs nothing more: result.json written after its last event, not stopped by a signal,
    and best.board obeys the rules and re-scores to the result's best score."""
    try:
        result = json.loads(read_user_text(run_dir / RESULT, STATE_FILE_MB))
    except (OSError, ValueError):
        return False
    if not isinstance(result, dict) or resumable(result.get("stop_reason")):
        return False
    if not isinstance(_last_event(run_dir), End):
        return False
    try:
        board = read_board(run_dir / BEST)
    except BoardError:
        return False
    puzzle = _puzzle(instance)
    return not rule_violations(puzzle, board) and score(puzzle, board) == result.get("best_score")
