"""Backjumping in the DFS kernel (kernel.py "Backjumping"): it finds every board the plain search finds, in
the same order, in fewer placements (saving and loading them: test_dfs_kernel.py)."""

from __future__ import annotations

import numpy as np
import pytest

from e2opt.construct.dfs import kernel as k
from e2opt.construct.dfs.rules import Recipe, make_rules
from e2opt.construct.dfs.search import Dfs
from e2opt.core.generate import generate
from e2opt.fill.order import make_order

ORDERS = ("blackwood", "row_scan", "comb")


def _exact(seed: int, backjump: bool, breaks: tuple = ()):
    """A tiny puzzle with hints (square or not) and an exact recipe, so that every failure may jump."""
    rng = np.random.default_rng(seed)
    rows, cols = ((4, 4), (4, 5), (5, 4))[seed % 3]
    p = generate(rows, cols, 2, 3, seed, hints=int(rng.integers(1, 4)), recolour=int(rng.integers(0, 3)))[0]
    recipe = Recipe(order=ORDERS[seed % 3], teeth=2, breaks=breaks, quota=(), qval=(0,) * len(p.pieces),
                    node_budget=10**9, backjump=backjump)  # fmt: skip
    order = make_order(p, recipe.order, recipe.teeth)
    return p, order, make_rules(p, order, recipe)


def _boards(p, order, rules, seed: int, limit: int = 3_000_000) -> tuple[list[tuple], int]:
    """Every complete board of one attempt in the order found, and the placements it took to exhaust it."""
    dfs = Dfs(p, order, rules, seed, hmin=p.n_cells)
    dfs.new_attempt()
    boards = []
    while dfs.status != k.EXHAUSTED and dfs.nodes < limit:
        boards += [tuple(int(x) for x in f.codes) for f in dfs.step(50_000) if f.complete]
    assert dfs.status == k.EXHAUSTED, "the tree is too large for the test"
    return boards, dfs.nodes


@pytest.mark.parametrize("seed", range(12))
def test_backjumping_finds_every_board_in_the_same_order_in_fewer_placements(seed):
    plain = _boards(*_exact(seed, False), seed)
    jump = _boards(*_exact(seed, True), seed)
    assert jump[0] == plain[0]
    assert jump[1] <= plain[1]


def test_backjumping_skips_placements_on_most_puzzles():
    """Not a no-op: over the seeds above most trees shrink, some by a large factor."""
    ratios = [_boards(*_exact(s, True), s)[1] / _boards(*_exact(s, False), s)[1] for s in range(12)]
    assert all(r < 1 for r in ratios) and min(ratios) < 0.5, ratios


def test_no_jump_once_a_break_is_spent():
    """A schedule allowing breaks from the start: no depth may jump, so the tree is the plain one."""
    p, order, rules = _exact(4, True, breaks=((0, 2),))
    _, _, plain = _exact(4, False, breaks=((0, 2),))
    a, b = Dfs(p, order, rules, 4, hmin=p.n_cells), Dfs(p, order, plain, 4, hmin=p.n_cells)
    for dfs in (a, b):
        dfs.new_attempt()
        dfs.step(20_000)
    assert a.nodes == b.nodes and np.array_equal(a.st[10], b.st[10]) and not a.st[15].any()
