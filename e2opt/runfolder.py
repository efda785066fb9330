"""Run and sweep folders know themselves: a marker file written when e2opt creates them, and copies of inputs.

``resume``, ``report`` and ``sweep --resume`` write into a folder only when it carries the marker
(``.e2opt-run``, JSON with the format version and the kind, run or sweep), so a folder of the user's own
files is never touched. Folders made before markers existed are recognised by what only e2opt writes (a
run's events.jsonl opening with e2opt's start event; a sweep's runs.json and its "# copy of" sweep.yaml)
and get their marker then. A run folder also keeps a copy of its puzzle file (and of a warm-start board)
under ``inputs/``, so it still reports and resumes after the originals move.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .config import RunConfig, load_config, read_config_data
from .errors import E2optError
from .fsutil import atomic_write_text

MARKER = ".e2opt-run"
FORMAT = 1
KINDS = ("run", "sweep")
INPUTS = "inputs"
START_BOARD_PREFIX = "start-"  # a warm-start board's copy: inputs/start-<name>, apart from the puzzle


def mark(folder: Path, kind: str, adopted: bool = False) -> None:
    """Write the marker that says e2opt made ``folder`` (a run or a sweep)."""
    data: dict[str, Any] = {"format": FORMAT, "kind": kind, "created": datetime.now(UTC).isoformat()}
    if adopted:
        data["adopted"] = True  # made before markers existed, recognised by its own files
    atomic_write_text(folder / MARKER, json.dumps(data) + "\n")


def marker_kind(folder: Path) -> str | None:
    """The kind recorded in the folder's marker; None when there is no readable marker."""
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("kind") not in KINDS or not isinstance(data.get("format"), int):
        return None
    return data["kind"]


def _legacy_run(folder: Path) -> bool:
    """A run folder from before markers: config.yaml and an events.jsonl that opens with e2opt's start event."""
    if not (folder / "config.yaml").is_file():
        return False
    try:
        with open(folder / "events.jsonl", encoding="utf-8") as f:
            first = json.loads(f.readline())
    except (OSError, ValueError):
        return False
    return (
        isinstance(first, dict)
        and first.get("event") == "start"
        and {"instance", "seed", "max_score"} <= set(first)
    )


def _legacy_sweep(folder: Path) -> bool:
    """A sweep folder from before markers: runs.json with its runs, and sweep.yaml as e2opt copied it."""
    try:
        runs = json.loads((folder / "runs.json").read_text(encoding="utf-8"))
        with open(folder / "sweep.yaml", encoding="utf-8") as f:
            head = f.readline()
    except (OSError, ValueError):
        return False
    return isinstance(runs, dict) and isinstance(runs.get("runs"), list) and head.startswith("# copy of ")


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
    if (_legacy_run if kind == "run" else _legacy_sweep)(folder):
        mark(folder, kind, adopted=True)
        return folder
    raise E2optError(
        f"{folder}: not an e2opt {kind} folder (no {MARKER} marker, and not a {kind} folder e2opt made "
        "before markers); nothing was changed"
    )


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
    data = read_config_data(run_dir / "config.yaml")
    copies = input_copies(run_dir, data)
    cfg = load_config(run_dir / "config.yaml", overrides, **copies)
    stored = replace(cfg, instance=data["instance"]) if copies else cfg  # the originals' paths, as they were
    if "construct.board" in copies:
        stored = replace(stored, construct=replace(cfg.construct, board=data["construct"]["board"]))
    return cfg, stored
