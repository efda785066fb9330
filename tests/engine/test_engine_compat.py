"""The engine behaves as before the one-engine change: same boards and new bests for every construction
with 1 and 2 workers, and run folders stopped by the earlier code resume to the same end."""

from __future__ import annotations

import json
import shutil

import pytest

from e2opt.engine.resume import resume_run
from tests.engine_cases import CASES, DATA, case_config, fingerprint

BEFORE = json.loads((DATA / "fingerprints.json").read_text())


def moves_found(bests: list) -> list:
    """New bests the search found (the construction's board, at move 0, is logged by teams only before)."""
    return [b for b in bests if b[1]]


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("name", CASES)
def test_same_boards_and_new_bests_as_before(tmp_path, name, workers):
    now = fingerprint(case_config(name, workers, tmp_path))
    before = BEFORE[f"{name}/{workers}"]
    assert (now["best_score"], now["iterations"], now["board"]) == (
        before["best_score"],
        before["iterations"],
        before["board"],
    )
    assert moves_found(now["bests"]) == moves_found(before["bests"])


@pytest.mark.parametrize(("folder", "case"), [("single", "random/1"), ("team", "random/2")])
def test_a_run_stopped_by_the_earlier_code_resumes_to_the_same_end(tmp_path, folder, case):
    run_dir = tmp_path / folder
    shutil.copytree(DATA / "runs" / folder, run_dir)
    result = resume_run(run_dir, overrides=("stop.max_iterations=400",))
    before = BEFORE[case]
    assert (result.best_score, result.iterations) == (before["best_score"], before["iterations"])
    assert (run_dir / "best.board").read_text() == before["board"]
