"""Atomic save/load of the whole search state (RNG state included) as one .npz file.

A new checkpoint is written atomically beside the old one as ``.checkpoint.new``, the old one is
kept as ``checkpoint.prev``, then the new one is renamed into place. Loading takes the newest
readable file (``.checkpoint.new`` exists only when a kill came between the renames) and says
which ones it skipped as truncated or corrupt.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import E2optError
from ..core.fsutil import STATE_FILE_MB, atomic_write_bytes, check_regular

CHECKPOINT = "checkpoint"
PREVIOUS = "checkpoint.prev"
NEW = f".{CHECKPOINT}.new"
CHECKPOINT_FILES = (NEW, CHECKPOINT, PREVIOUS)  # newest first: a complete .new was not renamed yet
_META = "__meta__"


class CheckpointError(E2optError):
    """No usable checkpoint in a run folder."""


def save_checkpoint(run_dir: Path, state: dict[str, Any], meta: dict[str, Any]) -> None:
    """Write state (numpy arrays and numbers) and meta (JSON data) as the run's newest checkpoint."""
    buffer = io.BytesIO()
    arrays = {key: np.asarray(value) for key, value in state.items()}
    arrays[_META] = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    np.savez(buffer, **arrays)
    path = run_dir / CHECKPOINT
    tmp = run_dir / NEW
    atomic_write_bytes(tmp, buffer.getvalue())
    if path.exists():
        os.replace(path, run_dir / PREVIOUS)
    os.replace(tmp, path)


def _read(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    check_regular(path, STATE_FILE_MB)  # a named pipe or device in its place is refused, never read
    with np.load(path, allow_pickle=False) as data:
        arrays = {key: data[key] for key in data.files}
    meta = json.loads(arrays.pop(_META).tobytes().decode("utf-8"))
    state = {key: (value.item() if value.ndim == 0 else value) for key, value in arrays.items()}
    return state, meta


def load_checkpoint(run_dir: Path) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """(state, meta, warnings) from the newest good checkpoint; CheckpointError if none is usable."""
    warnings: list[str] = []
    for name in CHECKPOINT_FILES:
        path = run_dir / name
        if not path.exists():
            continue
        try:
            state, meta = _read(path)
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, json.JSONDecodeError) as exc:
            warnings.append(f"{path}: corrupt or truncated checkpoint ({type(exc).__name__}: {exc}), skipped")
            continue
        return state, meta, warnings
    detail = "; ".join(warnings) if warnings else "none written yet"
    raise CheckpointError(f"{run_dir}: no usable checkpoint ({detail})")
