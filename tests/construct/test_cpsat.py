"""The CP-SAT construction: valid boards, relaxed cells, symmetry breaking, strategies, one seed one board."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from conftest import SET1
from cpsat_checks import FAST, assert_non_adjacent, assert_valid, puzzle
from ortools.sat.python import cp_model

from e2opt.construct.cpsat import construct_cpsat
from e2opt.core.board import Board, format_board, join_matches, rule_violations, score
from e2opt.core.errors import E2optError
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import Puzzle
from e2opt.cpsat.relaxed_model import (
    build_model,
    check_relaxed,
    draw_relaxed,
    max_relaxed,
    symmetry_applies,
)
from e2opt.fill.order import spiral as spiral_order


def count_solutions(p: Puzzle, symmetry: bool) -> int:
    """Number of perfect boards, by CP-SAT enumeration (every one checked valid and perfect)."""
    pm = build_model(p, [], symmetry=symmetry)
    boards = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self):
            boards.append(pm.board(self.value))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    assert solver.solve(pm.model, Collect()) == cp_model.OPTIMAL
    for board in boards:
        assert rule_violations(p, board) == [] and score(p, board) == p.max_score
    assert len({format_board(b) for b in boards}) == len(boards)
    return len(boards)


def turned(board: Board) -> Board:
    """The whole board turned a quarter clockwise (each piece one more turn)."""
    return Board(np.rot90(board.piece, -1), (np.rot90(board.rot, -1) + 1) % 4)


@pytest.mark.parametrize("seed", range(20))
def test_draw_relaxed_gives_k_non_adjacent_movable_cells(seed):
    p = puzzle("eternity2.txt")
    rng = np.random.default_rng(seed)
    k = int(rng.integers(0, 60))
    cells = draw_relaxed(p, k, rng)
    assert len(cells) == k
    assert_non_adjacent(cells)
    assert not set(cells) & set(p.hint_map())
    more = draw_relaxed(p, k + 8, rng, keep=cells)
    assert more[:k] == cells and len(more) == k + 8
    assert_non_adjacent(more)


def test_draw_relaxed_too_many_is_a_clear_error():
    p = puzzle("brendan_set1/set1_03x03.txt")
    assert max_relaxed(p) == 5
    with pytest.raises(E2optError, match="relaxed: could not place 6 pairwise non-adjacent"):
        draw_relaxed(p, 6, np.random.default_rng(0))


@pytest.mark.parametrize("seed", range(5))
def test_draw_relaxed_reaches_the_checkerboard_bound_where_a_sequential_draw_gets_stuck(seed):
    p = puzzle("eternity2.txt")  # 16x16 with the centre hint: 128 cells of each colour, the hint on one
    assert max_relaxed(p) == 128
    cells = draw_relaxed(p, 128, np.random.default_rng(seed))
    assert len(cells) == 128 and (8, 7) not in cells
    assert_non_adjacent(cells)


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ([(0, 16)], r"\(0,16\) is off the 16x16 board"),
        ([(8, 7)], r"\(8,7\) is a hint cell"),
        ([(1, 1), (1, 2)], r"\(1,2\) and \(1, 1\) share an edge"),
        ([(1, 1), (1, 1)], "listed twice"),
        ([(1, 1, 1)], r"needs \[row, col\]"),
    ],
)
def test_check_relaxed_rejects_bad_cells(cells, message):
    with pytest.raises(E2optError, match=f"relaxed_cells: .*{message}"):
        check_relaxed(puzzle("eternity2.txt"), cells)


def test_given_relaxed_cells_are_used_and_validated():
    p = puzzle("clue1_6x6.txt")
    cells = ((1, 1), (2, 2), (4, 3), (0, 5))
    board, info = construct_cpsat(p, dataclasses.replace(FAST, relaxed_cells=cells), np.random.default_rng(0))
    assert_valid(p, board)
    assert info["relaxed_cells"] == [list(c) for c in cells]
    with pytest.raises(E2optError, match="share an edge"):
        construct_cpsat(
            p, dataclasses.replace(FAST, relaxed_cells=((1, 1), (2, 1))), np.random.default_rng(0)
        )


@pytest.mark.parametrize(
    "name",
    ["clue1_6x6.txt"]
    + [
        f"brendan_set1/set1_{r:02d}x{c:02d}.txt" for r in range(3, 6) for c in range(r, 8) if (r, c) != (5, 6)
    ],
)
def test_r_empty_finds_a_perfect_board(name):
    p = puzzle(name)
    board, info = construct_cpsat(p, FAST, np.random.default_rng(1))
    assert_valid(p, board)
    assert info["status"] == ["OPTIMAL"] and not info["fallback_used"]
    assert score(p, board) == info["score_after_completion"] == p.max_score


@pytest.mark.slow
@pytest.mark.parametrize("name", ["set1_05x06.txt", "set1_06x06.txt"])
def test_r_empty_finds_a_perfect_board_on_larger_set1_puzzles(name):
    p = read_puzzle(SET1 / name)
    cfg = dataclasses.replace(FAST, variable_strategy="min_domain", time_limit_wall_s=300.0)
    board, info = construct_cpsat(p, cfg, np.random.default_rng(1))
    assert_valid(p, board)
    assert score(p, board) == p.max_score, info


@pytest.mark.parametrize("seed", range(3))
def test_relaxed_board_matches_every_join_away_from_relaxed_cells(seed):
    p = puzzle("clue1_6x6.txt")
    board, info = construct_cpsat(p, dataclasses.replace(FAST, relaxed=5), np.random.default_rng(seed))
    assert_valid(p, board)
    relaxed = {tuple(c) for c in info["relaxed_cells"]}
    assert len(relaxed) == info["relaxed"] == 5
    assert_non_adjacent(relaxed)
    horizontal, vertical = join_matches(p, board)
    for r in range(p.rows):
        for c in range(p.cols):
            touching = (r, c) in relaxed
            if c + 1 < p.cols and not (touching or (r, c + 1) in relaxed):
                assert horizontal[r, c]
            if r + 1 < p.rows and not (touching or (r + 1, c) in relaxed):
                assert vertical[r, c]
    assert info["score_before_completion"] <= info["score_after_completion"] == score(p, board)


def test_hints_are_respected():
    p, _ = generate(6, 6, 3, 4, seed=5, hints=3)
    for seed in range(3):
        board, info = construct_cpsat(p, dataclasses.replace(FAST, relaxed=4), np.random.default_rng(seed))
        assert_valid(p, board)
        for h in p.hints:
            assert (board.piece[h.row, h.col], board.rot[h.row, h.col]) == (h.piece, h.rot)
            assert [h.row, h.col] not in info["relaxed_cells"]


@pytest.mark.parametrize(
    ("name", "group"),
    [
        ("brendan_set1/set1_03x03.txt", 4),
        ("brendan_set1/set1_04x04.txt", 4),
        ("brendan_set1/set1_03x04.txt", 2),
        ("brendan_set1/set1_03x05.txt", 2),
    ],
)
def test_symmetry_breaking_divides_the_solution_count_exactly(name, group):
    p = puzzle(name)
    full, broken = count_solutions(p, symmetry=False), count_solutions(p, symmetry=True)
    assert broken >= 1
    assert full == group * broken


def test_turned_solution_is_a_solution_and_symmetry_keeps_the_first_corner_top_left():
    p = puzzle("brendan_set1/set1_04x04.txt")
    board, info = construct_cpsat(p, FAST, np.random.default_rng(0))
    assert info["rounds"][0]["symmetry_broken"]
    first_corner = int(np.flatnonzero(p.kinds == 0)[0])
    assert board.piece[0, 0] == first_corner
    again = board
    for _ in range(3):
        again = turned(again)
        assert_valid(p, again)
        assert score(p, again) == p.max_score and again.piece[0, 0] != first_corner


def test_symmetry_applies_only_without_hints_and_with_turn_invariant_relaxed_cells():
    square = puzzle("brendan_set1/set1_05x05.txt")
    assert symmetry_applies(square, [])
    assert symmetry_applies(square, [(0, 1), (1, 4), (4, 3), (3, 0), (2, 2)])
    assert not symmetry_applies(square, [(0, 1)])
    wide = puzzle("brendan_set1/set1_03x05.txt")
    assert symmetry_applies(wide, [(0, 1), (2, 3)]) and not symmetry_applies(wide, [(0, 1), (2, 1)])
    assert not symmetry_applies(puzzle("eternity2.txt"), [])


@pytest.mark.parametrize("variable", ["default", "min_domain", "max_domain", "row_scan", "spiral"])
@pytest.mark.parametrize("value", ["min", "max", "random"])
@pytest.mark.parametrize("table", ["table", "element"])
def test_every_strategy_and_encoding_solves_a_small_puzzle(variable, value, table):
    p = puzzle("brendan_set1/set1_04x05.txt")
    cfg = dataclasses.replace(FAST, variable_strategy=variable, value_strategy=value, table=table)
    board, info = construct_cpsat(p, cfg, np.random.default_rng(3))
    assert_valid(p, board)
    assert score(p, board) == p.max_score, info


def test_spiral_order_visits_each_cell_once_rim_first():
    for rows, cols in [(1, 1), (3, 3), (4, 6), (7, 2), (16, 16)]:
        order = spiral_order(rows, cols)
        assert sorted(order) == [(r, c) for r in range(rows) for c in range(cols)]
        rim = 2 * (rows + cols) - 4 if rows > 1 and cols > 1 else rows * cols
        assert all(r in (0, rows - 1) or c in (0, cols - 1) for r, c in order[:rim])
        for a, b in itertools.pairwise(order):
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) <= 2  # each step moves along a ring or inward


def test_same_seed_single_worker_gives_the_same_board():
    p = puzzle("clue1_6x6.txt")
    cfg = dataclasses.replace(FAST, relaxed=4, num_workers=1, value_strategy="random")
    first = construct_cpsat(p, cfg, np.random.default_rng(7))
    second = construct_cpsat(p, cfg, np.random.default_rng(7))
    assert first[0] == second[0] and first[1]["relaxed_cells"] == second[1]["relaxed_cells"]
