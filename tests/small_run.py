"""The small run of the engine tests (config_file), the instances they use, and e2opt in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import plain_yaml

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "instances" / "brendan_set2" / "set2_06x06.txt"
E2 = ROOT / "instances" / "eternity2.txt"
SET1 = ROOT / "instances" / "brendan_set1"
SET1_7X7 = SET1 / "set1_07x07.txt"


def config_file(tmp_path: Path, instance: Path = SMALL, **sections) -> Path:
    data = {
        "instance": str(instance),
        "seed": 5,
        "construct": {"method": "random"},
        "search": {"moves": {"assignment": {"holes": 6}}},
        "stop": {"max_iterations": 3000},
        "output": {"runs_dir": str(tmp_path / "runs"), "plots": False},
    }
    for key, value in sections.items():
        data.setdefault(key, {})
        if isinstance(value, dict):
            data[key].update(value)
        else:
            data[key] = value
    path = tmp_path / "run.yaml"
    path.write_text(plain_yaml(data))
    return path


def cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "e2opt", *args], capture_output=True, text=True, timeout=300, **kwargs
    )
