"""Helpers shared by the tests of the CP-SAT constructions (whole board and region by region): the
shipped puzzles, the hard-rule check (by board.py and by the independent verifier), a fast one-round config."""

from __future__ import annotations

from conftest import INSTANCES

from e2opt.construct.config import CpSatConfig
from e2opt.core.board import Board, format_board, rule_violations, score
from e2opt.core.formats.read import read_puzzle
from e2opt.core.puzzle import Puzzle, format_puzzle
from e2opt.core.verify import verify_texts

FAST = CpSatConfig(relaxed=0, time_limit_wall_s=60.0, max_attempts=1, fallback=())


def puzzle(name: str) -> Puzzle:
    return read_puzzle(INSTANCES / name)


def assert_valid(p: Puzzle, board: Board) -> None:
    """The hard rules, checked by board.py and by the independent verifier."""
    assert rule_violations(p, board) == []
    report = verify_texts(format_puzzle(p), format_board(board))
    assert report.valid, report.text()
    assert report.score == score(p, board)


def assert_non_adjacent(cells) -> None:
    cells = [tuple(c) for c in cells]
    assert len(set(cells)) == len(cells)
    for r, c in cells:
        assert (r + 1, c) not in cells and (r, c + 1) not in cells
