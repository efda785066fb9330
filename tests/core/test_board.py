"""Boards: .board round trips, parse errors, and score / mismatch counts against slow loops."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import BOARDS, INSTANCES, SET1, TINY_BOARD, TINY_PUZZLE, puzzle_for_board

from e2opt.core.board import (
    cell_mismatches,
    format_board,
    mismatches,
    parse_board,
    random_board,
    rule_violations,
    score,
    write_board,
)
from e2opt.core.errors import BoardError
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import parse_puzzle

SHIPPED_BOARDS = sorted(BOARDS.glob("*.board")) + sorted((SET1 / "solutions").glob("*.board"))


@pytest.mark.parametrize("path", SHIPPED_BOARDS, ids=lambda p: p.stem)
def test_shipped_board_round_trips_through_a_file(path: Path, tmp_path: Path):
    board = read_board(path)
    write_board(board, tmp_path / "copy.board")
    assert read_board(tmp_path / "copy.board") == board
    puzzle = read_puzzle(puzzle_for_board(path))
    assert board.shape == (puzzle.rows, puzzle.cols)


def test_random_boards_round_trip_as_text():
    rng = np.random.default_rng(5)
    for shape in [(2, 3), (4, 4), (3, 8)]:
        puzzle, _ = generate(*shape, frame_colours=3, inner_colours=5, seed=int(rng.integers(1000)))
        board = random_board(puzzle, rng)
        assert parse_board(format_board(board)) == board


def slow_cell_mismatches(puzzle, board) -> np.ndarray:
    """Per cell, count neighbours whose touching side differs, one neighbour at a time."""
    out = np.zeros(board.shape, dtype=int)
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            mine = puzzle.oriented[board.piece[r, c], board.rot[r, c]]
            for dr, dc, side, other_side in ((-1, 0, 0, 2), (1, 0, 2, 0), (0, -1, 3, 1), (0, 1, 1, 3)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < puzzle.rows and 0 <= cc < puzzle.cols:
                    theirs = puzzle.oriented[board.piece[rr, cc], board.rot[rr, cc]]
                    out[r, c] += mine[side] != theirs[other_side]
    return out


@pytest.mark.parametrize("seed", range(10))
def test_cell_mismatches_and_score_agree_with_slow_counts(seed):
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(2, 8)), int(rng.integers(2, 8))
    puzzle, _ = generate(rows, cols, frame_colours=3, inner_colours=4, seed=seed)
    board = random_board(puzzle, rng)
    slow = slow_cell_mismatches(puzzle, board)
    assert np.array_equal(cell_mismatches(puzzle, board), slow)
    assert mismatches(puzzle, board) == slow.sum() // 2  # each bad join counted from both sides
    assert score(puzzle, board) == puzzle.max_score - slow.sum() // 2


def test_planted_board_scores_full_and_max_score_formula():
    puzzle, solution = generate(5, 7, frame_colours=3, inner_colours=6, seed=2)
    assert puzzle.max_score == 5 * 6 + 4 * 7
    assert score(puzzle, solution) == puzzle.max_score and mismatches(puzzle, solution) == 0
    assert not cell_mismatches(puzzle, solution).any()


@pytest.mark.parametrize("seed", range(5))
def test_random_board_obeys_the_hard_rules(seed):
    puzzle = read_puzzle(INSTANCES / "eternity2_5hints.txt")
    assert rule_violations(puzzle, random_board(puzzle, np.random.default_rng(seed))) == []


def test_rule_violations_names_cell_and_piece():
    puzzle, board = parse_puzzle(TINY_PUZZLE), parse_board(TINY_BOARD)
    assert rule_violations(puzzle, board) == []
    board.piece[0, 0], board.piece[1, 1] = board.piece[1, 1], board.piece[0, 0]
    found = rule_violations(puzzle, board)
    assert any("cell (0,0)" in p and "inner piece 7" in p for p in found)
    assert any("cell (1,1)" in p and "corner piece 5" in p for p in found)


MALFORMED = [
    ("", "line 1: missing header"),
    ("3\n", "line 1: missing header"),
    ("3 3\n5:3 3:1 0:3\n4:0 7:2 6:2\n", "expected 3 rows"),
    ("3 3\n5:3 3:1 0:3\n4:0 7:2\n1:1 2:0 8:0\n", "line 3: expected 3 cells"),
    ("3 3\n5:3 3:1 0:3\n4:0 7-2 6:2\n1:1 2:0 8:0\n", "line 3: '7-2' is not 'piece:rotation'"),
    ("3 3\n5:3 3:1 0:3\n4:0 7:2 6:2\n1:1 2:x 8:0\n", "line 4: '2:x' is not 'piece:rotation'"),
    ("3 ³\n5:3 3:1 0:3\n4:0 7:2 6:2\n1:1 2:0 8:0\n", "line 1: missing header"),
    ("3 3\n5:3 3:1 0:3\n4:0 7:² 6:2\n1:1 2:0 8:0\n", "line 3: '7:²' is not 'piece:rotation'"),
    ("3 3\n5:3 3:1 0:3\n4:0 7:2 6:2\n1:1 ²:0 8:0\n", "line 4: '²:0' is not 'piece:rotation'"),
]


@pytest.mark.parametrize("text, words", MALFORMED)
def test_malformed_board_error_names_the_line(tmp_path: Path, text, words):
    path = tmp_path / "bad.board"
    path.write_text(text)
    with pytest.raises(BoardError) as info:
        read_board(path)
    assert str(info.value).startswith(str(path)) and words in str(info.value)


def test_missing_board_file_is_a_board_error(tmp_path: Path):
    with pytest.raises(BoardError, match="cannot read"):
        read_board(tmp_path / "nope.board")
