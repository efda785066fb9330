"""Generator: planted board perfect, pieces distinct, colours where promised, bad input a clear error."""

from __future__ import annotations

import numpy as np
import pytest

from e2opt.core.board import format_board, rule_violations, score
from e2opt.core.errors import E2optError
from e2opt.core.generate import generate
from e2opt.core.puzzle import INNER, format_puzzle, parse_puzzle
from e2opt.core.verify import verify_texts

SHAPES = [(2, 2, 2, 0), (2, 3, 2, 0), (2, 9, 3, 0), (3, 3, 2, 2), (3, 8, 3, 3), (4, 4, 2, 3), (6, 5, 3, 5)]
SHAPES += [(8, 8, 4, 6), (10, 12, 4, 10), (16, 16, 5, 17)]


@pytest.mark.parametrize("rows, cols, frame, inner", SHAPES)
@pytest.mark.parametrize("seed", range(4))
def test_planted_board_verifies_at_full_score(rows, cols, frame, inner, seed):
    hints = seed % 3
    puzzle, solution = generate(rows, cols, frame, inner, seed=seed, hints=hints)
    reread = parse_puzzle(format_puzzle(puzzle))  # the full validation of the file format passes
    assert reread.warnings == () and len(reread.hints) == hints
    report = verify_texts(format_puzzle(puzzle), format_board(solution))
    assert report.valid and report.score == report.max_score == puzzle.max_score
    assert score(puzzle, solution) == puzzle.max_score and rule_violations(puzzle, solution) == []
    for h in puzzle.hints:
        assert (solution.piece[h.row, h.col], solution.rot[h.row, h.col]) == (h.piece, h.rot)


@pytest.mark.parametrize("rows, cols, frame, inner", SHAPES)
def test_pieces_are_distinct_up_to_rotation(rows, cols, frame, inner):
    puzzle, _ = generate(rows, cols, frame, inner, seed=11)
    shapes = {min(tuple(int(x) for x in np.roll(p, k)) for k in range(4)) for p in puzzle.pieces}
    assert len(shapes) == rows * cols


@pytest.mark.parametrize("rows, cols, frame, inner", [(2, 6, 3, 0), (5, 7, 3, 4), (9, 9, 4, 9)])
def test_frame_colours_only_between_border_cells(rows, cols, frame, inner):
    puzzle, solution = generate(rows, cols, frame, inner, seed=3)
    colours = solution.colours(puzzle)
    border = np.array([[puzzle.cell_kind(r, c) != INNER for c in range(cols)] for r in range(rows)])
    joins = [
        (colours[:, :-1, 1], border[:, :-1] & border[:, 1:]),
        (colours[:-1, :, 2], border[:-1] & border[1:]),
    ]
    for colour, between_border in joins:
        assert ((colour >= 1) & (colour <= frame))[between_border].all()
        assert ((colour > frame) & (colour <= frame + inner))[~between_border].all()
    rim = np.concatenate([colours[0, :, 0], colours[-1, :, 2], colours[:, 0, 3], colours[:, -1, 1]])
    assert (rim == 0).all()


def test_pieces_are_shuffled_and_turned():
    puzzle, solution = generate(8, 8, 4, 6, seed=5)
    assert not np.array_equal(solution.piece.ravel(), np.arange(64))
    border = [puzzle.cell_kind(r, c) != INNER for r in range(8) for c in range(8)]
    assert len(set(solution.rot.ravel()[border])) > 1  # border pieces too are stored in varied rotations
    assert len(set(solution.rot.ravel())) == 4


def test_same_seed_same_puzzle_other_seed_other_puzzle():
    a, sa = generate(6, 7, 3, 5, seed=42, hints=2)
    b, sb = generate(6, 7, 3, 5, seed=42, hints=2)
    c, _ = generate(6, 7, 3, 5, seed=43, hints=2)
    assert format_puzzle(a) == format_puzzle(b) and sa == sb
    assert format_puzzle(a) != format_puzzle(c)


@pytest.mark.parametrize(
    "args, words",
    [
        ((1, 5, 3, 3, 0), "below 2x2"),
        ((5, 1, 3, 3, 0), "below 2x2"),
        ((4, 4, 0, 3, 0), "at least 1 frame colour"),
        ((4, 4, 3, 0, 0), "need at least 1 inner colour"),
        ((4, 4, 3, -1, 0), "need at least 1 inner colour"),
        ((2, 4, 3, -1, 0), "cannot be negative"),
        ((4, 4, 3, 3, 17), "hints must be 0..16"),
        ((4, 4, 3, 3, -1), "hints must be 0..16"),
        ((2, 2, 1, 0, 0), "too few colours for distinct pieces: 4 corner pieces"),
        ((16, 16, 5, 3, 0), "too few colours for distinct pieces: 196 inner pieces"),
        ((6, 6, 2, 2, 0), "too few colours for distinct pieces: 16 edge pieces"),
    ],
)
def test_parameters_that_cannot_work_are_clear_errors(args, words):
    rows, cols, frame, inner, hints = args
    with pytest.raises(E2optError) as info:
        generate(rows, cols, frame, inner, seed=0, hints=hints)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_resampling_is_bounded_and_then_a_clear_error(monkeypatch):
    """4x4 with 2+2 colours has enough shapes but needs many resampling rounds for seed 0."""
    monkeypatch.setattr("e2opt.core.generate.MAX_RESAMPLE_ROUNDS", 2)
    with pytest.raises(E2optError, match=r"too few colours for distinct pieces.*after 2 resampling rounds"):
        generate(4, 4, 2, 2, seed=0)


