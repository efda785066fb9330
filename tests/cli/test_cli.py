"""The command line through a subprocess: outputs, exit codes and one-line error messages."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import BOARDS, INSTANCES, TINY_BOARD, TINY_PUZZLE, e2opt

from e2opt.core.board import score
from e2opt.core.formats.read import read_board, read_puzzle

BEST = BOARDS / "eternity2_470_Joshua_Blackwood_470.board"


def one_line_error(proc, *words: str) -> None:
    """Exit code 2 and exactly one stderr line 'e2opt: error: ...' containing the words; no traceback."""
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("e2opt: error: "), proc.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_verify_best_board_prints_exactly_470_of_480_valid():
    proc = e2opt(
        "verify", "instances/eternity2.txt", "instances/boards/eternity2_470_Joshua_Blackwood_470.board"
    )
    assert proc.returncode == 0 and proc.stdout == "470/480 valid\n" and proc.stderr == ""


def test_verify_broken_board_exits_1_and_lists_problems(tmp_path: Path):
    lines = BEST.read_text().splitlines()
    lines[1] = lines[1].replace("2:1", "2:0", 1)  # the top-left corner turned the wrong way
    board = tmp_path / "broken.board"
    board.write_text("\n".join(lines) + "\n")
    proc = e2opt("verify", INSTANCES / "eternity2.txt", board)
    assert proc.returncode == 1
    out = proc.stdout.splitlines()
    assert out[0].endswith("/480 INVALID: 2 broken rule(s)")
    assert out[1:] == [
        "cell (0,0), piece 2: rim side top is colour 2, not grey",
        "cell (0,0), piece 2: grey side bottom does not face the rim",
    ]


def test_verify_missing_file(tmp_path: Path):
    one_line_error(
        e2opt("verify", INSTANCES / "eternity2.txt", tmp_path / "none.board"), "none.board", "cannot read"
    )
    one_line_error(e2opt("verify", tmp_path / "none.txt", BEST), "none.txt")


def test_malformed_puzzle_names_the_line(tmp_path: Path):
    bad = tmp_path / "bad.txt"
    bad.write_text(TINY_PUZZLE.replace("1 4 2 0", "1 4 2"))
    for command in (["info", bad], ["render", bad, BEST, "-o", tmp_path / "x.svg"]):
        one_line_error(e2opt(*command), f"{bad}, line 6:", "4 colours")


def test_unicode_digits_in_files_are_one_line_errors(tmp_path: Path):
    """'²'.isdigit() is True but int('²') fails: such files must give the usual one-line error."""
    (tmp_path / "good.txt").write_text(TINY_PUZZLE)
    (tmp_path / "good.board").write_text(TINY_BOARD)
    (tmp_path / "bad.txt").write_text(TINY_PUZZLE.replace("3 4 3 4", "3 4 ² 4"))
    (tmp_path / "bad.board").write_text(TINY_BOARD.replace("7:2", "7:²"))
    puzzle_words = ("bad.txt, line 9:", "'²' is not a non-negative integer")
    board_words = ("bad.board, line 3:", "'7:²' is not 'piece:rotation'")
    cases = [
        (["info", "bad.txt"], puzzle_words),
        (["verify", "bad.txt", "good.board"], puzzle_words),
        (["render", "bad.txt", "good.board", "-o", "x.svg"], puzzle_words),
        (["verify", "good.txt", "bad.board"], board_words),
        (["render", "good.txt", "bad.board", "-o", "x.svg"], board_words),
    ]
    for command, words in cases:
        one_line_error(e2opt(*command, cwd=tmp_path), *words)


def test_bad_board_in_render_is_one_line(tmp_path: Path):
    board = tmp_path / "bad.board"
    board.write_text("16 16\n1:1 2:x\n")
    one_line_error(e2opt("render", INSTANCES / "eternity2.txt", board, "-o", tmp_path / "x.svg"), "bad.board")


def test_render_svg_and_png_and_bad_extension(tmp_path: Path):
    for ext in ("svg", "png"):
        proc = e2opt("render", INSTANCES / "eternity2.txt", BEST, "-o", tmp_path / f"best.{ext}")
        assert proc.returncode == 0 and (tmp_path / f"best.{ext}").stat().st_size > 1000
    assert "eternity2 · 470/480" in (tmp_path / "best.svg").read_text()
    e2opt("render", INSTANCES / "eternity2.txt", BEST, "-o", tmp_path / "t.svg", "--title", "Blackwood 2021")
    assert "Blackwood 2021 · 470/480" in (tmp_path / "t.svg").read_text()
    one_line_error(
        e2opt("render", INSTANCES / "eternity2.txt", BEST, "-o", tmp_path / "best.gif"), "use .svg or .png"
    )


def test_generate_writes_puzzle_and_solution_that_verify(tmp_path: Path):
    puzzle, solution = tmp_path / "g.txt", tmp_path / "g.board"
    args = ["--rows", 5, "--cols", 7, "--frame-colours", 3, "--inner-colours", 5, "--seed", 9, "--hints", 2]
    proc = e2opt("generate", *args, "-o", puzzle, "--solution", solution)
    assert proc.returncode == 0, proc.stderr
    p = read_puzzle(puzzle)
    assert len(p.hints) == 2 and score(p, read_board(solution)) == p.max_score == 58
    assert e2opt("verify", puzzle, solution).stdout == "58/58 valid\n"


@pytest.mark.parametrize(
    "rows, cols, frame, inner, words",
    [(1, 5, 3, 3, "below 2x2"), (8, 8, 1, 6, "too few colours"), (4, 4, 2, 0, "inner colour")],
)
def test_generate_bad_parameters(tmp_path: Path, rows, cols, frame, inner, words):
    args = ["--rows", rows, "--cols", cols, "--frame-colours", frame, "--inner-colours", inner]
    proc = e2opt("generate", *args, "-o", tmp_path / "g.txt")
    one_line_error(proc, words)
    assert not (tmp_path / "g.txt").exists()


def test_info_prints_best_known():
    proc = e2opt("info", INSTANCES / "meta2010_14x14.txt")
    assert proc.returncode == 0
    assert "14x14, 196 pieces" in proc.stdout and "best known: 348/364" in proc.stdout


def test_debug_flag_shows_the_traceback(tmp_path: Path):
    proc = e2opt("--debug", "info", tmp_path / "none.txt")
    assert proc.returncode == 2 and "Traceback" in proc.stderr and "e2opt: error:" in proc.stderr
