"""Malformed community files: every case exits 2 with one line ``e2opt: error: ...`` naming what is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import BOARDS, INSTANCES

from e2opt.cli.main import main
from e2opt.core.formats import anjou, blackwood, clark, csvfmt
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import write_puzzle

E2 = INSTANCES / "eternity2.txt"
CSV = csvfmt.format_puzzle(read_puzzle(INSTANCES / "eternity2_5hints.txt"))
CSV_LINES = CSV.splitlines()
BLACKWOOD = blackwood.format_board(
    read_puzzle(E2), read_board(BOARDS / "eternity2_470_Joshua_Blackwood_470.board")
)
JSON = json.loads(
    anjou.format_board(read_puzzle(E2), read_board(BOARDS / "eternity2_470_Joshua_Blackwood_470.board"))
)
SMALL, SMALL_SOLUTION = generate(4, 5, 2, 4, 7, 0)
CLARK = clark.format_puzzle(SMALL)
CLARK_SOLUTION = clark.format_solution(SMALL, SMALL_SOLUTION)


def csv_with(line: int, text: str) -> str:
    lines = list(CSV_LINES)
    lines[line] = text
    return "\n".join(lines) + "\n"


def json_with(**changes) -> str:
    return json.dumps({**JSON, **changes})


BW = BLACKWOOD.splitlines()
# (case, what the file holds, its role, the words the message must contain)
PUZZLES = [
    ("csv empty", "", "csv-ish", "empty"),
    ("csv header two numbers", "16 16\n" + "\n".join(CSV_LINES[1:]), "", "board side N"),
    ("csv header with a comma", "16,\n" + "\n".join(CSV_LINES[1:]), "", "line 1"),
    ("csv header not a number", "x\n" + "\n".join(CSV_LINES[1:]), "", "line 1"),
    ("csv header too small", "1\n" + "\n".join(CSV_LINES[1:]), "", "below 2x2"),
    ("csv one piece short", "\n".join(CSV_LINES[:-1]) + "\n", "", "wrong number of pieces"),
    ("csv one piece too many", CSV + CSV_LINES[1] + "\n", "", "wrong number of pieces"),
    ("csv word of 15 digits", csv_with(3, CSV_LINES[3][1:]), "", "line 4"),
    ("csv word with a 2", csv_with(3, "2" + CSV_LINES[3][1:]), "", "binary"),
    ("csv five fields", csv_with(3, CSV_LINES[3] + ",0"), "", "fields"),
    ("csv three fields", csv_with(3, ",".join(CSV_LINES[3].split(",")[:3])), "", "fields"),
    ("csv hint x off the board", csv_with(139, CSV_LINES[139].replace(",7,8,0", ",16,8,0")), "", "line 140"),
    ("csv hint rotation 4", csv_with(139, CSV_LINES[139].replace(",7,8,0", ",7,8,4")), "", "rot=4"),
    ("csv hint not a number", csv_with(139, CSV_LINES[139].replace(",7,8,0", ",7,y,0")), "", "line 140"),
    (
        "csv two hints on one cell",
        csv_with(208, CSV_LINES[208].replace(",2,2,1", ",7,8,0")),
        "",
        "first on line 140",
    ),
    ("csv hint turning grey inward", csv_with(139, CSV_LINES[139].replace(",7,8,0", ",0,8,0")), "", "inner"),
    (
        "csv corner with grey opposite",
        csv_with(1, "1111111111111111,0000000000000001,1111111111111111,0000000000000011,0,0,0"),
        "",
        "opposite",
    ),
    (
        "csv a fifth corner",
        csv_with(5, "1111111111111111,1111111111111111,0000000000000001,0000000000000011,0,0,0"),
        "",
        "corner pieces",
    ),
    (
        "clark header of two numbers",
        "4 5\n" + "\n".join(CLARK.splitlines()[1:]),
        "--from clark",
        "width height borders",
    ),
    ("clark piece of three colours", CLARK.replace(CLARK.splitlines()[3], "1 2 3"), "", "line 4"),
    ("clark piece count short", "\n".join(CLARK.splitlines()[:-1]) + "\n", "", "wrong number of pieces"),
    ("clark negative colour", CLARK.replace(CLARK.splitlines()[3], "1 -2 3 4"), "", "line 4"),
    ("brendan header of three numbers", "5 4 3\n0 0 1 1\n", "--from brendan", "width height"),
    ("brendan piece of five colours", "5 4\n0 0 1 1 2\n", "--from brendan", "line 2"),
]
BOARDS_BAD = [
    ("blackwood empty cell", BLACKWOOD.replace("  3/1 ", "---/- ", 1), "blackwood", "empty"),
    ("blackwood piece 0", BLACKWOOD.replace("  3/1 ", "  0/1 ", 1), "blackwood", "piece 0"),
    ("blackwood piece 257", BLACKWOOD.replace("  3/1 ", "257/1 ", 1), "blackwood", "piece 257"),
    ("blackwood rotation 4", BLACKWOOD.replace("  3/1 ", "  3/4 ", 1), "blackwood", "rotation 4"),
    ("blackwood short row", "\n".join([BW[0], BW[1].rsplit(" ", 2)[0], *BW[2:]]), "blackwood", "line 2"),
    (
        "blackwood garbage cell",
        "\n".join([BW[0], BW[1].replace("/", "|", 1), *BW[2:]]),
        "blackwood",
        "line 2",
    ),
    ("blackwood text after the link", BLACKWOOD + "more\n", "blackwood", "after the viewer link"),
    ("json truncated", json_with()[:-40], "anjou", "not valid JSON"),
    ("json a list", "[1, 2]", "anjou", "object"),
    ("json without board", json.dumps({"size": 16}), "anjou", "'board'"),
    ("json one cell short", json_with(board=JSON["board"][:-1]), "anjou", "255 cells"),
    ("json empty cell", json_with(board=[-1, *JSON["board"][1:]]), "anjou", "empty"),
    ("json code a string", json_with(board=["9", *JSON["board"][1:]]), "anjou", "integer"),
    ("json piece 300", json_with(board=[1199, *JSON["board"][1:]]), "anjou", "piece 300"),
    ("json edges disagree", json_with(board_edges="b" + JSON["board_edges"][1:]), "anjou", "board_edges"),
    ("json edges too short", json_with(board_edges=JSON["board_edges"][:-4]), "anjou", "1024 letters"),
    ("json size not a number", json_with(size="16", width="16"), "anjou", "positive integers"),
]
SMALL_BOARDS = [
    ("clark solution short", "\n".join(CLARK_SOLUTION.splitlines()[:-1]) + "\n", "20 lines"),
    (
        "clark solution cell twice",
        CLARK_SOLUTION.replace(
            CLARK_SOLUTION.splitlines()[1].split(" ", 1)[1], CLARK_SOLUTION.splitlines()[0].split(" ", 1)[1]
        ),
        "twice",
    ),
    ("clark solution x off the board", CLARK_SOLUTION.replace(" 1 1 ", " 9 1 ", 1), "off the"),
    (
        "clark solution orientation 5",
        CLARK_SOLUTION.replace(
            CLARK_SOLUTION.splitlines()[0], " ".join([*CLARK_SOLUTION.splitlines()[0].split()[:3], "5"])
        ),
        "orientation 5",
    ),
    (
        "clark solution piece 21",
        CLARK_SOLUTION.replace(
            CLARK_SOLUTION.splitlines()[0], "21 " + CLARK_SOLUTION.splitlines()[0].split(" ", 1)[1]
        ),
        "piece 21",
    ),
    ("brendan solution wrong size", "4 4\n" + "0 0 0\n" * 20, "not the puzzle"),
    (
        "brendan solution short",
        "5 4\n" + "".join(f"{p % 5} {p // 5} 0\n" for p in range(19)),
        "one line per piece",
    ),
    (
        "brendan solution y off the board",
        "5 4\n" + "".join(f"{p % 5} {p // 5 + 1} 0\n" for p in range(20)),
        "y 4",
    ),
]


def run(*args: str, capsys) -> tuple[int, str]:
    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


def one_line(code: int, err: str, words: str) -> None:
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("e2opt: error: "), err
    assert words in lines[0], lines[0]


@pytest.mark.parametrize(("case", "text", "flag", "words"), PUZZLES, ids=[c[0] for c in PUZZLES])
def test_malformed_puzzles(tmp_path: Path, capsys, case, text, flag, words) -> None:
    path = tmp_path / "puzzle.txt"
    path.write_text(text)
    extra = flag.split() if flag.startswith("--") else []
    one_line(*run("convert", path, "--to", "e2opt", *extra, capsys=capsys), words)
    if not extra:  # run, verify, render, solve and info read puzzles the same way
        one_line(*run("info", path, capsys=capsys), words)


@pytest.mark.parametrize(("case", "text", "fmt", "words"), BOARDS_BAD, ids=[c[0] for c in BOARDS_BAD])
def test_malformed_e2_boards(tmp_path: Path, capsys, case, text, fmt, words) -> None:
    path = tmp_path / "board.txt"
    path.write_text(text)
    one_line(*run("verify", E2, path, capsys=capsys), words)
    one_line(*run("convert", path, "--puzzle", E2, "--to", "e2opt", capsys=capsys), words)
    one_line(*run("render", E2, path, "-o", tmp_path / "b.svg", capsys=capsys), words)


@pytest.mark.parametrize(("case", "text", "words"), SMALL_BOARDS, ids=[c[0] for c in SMALL_BOARDS])
def test_malformed_solutions(tmp_path: Path, capsys, case, text, words) -> None:
    puzzle, path = tmp_path / "small.txt", tmp_path / "solution.txt"
    write_puzzle(SMALL, puzzle)
    path.write_text(text)
    one_line(*run("verify", puzzle, path, capsys=capsys), words)


def test_what_a_format_cannot_hold(tmp_path: Path, capsys) -> None:
    one_line(*run("convert", E2, "--to", "clark", capsys=capsys), "no hints")
    one_line(*run("convert", E2, "--to", "brendan", capsys=capsys), "no hints")
    one_line(*run("convert", INSTANCES / "clue2_6x12.txt", "--to", "csv", capsys=capsys), "square")
    one_line(*run("convert", E2, capsys=capsys), "give --to")
    one_line(*run("convert", E2, "--to", "anjou", capsys=capsys), "not a puzzle format")
    one_line(*run("convert", E2, "--from", "blackwood", "--to", "csv", capsys=capsys), "not a puzzle format")
    board = BOARDS / "eternity2_470_Joshua_Blackwood_470.board"
    twice = tmp_path / "twice.board"
    twice.write_text(board.read_text().replace("2:1 ", "6:1 ", 1))
    one_line(*run("convert", twice, "--puzzle", E2, "--to", "brendan", capsys=capsys), "exactly once")
    out = tmp_path / "x.csv"
    out.write_text("keep")
    one_line(*run("convert", E2, "-o", out, capsys=capsys), "--force")


def test_a_warm_start_in_blackwood_text_is_checked(tmp_path: Path, capsys) -> None:
    path = tmp_path / "start.txt"
    path.write_text(BLACKWOOD.replace(" 40/2 ", "  3/1 ", 1))  # official #3 twice
    config = tmp_path / "c.yaml"
    config.write_text(
        f"instance: {E2}\nconstruct:\n  method: board\n  board: {path}\nstop:\n  max_iterations: 1\n"
    )
    one_line(*run("run", config, "--runs-dir", tmp_path, capsys=capsys), "used twice")
