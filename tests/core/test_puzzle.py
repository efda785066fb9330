"""Puzzle files: round trips, and one test per malformed input naming the file and the line."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import INSTANCES, TINY_PUZZLE
from helpers import MALFORMED, lines_with

from e2opt.core.errors import PuzzleError
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import CORNER, EDGE, INNER, format_puzzle, parse_puzzle, rotate, write_puzzle

SHIPPED = sorted(INSTANCES.glob("*.txt")) + sorted((INSTANCES / "brendan_set1").glob("*.txt"))


def same(a, b) -> bool:
    """Same puzzle as the file has it: size, hints and pieces in the file's colour ids."""
    return format_puzzle(a) == format_puzzle(b)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_puzzle_round_trips_through_a_file(path: Path, tmp_path: Path):
    puzzle = read_puzzle(path)
    assert puzzle.n_cells == len(puzzle.pieces) and puzzle.warnings == ()
    write_puzzle(puzzle, tmp_path / "copy.txt")
    again = read_puzzle(tmp_path / "copy.txt")
    assert same(puzzle, again) and again.name == "copy"


@pytest.mark.parametrize("shape", [(2, 2), (2, 7), (5, 3), (6, 9)])
def test_generated_puzzle_round_trips_with_hints(shape):
    puzzle, _ = generate(*shape, frame_colours=3, inner_colours=6, seed=1, hints=2)
    again = parse_puzzle(format_puzzle(puzzle))
    assert same(puzzle, again) and len(again.hints) == 2


def test_shipped_hints_and_kinds_are_read():
    puzzle = read_puzzle(INSTANCES / "eternity2_5hints.txt")
    assert len(puzzle.hints) == 5
    first = puzzle.hints[0]
    assert (first.piece, first.row, first.col, first.rot) == (138, 8, 7, 2)
    assert [int((puzzle.kinds == k).sum()) for k in (CORNER, EDGE, INNER)] == [4, 56, 196]


def test_rotation_convention_one_turn_maps_trbl_to_ltrb():
    assert rotate((1, 2, 3, 4), 1) == (4, 1, 2, 3)
    puzzle = parse_puzzle(TINY_PUZZLE)
    for rot in range(4):
        assert tuple(puzzle.oriented[7, rot]) == rotate(puzzle.pieces[7], rot)


@pytest.mark.parametrize("case, text, line, words", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_puzzle_error_names_file_and_line(tmp_path: Path, case, text, line, words):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(PuzzleError) as info:
        read_puzzle(path)
    message = str(info.value)
    assert message.startswith(f"{path}, line {line}: "), message
    assert words in message and "\n" not in message


def test_the_base_of_the_malformed_cases_is_valid():
    puzzle = parse_puzzle(lines_with(extra="hint 7 1 1 2\nhint 8 2 2 0\n"))
    assert len(puzzle.hints) == 2 and puzzle.warnings == ()


def test_missing_file_is_a_puzzle_error(tmp_path: Path):
    with pytest.raises(PuzzleError, match="no such file"):
        read_puzzle(tmp_path / "nope.txt")


def test_odd_colour_count_is_a_warning_not_an_error(tmp_path: Path):
    path = tmp_path / "odd.txt"
    path.write_text(lines_with({9: "3 4 3 5"}))  # one 4 becomes a 5: both now have odd counts
    puzzle = read_puzzle(path)
    assert len(puzzle.warnings) == 1
    assert str(path) in puzzle.warnings[0] and "odd count [4, 5]" in puzzle.warnings[0]
