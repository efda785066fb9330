"""The CP-SAT construction when a round cannot solve: fallbacks, deadlines, restarts, a stop, the solver's
log and errors, bad settings."""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pytest
from conftest import SET1
from cpsat_checks import FAST, assert_non_adjacent, assert_valid, puzzle

from e2opt.construct import cpsat
from e2opt.construct.config import CpSatConfig
from e2opt.construct.cpsat import construct_cpsat
from e2opt.core.board import Board, score
from e2opt.core.errors import E2optError
from e2opt.core.formats.read import read_board
from e2opt.core.puzzle import Puzzle
from e2opt.cpsat.relaxed_model import build_model
from e2opt.engine.progress import construction_line


def test_no_solution_in_time_falls_back_to_a_random_board():
    p = puzzle("eternity2.txt")
    cfg = CpSatConfig(relaxed=0, time_limit_wall_s=0.5, max_attempts=1, fallback=(), table="element")
    board, info = construct_cpsat(p, cfg, np.random.default_rng(0))
    assert_valid(p, board)
    assert info["fallback_used"] and info["fallback"] == "random"
    assert info["status"] == ["UNKNOWN"] and info["relaxed"] is None  # no CP-SAT board was used
    assert info["score_before_completion"] == info["score_after_completion"] == score(p, board)


def test_infeasible_round_falls_back_to_more_relaxed_cells():
    p = unsolvable_4x4()
    cfg = CpSatConfig(
        relaxed=0, max_attempts=1, fallback=("more_relaxed",), fallback_rounds=3, fallback_step=1
    )
    board, info = construct_cpsat(p, cfg, np.random.default_rng(0))
    assert_valid(p, board)
    assert info["status"][0] == "INFEASIBLE" and info["fallback"] == "more_relaxed"
    assert info["status"][-1] == "OPTIMAL" and info["relaxed"] == len(info["status"]) - 1
    assert_non_adjacent(info["relaxed_cells"])


def test_max_matches_fallback_maximises_matched_joins():
    p = unsolvable_4x4()
    cfg = CpSatConfig(relaxed=0, max_attempts=1, fallback=("max_matches",), fallback_time_limit_wall_s=20.0)
    board, info = construct_cpsat(p, cfg, np.random.default_rng(0))
    assert_valid(p, board)
    assert info["status"] == ["INFEASIBLE", "OPTIMAL"] and info["fallback"] == "max_matches"
    assert info["rounds"][1]["matched_joins"] == score(p, board) == p.max_score - 1


def unsolvable_4x4() -> Puzzle:
    """Brendan 4x4 with one inner join's colour changed on one side: no perfect board, 23/24 is reachable."""
    p = puzzle("brendan_set1/set1_04x04.txt")
    solution = read_board_solution("set1_04x04")
    pieces = p.pieces.copy()
    piece, rot = int(solution.piece[1, 1]), int(solution.rot[1, 1])
    side = (1 - rot) % 4  # the file side that shows right (side 1) after rot turns
    pieces[piece, side] = int(p.pieces.max()) + 1
    return Puzzle(p.rows, p.cols, pieces, name="unsolvable")


def read_board_solution(stem: str) -> Board:
    return read_board(SET1 / "solutions" / f"{stem}.board")


def test_deadline_leaves_no_time_so_the_board_is_random():
    p = puzzle("clue1_6x6.txt")
    board, info = construct_cpsat(p, FAST, np.random.default_rng(0), deadline_s=0.2)
    assert_valid(p, board)
    assert info["status"] == ["SKIPPED"] and info["fallback"] == "random"
    assert "s left before the run's budget" in info["rounds"][0]["reason"]
    line = construction_line({**info, "method": "cpsat", "score": 0}, p.max_score)
    assert "1 CP-SAT round(s) skipped: " in line and "found no solution" not in line


def test_a_skipped_round_does_not_end_the_fallback_chain(monkeypatch):
    p = unsolvable_4x4()
    cfg = CpSatConfig(
        relaxed=0,
        max_attempts=2,
        fallback=("more_relaxed", "max_matches"),
        fallback_rounds=3,
        fallback_step=1,
    )
    big = cpsat.memory_estimate_mb(p, [])  # the hard rounds with no relaxed cell: "too big" for this test
    monkeypatch.setattr(cpsat, "available_memory_mb", lambda: big - 0.001)
    board, info = construct_cpsat(p, cfg, np.random.default_rng(1))
    assert_valid(p, board)
    assert info["status"][:2] == ["SKIPPED", "SKIPPED"] and "would need about" in info["rounds"][0]["reason"]
    assert info["fallback"] == "more_relaxed" and info["status"][-1] == "OPTIMAL"  # one relaxed cell: smaller
    monkeypatch.setattr(cpsat, "available_memory_mb", lambda: 1.0)
    board, info = construct_cpsat(p, cfg, np.random.default_rng(0))
    assert set(info["status"]) == {"SKIPPED"} and len(info["status"]) == 6  # every step was looked at
    assert info["fallback"] == "random" and info["relaxed"] is None


def test_no_round_runs_past_the_deadline_model_building_included():
    p = puzzle("eternity2.txt")
    cfg = CpSatConfig(relaxed=0, max_attempts=3, fallback=(), table="element", time_limit_wall_s=30)
    start = time.perf_counter()
    _board, info = construct_cpsat(p, cfg, np.random.default_rng(0), deadline_s=5.0)
    # CP-SAT checks its limit between steps: on a loaded machine it ends a fraction of a second late (5.35 s
    # was seen beside two benchmark runs), where a round that ignored the deadline would run its 30 s
    late = 2.0
    assert time.perf_counter() - start < 5.0 + late and info["wall_s"] < 5.0 + late, info
    # the first round gets nearly all the time; a second may fit when the first ends early (its time
    # limit allows for a model load estimate the solver may not need), but three cannot: one is skipped
    assert info["status"][0] == "UNKNOWN" and "SKIPPED" in info["status"][1:]
    assert set(info["status"]) <= {"UNKNOWN", "SKIPPED"}


