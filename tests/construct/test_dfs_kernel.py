"""The DFS kernel (e2opt/construct/dfs/kernel.py) against the slow reference of tests/dfs_reference.py,
node for node, on tiny puzzles with breaks, quotas, hints anywhere, two breaks per piece, the touching rule
and clue breaks; its lists against a brute-force enumeration; exact resume."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from dfs_reference import reference_trace

from e2opt.construct.dfs import kernel as k
from e2opt.construct.dfs.rules import Recipe, frame_colours, make_rules
from e2opt.construct.dfs.search import Dfs
from e2opt.core.board import score
from e2opt.core.generate import generate
from e2opt.fill.order import make_order

ORDERS = ("blackwood", "row_scan", "comb", "frame_comb")
DATA = Path(__file__).resolve().parents[1] / "data" / "dfs_kernel_before"


def _case(seed: int, backjump: bool = False):
    """A tiny puzzle and a recipe drawn from the seed: every rule of the kernel gets exercised somewhere."""
    rng = np.random.default_rng(seed)
    rows, cols = ((4, 4), (5, 4), (5, 5))[seed % 3]
    p = generate(rows, cols, 3, 3, seed, hints=int(rng.integers(0, 3)), recolour=int(rng.integers(1, 5)))[0]
    cells = rows * cols
    first = int(rng.integers(2, cells - 4))
    breaks = tuple((first + 2 * i, 2 * i + 1) for i in range(3) if first + 2 * i < cells)
    qval = (
        tuple(int(x) for x in np.isin(p.pieces, [1, 4]).sum(axis=1))
        if seed % 4 == 0
        else (0,) * len(p.pieces)
    )
    quota = ((2, 0), (cells // 2, int(rng.integers(1, cells // 2)))) if seed % 4 == 0 else ()
    recipe = Recipe(
        order=ORDERS[seed % 4], teeth=2, breaks=breaks, quota=quota, qval=qval,
        piece_breaks=int(rng.integers(1, 3)), frame_breaks=bool(rng.integers(0, 3)),
        frame_colour_breaks=bool(rng.integers(2)), touching_breaks=bool(seed % 5),
        clue_breaks=int(seed % 3 == 1), clue_zone=seed % 7 % 3, node_budget=10**9, backjump=backjump,
    )  # fmt: skip
    order = make_order(p, recipe.order, recipe.teeth)
    return p, order, make_rules(p, order, recipe)


def _kernel_trace(dfs: Dfs, max_nodes: int):
    placements, harvested = [], []
    while dfs.nodes < max_nodes:
        before = dfs.nodes
        found = dfs.step(1)
        harvested += [(len(f.codes), tuple(int(x) for x in f.codes)) for f in found]
        if dfs.nodes > before:
            d = int(dfs.st[8][k.DEPTH])
            placements.append((d - 1, int(dfs.st[6][d - 1])))
        if dfs.status == k.EXHAUSTED:
            break
    return placements, harvested


@pytest.mark.parametrize(
    ("seed", "backjump"), [(s, False) for s in range(30)] + [(s, True) for s in range(30) if s % 5 in (0, 2)]
)
def test_kernel_visits_the_same_nodes_in_the_same_order_as_the_reference(seed, backjump):
    p, order, rules = _case(seed, backjump)
    dfs = Dfs(p, order, rules, seed, hmin=p.n_cells - 3)
    dfs.new_attempt()
    got = _kernel_trace(dfs, 2500)
    want = reference_trace(p, order, rules, dfs.rank_of, dfs.hmin, 2500)
    assert len(want[0]) >= 5  # a tree of its own (some quotas cut it short: then it is exhausted in both)
    assert got[0] == want[0]
    assert got[1] == want[1][: len(got[1])] and len(want[1]) - len(got[1]) <= 1


@pytest.mark.slow
def test_the_cases_reach_what_they_are_meant_to_test():
    """Two breaks on one placement, a break next to a hint and the touching rule all occur in the traces."""
    seen = {"two": False, "clue": False, "quota": False}
    for seed in range(30):
        p, order, rules = _case(seed)
        dfs = Dfs(p, order, rules, seed, hmin=p.n_cells)
        dfs.new_attempt()
        placements, _ = _kernel_trace(dfs, 2500)
        seen["quota"] |= bool(rules.qmin.max() > 0)
        ocol = p.oriented.reshape(-1, 4)
        board = {(h.row, h.col): h.piece * 4 + h.rot for h in p.hints}
        hinted = set(board)
        for d, code in placements:
            r, c = divmod(int(order.cells[d]), p.cols)
            board = {cell: x for cell, x in board.items() if cell in hinted or _depth(order, p, cell) < d}
            miss = [(r + dr, c + dc) for s, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1)))
                    if (r + dr, c + dc) in board and ocol[code, s] != ocol[board[(r + dr, c + dc)], (s + 2) % 4]]  # fmt: skip
            seen["two"] |= len(miss) >= 2
            seen["clue"] |= any(cell in hinted for cell in miss)
            board[(r, c)] = code
    assert all(seen.values()), seen


def _depth(order, p, cell) -> int:
    return int(np.nonzero(order.cells == cell[0] * p.cols + cell[1])[0][0])


@pytest.mark.parametrize("seed", range(6))
def test_lists_hold_exactly_the_placements_of_each_level(seed):
    p, order, rules = _case(seed)
    dfs = Dfs(p, order, rules, seed, hmin=p.n_cells)
    li = dfs.lists
    ocol = p.oriented.reshape(-1, 4)
    frame = set(frame_colours(p))
    hinted = {h.piece for h in p.hints}
    colours = p.n_colours
    for slot, (rim, k0, k1) in enumerate(order.slots):
        fits = [x for x in range(len(ocol)) if x >> 2 not in hinted
                and all((ocol[x, s] == 0) == bool(rim >> s & 1) for s in range(4))]  # fmt: skip
        for c0 in range(colours):
            for c1 in range(colours):
                if any((ks >= 0) == (c == 0) for ks, c in ((k0, c0), (k1, c1))):
                    continue  # never looked up: a neighbour never shows grey inward; no key side reads 0
                b = (slot * colours + c0) * colours + c1
                exact = sorted(int(x) for x in li.ent[li.estart[b] : li.estart[b + 1]])
                off = sorted(int(x) for x in li.lcode[li.lstart[b] : li.lstart[b + 1]])
                want_exact, want_off = [], []
                for x in fits:
                    bad = [(s, w) for s, w in ((k0, c0), (k1, c1)) if s >= 0 and ocol[x, s] != w]
                    if not bad:
                        want_exact.append(x)
                    elif len(bad) == 1:
                        s, w = bad[0]
                        if rules.frame_colour_breaks or (int(ocol[x, s]) not in frame and w not in frame):
                            want_off.append(x)
                assert exact == want_exact and off == sorted(want_off)


@pytest.mark.parametrize("backjump", [False, True])
def test_a_state_saved_and_loaded_continues_exactly(backjump):
    p, order, rules = _case(3, backjump)
    whole = Dfs(p, order, rules, 3, hmin=p.n_cells - 3)
    whole.new_attempt()
    trace = _kernel_trace(whole, 1500)
    first = Dfs(p, order, rules, 3, hmin=p.n_cells - 3)
    first.new_attempt()
    head = _kernel_trace(first, 700)
    assert bool(first.st[15].any()) == backjump  # with backjumping: conflict sets in use at the cut
    second = Dfs(p, order, rules, 99, hmin=p.n_cells - 3)  # another seed: everything must come from the state
    second.load(first.arrays())
    tail = _kernel_trace(second, 1500)
    assert head[0] + tail[0] == trace[0] and head[1] + tail[1] == trace[1]


@pytest.mark.parametrize("seed", range(8))
def test_the_joins_of_a_complete_board_are_its_score(seed):
    p, order, rules = _case(seed)
    dfs = Dfs(p, order, rules, seed, hmin=p.n_cells)
    for _ in range(200):
        for found in dfs.step(20_000):
            if found.complete:
                assert found.joins == score(p, dfs.board(found.codes))
                return
    pytest.skip("no complete board in this tree")


@pytest.mark.parametrize("name", ["case3_700", "case7_900"])
def test_a_state_saved_by_the_kernel_before_continues_exactly(name):
    """tests/data/dfs_kernel_before: states saved by the kernel of 54c7217 (``used`` kept beside ``avail``,
    no derived arrays) continue with the placements and boards of a run in one piece."""
    seed, n = (int(x) for x in name[4:].split("_"))
    p, order, rules = _case(seed)
    whole = Dfs(p, order, rules, seed, hmin=p.n_cells - 3)
    whole.new_attempt()
    trace = _kernel_trace(whole, n + 800)
    with np.load(DATA / f"{name}.npz") as f:
        saved = {key: f[key] for key in f.files}
    second = Dfs(p, order, rules, 99, hmin=p.n_cells - 3)
    second.load(saved)
    tail = _kernel_trace(second, n + 800)
    assert len(tail[0]) > 300 and tail[0] == trace[0][n:]  # 800, or to the end of the tree
    assert tail[1] == trace[1][len(trace[1]) - len(tail[1]) :]
