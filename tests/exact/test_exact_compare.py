"""``e2opt bench exact``: paper 004's table of methods x variable orders x value orders."""

from __future__ import annotations

import pytest
from conftest import SET1, e2opt

from e2opt.core.errors import E2optError
from e2opt.core.formats.read import read_puzzle
from e2opt.exact.compare import compare, format_compare


def test_every_combination_counts_the_same_solutions_and_static_orders_ignore_values():
    puzzles = [read_puzzle(SET1 / "set1_03x04.txt"), read_puzzle(SET1 / "set1_04x04.txt")]
    rows = compare(puzzles, ["dfs", "colorpairs"], ["row", "mingap"], ["min", "max", "mid"], True, 10.0)
    assert len(rows) == 2 * 2 * 2 * 3 and all(r.complete for r in rows)
    assert {r.solutions for r in rows if r.puzzle == "set1_03x04"} == {32}
    assert {r.solutions for r in rows if r.puzzle == "set1_04x04"} == {36}
    for puzzle in (
        "set1_03x04",
        "set1_04x04",
    ):  # plain DFS, static order, whole tree: the value order is moot
        assert (
            len({r.nodes for r in rows if r.puzzle == puzzle and (r.method, r.order) == ("dfs", "row")}) == 1
        )
    table = format_compare(rows, True, 10.0)
    fewest = min(r.nodes for r in rows if r.puzzle == "set1_04x04")
    assert f"set1_04x04: fewest nodes {fewest:,} (" in table and table.count("\n| set1_") == len(rows)


def test_first_solution_rows_stop_at_one_board():
    rows = compare([read_puzzle(SET1 / "set1_05x05.txt")], ["scan"], ["row", "spiral"], ["min"], False, 10.0)
    assert [(r.solutions, r.complete) for r in rows] == [(1, True), (1, True)]


def test_a_bad_combination_or_budget_is_refused_before_anything_runs():
    puzzles = [read_puzzle(SET1 / "set1_03x04.txt")]
    with pytest.raises(E2optError, match="bench exact: scan / row / max: --value-order max"):
        compare(puzzles, ["dfs", "scan"], ["row"], ["max"], True, 10.0)
    with pytest.raises(E2optError, match="bench exact: --max-cpu-s 0: must be a positive number"):
        compare(puzzles, ["dfs"], ["row"], ["min"], True, 0)


@pytest.mark.slow
def test_cli_prints_the_table_and_one_line_errors():
    out = e2opt("bench", "exact", SET1 / "set1_03x04.txt", "--methods", "dfs", "--orders", "row", "spiral")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "exact search (all solutions), 10 CPU s per search" and len(lines) == 3 + 2 * 3 + 1
    bad = e2opt("bench", "exact", SET1 / "set1_03x04.txt", "--orders", "diagonal")
    assert (
        bad.returncode == 2 and "--order diagonal" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    )
