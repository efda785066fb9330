"""Exact messages, defaults and edge cases of the puzzle and board files (core/puzzle.py, core/board.py)."""

from __future__ import annotations

import os

import numpy as np
import pytest
from conftest import TINY_BOARD, TINY_PUZZLE
from helpers import MALFORMED

from e2opt.core import fsutil
from e2opt.core.board import Board, cell_mismatches, parse_board, write_board
from e2opt.core.errors import BoardError, PuzzleError
from e2opt.core.formats.read import read_puzzle_cached
from e2opt.core.puzzle import parse_puzzle, rotate

# --- puzzle.py ---


def test_rotate_takes_any_number_of_quarter_turns():
    sides = (1, 2, 3, 4)
    assert rotate(sides, 1) == (4, 1, 2, 3)
    assert rotate(sides, 5) == rotate(sides, 1) and rotate(sides, -1) == rotate(sides, 3) == (2, 3, 4, 1)
    assert rotate(sides, 4) == sides


# --- puzzle.py: the cached read notices a changed file ---


def test_cached_puzzle_read_sees_every_change(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(TINY_PUZZLE)
    first = read_puzzle_cached(path)
    assert read_puzzle_cached(path) is first  # unchanged: read once
    stat = path.stat()
    path.write_text(TINY_PUZZLE.replace("3 4 3 4", "3 4 3 9"))  # same size, later mtime
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    second = read_puzzle_cached(path)
    assert int(second.pieces.max()) > int(first.pieces.max())
    stat = path.stat()
    path.write_text(TINY_PUZZLE + "hint 7 1 1 2\n")  # another size, the same mtime
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert len(read_puzzle_cached(path).hints) == 1
    with pytest.raises(PuzzleError, match="no such file"):
        read_puzzle_cached(tmp_path / "missing.txt")


# --- puzzle.py: the whole message of every malformed case of test_puzzle.py ---

EXACT = {
    "empty file": "p.txt, line 1: missing header 'rows cols' (the file is empty)",
    "header with four numbers": "p.txt, line 1: bad header: expected 'rows cols', got 4 tokens",
    "header not a number": "p.txt, line 1: 'x' is not a non-negative integer",
    "too few pieces": "p.txt, line 9: wrong number of pieces: 3x3 needs 9, the file has 8",
    "too many pieces": "p.txt, line 11: wrong number of pieces: 3x3 needs 9, the file has 10",
    "negative colour": "p.txt, line 5: '-2' is not a non-negative integer",
    "word for colour": "p.txt, line 5: 'blue' is not a non-negative integer",
    "unicode digit in the header": "p.txt, line 1: '³' is not a non-negative integer",
    "unicode digit for colour": "p.txt, line 5: '²' is not a non-negative integer",
    "unicode digit in a hint": "p.txt, line 11: '²' is not a non-negative integer",
    "three colours on a line": "p.txt, line 5: a piece line needs 4 colours 't r b l', got 3 tokens",
    "five colours on a line": "p.txt, line 5: a piece line needs 4 colours 't r b l', got 5 tokens",
    "grey on opposite sides": "p.txt, line 9: piece 7 has grey on opposite sides",
    "grey on three sides": "p.txt, line 9: piece 7 has grey on 3 sides (at most 2)",
    "grey on four sides": "p.txt, line 9: piece 7 has grey on 4 sides (at most 2)",
    "an edge piece too many": "p.txt, line 9: wrong number of edge pieces: piece 7 is one more than the 4 a 3x3 board has",
    "a corner too many": "p.txt, line 10: wrong number of corner pieces: piece 8 is one more than the 4 a 3x3 board has",
    "hint line too short": "p.txt, line 11: hint line needs 'hint piece row col rotation', got 4 tokens",
    "hint names a missing piece": "p.txt, line 11: hint names piece 9, but pieces are 0..8",
    "hint cell off the board": "p.txt, line 11: hint cell (3,1) is off the 3x3 board",
    "hint rotation above 3": "p.txt, line 11: hint rotation 4 is not 0..3",
    "hint cell of the wrong kind": "p.txt, line 11: hint puts inner piece 7 on corner cell (0,0)",
    "hint turns grey inward": "p.txt, line 11: hint rotation 1 of piece 8 at (2,2) does not turn grey toward the rim",
    "two hints on one cell": "p.txt, line 12: two hints on cell (2,2) (first on line 11)",
    "one piece hinted twice": "p.txt, line 12: piece 8 is hinted twice (first on line 11)",
    "piece after a hint": "p.txt, line 12: piece line after a hint line (hints come last)",
}


@pytest.mark.parametrize("case, text, line, words", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_puzzle_messages_in_full(case, text, line, words):
    with pytest.raises(PuzzleError) as caught:
        parse_puzzle(text, "p.txt")
    assert str(caught.value) == EXACT[case]
    assert (caught.value.path, caught.value.line) == ("p.txt", line)


def test_puzzle_details_beyond_the_messages():
    puzzle = parse_puzzle(
        "# a comment # with two hashes\n" + TINY_PUZZLE.replace("3 4 3 4", "3 4 3 4 # centre")
    )
    assert puzzle.name == "<string>" and puzzle.path == "<string>" and puzzle.n_cells == 9
    assert puzzle.pieces.dtype == np.int64 and not puzzle.pieces.flags.writeable
    assert puzzle.kinds.tolist() == [0, 0, 1, 1, 1, 0, 1, 2, 0] and not puzzle.oriented.flags.writeable
    assert puzzle.max_score == 12 and puzzle.hint_map() == {}
    assert puzzle.valid_rotations(0, 0, 0) == [2] and puzzle.valid_rotations(7, 0, 0) == []
    assert puzzle.fits(5, 0, 0, 3) and not puzzle.fits(5, 0, 0, 0) and puzzle.fits(5, 0, 0, 7)
    assert [puzzle.cell_kind(r, c) for r, c in ((0, 0), (0, 1), (1, 1), (2, 2))] == [0, 1, 2, 0]
    assert puzzle.rim_sides(0, 2) == (True, True, False, False)
    hinted = parse_puzzle(TINY_PUZZLE + "hint 7 1 1 2\n", "dir/h.txt")
    assert hinted.name == "h" and hinted.hint_map()[(1, 1)].rot == 2


def test_write_puzzle_writes_what_format_puzzle_says(tmp_path):
    from e2opt.core.puzzle import format_puzzle, write_puzzle

    puzzle = parse_puzzle(TINY_PUZZLE.replace(" 4", " 40") + "hint 7 1 1 2\n")
    write_puzzle(puzzle, tmp_path / "w.txt")
    assert (
        (tmp_path / "w.txt").read_text()
        == format_puzzle(puzzle)
        == TINY_PUZZLE.replace(" 4", " 40") + "hint 7 1 1 2\n"
    )


# --- board.py ---


def test_board_equality_needs_the_same_pieces_and_rotations():
    board = parse_board(TINY_BOARD)
    turned = Board(board.piece, (board.rot + 1) % 4)
    swapped = Board(board.piece[::-1], board.rot)
    assert board == board.copy() and board != turned and board != swapped
    assert board != TINY_BOARD and board != None  # noqa: E711 - __eq__ with other types


def test_cell_mismatches_counts_each_cells_bad_joins():
    puzzle = parse_puzzle(TINY_PUZZLE)
    board = parse_board(TINY_BOARD)
    assert cell_mismatches(puzzle, board).tolist() == [[0] * 3] * 3
    broken = Board(board.piece, board.rot.copy())
    broken.rot[1, 1] = (broken.rot[1, 1] + 1) % 4  # the centre turned: its four joins break
    counts = cell_mismatches(puzzle, broken)
    assert counts.dtype.kind == "i"
    assert counts.tolist() == [[0, 1, 0], [1, 4, 1], [0, 1, 0]]


def test_write_board_flushes_to_disk_unless_told_not_to(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(fsutil.os, "fsync", lambda fd: calls.append(fd))
    board = parse_board(TINY_BOARD)
    write_board(board, tmp_path / "a.board")
    assert len(calls) == 1
    write_board(board, tmp_path / "b.board", fsync=False)
    assert len(calls) == 1 and parse_board((tmp_path / "b.board").read_text()) == board


# --- board.py: every parse error, with its line ---


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "b.board, line 1: missing header 'rows cols'"),
        ("# only a comment\n\n", "b.board, line 1: missing header 'rows cols'"),
        ("\n\n3\n", "b.board, line 3: missing header 'rows cols'"),
        ("\n1 5\n0:0\n", "b.board, line 2: bad header: board 1x5 is below 2x2"),
        ("2 2\n0:0 1:0\n", "b.board, line 2: expected 2 rows of cells, found 1"),
        ("\n2 2\n", "b.board, line 2: expected 2 rows of cells, found 0"),
        ("2 2\n0:0 1:0\n2:0 3:0\n\n0:0 0:0\n", "b.board, line 5: expected 2 rows of cells, found 3"),
        ("2 2\n0:0 1:0\n2:0\n", "b.board, line 3: expected 2 cells 'piece:rotation', got 1"),
        ("2 2\n0:0 1:0\n2:0 3:0:1\n", "b.board, line 3: '3:0:1' is not 'piece:rotation'"),
        ("2 2\n0:0 1:0\n2:0 :1\n", "b.board, line 3: ':1' is not 'piece:rotation'"),
        ("2 2\n0:0 1:0\n2:0 31\n", "b.board, line 3: '31' is not 'piece:rotation'"),
    ],
)
def test_board_parse_errors_name_the_line(text, message):
    with pytest.raises(BoardError) as caught:
        parse_board(text, "b.board")
    assert str(caught.value) == message


