"""Method scan (construction tables and kernel): brute-force solution sets, the dfs tree, honest restarts."""

from __future__ import annotations

from functools import cache

import pytest
from conftest import SET1

from e2opt.core.board import format_board
from e2opt.core.errors import E2optError
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import Hint, Puzzle
from e2opt.exact.reference import reference_search
from e2opt.exact.scan import SCAN_ORDERS, ScanSearch, luby
from e2opt.exact.solve import checked, options, solve

TINY = [(3, 3, 2, 2, 0), (3, 4, 2, 2, 1), (4, 3, 2, 3, 9), (4, 4, 3, 4, 11), (3, 5, 2, 2, 4)]


def run(puzzle: Puzzle, method: str = "scan", **kw):
    kw.setdefault("find_all", True)
    return solve(puzzle, options(method, **kw), progress=None)


def unsolvable() -> Puzzle:
    """A 3x4 puzzle with one inner colour count made odd: no perfect board."""
    base, _ = generate(3, 4, 2, 3, 1)
    pieces = base.pieces.copy()
    inner = [t for t in range(len(pieces)) if 0 not in pieces[t]]
    pieces[inner[0], 0] = 3 if pieces[inner[0], 0] != 3 else 4
    return Puzzle(3, 4, pieces, (), "broken")


@cache
def brute(case: tuple) -> list[str]:
    """The reference's solutions of a generated puzzle (computed once per case: it is slow)."""
    return sorted(format_board(b) for b in reference_search(generate(*case)[0])[0])


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@pytest.mark.parametrize("case", TINY)
@pytest.mark.parametrize("order", sorted(SCAN_ORDERS))
@pytest.mark.parametrize(("symmetry", "value"), [(True, "min"), (False, "min"), (True, "random")])
def test_every_order_finds_exactly_the_brute_force_solutions(case, order, symmetry, value):
    puzzle, _ = generate(*case)
    result = run(puzzle, order=order, symmetry=symmetry, value_order=value, seed=case[-1])
    assert result.complete and sorted(format_board(b) for b in result.boards) == brute(case)


@pytest.mark.parametrize(
    ("path", "symmetry"), [("set1_05x05", True), ("set1_04x04", False), ("set1_03x05", False)]
)
def test_row_scan_walks_the_same_tree_as_dfs(path, symmetry):
    """Same static order, same candidates: identical nodes, backtracks and count (squares keep the
    same symmetry corner; rectangles break symmetry differently, so they are compared without it)."""
    puzzle = read_puzzle(SET1 / f"{path}.txt")
    scan = run(puzzle, order="row", symmetry=symmetry, keep_boards=False)
    dfs = run(puzzle, "dfs", order="row", symmetry=symmetry, keep_boards=False)
    assert scan.complete and dfs.complete
    assert (scan.solutions, scan.nodes, scan.backtracks) == (dfs.solutions, dfs.nodes, dfs.backtracks)


def test_rectangle_symmetry_parts_count_each_orbit_once():
    puzzle = read_puzzle(SET1 / "set1_04x05.txt")
    broken = run(puzzle, keep_boards=False)
    full = run(puzzle, keep_boards=False, symmetry=False)
    assert broken.complete and full.complete and broken.solutions == full.solutions == 1952
    assert broken.nodes < full.nodes


def test_restarts_find_perfect_boards_and_only_the_final_run_proves():
    puzzle = unsolvable()
    tree = run(puzzle, find_all=False, order="row")
    restarted = run(puzzle, find_all=False, order="row", value_order="random", restarts=6, restart_nodes=1)
    assert tree.complete and restarted.complete and restarted.solutions == 0
    assert restarted.nodes > tree.nodes  # the limited attempts came first
    search = ScanSearch(puzzle, "row", False, True, 0, restarts=50, restart_nodes=1)
    for _ in range(30):  # 30 steps of one node: still in the limited attempts, never done
        search.step(1)
        assert not search.done and not search.final
    first = run(
        read_puzzle(SET1 / "set1_05x05.txt"),
        find_all=False,
        value_order="random",
        restarts=20,
        restart_nodes=200,
        seed=4,
    )
    assert first.stopped == "first solution" and not first.complete and len(first.boards) == 1


@pytest.mark.slow
def test_a_restarted_search_stopped_by_the_limit_is_incomplete():
    puzzle = read_puzzle(SET1 / "set1_08x08.txt")
    result = run(
        puzzle, find_all=False, value_order="random", restarts=10**6, restart_nodes=10, time_limit_s=0.2
    )
    assert not result.complete and result.stopped == "time limit" and "search incomplete" in result.summary()


def test_hints_that_clash_leave_no_solution():
    base, planted = generate(3, 3, 2, 2, 0)

    a = Hint(int(planted.piece[0, 0]), 0, 0, int(planted.rot[0, 0]))
    wrong = next(t for t in range(9) if base.kinds[t] == 1 and t != planted.piece[0, 1])
    b = Hint(wrong, 0, 1, base.valid_rotations(wrong, 0, 1)[0])
    puzzle = Puzzle(3, 3, base.pieces, (a, b), "clash")
    expected = sorted(format_board(x) for x in reference_search(puzzle)[0])
    result = run(puzzle)
    assert expected == [] and result.complete and result.solutions == 0


@pytest.mark.parametrize(
    "opts",
    [
        dict(method="scan", order="mingap"),
        dict(method="dfs", order="column"),
        dict(method="scan", value_order="max"),
        dict(method="colorpairs", restarts=3, value_order="random"),
        dict(method="scan", restarts=3),
        dict(method="scan", find_all=True, restarts=3, value_order="random"),
        dict(method="scan", restarts=-1),
        dict(method="scan", restart_nodes=0),
        dict(method="dfs", shave=4),
        dict(method="colorpairs", shave=-1),
    ],
)
def test_bad_scan_options_are_user_errors(opts):
    with pytest.raises(E2optError):
        checked(options(**opts))


@pytest.mark.parametrize("case", TINY)
@pytest.mark.parametrize("order", ["row", "mingap"])
@pytest.mark.parametrize("backjump", [True, False])
def test_shaving_keeps_every_solution_and_never_adds_nodes(case, order, backjump):
    puzzle, _ = generate(*case)
    plain = run(puzzle, "colorpairs", order=order, backjump=backjump)
    for limit in (2, 50):
        shaved = run(puzzle, "colorpairs", order=order, backjump=backjump, shave=limit)
        assert shaved.complete and sorted(format_board(b) for b in shaved.boards) == brute(case)
        assert shaved.nodes <= plain.nodes


def test_shaving_prunes_a_real_puzzle():
    puzzle = read_puzzle(SET1 / "set1_05x05.txt")
    plain = run(puzzle, "colorpairs", order="row", keep_boards=False)
    shaved = run(puzzle, "colorpairs", order="row", keep_boards=False, shave=8)
    assert shaved.complete and shaved.solutions == plain.solutions == 16
    assert shaved.nodes < plain.nodes


@pytest.mark.parametrize("case", TINY)
@pytest.mark.parametrize("order", ["short", "spiral"])
def test_counting_in_the_kernel_walks_the_same_tree_as_returning_every_board(case, order):
    """Without boards the kernel counts leaves itself; nodes, backtracks and solutions stay the same."""
    puzzle, _ = generate(*case)
    boards = run(puzzle, order=order)
    counted = run(puzzle, order=order, keep_boards=False)
    assert counted.complete and not counted.boards
    assert (counted.solutions, counted.nodes, counted.backtracks) == (
        boards.solutions,
        boards.nodes,
        boards.backtracks,
    )
