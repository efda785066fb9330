"""The look-ahead beside the hints (e2opt/construct/dfs/looks.py): the kernel with it finds every board the
search without it finds, in the same order, in fewer placements; node for node against the slow reference in
test_dfs_kernel.py."""

from __future__ import annotations

import numpy as np
import pytest

from e2opt.construct.dfs import kernel as k
from e2opt.construct.dfs.lists import LOOK, G
from e2opt.construct.dfs.rules import Recipe, make_rules
from e2opt.construct.dfs.search import Dfs
from e2opt.core.generate import generate
from e2opt.fill.order import make_order

ORDERS = ("blackwood", "row_scan", "comb", "frame_comb")


def _case(seed: int):
    """A tiny puzzle with 1-3 hints, square or not, exact or with a break late, along one of the orders."""
    rng = np.random.default_rng(seed)
    rows, cols = ((4, 4), (4, 5), (5, 4))[seed % 3]
    p = generate(rows, cols, 2, 3, seed, hints=int(rng.integers(1, 4)), recolour=int(rng.integers(0, 3)))[0]
    breaks = ((rows * cols - 3, 1),) if seed % 5 == 0 else ()
    recipe = Recipe(order=ORDERS[seed % 4], teeth=2, breaks=breaks, quota=(), qval=(0,) * len(p.pieces),
                    node_budget=10**9)  # fmt: skip
    order = make_order(p, recipe.order, recipe.teeth)
    return p, order, make_rules(p, order, recipe)


def _run(seed: int, looks: bool, limit: int = 3_000_000) -> tuple[list[tuple], int, int]:
    """Every complete board of one attempt in the order found, its placements, and the number of checks."""
    p, order, rules = _case(seed)
    dfs = Dfs(p, order, rules, seed, hmin=p.n_cells)
    checks = len(dfs.looks.shift)
    if not looks:
        dfs.dg.reshape(-1, G)[:, LOOK] = 0  # every depth's checks empty
    dfs.new_attempt()
    boards = []
    while dfs.status != k.EXHAUSTED and dfs.nodes < limit:
        boards += [tuple(int(x) for x in f.codes) for f in dfs.step(50_000) if f.complete]
    assert dfs.status == k.EXHAUSTED, "the tree is too large for the test"
    return boards, dfs.nodes, checks


@pytest.mark.parametrize("seed", range(16))
def test_the_look_ahead_finds_every_board_in_the_same_order_in_no_more_placements(seed):
    plain = _run(seed, False)
    looked = _run(seed, True)
    assert looked[0] == plain[0]
    assert looked[1] <= plain[1]


def test_the_look_ahead_cuts_placements_where_a_hint_has_checks():
    """Not a no-op: most cases have checks, and where they have, most trees shrink, some by half or more."""
    runs = [(_run(s, True), _run(s, False)) for s in range(16)]
    ratios = [a[1] / b[1] for a, b in runs if a[2] > 0]
    assert len(ratios) >= 10, "too few cases with a check"
    assert sum(r < 1 for r in ratios) > len(ratios) // 2 and min(ratios) <= 0.5, ratios
