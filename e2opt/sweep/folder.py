"""A sweep folder: made with a copy of the sweep file, its configs re-checked on resume, one sweep process at a time."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from ..core.errors import E2optError
from ..core.fsutil import atomic_write_text
from ..engine.loader import config_from_dict
from ..engine.runfolder import make_sweep_dir
from .spec import JOURNAL, Sweep

SPEC_COPY = "sweep.yaml"

STOP_FILE = ".stop"
LOCK_FILE = ".lock"


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


class SweepLock:
    """One sweep process per sweep folder at a time (an flock on .lock, released when the process ends)."""

    def __init__(self, sweep_dir: Path):
        self.path = sweep_dir / LOCK_FILE

    def __enter__(self) -> SweepLock:
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
