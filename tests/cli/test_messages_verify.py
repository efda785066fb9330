"""The verifier's exact messages (core/verify.py): unreadable or malformed files, each broken rule."""

from __future__ import annotations

import pytest
from conftest import TINY_BOARD, TINY_PUZZLE

from e2opt.core.errors import BoardError, PuzzleError
from e2opt.core.verify import verify_files


@pytest.fixture
def files(tmp_path):
    puzzle, board = tmp_path / "p.txt", tmp_path / "b.board"
    puzzle.write_text(TINY_PUZZLE)
    board.write_text(TINY_BOARD)
    return puzzle, board


# --- verify.py: files that cannot be read are named, with the reason ---


def test_verify_files_names_the_unreadable_file_and_why(files, tmp_path):
    puzzle, board = files
    missing = tmp_path / "missing.txt"
    with pytest.raises(PuzzleError) as caught:
        verify_files(missing, board)
    assert str(caught.value) == f"{missing}: no such file"  # as every reader says it (fsutil.read_user_text)
    with pytest.raises(BoardError) as caught:
        verify_files(puzzle, missing)
    assert str(caught.value) == f"{missing}: cannot read board file: no such file"
    latin = tmp_path / "latin.txt"
    latin.write_bytes(TINY_PUZZLE.encode() + b"# caf\xe9\n")
    with pytest.raises(PuzzleError, match=r"not UTF-8 text \(bad byte at offset 81\)"):
        verify_files(latin, board)


def test_verify_files_names_each_file_in_its_format_errors(files, tmp_path):
    puzzle, board = files
    bad = tmp_path / "bad.txt"
    bad.write_text("3 x\n")
    with pytest.raises(PuzzleError) as caught:
        verify_files(bad, board)
    assert str(caught.value).startswith(f"{bad}, line 1: ")
    bad.write_text("3 3\n0:0\n")
    with pytest.raises(BoardError) as caught:
        verify_files(puzzle, bad)
    assert str(caught.value).startswith(f"{bad}: header says 3 rows")


# --- verify.py: every broken rule is reported, each with its cell ---


def test_verify_reports_every_broken_rule_in_order():
    from e2opt.core.verify import parse_board_text, parse_puzzle_text, verify

    puzzle = parse_puzzle_text(TINY_PUZZLE.replace("2 0 0 1\n", "0 0 0 1\n") + "hint 7 1 1 2\n")
    board = parse_board_text("3 3\n9:0 9:1 0:3\n4:0 7:0 4:0\n1:1 2:0 8:5\n")
    assert verify(puzzle, board).problems == [
        "cell (0,0), piece 9: piece id out of range (pieces are 0..8)",
        "cell (0,1), piece 9: piece id out of range (pieces are 0..8)",
        "cell (1,2), piece 4: piece used twice (also at (1, 0))",
        "cell (1,2), piece 4: rim side right is colour 4, not grey",
        "cell (1,2), piece 4: grey side left does not face the rim",
        "cell (2,2), piece 8: rotation 5 is not 0..3",
        "cell (1,1), piece 7: hint not in place (the hint wants 7:2, the board has 7:0)",
        "piece 3: missing from the board",
        "piece 5: missing from the board",
        "piece 6: missing from the board",
    ]  # piece 8 is on the board, badly turned: not missing (issue 34)
    whole = verify(puzzle, parse_board_text("3 3\n5:3 3:1 0:3\n4:0 7:2 6:2\n1:1 2:0 8:0\n"))
    assert whole.problems == ["cell (2,2), piece 8: piece kind 3-grey on cell kind corner"]
    small = verify(puzzle, parse_board_text("2 2\n0:0 1:0\n2:0 3:0\n"))
    assert (small.score, small.max_score, small.problems) == (0, 12, ["board is 2x2, puzzle is 3x3"])
    with pytest.raises(BoardError, match=r"^<board>: header says"):
        parse_board_text("2 2\n")


# --- the verifier's own readers, and a bad rotation ---


def test_verify_checks_every_cell_after_a_bad_rotation():
    from e2opt.core.verify import parse_board_text, parse_puzzle_text, verify

    board = parse_board_text("3 3\n5:4 3:1 0:7\n4:0 7:2 6:2\n1:1 2:0 8:0\n")
    assert verify(parse_puzzle_text(TINY_PUZZLE), board).problems == [
        "cell (0,0), piece 5: rotation 4 is not 0..3",
        "cell (0,2), piece 0: rotation 7 is not 0..3",
    ]  # the badly turned pieces are on the board: none is reported missing


VERIFY_ERRORS = [
    ("", "puzzle", "f, line 1: missing header 'rows cols'"),
    ("\n\n3\n", "puzzle", "f, line 3: missing header 'rows cols'"),
    ("3 x\n", "puzzle", "f, line 1: 'x' is not a non-negative integer"),
    ("\n1 3\n", "puzzle", "f, line 2: a board is at least 2x2, the header says 1x3"),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint 7 1 1\n",
        "puzzle",
        "f, line 11: a hint line is 'hint piece row col rotation'",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint 9 1 1 0\n",
        "puzzle",
        "f, line 11: hint names a piece, cell or rotation that does not exist",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint 7 3 1 0\n",
        "puzzle",
        "f, line 11: hint names a piece, cell or rotation that does not exist",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint 7 1 3 0\n",
        "puzzle",
        "f, line 11: hint names a piece, cell or rotation that does not exist",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint 7 1 1 4\n",
        "puzzle",
        "f, line 11: hint names a piece, cell or rotation that does not exist",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint x 1 1 0\n",
        "puzzle",
        "f, line 11: 'x' is not a non-negative integer",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3\n2 0 0 1\n",
        "puzzle",
        "f, line 9: a piece line is 4 colours 't r b l'",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 y 4\n2 0 0 1\n",
        "puzzle",
        "f, line 9: 'y' is not a non-negative integer",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\n1 2 3 4\n\n# end\n",
        "puzzle",
        "f, line 11: 3x3 needs 9 pieces, found 10",
    ),
    ("", "board", "f, line 1: missing header 'rows cols'"),
    ("x y\n", "board", "f, line 1: missing header 'rows cols'"),
    ("2 2\n0:0 1:0\n2:0\n", "board", "f, line 3: expected 2 cells, got 1"),
]


@pytest.mark.parametrize(("text", "kind", "message"), VERIFY_ERRORS)
def test_the_verifiers_own_reader_messages_in_full(text, kind, message):
    from e2opt.core.verify import parse_board_text, parse_puzzle_text

    reader = parse_puzzle_text if kind == "puzzle" else parse_board_text
    with pytest.raises(PuzzleError if kind == "puzzle" else BoardError) as caught:
        reader(text, "f")
    assert str(caught.value) == message
    if kind == "puzzle":
        assert caught.value.path == "f"


def test_the_verifiers_default_names_and_comments():
    from e2opt.core.verify import parse_puzzle_text, verify_texts

    with pytest.raises(PuzzleError, match=r"^<puzzle>, line 1: "):
        verify_texts("x", TINY_BOARD)
    with pytest.raises(BoardError, match=r"^<board>, line 1: "):
        verify_texts(TINY_PUZZLE, "x")
    assert verify_texts("# head\n" + TINY_PUZZLE.replace("3 4 3 4", "3 4 3 4 # centre"), TINY_BOARD).valid
    assert parse_puzzle_text(TINY_PUZZLE + "hint 8 2 2 0\n").hints == [(8, 2, 2, 0)]
