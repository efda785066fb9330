"""Moves behind one interface: valid boards and exact incremental scores (check mode), repairs that never
lose, swap-and-rotate finding planted improvements, a reproducible adaptive schedule, exact resume."""

from __future__ import annotations

import io

import numpy as np
import pytest
from helpers import plain_search

from e2opt.config.schema import build
from e2opt.core.board import Board, random_board, score
from e2opt.core.errors import ConfigError
from e2opt.core.generate import generate
from e2opt.search.config import AcceptanceConfig, ScheduleConfig, SearchConfig
from e2opt.search.moves import MovesConfig, assignment_alone
from e2opt.search.moves.assignment import AssignmentConfig
from e2opt.search.moves.base import MoveWeight
from e2opt.search.moves.border import BorderMoveConfig, frame_ring
from e2opt.search.moves.clique import CliqueMoveConfig
from e2opt.search.moves.region import RegionMoveConfig
from e2opt.search.moves.tsr import TsrMoveConfig
from e2opt.search.state import SearchState
from e2opt.search.stop import AnyOf, Clock, MaxIterations
from e2opt.search.tabu import TabuSearch

SOLO = {
    "assignment": assignment_alone(),
    "checkerboard": MovesConfig(assignment=None, checkerboard=MoveWeight()),
    "tsr_first": MovesConfig(assignment=None, tsr=TsrMoveConfig()),
    "tsr_best": MovesConfig(assignment=None, tsr=TsrMoveConfig(scan="best", tries=3, partners=2)),
    "region_rect": MovesConfig(assignment=None, region=RegionMoveConfig(sizes=(2, 3), time_limit_wall_s=0.2)),
    "region_cluster": MovesConfig(
        assignment=None, region=RegionMoveConfig(sizes=(3,), shape="cluster", time_limit_wall_s=0.2)
    ),
    "border": MovesConfig(assignment=None, border=BorderMoveConfig(stretch=0, time_limit_wall_s=0.3)),
    "border_stretch": MovesConfig(assignment=None, border=BorderMoveConfig(stretch=5, time_limit_wall_s=0.2)),
    "clique": MovesConfig(
        assignment=None, clique=CliqueMoveConfig(width=4, height=3, selections=2000, time_limit_wall_s=0.2)
    ),
}
CPSAT = ("region_rect", "region_cluster", "border", "border_stretch", "clique")


def _search(seed: int, rows: int, cols: int, hints: int, **cfg) -> TabuSearch:
    cfg.setdefault("cost_noise", 0.0)
    puzzle, _ = generate(rows, cols, 3, 4, seed, hints)
    rng = np.random.default_rng(seed)
    return TabuSearch(puzzle, random_board(puzzle, rng), plain_search(**cfg), rng)


@pytest.mark.parametrize("name", list(SOLO))
@pytest.mark.parametrize("acceptance", ["tabu", "annealing"])
def test_every_move_keeps_the_board_valid_and_the_score_exact(name, acceptance):
    cases = (
        [(1, 5, 5, 1), (2, 6, 7, 2)]
        if name in CPSAT
        else [(s, 4 + s % 4, 5 + s % 3, s % 3) for s in range(5)]
    )
    for seed, rows, cols, hints in cases:
        search = _search(
            seed, rows, cols, hints, moves=SOLO[name], check=True, plateau=25, intensify_after=2,
            acceptance=AcceptanceConfig(kind=acceptance, t_start=2.0, t_end=0.5),
        )  # fmt: skip
        search.run(MaxIterations(12 if name in CPSAT else 200), Clock())  # check() after every move
        totals = search.schedule.summary()[search.moves[0].name]
        assert totals["calls"] > 0


@pytest.mark.parametrize("name", ["region_rect", "region_cluster", "border", "border_stretch", "clique"])
def test_region_repair_and_border_never_lower_the_score(name):
    for seed in range(2):
        search = _search(seed, 6, 6, 1, moves=SOLO[name])
        move = search.moves[0]
        for _ in range(6):
            before = score(search.puzzle, search.current_board())
            search.state.iteration += 1
            delta = move()
            search.state.score += delta
            assert delta >= 0
            assert score(search.puzzle, search.current_board()) == before + delta
            search.check()