def test_tight_colour_budget_is_met_by_resampling():
    """3 inner colours give 24 inner shapes and 5x8 needs 18: the first draw has duplicates, resampling repairs
    them, so every seed gives distinct pieces and its planted board scores full."""
    for seed in range(5):
        puzzle, solution = generate(5, 8, 3, 3, seed=seed)
        assert score(puzzle, solution) == puzzle.max_score and rule_violations(puzzle, solution) == []
        shapes = {min(tuple(int(x) for x in np.roll(p, k)) for k in range(4)) for p in puzzle.pieces}
        assert len(shapes) == 40


def test_a_negative_seed_or_a_huge_board_is_a_clear_error():
    with pytest.raises(E2optError, match="--seed -1: must be non-negative"):
        generate(4, 4, 2, 3, seed=-1)
    with pytest.raises(E2optError, match="too large"):
        generate(2000, 4, 2, 3, seed=1)


@pytest.mark.parametrize("rows, cols, frame, inner, n", [(3, 3, 2, 3, 1), (5, 5, 3, 4, 2), (8, 8, 4, 6, 5)])
@pytest.mark.parametrize("seed", range(3))
def test_recoloured_sides_cost_the_planted_board_exactly_that_many_joins(rows, cols, frame, inner, n, seed):
    puzzle, planted = generate(rows, cols, frame, inner, seed=seed, recolour=n)
    report = verify_texts(format_puzzle(puzzle), format_board(planted))
    assert report.valid and report.score == puzzle.max_score - n and puzzle.name.endswith(f"_r{n}")
    shapes = {min(tuple(int(x) for x in np.roll(p, k)) for k in range(4)) for p in puzzle.pieces}
    assert len(shapes) == rows * cols
    assert np.array_equal(
        generate(rows, cols, frame, inner, seed=seed)[0].pieces,
        generate(rows, cols, frame, inner, seed=seed, recolour=0)[0].pieces,
    )


def test_recolouring_needs_two_inner_colours_and_enough_joins():
    with pytest.raises(E2optError, match=r"--recolour 1: .*2 or more inner colours"):
        generate(3, 3, 2, 1, seed=0, recolour=1)
    with pytest.raises(E2optError, match="--recolour 9: only"):
        generate(3, 3, 2, 3, seed=0, recolour=9)


def test_named_hint_cells_keep_the_pieces_and_take_the_planted_board():
    """``hint_cells`` makes hints of exactly those cells, from the planted board, on the same pieces as the
    same seed without hints (so a puzzle and its hinted twin differ only in their hints)."""
    cells = [(8, 7), (2, 2), (2, 13), (13, 2), (13, 13)]
    plain, planted = generate(16, 16, 5, 17, seed=11)
    hinted, same = generate(16, 16, 5, 17, seed=11, hint_cells=cells)
    assert (plain.pieces == hinted.pieces).all() and same == planted and plain.hints == ()
    assert sorted((h.row, h.col) for h in hinted.hints) == sorted(cells)
    for h in hinted.hints:
        assert (planted.piece[h.row, h.col], planted.rot[h.row, h.col]) == (h.piece, h.rot)
    assert score(hinted, planted) == hinted.max_score


def test_hint_cells_from_the_command_line_and_their_mistakes(tmp_path):
    from conftest import e2opt_here
    from helpers import one_error_line

    out = tmp_path / "p.txt"
    ok = e2opt_here("generate", "--rows", "4", "--cols", "5", "--frame-colours", "2", "--inner-colours", "3",
                    "--hint-cells", "0,4", "3,0", "1,2", "-o", out)  # fmt: skip
    assert ok.returncode == 0 and "3 hints" in ok.stdout
    assert {(h.row, h.col) for h in parse_puzzle(out.read_text()).hints} == {(0, 4), (3, 0), (1, 2)}
    base = ["generate", "--rows", "4", "--cols", "5", "--frame-colours", "2", "--inner-colours", "3", "-o",
            tmp_path / "q.txt"]  # fmt: skip
    one_error_line(e2opt_here(*base, "--hint-cells", "4,0"), "hint cell 4,0 is off the 4x5 board")
    one_error_line(e2opt_here(*base, "--hint-cells", "1,1", "1,1"), "named twice")
    one_error_line(e2opt_here(*base, "--hint-cells", "1;1"), "--hint-cells", "'1;1' is not ROW,COL")
    one_error_line(e2opt_here(*base, "--hints", "2", "--hint-cells", "1,1"), "not both")
    assert not (tmp_path / "q.txt").exists()
