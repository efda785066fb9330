"""The independent verifier: shipped boards at their labels, every rule named, agreement with fast code."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import BOARDS, INSTANCES, SET1, TINY_BOARD, TINY_PUZZLE, puzzle_for_board

import e2opt.core.verify
from e2opt.core.board import Board, format_board, random_board, rule_violations, score
from e2opt.core.errors import BoardError, PuzzleError
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import format_puzzle
from e2opt.core.verify import verify_files, verify_texts

LABELLED = sorted(BOARDS.glob("*.board"))
SET1_SOLUTIONS = sorted((SET1 / "solutions").glob("*.board"))


def test_verifier_does_not_use_the_fast_code():
    source = Path(e2opt.core.verify.__file__).read_text()
    assert not re.search(r"^\s*(from|import)\s+(e2opt\.|\.)(puzzle|board)\b", source, re.M)


def test_all_labelled_boards_are_shipped():
    assert len(LABELLED) == 18 and len(SET1_SOLUTIONS) == 21


@pytest.mark.parametrize("path", LABELLED, ids=lambda p: p.stem)
def test_labelled_board_verifies_at_the_score_in_its_name(path: Path):
    label = int(re.search(r"_(\d+)(_[a-z])?$", path.stem).group(1))
    report = verify_files(puzzle_for_board(path), path)
    assert report.problems == []
    assert report.score == label
    assert report.text() == f"{label}/{report.max_score} valid"


@pytest.mark.parametrize("path", SET1_SOLUTIONS, ids=lambda p: p.stem)
def test_every_set1_solution_verifies_at_full_score(path: Path):
    report = verify_files(puzzle_for_board(path), path)
    assert report.valid and report.score == report.max_score


def test_best_board_breaks_the_optional_hints():
    """The 470 board does not use the 4 optional clues, so the 5-hint puzzle must reject it."""
    report = verify_files(
        INSTANCES / "eternity2_5hints.txt", BOARDS / "eternity2_470_Joshua_Blackwood_470.board"
    )
    assert report.score == 470 and len(report.problems) == 4
    assert all("hint not in place" in p for p in report.problems)


def tiny_with(cells: dict[tuple[int, int], str]) -> str:
    """TINY_BOARD with some cells replaced by other 'piece:rotation' tokens."""
    rows = [line.split() for line in TINY_BOARD.splitlines()[1:]]
    for (r, c), token in cells.items():
        rows[r][c] = token
    return "3 3\n" + "\n".join(" ".join(row) for row in rows) + "\n"


# (case, changed cells, extra puzzle lines, words every problem list must contain)
BROKEN = [
    ("piece used twice", {(0, 2): "5:0"}, "", ["cell (0,2), piece 5: piece used twice", "piece 0: missing"]),
    ("piece id out of range", {(1, 1): "9:2"}, "", ["cell (1,1), piece 9: piece id out of range"]),
    ("rotation above 3", {(1, 1): "7:6"}, "", ["cell (1,1), piece 7: rotation 6 is not 0..3"]),
    ("grey not toward the rim", {(0, 0): "5:0"}, "", ["cell (0,0), piece 5: grey side right does not face"]),
    ("rim side not grey", {(0, 0): "5:0"}, "", ["cell (0,0), piece 5: rim side left is colour 1, not grey"]),
    (
        "kind mismatch",
        {(1, 1): "3:0", (0, 1): "7:0"},
        "",
        ["cell (1,1), piece 3: piece kind edge on cell kind inner"],
    ),
    (
        "hint not in place",
        {(1, 1): "7:0"},
        "hint 7 1 1 2\n",
        ["cell (1,1), piece 7: hint not in place (the hint wants 7:2, the board has 7:0)"],
    ),
]


@pytest.mark.parametrize("case, cells, hints, words", BROKEN, ids=[b[0] for b in BROKEN])
def test_each_broken_rule_is_named_with_cell_and_piece(case, cells, hints, words):
    report = verify_texts(TINY_PUZZLE + hints, tiny_with(cells))
    assert not report.valid
    for w in words:
        assert any(w in p for p in report.problems), (w, report.problems)
    lines = report.text().splitlines()
    assert lines[0].startswith(f"{report.score}/12 INVALID") and lines[1:] == report.problems


def test_board_of_another_size_is_one_problem():
    report = verify_texts(TINY_PUZZLE, "2 2\n0:0 1:0\n2:0 3:0\n")
    assert report.problems == ["board is 2x2, puzzle is 3x3"]


def test_tiny_board_is_perfect_and_the_hint_version_too():
    assert verify_texts(TINY_PUZZLE, TINY_BOARD).text() == "12/12 valid"
    assert verify_texts(TINY_PUZZLE + "hint 7 1 1 2\n", TINY_BOARD).valid


@pytest.mark.parametrize(
    "puzzle_text, board_text, error, words",
    [
        ("", TINY_BOARD, PuzzleError, "line 1: missing header"),
        (
            "1 3\n0 0 0 1\n0 1 0 1\n0 1 0 0\n",
            "1 3\n0:0 1:0 2:0\n",
            PuzzleError,
            "line 1: a board is at least 2x2",
        ),
        (TINY_PUZZLE.replace("3 4 3 4", "3 4 x 4"), TINY_BOARD, PuzzleError, "line 9: 'x' is not"),
        (TINY_PUZZLE + "hint 7 1 1\n", TINY_BOARD, PuzzleError, "line 11: a hint line"),
        (TINY_PUZZLE + "hint 7 5 1 0\n", TINY_BOARD, PuzzleError, "line 11: hint names"),
        (TINY_PUZZLE.replace("3 4 3 4\n", ""), TINY_BOARD, PuzzleError, "needs 9 pieces, found 8"),
        (TINY_PUZZLE, "3 3\n5:3 3:1 0:3\n", BoardError, "header says 3 rows, the file has 1"),
        (TINY_PUZZLE, TINY_BOARD.replace("7:2", "7;2"), BoardError, "line 3: '7;2' is not"),
        (TINY_PUZZLE.replace("3 4 3 4", "3 4 ² 4"), TINY_BOARD, PuzzleError, "line 9: '²' is not"),
        (TINY_PUZZLE.replace("3 3", "3 ³", 1), TINY_BOARD, PuzzleError, "line 1: '³' is not"),
        (TINY_PUZZLE, TINY_BOARD.replace("3 3", "3 ³", 1), BoardError, "line 1: missing header"),
        (TINY_PUZZLE, TINY_BOARD.replace("7:2", "7:²"), BoardError, "line 3: '7:²' is not"),
        (TINY_PUZZLE, TINY_BOARD.replace("7:2", "²:2"), BoardError, "line 3: '²:2' is not"),
    ],
)
def test_malformed_files_raise_one_line_errors(puzzle_text, board_text, error, words):
    with pytest.raises(error) as info:
        verify_texts(puzzle_text, board_text)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_missing_files_name_the_file(tmp_path: Path):
    with pytest.raises(PuzzleError, match=r"nope\.txt: no such file"):
        verify_files(tmp_path / "nope.txt", BOARDS / "clue1_6x6_solution_60.board")
    with pytest.raises(BoardError, match=r"nope\.board: cannot read"):
        verify_files(INSTANCES / "clue1_6x6.txt", tmp_path / "nope.board")


def puzzles_for_comparison():
    """Generated puzzles of several shapes and shipped ones, with and without hints."""
    out = [generate(r, c, 3, 5, seed=r * 10 + c, hints=h)[0] for r, c, h in [(2, 2, 0), (2, 6, 1), (4, 4, 2)]]
    out += [generate(r, c, 4, 8, seed=r * 10 + c, hints=h)[0] for r, c, h in [(5, 9, 0), (7, 7, 3)]]
    out += [read_puzzle(INSTANCES / name) for name in ("eternity2_5hints.txt", "clue2_6x12.txt")]
    out += [read_puzzle(SET1 / "set1_03x07.txt")]
    return out


def test_fast_score_equals_verifier_score_on_many_random_valid_boards():
    rng = np.random.default_rng(2024)
    checked = 0
    for puzzle in puzzles_for_comparison():
        text = format_puzzle(puzzle)
        for _ in range(30):
            board = random_board(puzzle, rng)
            report = verify_texts(text, format_board(board))
            assert report.problems == [] and rule_violations(puzzle, board) == []
            assert report.score == score(puzzle, board)
            checked += 1
    assert checked >= 200


def corrupt(puzzle, board: Board, how: str, rng: np.random.Generator) -> Board:
    """A copy of a valid board broken in one way (or left valid when the way does not apply)."""
    out = board.copy()
    rows, cols = board.shape
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    a, b = (cells[i] for i in rng.choice(len(cells), 2, replace=False))
    if how == "swap":  # two cells of maybe different kinds exchange pieces, rotations kept
        out.piece[a], out.piece[b] = board.piece[b], board.piece[a]
    elif how == "rotation":
        out.rot[a] = (board.rot[a] + rng.integers(1, 4)) % 4
    elif how == "duplicate":
        out.piece[b] = board.piece[a]
    elif how == "hint" and puzzle.hints:  # move a hinted piece to another cell of its kind
        h = puzzle.hints[0]
        same_kind = [x for x in cells if puzzle.cell_kind(*x) == puzzle.cell_kind(h.row, h.col)]
        other = same_kind[rng.integers(len(same_kind))]
        out.piece[h.row, h.col], out.piece[other] = board.piece[other], board.piece[h.row, h.col]
        out.rot[h.row, h.col], out.rot[other] = board.rot[other], board.rot[h.row, h.col]
    return out


@pytest.mark.parametrize("how", ["swap", "rotation", "duplicate", "hint"])
def test_verifier_and_fast_rules_agree_on_corrupted_boards(how):
    rng = np.random.default_rng(7)
    outcomes = set()
    for puzzle in puzzles_for_comparison():
        text = format_puzzle(puzzle)
        for _ in range(12):
            board = corrupt(puzzle, random_board(puzzle, rng), how, rng)
            report = verify_texts(text, format_board(board))
            fast = rule_violations(puzzle, board)
            assert (report.problems == []) == (fast == []), (how, report.problems, fast)
            assert report.score == score(puzzle, board)
            outcomes.add(report.valid)
    assert False in outcomes  # the corruption did break boards
