"""``e2opt bench exact``: paper 004's comparison of variable and value orders on a set of puzzles.

Every method x variable order x value order runs the same search (all solutions, or the first) with
the same CPU limit, one after the other in this process; the table gives solutions, whether the
search finished, nodes, backtracks and CPU seconds per combination, as paper 004 reports them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import E2optError
from ..core.puzzle import Puzzle
from .solve import SolveOptions, checked, options, solve


@dataclass
class CompareRow:
    """One search of the comparison."""

    puzzle: str
    method: str
    order: str
    value: str
    solutions: int
    complete: bool
    nodes: int
    backtracks: int
    cpu_s: float


def _options(method: str, order: str, value: str, find_all: bool, cpu_s: float) -> SolveOptions:
    try:
        given = options(
            method,
            find_all=find_all,
            time_limit_s=cpu_s,
            keep_boards=not find_all,
            order=order,
            value_order=value,
        )
        opts = checked(given)
    except E2optError as exc:
        raise E2optError(f"bench exact: {method} / {order} / {value}: {exc}") from None
    return opts


def compare(
    puzzles: list[Puzzle],
    methods: list[str],
    orders: list[str],
    values: list[str],
    find_all: bool,
    cpu_s: float,
) -> list[CompareRow]:
    """Run every combination on every puzzle (all combinations are checked before the first runs)."""
    if not cpu_s > 0:
        raise E2optError(f"bench exact: --max-cpu-s {cpu_s}: must be a positive number of seconds")
    combos = [(m, o, v) for m in methods for o in orders for v in values]
    runs = [_options(m, o, v, find_all, cpu_s) for m, o, v in combos]
    rows = []
    for puzzle in puzzles:
        for (method, order, value), opts in zip(combos, runs, strict=True):
            r = solve(puzzle, opts, progress=None)
            if r.stopped == "interrupted":  # Ctrl-C stops the whole comparison, not one search
                raise KeyboardInterrupt
            done = r.complete or r.stopped == "first solution"
            rows.append(
                CompareRow(
                    puzzle.name, method, order, value, r.solutions, done, r.nodes, r.backtracks, r.cpu_s
                )
            )
    return rows


def format_compare(rows: list[CompareRow], find_all: bool, cpu_s: float) -> str:
    """The rows as a markdown table, then the fewest nodes per puzzle among the searches that finished."""
    what = "all solutions" if find_all else "first solution"
    lines = [
        f"exact search ({what}), {cpu_s:g} CPU s per search",
        "| puzzle | method | order | value | solutions | finished | nodes | backtracks | CPU s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        finished = "yes" if r.complete else "no (limit)"
        lines.append(
            f"| {r.puzzle} | {r.method} | {r.order} | {r.value} | {r.solutions} | {finished} | {r.nodes:,} "
            f"| {r.backtracks:,} | {r.cpu_s:.2f} |"
        )
    for name in dict.fromkeys(r.puzzle for r in rows):
        done = [r for r in rows if r.puzzle == name and r.complete]
        if done:
            best = min(done, key=lambda r: (r.nodes, r.cpu_s))
            lines.append(f"{name}: fewest nodes {best.nodes:,} ({best.method} / {best.order} / {best.value})")
        else:
            lines.append(f"{name}: no search finished within {cpu_s:g} CPU s")
    return "\n".join(lines)
