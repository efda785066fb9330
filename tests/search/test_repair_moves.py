"""The repair moves (destroy and repair): the numba annealing against a slow reference, never a loss under the
tabu acceptance, boards the verifier accepts (kinds, rim, hints), exact incremental scores in check mode,
the YAML sections, the adaptive schedule and an exact resume, and the outer annealing's reheats."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import plain_search
from repair_reference import anneal_reference, joins
from test_moves import _npz_round_trip, _state_equal, _StopAt

from e2opt.config.schema import build
from e2opt.core.board import format_board, random_board
from e2opt.core.errors import ConfigError
from e2opt.core.generate import generate
from e2opt.core.puzzle import format_puzzle
from e2opt.core.verify import verify_texts
from e2opt.search.acceptance import Acceptance
from e2opt.search.config import AcceptanceConfig, ScheduleConfig, SearchConfig
from e2opt.search.moves import MOVES, MovesConfig
from e2opt.search.moves import repair_kernel as rk
from e2opt.search.moves.repair import repair_cells
from e2opt.search.state import SearchState
from e2opt.search.stop import AnyOf, Clock, MaxCpuTime, MaxIterations
from e2opt.search.tabu import TabuSearch

REPAIRS = [name for name in MOVES if name.startswith("repair_")]
SMALL = {  # settings that fit boards of 4x4 to 7x7
    "repair_window": {"size": 3},
    "repair_worst": {"size": 3},
    "repair_bfs": {"cells": 8},
    "repair_pairs": {"cells": 6},
    "repair_band": {"width": 2},
    "repair_chain": {"lengths": (4, 6)},
}


def _moves(name: str, **settings) -> MovesConfig:
    return MovesConfig(assignment=None, **{name: MOVES[name].settings(**{**SMALL[name], **settings})})


def _search(seed, rows, cols, hints, board="random", recolour=0, **cfg) -> TabuSearch:
    cfg.setdefault("cost_noise", 0.0)
    puzzle, solution = generate(rows, cols, 3, 4, seed, hints, recolour)
    rng = np.random.default_rng(seed)
    start = solution if board == "solution" else random_board(puzzle, rng)
    return TabuSearch(puzzle, start, plain_search(**cfg), rng)


def _verified(search: TabuSearch) -> int:
    """The verifier's score of the current board; AssertionError when it breaks a rule."""
    report = verify_texts(format_puzzle(search.puzzle), format_board(search.current_board()))
    assert report.valid, report.problems
    return report.score


@pytest.mark.parametrize("shuffle", [True, False])
@pytest.mark.parametrize("floor", [True, False])
def test_annealing_equals_the_slow_reference(shuffle, floor):
    changed = 0
    for seed in range(12):
        rows, cols = 4 + seed % 3, 4 + seed % 2
        search = _search(seed, rows, cols, seed % 3, board="solution" if seed % 2 else "random")
        f, st = search.flat, search.state
        gen = np.random.default_rng(100 + seed)
        movable = np.flatnonzero(f.movable)
        cells = np.sort(gen.choice(movable, size=min(3 + seed % 7, len(movable)), replace=False))
        steps, t_start, factor = 40 * len(cells), 2.0, 0.995
        piece, rot, rng = st.piece.copy(), st.rot.copy(), st.rng.copy()
        before = st.piece.copy()
        want = anneal_reference(f, cells, steps, t_start, factor, 0.3, shuffle, floor, piece, rot, rng)
        got = rk.anneal(
            cells, steps, t_start, factor, 0.3, shuffle, floor, f.cell_kind, f.rimmask, f.fit, f.nbr, f.oriented,
            st.piece, st.rot, search.ctx.colour, search.ctx.mis, st.rng, *rk.buffers(f.n),
        )  # fmt: skip
        assert got == want
        changed += got != 0 or not np.array_equal(piece, before)
        assert np.array_equal(st.piece, piece) and np.array_equal(st.rot, rot)
        assert st.rng[0] == rng[0]
        assert search.ctx.recompute() == joins(f, piece, rot)  # the kernel's colours were exact
    assert changed >= 4  # a third of the cases or more moved pieces: not two untouched boards compared


@pytest.mark.parametrize("name", REPAIRS)
def test_repair_never_loses_under_tabu_and_keeps_the_rules(name):
    for seed in range(8):
        rows, cols = 4 + seed % 4, 5 + seed % 3
        board = "solution" if seed % 2 else "random"
        search = _search(seed, rows, cols, seed % 3, board=board, moves=_moves(name, steps=30))
        move = search.moves[0]
        before = _verified(search)
        for _ in range(15):
            delta = move()
            assert delta >= 0
            after = _verified(search)
            assert after == before + delta
            before = after
        for h in search.puzzle.hints:
            board_now = search.current_board()
            assert (board_now.piece[h.row, h.col], board_now.rot[h.row, h.col]) == (h.piece, h.rot)


