"""formats/: every puzzle and board format reads back what it wrote (shipped instances, 100 generated
puzzles), content detection picks the right reader, and real community files read as they should."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from conftest import BOARDS, INSTANCES, SET1

from e2opt.core.board import Board, score
from e2opt.core.errors import E2optError
from e2opt.core.formats import anjou, blackwood, brendan, clark, csvfmt
from e2opt.core.formats.detect import (
    BOARD_WRITERS,
    PUZZLE_WRITERS,
    board_format,
    parse_any_board,
    parse_any_puzzle,
)
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import Puzzle
from e2opt.core.verify import verify_texts

DATA = Path(__file__).parents[1] / "data"
SHIPPED = sorted(INSTANCES.glob("*.txt")) + sorted(SET1.glob("*.txt"))
# SHA-256 of raphael-anjou/eternity2 @d5ee166 engine/data/official_eternity2.csv, the community's CSV of
# the official puzzle with its five clues (19 kB, not copied here).
ANJOU_OFFICIAL_CSV_SHA256 = "81abeaa4969e81580a56e1fae8f43cba8b7571e1935240bb9bac0f4a9e116714"


def content(puzzle: Puzzle) -> tuple:
    """What a lossless round trip keeps: size, pieces with the file's colour ids, hints (as a set)."""
    pieces = tuple(tuple(puzzle.user_colour(int(c)) for c in p) for p in puzzle.pieces)
    return puzzle.rows, puzzle.cols, pieces, frozenset(puzzle.hints)


def writable(puzzle: Puzzle) -> list[str]:
    """The puzzle formats that can hold this puzzle (the others must refuse it with E2optError)."""
    out = ["e2opt"]
    if puzzle.rows == puzzle.cols and not any((h.row, h.col, h.rot) == (0, 0, 2) for h in puzzle.hints):
        out.append("csv")
    if not puzzle.hints:
        out += ["clark", "brendan"]
    return out


def round_trip_puzzle(puzzle: Puzzle, tmp: str = "<round trip>") -> None:
    for fmt, write in PUZZLE_WRITERS.items():
        if fmt not in writable(puzzle):
            with pytest.raises(E2optError):
                write(puzzle)
            continue
        text = write(puzzle)
        named = parse_any_puzzle(text, tmp, fmt)
        assert content(named) == content(puzzle), fmt
        if fmt != "brendan" or puzzle.rows == puzzle.cols:  # Brendan's files read as e2opt's unless named
            assert content(parse_any_puzzle(text, tmp)) == content(puzzle), f"{fmt} detected"
        assert write(named) == text, f"{fmt} written twice differs"


def round_trip_board(puzzle: Puzzle, board: Board) -> None:
    for fmt, write in BOARD_WRITERS.items():
        if fmt == "url":
            continue
        text = write(puzzle, board)
        assert board_format(text) == fmt, fmt
        back = parse_any_board(text, "<board>", puzzle)
        assert back == board, fmt
        assert write(puzzle, back) == text


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_instances_round_trip(path: Path) -> None:
    round_trip_puzzle(read_puzzle(path))


def test_shipped_boards_round_trip_in_every_board_format() -> None:
    pairs = [(INSTANCES / "eternity2.txt", b) for b in sorted(BOARDS.glob("eternity2_*.board"))]
    pairs += [
        (INSTANCES / f"{b.stem.split('_solution')[0]}.txt", b) for b in sorted(BOARDS.glob("clue*.board"))
    ]
    pairs += [(p, SET1 / "solutions" / f"{p.stem}.board") for p in sorted(SET1.glob("*.txt"))]
    for puzzle_path, board_path in pairs:
        puzzle = read_puzzle(puzzle_path)
        board = read_board(board_path)
        round_trip_board(puzzle, board)
        assert score(puzzle, board) == puzzle.max_score or "eternity2" in puzzle.name


def test_hundred_generated_puzzles_and_solutions_round_trip() -> None:
    rng = np.random.default_rng(26)
    for seed in range(100):
        rows, cols = (int(x) for x in rng.integers(3, 8, size=2))
        if seed % 3 == 0:
            cols = rows  # square ones go through the CSV too
        hints = int(rng.integers(0, 3)) if seed % 2 else 0
        puzzle, solution = generate(rows, cols, 3, 6, seed, hints)
        round_trip_puzzle(puzzle)
        round_trip_board(puzzle, solution)
        shuffled = rng.permutation(rows * cols).reshape(rows, cols)
        messy = Board(solution.piece.ravel()[shuffled], rng.integers(0, 4, size=(rows, cols)))
        round_trip_board(puzzle, messy)  # invalid boards keep every cell too (Brendan: a permutation)