def test_board_comments_and_default_name():
    board = parse_board("2 2 # size # again\n0:0 1:3 # first row\n# a line of comment\n2:0 3:1\n")
    assert board.piece.tolist() == [[0, 1], [2, 3]] and board.rot.tolist() == [[0, 3], [0, 1]]
    assert board.piece.dtype == np.int64
    with pytest.raises(BoardError, match=r"^<string>, line 1: "):
        parse_board("x")


def test_board_error_names_the_first_extra_row():
    with pytest.raises(BoardError, match=r"^b\.board, line 4: expected 2 rows of cells, found 4$"):
        parse_board("2 2\n0:0 1:0\n2:0 3:0\n0:0 0:0\n0:0 0:0\n", "b.board")


def test_random_board_keeps_a_hinted_piece_zero_in_place():
    from e2opt.core.board import random_board, rule_violations

    puzzle = parse_puzzle(TINY_PUZZLE + "hint 0 2 2 0\n")  # piece 0 is a corner: bottom-right, as it comes
    for seed in range(5):
        board = random_board(puzzle, np.random.default_rng(seed))
        assert rule_violations(puzzle, board) == [] and (board.piece[2, 2], board.rot[2, 2]) == (0, 0)


def test_board_colours_take_rotations_modulo_four():
    puzzle = parse_puzzle(TINY_PUZZLE)
    board = parse_board(TINY_BOARD)
    turned = Board(board.piece, board.rot + 4)
    assert np.array_equal(turned.colours(puzzle), board.colours(puzzle))