@pytest.mark.parametrize("name", REPAIRS)
def test_under_annealing_the_repair_returns_its_result(name):
    """From a near-perfect board (3 joins recoloured) a short repair mostly loses: under annealing it hands
    those losses to the acceptance."""
    losses = 0
    for seed in range(4):
        search = _search(
            seed, 6, 6, 1, board="solution", recolour=3, moves=_moves(name, steps=5, shuffle=True),
            acceptance=AcceptanceConfig(kind="annealing"),
        )  # fmt: skip
        before = _verified(search)
        for _ in range(10):
            delta = search.moves[0]()
            after = _verified(search)
            assert after == before + delta
            losses += delta < 0
            before = after
    assert losses > 0


@pytest.mark.parametrize("name", REPAIRS)
@pytest.mark.parametrize("acceptance", ["tabu", "annealing"])
def test_search_with_repairs_keeps_the_score_exact(name, acceptance):
    for seed in range(3):
        search = _search(
            seed, 5 + seed, 6, seed % 3, moves=_moves(name, steps=20), check=True, plateau=25, intensify_after=2,
            acceptance=AcceptanceConfig(kind=acceptance, t_start=2.0, t_end=0.5, reheats=1),
        )  # fmt: skip
        search.run(MaxIterations(150), Clock())  # check() after every move
        assert search.schedule.summary()[name]["calls"] > 0
        assert search.state.best_score >= search.state.score


@pytest.mark.parametrize("repair", ["cpsat", "fallback"])
def test_cpsat_repair_and_fallback_never_lose_under_tabu(repair):
    for seed in range(2):
        moves = _moves("repair_window", steps=10, repair=repair, time_limit_wall_s=0.2)
        search = _search(seed, 6, 6, 1, board="solution" if seed else "random", moves=moves, check=True)
        before = _verified(search)
        for _ in range(4):
            delta = search.moves[0]()
            assert delta >= 0
            before, after = _verified(search), before
            assert before == after + delta


@pytest.mark.parametrize("hints", [0, 2])
def test_destroy_operators_draw_what_they_say(hints):
    search = _search(3, 8, 8, hints, moves=_moves("repair_window"))
    ctx, f = search.ctx, search.flat
    mis = ctx.mis.reshape(f.rows, f.cols)
    sums = [mis[r : r + 3, c : c + 3].sum() for r in range(f.rows - 2) for c in range(f.cols - 2)]
    for name, settings in SMALL.items():
        move = MOVES[name].move(ctx, MOVES[name].settings(**settings))
        for _ in range(20):
            cells = move.destroy()
            assert len(cells) == len(set(cells.tolist())) >= 2
            assert f.movable[cells].all()
            rows, cols = np.divmod(cells, f.cols)
            if name in ("repair_window", "repair_worst"):
                assert rows.max() - rows.min() <= 2 and cols.max() - cols.min() <= 2
            if name == "repair_worst" and hints == 0:  # no 3x3 window holds more mismatches
                assert len(cells) == 9 and mis[rows, cols].sum() == max(sums)
            if name in ("repair_bfs", "repair_chain"):  # connected
                inside = set(cells.tolist())
                seen, todo = {int(cells[0])}, [int(cells[0])]
                while todo:
                    for d in f.nbr[todo.pop()]:
                        if int(d) in inside and int(d) not in seen:
                            seen.add(int(d))
                            todo.append(int(d))
                assert seen == inside
            if name == "repair_pairs":  # every cell on a mismatched join
                assert (ctx.mis[cells] > 0).all()
            if name == "repair_band":
                assert len(set(rows.tolist())) <= 2 or len(set(cols.tolist())) <= 2


def _mix_cfg(acceptance: str) -> SearchConfig:
    moves = MovesConfig(
        assignment=None, **{n: MOVES[n].settings(**SMALL[n], steps=10, cost_cpu_ms=0.05 + 0.01 * i) for i, n in enumerate(REPAIRS)}
    )  # fmt: skip
    return plain_search(
        moves=moves, schedule=ScheduleConfig(kind="adaptive", segment=30), plateau=80, intensify_after=2,
        cost_noise=0.0, acceptance=AcceptanceConfig(kind=acceptance, reheats=2),
    )  # fmt: skip


