"""Exact methods: same solution sets as brute force, exact symmetry factors, honest limits, perfect boards."""

from __future__ import annotations

import pytest
from conftest import SET1

from e2opt.core.board import format_board
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import Hint, Puzzle, format_puzzle
from e2opt.core.verify import verify_texts
from e2opt.exact.reference import reference_search
from e2opt.exact.solve import checked, options, solve
from e2opt.exact.symmetry import orbit, rotation_group

METHODS = ["colorpairs", "dfs", "domains", "scan", "chessboard", "cpsat"]
TINY = [(3, 3, 2, 2, 0), (3, 4, 2, 2, 1), (4, 3, 2, 3, 9), (4, 4, 3, 4, 11)]


def run(puzzle: Puzzle, method: str, **kw):
    kw.setdefault("find_all", True)
    return solve(puzzle, options(method, **kw), progress=None)


def assert_perfect(puzzle: Puzzle, boards) -> None:
    for board in boards:
        report = verify_texts(format_puzzle(puzzle), format_board(board))
        assert report.valid and report.score == puzzle.max_score, report.text()


@pytest.mark.parametrize("case", TINY)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("symmetry", [True, False])
def test_every_method_finds_exactly_the_brute_force_solutions(case, method, symmetry):
    puzzle, _ = generate(*case)
    brute = sorted(format_board(b) for b in reference_search(puzzle)[0])
    result = run(puzzle, method, symmetry=symmetry)
    assert result.complete and result.stopped is None
    assert sorted(format_board(b) for b in result.boards) == brute
    assert result.solutions == len(brute) and result.distinct * rotation_group(puzzle) == len(brute)
    assert_perfect(puzzle, result.boards)


@pytest.mark.parametrize("method", METHODS)
def test_hints_are_kept_and_no_symmetry_is_assumed(method):
    base, planted = generate(4, 4, 3, 4, 11)
    hint = Hint(int(planted.piece[1, 1]), 1, 1, int(planted.rot[1, 1]))
    puzzle = Puzzle(4, 4, base.pieces, (hint,), "hinted")
    brute = {format_board(b) for b in reference_search(base)[0]}
    wanted = sorted(b for b in brute if b.splitlines()[2].split()[1] == f"{hint.piece}:{hint.rot}")
    result = run(puzzle, method)
    assert result.group == 1 and result.complete
    assert sorted(format_board(b) for b in result.boards) == wanted and len(wanted) >= 1


@pytest.mark.slow
@pytest.mark.parametrize(("name", "group"), [("set1_04x04", 4), ("set1_03x05", 2), ("set1_03x04", 2)])
@pytest.mark.parametrize("method", ["colorpairs", "dfs", "domains", "scan", "chessboard"])
def test_symmetry_breaking_divides_the_search_by_the_group_exactly(name, group, method):
    puzzle = read_puzzle(SET1 / f"{name}.txt")
    broken = run(puzzle, method, keep_boards=False)
    full = run(puzzle, method, keep_boards=False, symmetry=False)
    assert broken.complete and full.complete and broken.group == group
    assert broken.solutions == full.solutions and full.solutions % group == 0
    assert broken.nodes < full.nodes


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("perfect", [True, False])
def test_a_puzzle_whose_every_cell_is_a_hint_has_its_hints_as_answer(method, perfect):
    base, planted = generate(3, 3, 2, 2, 0)
    hints = [Hint(int(planted.piece[r, c]), r, c, int(planted.rot[r, c])) for r in range(3) for c in range(3)]
    if not perfect:
        hints[4] = Hint(hints[4].piece, 1, 1, (hints[4].rot + 1) % 4)  # the centre turned: four joins lost
    puzzle = Puzzle(3, 3, base.pieces, tuple(hints), "all hints")
    for keep in (True, False):
        result = run(puzzle, method, keep_boards=keep)
        assert result.complete and result.solutions == int(perfect)
    if perfect:
        assert format_board(run(puzzle, method).boards[0]) == format_board(planted)


@pytest.mark.parametrize("clash", [False, True])
def test_chessboard_with_every_black_cell_a_hint_completes_the_whites_or_proves_none(clash):
    """No black cell left to branch on: the hinted cells alone decide; clashing hints mean no solution."""
    base, planted = generate(3, 3, 2, 2, 1)
    blacks = [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)]
    hints = [Hint(int(planted.piece[r, c]), r, c, int(planted.rot[r, c])) for r, c in blacks]
    if clash:  # two corners swapped with their rotations: a grey side faces the board
        hints[0], hints[1] = (
            Hint(hints[1].piece, 0, 0, hints[1].rot),
            Hint(hints[0].piece, 0, 2, hints[0].rot),
        )
    puzzle = Puzzle(3, 3, base.pieces, tuple(hints), "black hints")
    brute = reference_search(puzzle)[0]
    assert bool(brute) != clash  # the planted board completes its own black cells
    result = run(puzzle, "chessboard")
    assert result.complete and result.solutions == len(brute)
    assert sorted(format_board(b) for b in result.boards) == sorted(format_board(b) for b in brute)


def test_orbits_are_solutions_and_distinct():
    puzzle = read_puzzle(SET1 / "set1_04x04.txt")
    first = run(puzzle, "colorpairs", find_all=False)
    assert first.stopped == "first solution" and not first.complete and len(first.boards) == 1
    copies = orbit(first.boards[0], 4)
    assert len({format_board(b) for b in copies}) == 4
    assert_perfect(puzzle, copies)


@pytest.mark.parametrize("method", METHODS)
def test_a_puzzle_without_perfect_board_is_proved_so(method):
    base, _ = generate(3, 4, 2, 3, 1)
    pieces = base.pieces.copy()
    inner = [t for t in range(len(pieces)) if 0 not in pieces[t]]
    pieces[inner[0], 0] = 3 if pieces[inner[0], 0] != 3 else 4  # one inner colour count turns odd
    puzzle = Puzzle(3, 4, pieces, (), "broken")
    assert reference_search(puzzle)[0] == []
    result = run(puzzle, method)
    assert result.complete and result.solutions == 0 and "no solution: complete search" in result.summary()


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
def test_a_search_stopped_by_the_limit_never_claims_completeness(method):
    puzzle = read_puzzle(SET1 / "set1_07x07.txt")
    result = run(puzzle, method, time_limit_s=0.1, keep_boards=False)
    assert not result.complete and result.stopped == "time limit"
    assert "search incomplete" in result.summary() and "complete search" not in result.summary()


def test_bad_options_are_user_errors():
    from e2opt.core.errors import E2optError

    for opts in [
        dict(method="magic"),
        dict(method="domains", time_limit_s=0),
        dict(method="cpsat", order="row"),
        dict(method="chessboard", order="mingap"),
        dict(method="domains", order="diagonal"),
        dict(method="domains", value_order="best"),
        dict(method="domains", backjump=False),
        dict(method="domains", order="mingap"),
    ]:
        with pytest.raises(E2optError):
            checked(options(**opts))
