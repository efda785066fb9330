"""What a clone carries: no raw run data, no large file, no path of the machine a file was made on.

Run folders under benchmarks/results keep their config, result, verified best board and a summary; checkpoints,
journals, events and pools stay out of git (.gitignore). Read from ``git ls-files``: skipped outside a checkout.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS_MAX_BYTES = 3_000_000
FILE_MAX_BYTES = 1_000_000
# absolute paths of a machine (written in pieces so this file does not match itself)
MACHINE_PATH = re.compile("/" + "(?:work|home|tmp|root)" + "/")
RAW_RUN_FILES = ("checkpoint", "checkpoint.prev", "events.jsonl", "journal.jsonl", "pool.jsonl")


def tracked(*paths: str) -> list[Path]:
    """The files git tracks under ``paths`` (all when none), that exist in the work tree."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=ROOT, capture_output=True, check=True)
    names = [n for n in out.stdout.decode().split("\0") if n]
    return [ROOT / n for n in names if (ROOT / n).is_file()]


def test_tracked_benchmarks_stay_small() -> None:
    size = sum(p.stat().st_size for p in tracked("benchmarks"))
    assert size <= BENCHMARKS_MAX_BYTES, f"tracked benchmarks/ holds {size:,} bytes"


def test_no_tracked_file_over_one_megabyte() -> None:
    big = [
        f"{p.relative_to(ROOT)}: {p.stat().st_size:,}" for p in tracked() if p.stat().st_size > FILE_MAX_BYTES
    ]
    assert not big


def test_no_raw_run_data_under_benchmarks() -> None:
    raw = [str(p.relative_to(ROOT)) for p in tracked("benchmarks") if p.name in RAW_RUN_FILES]
    assert not raw


def test_no_machine_path_in_a_tracked_file() -> None:
    found = []
    for path in tracked():
        text = path.read_bytes().decode("utf-8", errors="replace")
        found += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in MACHINE_PATH.finditer(text)]
    assert not found
