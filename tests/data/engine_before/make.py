"""Writes the behaviour of the run engine before the one-engine change (commit 5c90868), as test data.

For every construction method, with 1 and 2 workers and an iteration-bounded stop, it records the best
board and the sequence of new bests (score, iteration, worker); tests/engine/test_engine_compat.py asks the
current engine for the same. It also keeps two stopped run folders (one worker, two workers) whose
checkpoints the current engine must resume. Run from the project root: python tests/data/engine_before/make.py
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from tests.engine_cases import CASES, case_config, fingerprint  # noqa: E402


def main() -> None:

    out = {}
    work = HERE / "_work"
    shutil.rmtree(work, ignore_errors=True)
    for name in CASES:
        for workers in (1, 2):
            cfg = case_config(name, workers, work / f"{name}-{workers}")
            out[f"{name}/{workers}"] = fingerprint(cfg)
            print(name, workers, out[f"{name}/{workers}"]["best_score"], flush=True)
    (HERE / "fingerprints.json").write_text(json.dumps(out, indent=1) + "\n")
    stopped_runs(work)
    shutil.rmtree(work, ignore_errors=True)


def stopped_runs(work: Path) -> None:
    """The random case stopped at 200 moves, 1 and 2 workers: run folders with a checkpoint to resume."""
    import e2opt
    from e2opt.engine.loader import load_config

    for name, workers in (("single", 1), ("team", 2)):
        cfg = load_config(case_config("random", workers, work / name), ["stop.max_iterations=200"])
        run = getattr(
            e2opt, "run", None
        )  # before the engine change e2opt.run was a module, e2opt.solve the API
        result = run(cfg) if callable(run) else e2opt.solve(cfg)
        dest = HERE / "runs" / name
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(result.run_dir, dest)


if __name__ == "__main__":
    main()
