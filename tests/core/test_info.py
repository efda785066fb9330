"""Info and best-known scores: the description's facts, and bks.csv backed by the shipped files."""

from __future__ import annotations

import re

import pytest
from conftest import INSTANCES, ROOT, SET1, TINY_PUZZLE

from e2opt.core.bks import best_known, table
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.info import describe
from e2opt.core.puzzle import parse_puzzle
from e2opt.core.verify import verify_files


def test_package_copy_of_bks_csv_equals_the_instances_copy():
    assert (ROOT / "e2opt" / "data" / "bks.csv").read_bytes() == (INSTANCES / "bks.csv").read_bytes()


@pytest.mark.parametrize("name", sorted(table()))
def test_every_bks_row_matches_its_instance_file(name):
    entry = table()[name]
    path = INSTANCES / f"{name}.txt"
    if not path.exists():
        path = SET1 / f"{name}.txt"
    puzzle = read_puzzle(path)
    assert entry.max_score == puzzle.max_score and 0 < entry.best_known <= entry.max_score
    board = re.search(r"board in (\S+\.board)", entry.source)
    if board:  # a figure backed by a shipped board must be that board's verified score
        report = verify_files(path, ROOT / board.group(1))
        assert report.valid and report.score == entry.best_known


def test_bks_covers_the_main_instances_and_set1():
    names = set(table())
    assert {"eternity2", "eternity2_5hints", "clue1_6x6", "clue2_6x12"} <= names
    assert {f"meta2010_{n}x{n}" for n in (10, 12, 14, 16)} <= names
    assert {p.stem for p in SET1.glob("*.txt")} <= names
    assert [table()[f"meta2010_{n}x{n}"].best_known for n in (10, 12, 14, 16)] == [172, 254, 348, 460]


def test_best_known_accepts_a_puzzle_a_name_or_a_path():
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    assert best_known(puzzle).best_known == 470
    assert best_known("meta2010_12x12").best_known == 254
    assert best_known(INSTANCES / "clue1_6x6.txt").best_known == 60
    assert best_known("no_such_instance") is None


def test_describe_eternity2():
    text = describe(read_puzzle(INSTANCES / "eternity2.txt"))
    assert text.startswith("eternity2: 16x16, 256 pieces (4 corner, 56 edge, 196 inner)")
    assert "colours: 22 besides grey (5 frame, 17 inner)" in text
    assert "frame: 1:24 2:24 3:24 4:24 5:24\n" in text and "6:48" in text and "22:50" in text
    assert "hints: 1 (piece 138 at (8,7) rot 2)" in text
    assert "max score: 480" in text and "best known: 470/480" in text
    assert "warning" not in text


def test_describe_a_generated_2xn_puzzle_has_no_best_known_and_no_warnings():
    puzzle, _ = generate(2, 6, 3, 0, seed=1)
    text = describe(puzzle)
    assert "(4 corner, 8 edge, 0 inner)" in text and "(3 frame, 0 inner)" in text
    assert "best known" not in text and "warning" not in text


def test_describe_shows_warnings():
    odd = parse_puzzle(TINY_PUZZLE.replace("3 4 3 4", "3 4 3 5"), "odd.txt")
    assert "warning: odd.txt: colours with an odd count [4, 5]" in describe(odd)
    mixed = parse_puzzle(TINY_PUZZLE.replace("3 4 3 4", "3 4 3 1"))
    assert "colours used both on frame joins and inner joins: [1]" in describe(mixed)