def test_region_windows_prefer_mismatches_and_skip_repaired_cells():
    search = _search(
        3, 8, 8, 1, moves=MovesConfig(assignment=None, region=RegionMoveConfig(sizes=(2,), tabu=50))
    )
    move, flat = search.moves[0], search.flat
    for _ in range(40):
        cells = move.window()
        assert flat.movable[cells].all() and 0 < len(cells) <= 4
        assert len(set(cells // flat.cols)) <= 2 and len(set(cells % flat.cols)) <= 2
        move._tabu[cells] = move._calls[0] + 100  # what a call does: these cells are no centre for a while
    assert (move._tabu > 0).sum() >= 30


def test_frame_ring_walks_the_frame_once():
    ring = frame_ring(4, 5)
    assert len(ring) == len(set(ring.tolist())) == 2 * 4 + 2 * 5 - 4
    assert ring[:5].tolist() == [0, 1, 2, 3, 4] and ring[-1] == 5


def _planted(change: str) -> tuple[TabuSearch, int]:
    """A perfect board with one planted defect that one TSR move repairs; the search and the score lost."""
    puzzle, solution = generate(6, 6, 3, 5, 11, 0)
    board = solution.copy()
    if change == "rotate":
        board.rot[2, 3] = (board.rot[2, 3] + 1) % 4
    elif change == "swap_adjacent":
        board.piece[2, 2], board.piece[2, 3] = board.piece[2, 3], board.piece[2, 2]
        board.rot[2, 2], board.rot[2, 3] = board.rot[2, 3], board.rot[2, 2]
    elif change == "swap_far":
        board.piece[1, 1], board.piece[4, 3] = board.piece[4, 3], board.piece[1, 1]
        board.rot[1, 1], board.rot[4, 3] = (board.rot[4, 3] + 1) % 4, board.rot[1, 1]
    else:  # turn the 2x2 block at (2, 2) one quarter counter-clockwise
        ring = [(2, 2), (2, 3), (3, 3), (3, 2)]
        pieces = [(board.piece[c], board.rot[c]) for c in ring]
        for k, cell in enumerate(ring):
            p, r = pieces[(k + 1) % 4]
            board.piece[cell], board.rot[cell] = p, (r + 3) % 4
    cfg = plain_search(
        moves=MovesConfig(assignment=None, tsr=TsrMoveConfig(scan="best", tries=40, partners=35))
    )
    search = TabuSearch(puzzle, board, cfg, np.random.default_rng(0))
    return search, puzzle.max_score - score(puzzle, board)


@pytest.mark.parametrize("change", ["rotate", "swap_adjacent", "swap_far", "block"])
def test_tsr_repairs_a_planted_defect(change):
    search, lost = _planted(change)
    assert lost > 0
    search.move()
    search.check()
    assert search.state.score == search.puzzle.max_score


def _adaptive_cfg(**extra) -> SearchConfig:
    moves = MovesConfig(
        assignment=AssignmentConfig(weight=1.0, cost_cpu_ms=0.05),
        tsr=TsrMoveConfig(weight=1.0, cost_cpu_ms=0.02),
    )
    sched = ScheduleConfig(kind="adaptive", segment=40)
    return plain_search(moves=moves, schedule=sched, holes=(3, 8), plateau=60, intensify_after=2, **extra)


def _state_equal(a: TabuSearch, b: TabuSearch) -> None:
    da, db = a.state.to_dict(), b.state.to_dict()
    assert da.keys() == db.keys()
    for key in da:
        if not key.startswith("time_to_best") and key != "extra_move_cpu":
            assert np.array_equal(da[key], db[key]), key


def test_adaptive_schedule_is_reproducible_and_adapts():
    runs = []
    for _ in range(2):
        puzzle, _ = generate(8, 8, 3, 4, 4, 2)
        board = random_board(puzzle, np.random.default_rng(4))
        search = TabuSearch(puzzle, board, _adaptive_cfg(), np.random.default_rng(7))
        search.run(MaxIterations(1500), Clock())
        runs.append(search)
    _state_equal(*runs)
    summary = runs[0].schedule.summary()
    assert summary["assignment"]["calls"] > 0 and summary["tsr"]["calls"] > 0
    assert summary["assignment"]["share"] != 0.5  # the shares moved away from the configured 50/50


class _StopAt:
    """Stops at a given iteration (checked every TICK moves, so pick a multiple of 64)."""

    def __init__(self, n: int):
        self.n, self.reason = n, f"at {n}"

    def __call__(self, status) -> bool:
        return status.iteration >= self.n


def _npz_round_trip(data: dict) -> dict:
    buffer = io.BytesIO()
    np.savez(buffer, **data)
    buffer.seek(0)
    with np.load(buffer) as loaded:
        return {key: loaded[key] for key in loaded.files}


@pytest.mark.parametrize("acceptance", ["tabu", "annealing"])
def test_resume_continues_the_same_schedule(acceptance):
    cfg = _adaptive_cfg(acceptance=AcceptanceConfig(kind=acceptance))
    puzzle, _ = generate(8, 8, 3, 4, 5, 2)
    board = random_board(puzzle, np.random.default_rng(5))
    whole = TabuSearch(puzzle, board, cfg, np.random.default_rng(3))
    whole.run(MaxIterations(1000), Clock())
    first = TabuSearch(puzzle, board, cfg, np.random.default_rng(3))
    first.run(AnyOf(MaxIterations(1000), _StopAt(448)), Clock())
    assert first.state.iteration == 448
    state = SearchState.from_dict(_npz_round_trip(first.state.to_dict()))
    assert "sched_share" in state.extra and "temperature" in state.extra
    second = TabuSearch.from_state(puzzle, cfg, state)
    second.run(MaxIterations(1000), Clock())
    _state_equal(whole, second)


def test_fixed_mix_gives_cpu_shares():
    cfg = plain_search(
        moves=MovesConfig(
            assignment=AssignmentConfig(weight=3.0, cost_cpu_ms=0.1),
            tsr=TsrMoveConfig(weight=1.0, cost_cpu_ms=0.01),
        ),
        schedule=ScheduleConfig(kind="fixed"),
    )
    puzzle, _ = generate(6, 6, 3, 4, 2, 0)
    search = TabuSearch(puzzle, random_board(puzzle, np.random.default_rng(2)), cfg, np.random.default_rng(2))
    search.run(MaxIterations(4000), Clock())
    s = search.schedule.summary()
    assert s["assignment"]["share"] == 0.75
    ratio = s["tsr"]["calls"] / s["assignment"]["calls"]  # CPU 1:3 at costs 0.01:0.1 -> calls 10:3
    assert 2.5 < ratio < 4.3


def test_config_errors_name_the_key():
    with pytest.raises(ConfigError, match=r"search\.moves\.tsr\.scan"):
        build(SearchConfig, {"moves": {"tsr": {"scan": "worst"}}}, "x.yaml", "search")
    with pytest.raises(ConfigError, match=r"search\.moves\.region\.sizes"):
        build(SearchConfig, {"moves": {"region": {"sizes": [1]}}}, "x.yaml", "search")
    with pytest.raises(ConfigError, match="at least one move"):
        build(SearchConfig, {"moves": {"assignment": None}}, "x.yaml", "search")
    with pytest.raises(ConfigError, match=r"unknown key 'search\.moves\.swap'"):
        build(SearchConfig, {"moves": {"swap": {}}}, "x.yaml", "search")
    cfg = build(SearchConfig, {"moves": {"tsr": {"weight": 2}}}, "x.yaml", "search")
    assert [n for n, _ in cfg.moves.enabled()] == ["tsr"]  # a moves section replaces the default mix


def test_hint_cells_never_move():
    search = _search(
        6, 7, 7, 3,
        moves=MovesConfig(
            assignment=AssignmentConfig(cost_cpu_ms=0.1), tsr=TsrMoveConfig(cost_cpu_ms=0.02),
            region=RegionMoveConfig(sizes=(3,), cost_cpu_ms=20.0, time_limit_wall_s=0.1),
        ),
    )  # fmt: skip
    search.run(MaxIterations(400), Clock())
    board: Board = search.current_board()
    for h in search.puzzle.hints:
        assert (board.piece[h.row, h.col], board.rot[h.row, h.col]) == (h.piece, h.rot)


def test_report_shows_per_move_lines(tmp_path):
    from helpers import EVENTS, make_run

    from e2opt.engine.report import run_report

    moves = {
        "assignment": {"calls": 900, "cpu_s": 1.2, "gain": 30, "improved": 40, "share": 0.8},
        "region": {"calls": 12, "cpu_s": 0.6, "gain": 3, "improved": 2, "share": 0.2},
    }
    events = [*EVENTS[:-1], {**EVENTS[-1], "moves": moves}]
    text = run_report(make_run(tmp_path, events, None), plots=False)
    assert "move assignment: 900 calls, 1.2 CPU s, gain +30, improving 40, share 80%" in text
    assert "move region: 12 calls" in text