def test_deadline_shortens_the_round_or_skips_a_table_model_too_big_to_load_in_time():
    p = puzzle("eternity2.txt")
    cfg = CpSatConfig(relaxed=0, max_attempts=1, fallback=(), table="element")
    board, info = construct_cpsat(p, cfg, np.random.default_rng(0), deadline_s=5.0)
    assert_valid(p, board)
    assert info["status"] == ["UNKNOWN"] and info["rounds"][0]["time_limit_s"] <= 5.0 - 1.5
    board, info = construct_cpsat(
        p, dataclasses.replace(cfg, table="table"), np.random.default_rng(0), deadline_s=3.0
    )
    assert_valid(p, board)
    assert info["status"] == ["SKIPPED"] and info["wall_s"] < 3.0
    assert "the round needs at least" in info["rounds"][0]["reason"]


def test_solver_log_is_written_when_asked(tmp_path):
    p = puzzle("brendan_set1/set1_03x03.txt")
    path = tmp_path / "cpsat.log"
    construct_cpsat(p, dataclasses.replace(FAST, log=True), np.random.default_rng(0), log_path=str(path))
    text = path.read_text()
    assert "# e2opt round: model=hard relaxed=0" in text and "CpSolverResponse" in text
    construct_cpsat(p, FAST, np.random.default_rng(0), log_path=str(tmp_path / "quiet.log"))
    assert not (tmp_path / "quiet.log").exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("relaxed", -1, "relaxed: must be non-negative"),
        ("time_limit_wall_s", 0, "time_limit_wall_s: must be positive"),
        ("num_workers", 0, "num_workers: must be positive"),
        ("symmetry_level", -1, "symmetry_level: must be non-negative"),
        ("max_presolve_iterations", 0, "max_presolve_iterations: must be positive"),
        ("fallback_step", 0, "fallback_step: must be positive"),
        ("fallback", ("max_matches", "max_matches"), "fallback: a step is listed twice"),
    ],
)
def test_config_rejects_bad_values(field, value, message):
    with pytest.raises(ValueError, match=message):
        CpSatConfig(**{field: value})


def test_a_model_cpsat_cannot_take_falls_back_instead_of_failing(monkeypatch):
    def refuse_hard_models(p, relaxed, soft=False, **kwargs):
        if not soft:
            raise E2optError("cell (1,1): no colour can match its neighbour (0,1)")
        return build_model(p, relaxed, soft=soft, **kwargs)

    monkeypatch.setattr(cpsat, "build_model", refuse_hard_models)
    p = puzzle("brendan_set1/set1_04x04.txt")
    cfg = CpSatConfig(
        relaxed=0,
        max_attempts=1,
        fallback=("more_relaxed", "max_matches"),
        fallback_step=2,
        fallback_time_limit_wall_s=10.0,
    )
    board, info = construct_cpsat(p, cfg, np.random.default_rng(0))
    assert_valid(p, board)
    assert info["status"] == ["MODEL_ERROR", "MODEL_ERROR", "OPTIMAL"] and info["fallback"] == "max_matches"
    assert "no colour can match" in info["rounds"][0]["error"]


def test_a_stop_request_ends_the_round_at_once_and_starts_no_other():
    p = puzzle("eternity2.txt")
    cfg = CpSatConfig(
        relaxed=0, time_limit_wall_s=60.0, table="element", fallback=("more_relaxed", "max_matches")
    )
    calls = []

    def stop_after_a_second() -> bool:
        calls.append(1)
        return len(calls) > 10  # polled every 0.1 s while CP-SAT runs

    board, info = construct_cpsat(p, cfg, np.random.default_rng(0), stop_requested=stop_after_a_second)
    assert_valid(p, board)
    assert info["interrupted"] and len(info["rounds"]) == 1 and info["rounds"][0]["wall_s"] < 20
    assert info["fallback"] == "random"


def test_restarts_draw_new_relaxed_cells_until_one_round_solves():
    p = unsolvable_4x4()  # no perfect board: a round is solvable only when R relaxes a join that allows one
    cfg = CpSatConfig(relaxed=1, max_attempts=61, fallback=())
    board, info = construct_cpsat(p, cfg, np.random.default_rng(3))
    assert_valid(p, board)
    statuses = info["status"]
    # infeasible is a proof: a later round that solves had another draw of R
    assert len(statuses) > 1 and statuses[-1] == "OPTIMAL" and set(statuses[:-1]) == {"INFEASIBLE"}
    assert not info["fallback_used"] and info["fallback"] is None
    assert [r["relaxed"] for r in info["rounds"]] == [1] * len(statuses)
    assert len({r["random_seed"] for r in info["rounds"]}) == len(statuses)  # a new seed every round
    assert score(p, board) >= p.max_score - 4  # every join away from the one relaxed cell matches


def test_an_error_inside_the_solver_thread_reaches_the_caller():
    from e2opt.cpsat.solver import solve_interruptibly

    class Broken:
        def solve(self, model):
            raise RuntimeError("solver exploded")

        def stop_search(self):
            pass

    with pytest.raises(RuntimeError, match="solver exploded"):
        solve_interruptibly(Broken(), None, lambda: False)