@pytest.mark.parametrize("acceptance", ["tabu", "annealing"])
def test_adaptive_mix_is_reproducible_and_resumes_exactly(acceptance):
    cfg = _mix_cfg(acceptance)
    puzzle, _ = generate(7, 7, 3, 4, 5, 2)
    board = random_board(puzzle, np.random.default_rng(5))
    whole = TabuSearch(puzzle, board, cfg, np.random.default_rng(3))
    whole.run(MaxIterations(640), Clock())
    again = TabuSearch(puzzle, board, cfg, np.random.default_rng(3))
    again.run(MaxIterations(640), Clock())
    _state_equal(whole, again)
    summary = whole.schedule.summary()
    assert all(summary[n]["calls"] > 0 for n in REPAIRS)
    assert len({summary[n]["share"] for n in REPAIRS}) > 1  # the roulette moved the shares
    first = TabuSearch(puzzle, board, cfg, np.random.default_rng(3))
    first.run(AnyOf(MaxIterations(640), _StopAt(256)), Clock())
    second = TabuSearch.from_state(puzzle, cfg, SearchState.from_dict(_npz_round_trip(first.state.to_dict())))
    second.run(MaxIterations(640), Clock())
    _state_equal(whole, second)


def test_yaml_sections_and_bad_keys():
    cfg = build(
        SearchConfig,
        {
            "moves": {
                "repair_bfs": {"weight": 2, "cells": 20, "repair": "fallback"},
                "repair_chain": {"lengths": [8]},
            }
        },
        "x.yaml",
        "search",
    )
    assert [n for n, _ in cfg.moves.enabled()] == [
        "repair_bfs",
        "repair_chain",
    ]  # the section lists the moves
    assert cfg.moves.repair_bfs.cells == 20 and cfg.moves.repair_chain.lengths == (8,)
    bad = [
        ({"repair_window": {"size": 1}}, r"search\.moves\.repair_window\.size"),
        ({"repair_worst": {"repair": "exact"}}, r"search\.moves\.repair_worst\.repair"),
        ({"repair_bfs": {"cells": 1}}, r"search\.moves\.repair_bfs\.cells"),
        ({"repair_chain": {"lengths": [1]}}, r"search\.moves\.repair_chain\.lengths"),
        ({"repair_pairs": {"rotate": 2}}, r"search\.moves\.repair_pairs\.rotate"),
        ({"repair_band": {"steps": 0}}, r"search\.moves\.repair_band\.steps"),
        ({"repair_band": {"size": 4}}, r"unknown key 'search\.moves\.repair_band\.size'"),
    ]
    for moves, message in bad:
        with pytest.raises(ConfigError, match=message):
            build(SearchConfig, {"moves": moves}, "x.yaml", "search")
    with pytest.raises(ConfigError, match=r"search\.acceptance\.reheats"):
        build(SearchConfig, {"acceptance": {"reheats": -1}}, "x.yaml", "search")


def test_reheats_restart_the_cooling():
    state = SearchState.initial(np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64), 0, 1)
    once = Acceptance(AcceptanceConfig(kind="annealing", t_start=2.0, t_end=0.02), state)
    twice = Acceptance(AcceptanceConfig(kind="annealing", t_start=2.0, t_end=0.02, reheats=1), state)
    for acc in (once, twice):
        acc.start(MaxCpuTime(100.0))

    def temperature(acc: Acceptance, cpu: float) -> float:
        acc.cool(0, cpu)
        return float(acc.temperature[0])

    assert temperature(twice, 0.0) == pytest.approx(2.0)
    assert temperature(twice, 25.0) == pytest.approx(temperature(once, 50.0))
    assert temperature(twice, 50.0) == pytest.approx(2.0)  # the reheat
    assert temperature(twice, 75.0) == pytest.approx(temperature(once, 50.0))
    assert temperature(twice, 100.0) == pytest.approx(0.02) == temperature(once, 100.0)


def test_no_cap_on_mismatches_per_cell():
    """Cells may end a repair with two or more mismatched sides (the strongest 460 boards hold such cells)."""
    search = _search(2, 6, 6, 0, moves=_moves("repair_window", steps=40, size=4))
    move, worst_cell = search.moves[0], 0
    for _ in range(10):
        cells = move.destroy()
        search.state.score += repair_cells(search.ctx, cells, move.settings, move.floor, move._buffers)
        worst_cell = max(worst_cell, int(search.ctx.mis[cells].max()))
    assert worst_cell >= 2
