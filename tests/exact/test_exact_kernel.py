"""The numba exact-search kernel against the slow Python reference: same nodes, same solutions."""

from __future__ import annotations

import pytest

from e2opt.core.board import format_board
from e2opt.core.generate import generate
from e2opt.exact.model import build_model
from e2opt.exact.reference import reference_search
from e2opt.exact.search import DONE, SOLUTION, KernelSearch

TINY = [(3, 3, 2, 2, 0), (3, 4, 2, 2, 1), (3, 3, 2, 3, 5), (4, 3, 2, 3, 9), (4, 4, 3, 4, 11)]


def kernel_run(puzzle, order="row", filtering=False, backjump=False, symmetry=False, value_order="min"):
    """Every board the kernel reaches (as text) and its node count."""
    model = build_model(puzzle, order, symmetry=symmetry, shuffle_seed=3 if value_order == "random" else None)
    ks = KernelSearch(
        model,
        filtering=filtering,
        backjump=backjump,
        order=order,
        value_order=value_order,
        stop_at_solution=True,
    )
    boards = []
    while (event := ks.step(50)) != DONE:
        if event == SOLUTION:
            boards.append(format_board(ks.board()))
    return boards, ks.nodes


@pytest.mark.parametrize("case", TINY)
@pytest.mark.parametrize("order", ["row", "spiral"])
@pytest.mark.parametrize("filtering", [False, True])
@pytest.mark.parametrize("symmetry", [False, True])
def test_kernel_matches_reference_nodes_and_solutions(case, order, filtering, symmetry):
    puzzle, planted = generate(*case)
    expected, nodes = reference_search(puzzle, order, filtering, symmetry)
    boards, kernel_nodes = kernel_run(puzzle, order, filtering, False, symmetry)
    assert kernel_nodes == nodes
    assert sorted(boards) == sorted(format_board(b) for b in expected)
    assert len(boards) == len(set(boards)) >= 1
    if not symmetry:
        assert format_board(planted) in boards


@pytest.mark.parametrize("case", TINY)
@pytest.mark.parametrize("order", ["row", "spiral", "mindomain", "mingap"])
def test_backjumping_and_dynamic_orders_keep_every_solution(case, order):
    puzzle, _ = generate(*case)
    expected = sorted(format_board(b) for b in reference_search(puzzle)[0])
    plain, plain_nodes = kernel_run(puzzle, order, filtering=True)
    jumping, jump_nodes = kernel_run(puzzle, order, filtering=True, backjump=True)
    assert sorted(plain) == sorted(jumping) == expected
    assert jump_nodes <= plain_nodes


@pytest.mark.parametrize("value_order", ["min", "max", "mid", "random"])
def test_value_orders_change_the_order_not_the_set_nor_the_full_tree(value_order):
    puzzle, _ = generate(3, 4, 2, 2, 1)
    reference, nodes = kernel_run(puzzle)
    boards, kernel_nodes = kernel_run(puzzle, value_order=value_order)
    assert sorted(boards) == sorted(reference) and kernel_nodes == nodes
    if value_order == "max":  # every level reversed: the solutions come in exactly the reverse order
        assert boards == reference[::-1]
    if value_order == "random":
        assert boards != reference
