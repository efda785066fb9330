"""The fill orders are one table (fill/order.py ORDERS); each family offers the subset that suits it, and an
order a family names must be in that table (docs/design.md "A fill order")."""

from __future__ import annotations

from typing import get_args

import pytest

from e2opt.construct.config import ORDER_NAMES as BEAM_ORDERS
from e2opt.construct.dfs.config import ORDER_NAMES as DFS_ORDERS
from e2opt.exact.scan import SCAN_ORDERS
from e2opt.fill.order import ORDERS


@pytest.mark.parametrize(
    ("family", "names"),
    [
        ("beam", get_args(BEAM_ORDERS)),
        ("dfs", get_args(DFS_ORDERS)),
        ("scan", [name for name in SCAN_ORDERS.values() if name]),  # "short": the row or column scan
    ],
)
def test_every_order_a_family_offers_is_in_the_one_table(family, names):
    assert names and set(names) <= set(ORDERS), (family, sorted(set(names) - set(ORDERS)))


@pytest.mark.parametrize("name", list(ORDERS))
@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (5, 7), (16, 16)])
def test_every_order_visits_every_cell_once(name, rows, cols):
    cells = ORDERS[name](rows, cols, 2)
    assert sorted(cells) == [(r, c) for r in range(rows) for c in range(cols)]
