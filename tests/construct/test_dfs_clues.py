"""Breaks where the clues are: the clue zones of a recipe (rules.clue_zones, Recipe.clue_zone) against a slow
reference written from the Recipe docstring (zones, clue_from), on random hint layouts (square and rectangular boards, hints on
frame and inner cells), and the kernel's placements keeping to them."""

from __future__ import annotations

import numpy as np
import pytest

from e2opt.construct.dfs.rules import Recipe, make_rules, sequence
from e2opt.construct.dfs.search import Dfs
from e2opt.core.generate import generate
from e2opt.fill.order import make_order

ORDERS = ("blackwood", "row_scan", "comb", "frame_comb", "spiral")


def _case(seed: int) -> tuple:
    """A small puzzle with 1-4 hints anywhere and a recipe with clue breaks, both drawn from the seed."""
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(4, 8)), int(rng.integers(4, 8))
    p = generate(rows, cols, 3, 4, seed, hints=int(rng.integers(1, 5)))[0]
    first = int(rng.integers(rows * cols // 2, rows * cols))
    recipe = Recipe(
        order=ORDERS[seed % len(ORDERS)], teeth=2, breaks=((first, 2),) if seed % 4 else (), quota=(),
        qval=(0,) * len(p.pieces), piece_breaks=int(rng.integers(1, 3)), frame_breaks=bool(seed % 3),
        clue_breaks=int(rng.integers(1, 3)), clue_zone=int(rng.integers(0, 3)),
        clue_from=int(rng.integers(0, rows * cols)) if seed % 3 == 0 else 0,
    )  # fmt: skip
    return p, recipe


def _reference(p, recipe: Recipe) -> tuple[list[int], list[int]]:
    """(allow, cap) per depth, from the Recipe docstring, position by position along the fill order."""
    seq = sequence(p, recipe.order, recipe.teeth)
    hinted = {(h.row, h.col) for h in p.hints}
    hints = [(h.row, h.col) for h in p.hints if seq.index((h.row, h.col)) >= recipe.clue_from]
    first = recipe.breaks[0][0] if recipe.breaks else len(seq)
    allow, cap, entered = [], [], set()
    for pos, (r, c) in enumerate(seq):
        if (r, c) in hinted:
            continue
        if recipe.clue_zone == 0:
            near = {i for i, (hr, hc) in enumerate(hints) if abs(hr - r) + abs(hc - c) == 1}
        else:
            near = {
                i for i, (hr, hc) in enumerate(hints) if max(abs(hr - r), abs(hc - c)) <= recipe.clue_zone
            }
        entered |= near
        scheduled = max([most for at, most in recipe.breaks if at <= pos], default=0)
        allow.append(scheduled + recipe.clue_breaks * len(entered))
        rim = r in (0, p.rows - 1) or c in (0, p.cols - 1)
        base = 0 if rim and not recipe.frame_breaks else recipe.piece_breaks
        if near:
            cap.append(max(base, 1))
        elif recipe.clue_zone and pos < first:
            cap.append(0)  # strict outside the zones until the schedule's first break
        else:
            cap.append(base)
    return allow, cap


@pytest.mark.parametrize("seed", range(40))
def test_clue_rules_match_the_slow_reference(seed):
    p, recipe = _case(seed)
    order = make_order(p, recipe.order, recipe.teeth)
    rules = make_rules(p, order, recipe)
    allow, cap = _reference(p, recipe)
    assert rules.allow[: order.depth].tolist() == allow
    assert rules.cap[: order.depth].tolist() == cap


def test_the_cases_cover_zones_hints_on_the_frame_and_rectangles():
    seen = {"zone": False, "frame hint": False, "rectangle": False, "strict cells": False, "late only": False}
    for seed in range(40):
        p, recipe = _case(seed)
        seen["zone"] |= recipe.clue_zone > 0
        seen["frame hint"] |= any(h.row in (0, p.rows - 1) or h.col in (0, p.cols - 1) for h in p.hints)
        seen["rectangle"] |= p.rows != p.cols
        seen["strict cells"] |= 0 in _reference(p, recipe)[1] and recipe.frame_breaks
        seq = sequence(p, recipe.order, recipe.teeth)
        seen["late only"] |= (
            0 < sum(seq.index((h.row, h.col)) < recipe.clue_from for h in p.hints) < len(p.hints)
        )
    assert all(seen.values()), seen


def _break_cells(seed: int) -> list[tuple[int, int, bool]]:
    """The DFS's first 3000 placements on case ``seed`` with a clue zone: (fill position of each placement
    that misses a placed neighbour, hints included; the schedule's first break; whether it is in a zone)."""
    p, recipe = _case(seed)
    recipe = recipe.with_(clue_zone=1 + seed % 2)
    order = make_order(p, recipe.order, recipe.teeth)
    rules = make_rules(p, order, recipe)
    seq = sequence(p, recipe.order, recipe.teeth)
    pos_of = {rc: i for i, rc in enumerate(seq)}
    first = recipe.breaks[0][0] if recipe.breaks else len(seq)
    hints = {(h.row, h.col): h.piece * 4 + h.rot for h in p.hints}
    late = [rc for rc in hints if pos_of[rc] >= recipe.clue_from]
    ocol = p.oriented.reshape(-1, 4)
    dfs = Dfs(p, order, rules, seed, hmin=p.n_cells)
    dfs.new_attempt()
    out = []
    for _ in range(3000):
        before = dfs.nodes
        dfs.step(1)
        if dfs.nodes == before:
            break
        d = int(dfs.st[8][0])  # the kernel's depth counter after placing depth d - 1
        board = dict(hints)
        for j in range(d):
            board[divmod(int(order.cells[j]), p.cols)] = int(dfs.st[6][j])
        r, c = divmod(int(order.cells[d - 1]), p.cols)
        code = board[(r, c)]
        miss = sum(
            1 for s, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1)))
            if (r + dr, c + dc) in board and ocol[code, s] != ocol[board[(r + dr, c + dc)], (s + 2) % 4]
        )  # fmt: skip
        if miss:
            in_zone = any(max(abs(hr - r), abs(hc - c)) <= recipe.clue_zone for hr, hc in late)
            out.append((pos_of[(r, c)], first, in_zone))
    return out


def test_the_kernel_breaks_only_in_a_zone_before_the_schedule_allows_any():
    """Every placement that misses a neighbour sits in a hint's zone or at or after the schedule's first
    break; the cases do break in zones before the schedule, and after it."""
    seen = [b for seed in range(16) for b in _break_cells(seed)]
    assert all(in_zone or pos >= first for pos, first, in_zone in seen)
    assert any(in_zone and pos < first for pos, first, in_zone in seen)
    assert any(pos >= first and not in_zone for pos, first, in_zone in seen)
