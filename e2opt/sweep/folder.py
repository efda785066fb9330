"""A sweep folder: made with a copy of the sweep file, its configs re-checked on resume, one sweep process at a time."""

from __future__ import annotations

import copy
from pathlib import Path

from ..core.folderlock import FolderLock
from ..core.fsutil import STATE_FILE_MB, atomic_write_text, read_user_text
from ..engine.loader import config_from_dict
from ..engine.runfolder import make_sweep_dir
from .spec import JOURNAL, Sweep

SPEC_COPY = "sweep.yaml"

STOP_FILE = ".stop"


def create_sweep(sweep: Sweep, runs_dir: str | Path | None = None) -> Path:
    """Make the sweep folder: a copy of the sweep file and runs.json (every run pending)."""
    runs_dir = runs_dir if runs_dir is not None else sweep.runs[0].config["output"]["runs_dir"]
    sweep_dir = make_sweep_dir(runs_dir, sweep.name)
    note = f"# copy of {sweep.source}" + (
        f"; run with {' '.join(sweep.overrides)}" if sweep.overrides else ""
    )
    atomic_write_text(sweep_dir / SPEC_COPY, note + "\n" + read_user_text(sweep.source, STATE_FILE_MB))
    sweep.write(sweep_dir)
    return sweep_dir


def check_configs(sweep: Sweep, sweep_dir: Path) -> None:
    """Re-validate every run's stored config (the instance files must still be there) before resuming."""
    for run in sweep.runs:
        config_from_dict(copy.deepcopy(run.config), f"{sweep_dir / JOURNAL} (run {run.id})", dumped=True)


class SweepLock(FolderLock):
    """One sweep process per sweep folder at a time (core/folderlock.py: released when the process ends)."""

    def __init__(self, sweep_dir: Path):
        super().__init__(sweep_dir, "sweep")