def test_the_csv_written_for_the_five_clue_puzzle_is_the_communitys_file() -> None:
    puzzle = read_puzzle(INSTANCES / "eternity2_5hints.txt")
    text = csvfmt.format_puzzle(puzzle)
    assert hashlib.sha256(text.encode()).hexdigest() == ANJOU_OFFICIAL_CSV_SHA256
    assert text.splitlines()[139] == (
        "0000000000001000,0000000000001001,0000000000001001,0000000000001100,7,8,0"
    )  # the centre clue #139 as anjou's file pins it: x=7, y=8, rot 0 (our rot 2 on the turned piece)


def test_blackwood_sample_of_the_viewer_reads_as_a_valid_467() -> None:
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    path = DATA / "blackwood_paste_sample.txt"
    board = read_board(path, puzzle)
    report = verify_texts((INSTANCES / "eternity2.txt").read_text(), _board_text(board))
    assert report.valid and report.score == 467
    assert int(board.piece[0, 0]) == 3 and int(board.rot[0, 0]) == 1  # "  4/1": official #4, turned once


def _board_text(board: Board) -> str:
    from e2opt.core.board import format_board

    return format_board(board)


def test_blackwood_numbers_and_turns_follow_the_official_set_in_any_file_order() -> None:
    """A shuffled, turned copy of the official set writes the same Blackwood text for the same board."""
    base = read_puzzle(INSTANCES / "eternity2.txt")
    board = read_board(BOARDS / "eternity2_470_Joshua_Blackwood_470.board")
    rng = np.random.default_rng(5)
    order = rng.permutation(256)
    turns = rng.integers(0, 4, size=256)
    lines = ["16 16"] + [
        " ".join(str(base.user_colour(int(c))) for c in base.oriented[p, turns[i]])
        for i, p in enumerate(order)
    ]
    shuffled = parse_any_puzzle("\n".join(lines) + "\n", "shuffled")
    where = {int(p): i for i, p in enumerate(order)}
    moved = Board(
        np.vectorize(lambda p: where[int(p)])(board.piece),
        (board.rot - turns[np.vectorize(lambda p: where[int(p)])(board.piece)]) % 4,
    )
    assert score(shuffled, moved) == score(base, board) == 470
    grid = blackwood.format_board(base, board).split("\n\n")[0]
    assert blackwood.format_board(shuffled, moved).split("\n\n")[0] == grid
    assert grid.startswith("  3/1  40/2 ")  # official #3 turned once at the top left, #40 next to it

    def doc(puzzle: Puzzle, b: Board) -> dict:
        data = json.loads(anjou.format_board(puzzle, b))
        return {k: v for k, v in data.items() if k not in ("name", "url")}

    assert doc(shuffled, moved) == doc(base, board)


def test_content_detection() -> None:
    puzzle, solution = generate(4, 4, 2, 4, 3, 0)
    assert board_format(clark.format_solution(puzzle, solution)) == "clark"
    assert board_format(brendan.format_solution(puzzle, solution)) == "brendan"
    assert board_format(anjou.format_board(puzzle, solution)) == "anjou"
    assert board_format(blackwood.format_board(puzzle, solution)) == "blackwood"
    assert board_format("3 3\n0:0 1:0 2:0\n") == "e2opt"  # three columns: not Brendan's 'x y rot'


def test_run_and_solve_take_community_files_directly(tmp_path: Path) -> None:
    """A CSV puzzle with a Blackwood warm start runs; solve reads a Clark puzzle; no conversion first."""
    from e2opt.cli.main import main

    puzzle, solution = generate(4, 4, 2, 3, 11, 0)
    csv_path, start = tmp_path / "p.csv", tmp_path / "start.txt"
    csv_path.write_text(csvfmt.format_puzzle(puzzle))
    start.write_text(blackwood.format_board(puzzle, solution))
    config = tmp_path / "c.yaml"
    config.write_text(
        f"instance: {csv_path}\nconstruct:\n  method: board\n  board: {start}\nstop:\n  max_iterations: 5\n"
        "output:\n  plots: false\nsearch: {moves: {assignment: {}}}\nrun: {workers: 1, roles: {method: null}}\n"
    )
    assert main(["run", str(config), "--runs-dir", str(tmp_path / "runs"), "--quiet"]) == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    result = json.loads((run_dir / "result.json").read_text())
    assert result["best_score"] == puzzle.max_score and result["clues"] is None
    clark_path = tmp_path / "p_clark.txt"
    clark_path.write_text(clark.format_puzzle(puzzle))
    out = tmp_path / "solved"
    assert main(["solve", str(clark_path), "-o", str(out)]) == 0
    (found,) = out.glob("*.board")
    assert score(read_puzzle(clark_path), read_board(found)) == puzzle.max_score
