"""Writes a role-split run folder stopped by the engine before typed messages and role objects (issue 33).

The run is tests/engine/test_roles.py's (worker 1 produces one-beam boards, worker 0 repairs them, meeting every 500
moves), stopped at 1500 moves per worker; its checkpoint holds worker states as plain dicts and the pool.
It also records what the same run reaches straight to 3000 moves, which the resumed folder must reach
(tests/engine/test_protocol.py). Run from the project root: python tests/data/roles_before/make.py
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "engine")]

from test_roles import config_file  # noqa: E402

from e2opt.engine.loader import load_config  # noqa: E402
from e2opt.engine.run import run_config  # noqa: E402


def main() -> None:
    work = HERE / "_work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    path = config_file(work)
    straight = run_config(load_config(path))
    expected = {
        "best_score": straight.best_score,
        "iterations": straight.iterations,
        "board": Path(straight.run_dir, "best.board").read_text(),
    }
    (HERE / "straight.json").write_text(json.dumps(expected, indent=1) + "\n")
    half = run_config(load_config(path, ["stop.max_iterations=1500"]))
    dest = HERE / "run"
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(half.run_dir, dest)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
