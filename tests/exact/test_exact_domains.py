"""The ``domains`` kernel against its slow reference (fixpoint recomputed from scratch at every node)."""

from __future__ import annotations

import pytest

from e2opt.core.board import format_board
from e2opt.core.generate import generate
from e2opt.core.puzzle import Hint, Puzzle
from e2opt.exact.dfs import DONE, SOLUTION
from e2opt.exact.domains import DomainSearch
from e2opt.exact.model import build_model
from e2opt.exact.reference import reference_domains, reference_search
from e2opt.exact.solve import options, solve

TINY = [(3, 3, 2, 2, 0), (3, 4, 2, 2, 1), (3, 3, 2, 3, 5), (4, 3, 2, 3, 9), (4, 4, 3, 4, 11)]
SHAPES = [(3, 3, 2, 3), (3, 4, 2, 3), (4, 4, 2, 3)]  # rows, cols, frame colours, inner colours
RANDOM = [(*SHAPES[seed % 3], 100 + seed) for seed in range(12)]
MULTIWORD = [(4, 5, 3, 6, 0), (4, 5, 3, 6, 1), (5, 5, 3, 6, 2)]  # 80 or 100 placements: two words per cell


def kernel_run(puzzle: Puzzle, order: str, symmetry: bool, value_order: str = "min", boards: bool = True):
    """Every board the kernel reaches (as text), its node count and its solution count."""
    model = build_model(puzzle, order, symmetry=symmetry)
    ds = DomainSearch(model, order, value_order, boards, seed=5)
    found = []
    while (event := ds.step(37)) != DONE:
        if event == SOLUTION:
            found.append(format_board(ds.board()))
    return found, ds.nodes, ds.solutions


@pytest.mark.parametrize("case", TINY)
@pytest.mark.parametrize("order", ["mindomain", "row", "spiral"])
@pytest.mark.parametrize("symmetry", [False, True])
def test_kernel_matches_reference_nodes_and_solutions(case, order, symmetry):
    puzzle, planted = generate(*case)
    expected, nodes = reference_domains(puzzle, order, symmetry)
    boards, kernel_nodes, count = kernel_run(puzzle, order, symmetry)
    assert kernel_nodes == nodes
    assert sorted(boards) == sorted(format_board(b) for b in expected)
    assert sorted(boards) == sorted(format_board(b) for b in reference_search(puzzle, symmetry=symmetry)[0])
    assert count == len(boards) >= 1
    if not symmetry:
        assert format_board(planted) in boards


@pytest.mark.parametrize("case", RANDOM)
def test_random_puzzles_match_the_reference(case):
    puzzle, _ = generate(*case)
    expected, nodes = reference_domains(puzzle)
    boards, kernel_nodes, _ = kernel_run(puzzle, "mindomain", False)
    assert kernel_nodes == nodes and sorted(boards) == sorted(format_board(b) for b in expected)


@pytest.mark.parametrize("case", MULTIWORD)
@pytest.mark.parametrize("order", ["mindomain", "row"])
def test_domains_of_several_words_match_the_reference(case, order):
    puzzle, planted = generate(*case)
    assert 4 * len(puzzle.pieces) > 64
    expected, nodes = reference_domains(puzzle, order)
    boards, kernel_nodes, _ = kernel_run(puzzle, order, False)
    assert kernel_nodes == nodes and sorted(boards) == sorted(format_board(b) for b in expected)
    assert format_board(planted) in boards


def test_hints_stay_and_prune():
    base, planted = generate(4, 4, 3, 4, 11)
    hints = tuple(Hint(int(planted.piece[r, c]), r, c, int(planted.rot[r, c])) for r, c in [(1, 1), (2, 3)])
    puzzle = Puzzle(4, 4, base.pieces, hints, "hinted")
    expected, nodes = reference_domains(puzzle)
    boards, kernel_nodes, _ = kernel_run(puzzle, "mindomain", False)
    assert kernel_nodes == nodes and sorted(boards) == sorted(format_board(b) for b in expected)
    assert format_board(planted) in boards
    assert kernel_nodes < kernel_run(base, "mindomain", False)[1]
    assert all(b.splitlines()[2].split()[1] == f"{hints[0].piece}:{hints[0].rot}" for b in boards)


@pytest.mark.parametrize("value_order", ["max", "mid", "random"])
def test_value_orders_keep_the_set_and_the_full_tree(value_order):
    puzzle, _ = generate(4, 4, 3, 4, 11)
    base, base_nodes, _ = kernel_run(puzzle, "row", False)
    other, nodes, _ = kernel_run(puzzle, "row", False, value_order)
    assert sorted(other) == sorted(base) and nodes == base_nodes
    if value_order != "random":
        assert other != base  # a different order of the same boards


def test_counting_without_boards_walks_the_same_tree():
    puzzle, _ = generate(4, 4, 3, 3, 2)
    boards, nodes, count = kernel_run(puzzle, "mindomain", False)
    _, nodes_only, count_only = kernel_run(puzzle, "mindomain", False, boards=False)
    assert (nodes_only, count_only) == (nodes, count) == (nodes, len(boards))


def test_fewer_nodes_than_plain_dfs_on_a_larger_puzzle():
    puzzle, _ = generate(5, 5, 3, 4, 7)
    plain = solve(puzzle, options("dfs", find_all=True, keep_boards=False), progress=None)
    domains = solve(puzzle, options("domains", find_all=True, keep_boards=False), progress=None)
    assert plain.complete and domains.complete and domains.solutions == plain.solutions >= 1
    assert domains.nodes * 3 < plain.nodes


def test_more_colours_than_a_word_holds_is_a_user_error_and_not_the_default(tmp_path, capsys):
    from e2opt.cli.main import main
    from e2opt.core.errors import E2optError
    from e2opt.core.puzzle import format_puzzle

    puzzle, _ = generate(12, 12, 4, 70, 0)
    path = tmp_path / "many.txt"
    path.write_text(format_puzzle(puzzle))
    with pytest.raises(E2optError, match="--method domains takes colours 0-63"):
        solve(puzzle, options("domains"), progress=None)
    assert main(["solve", str(path), "--method", "domains"]) == 2
    assert "colours 0-63" in capsys.readouterr().err
    assert main(["solve", str(path), "--max-cpu-s", "1", "--quiet"]) in (0, 1)  # colorpairs takes it
    out = capsys.readouterr().out
    assert "search incomplete" in out or "found" in out
