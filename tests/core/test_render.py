"""Pictures: well-formed SVG with the score in the title and one mark per mismatch; a real PNG."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from conftest import BOARDS, INSTANCES

from e2opt.core.board import Board, mismatches, random_board, score
from e2opt.core.errors import BoardError, E2optError
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.generate import generate
from e2opt.core.render import PALETTE, board_svg, colour_of, render_board, scene

SVG = "{http://www.w3.org/2000/svg}"


def marks(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == cls]


def test_best_board_svg_has_score_title_and_ten_marks(tmp_path: Path):
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    board = read_board(BOARDS / "eternity2_470_Joshua_Blackwood_470.board")
    path = tmp_path / "best.svg"
    render_board(puzzle, board, path)
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    title = root.find(f"{SVG}title").text
    assert "470/480" in title and "eternity2" in title and "10 mismatched joins" in title
    assert len(marks(root, "mismatch")) == 10
    assert len(marks(root, "hint")) == 1
    assert len(root.findall(f".//{SVG}polygon")) == 4 * 256


@pytest.mark.parametrize("seed", range(3))
def test_random_board_has_one_mark_per_mismatch(seed):
    puzzle, _ = generate(5, 8, 3, 4, seed=seed, hints=2)
    board = random_board(puzzle, np.random.default_rng(seed))
    root = ET.fromstring(board_svg(puzzle, board, title="random"))
    assert mismatches(puzzle, board) > 0
    assert len(marks(root, "mismatch")) == mismatches(puzzle, board)
    assert len(marks(root, "hint")) == 2
    assert f"random · {score(puzzle, board)}/{puzzle.max_score}" in root.find(f"{SVG}title").text


def test_triangle_fills_follow_the_board_colours():
    puzzle, solution = generate(3, 4, 2, 3, seed=1)
    colours = solution.colours(puzzle)
    sc = scene(puzzle, solution)
    fills = [fill for _, fill in sc.triangles]
    assert fills == [colour_of(int(c)) for c in colours.reshape(-1)]
    assert not sc.marks and "12 mismatched" not in sc.title


def test_palette_is_distinct_and_grey_is_its_own():
    ids = range(40)
    assert len({colour_of(i) for i in ids}) == 40 and len(set(PALETTE)) == len(PALETTE)
    assert colour_of(0) not in PALETTE


def test_png_has_the_signature_and_the_scene_size(tmp_path: Path):
    puzzle, solution = generate(4, 6, 3, 4, seed=2, hints=1)
    path = tmp_path / "board.png"
    render_board(puzzle, solution, path)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    sc = scene(puzzle, solution)
    assert abs(width - sc.width * 2) <= 1 and abs(height - sc.height * 2) <= 1  # 200 dpi, 100 units/inch


def test_unknown_extension_is_an_error_and_writes_nothing(tmp_path: Path):
    puzzle, solution = generate(3, 3, 2, 2, seed=0)
    with pytest.raises(E2optError, match=r"use \.svg or \.png"):
        render_board(puzzle, solution, tmp_path / "board.jpg")
    assert list(tmp_path.iterdir()) == []


def test_board_that_does_not_fit_the_puzzle_is_an_error():
    puzzle, solution = generate(3, 3, 2, 2, seed=0)
    with pytest.raises(BoardError, match="cannot draw a 2x2 board"):
        board_svg(puzzle, Board(np.zeros((2, 2)), np.zeros((2, 2))))
    bad = solution.copy()
    bad.piece[0, 0] = 99
    with pytest.raises(BoardError, match=r"outside 0\.\.8"):
        board_svg(puzzle, bad)


def test_invalid_board_is_drawn_and_says_so():
    puzzle, solution = generate(3, 3, 2, 2, seed=0)
    bad = solution.copy()
    bad.piece[0, 0] = bad.piece[1, 1]
    root = ET.fromstring(board_svg(puzzle, bad))
    assert "INVALID" in root.find(f"{SVG}title").text
