"""The official Eternity II numbering and clue convention, checked against the published piece list."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import INSTANCES, e2opt

from e2opt.core.formats.official import clue_convention, clue_label, numbering, official_numbering
from e2opt.core.formats.read import read_puzzle
from e2opt.core.puzzle import Hint, Puzzle, parse_puzzle

DATA = Path(__file__).parents[1] / "data"


def published() -> dict[int, str]:
    """Official number -> letters of the piece, from tests/data/e2_official_pieces.txt (source cited there)."""
    rows = [ln.split() for ln in (DATA / "e2_official_pieces.txt").read_text().splitlines() if ln[:1] != "#"]
    return {int(n): word for n, word in rows}


def turns(word: str) -> set[str]:
    return {word[k:] + word[:k] for k in range(4)}


def letters(puzzle: Puzzle, piece: int) -> str:
    return "".join(chr(97 + puzzle.user_colour(int(c))) for c in puzzle.pieces[piece])


def test_the_shipped_set_is_the_published_list_in_official_order() -> None:
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    listed = published()
    assert sorted(listed) == list(range(1, 257))
    for number, word in listed.items():
        assert letters(puzzle, number - 1) in turns(word), number
    names = official_numbering(puzzle)
    assert names is not None and names.number == tuple(range(256)) and names.turn == (0,) * 256


def test_sorting_smallest_rotations_gives_the_official_numbers() -> None:
    """longrun.md's rule, recomputed here without e2opt's code, against the published numbers."""
    listed = published()
    smallest = {n: min(turns(word)) for n, word in listed.items()}
    ranked = sorted(smallest, key=smallest.get)
    assert ranked == list(range(1, 257))


def test_a_shuffled_turned_copy_gets_its_official_numbers() -> None:
    base = read_puzzle(INSTANCES / "eternity2.txt")
    order = [(p * 37) % 256 for p in range(256)]  # 37 is coprime with 256: a permutation
    lines = ["16 16"]
    for i, p in enumerate(order):
        lines.append(" ".join(str(base.user_colour(int(c))) for c in base.oriented[p, i % 4]))
    shuffled = parse_puzzle("\n".join(lines) + "\n", "shuffled")
    names = numbering(shuffled)
    assert names.official
    assert list(names.number) == order
    assert list(names.turn) == [(-i) % 4 for i in range(256)]


@pytest.mark.parametrize(
    ("name", "want"),
    [
        ("eternity2.txt", "1/5"),
        ("eternity2_5hints.txt", "5/5"),
        ("meta2010_16x16.txt", None),
        ("clue1_6x6.txt", None),
    ],
)
def test_clue_convention(name: str, want: str | None) -> None:
    assert clue_convention(read_puzzle(INSTANCES / name)) == want


def test_clue_convention_of_other_hint_sets() -> None:
    base = read_puzzle(INSTANCES / "eternity2.txt")
    bare = Puzzle(16, 16, base.pieces, (), "bare")
    assert clue_convention(bare) == "0/5"
    wrong = Puzzle(16, 16, base.pieces, (Hint(138, 8, 7, 0),), "wrong")
    assert clue_convention(wrong) == "1 hints, not all official clues"
    assert clue_label(base) == "clues 1/5 (starter-only)"


def test_info_names_the_official_set_and_the_convention() -> None:
    out = e2opt("info", INSTANCES / "eternity2_5hints.txt").stdout
    assert "official Eternity II set; clues 5/5 (strict 5-clue)" in out
    assert "piece id i is official #i+1" in out
    assert "official" not in e2opt("info", INSTANCES / "meta2010_16x16.txt").stdout


def test_bench_tables_name_the_clue_convention() -> None:
    from e2opt.bench.runs import QualityRow, format_quality

    row = QualityRow("eternity2", 480, 470, (1,), (440,), (3e4,), 60.0, "1/5")
    assert format_quality([row]).splitlines()[-1].startswith("eternity2 clues 1/5 ")


def test_info_lists_the_mapping_of_a_reordered_set() -> None:
    from e2opt.core.formats.official import describe

    base = read_puzzle(INSTANCES / "eternity2.txt")
    lines = ["16 16"] + [
        " ".join(str(base.user_colour(int(c))) for c in base.oriented[255 - p, 1]) for p in range(256)
    ]
    text = describe(parse_puzzle("\n".join(lines) + "\n", "reversed"))
    assert text[0] == "official Eternity II set; clues 0/5"
    assert text[2].split()[:2] == ["0:#256+3", "1:#255+3"] and len(text) == 2 + 16
