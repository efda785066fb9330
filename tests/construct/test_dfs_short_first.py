"""Short attempts first: attempt i gets SHORT_FIRST x the last abort mark's placements x 2^(i-1), up to the
node budget; off unless asked; a run cut and resumed makes the same attempts."""

from __future__ import annotations

import numpy as np

from e2opt.construct.dfs import kernel as k
from e2opt.construct.dfs.config import DfsConfig, HarvestConfig
from e2opt.construct.dfs.longrun import LongRun
from e2opt.construct.dfs.recipes import preset_recipe
from e2opt.construct.dfs.rules import SHORT_FIRST, make_rules
from e2opt.construct.dfs.search import Dfs
from e2opt.core.generate import generate
from e2opt.fill.order import make_order

PUZZLE = generate(6, 6, 3, 4, 11, hints=1, recolour=6)[0]
BASE = dict(
    recipe="blackwood",
    scale_from=None,
    teeth=3,
    breaks=((22, 1), (26, 2), (30, 3)),
    quota=((10, 0), (20, 8)),
    node_budget=60_000,
    abort=((300, 0), (1_500, 1)),
    harvest=HarvestConfig(min_placed=34, pool_size=30),
)  # fmt: skip  (marks at positions 0 and 1: no attempt is aborted)


def _rules(**changes):
    cfg = DfsConfig(**{**BASE, **changes})
    recipe = preset_recipe(cfg, PUZZLE, "blackwood")
    order = make_order(PUZZLE, recipe.order, recipe.teeth)
    return recipe, order, make_rules(PUZZLE, order, recipe)


def test_off_unless_asked_and_then_doubling_from_the_last_abort_mark_up_to_the_node_budget():
    recipe, _, rules = _rules()
    assert not recipe.short_first and rules.first_budget == 0
    assert [rules.attempt_budget(i) for i in (1, 2, 9)] == [60_000] * 3
    recipe, _, rules = _rules(short_first=True)
    first = SHORT_FIRST * 1_500
    assert recipe.short_first and rules.first_budget == first
    assert [rules.attempt_budget(i) for i in range(1, 7)] == [
        first,
        2 * first,
        4 * first,
        8 * first,
        60_000,
        60_000,
    ]
    assert rules.attempt_budget(10**6) == 60_000  # no overflow however many attempts
    _, _, rules = _rules(short_first=True, abort=())
    assert rules.first_budget == 0  # no abort mark to measure from: every attempt gets the node budget


def test_each_attempt_ends_on_its_own_budget():
    _, order, rules = _rules(short_first=True)
    dfs = Dfs(PUZZLE, order, rules, 3, 34)
    lengths, statuses = [], []
    while len(lengths) < 6:
        attempts, done = dfs.attempts, dfs.nodes_done
        dfs.step(997)
        if dfs.attempts > attempts and attempts > 0:
            lengths.append(dfs.nodes_done - done)
        if dfs.status in (k.BUDGET, k.EXHAUSTED):
            statuses.append((dfs.attempts, dfs.status, int(dfs.st[8][k.NODES])))
    for attempt, status, nodes in statuses[:6]:
        budget = rules.attempt_budget(attempt)
        assert nodes == budget if status == k.BUDGET else nodes <= budget, (attempt, status, nodes)
    assert any(s == k.BUDGET for _, s, _ in statuses[:6])


def test_a_run_cut_and_resumed_makes_the_same_attempts(tmp_path):
    cfg = DfsConfig(**{**BASE, "short_first": True})
    recipe = preset_recipe(cfg, PUZZLE, "blackwood")

    def run(folder):
        return LongRun(PUZZLE, recipe, cfg.harvest, 5, folder)

    whole = run(tmp_path / "whole")
    whole.run(max_nodes=120_001, chunk=7_001)
    for cut, chunk in ((20_003, 3_000), (70_017, 11_111), (120_001, 2_500)):
        part = run(tmp_path / "cut")
        part.run(max_nodes=cut, chunk=chunk)
    a, b = whole.lanes[0].arrays(), part.lanes[0].arrays()
    assert all(np.array_equal(a[n], b[n]) for n in ("rank_of", "rng", "used", "dead"))
    assert np.array_equal(a["meta"][:4], b["meta"][:4]) and whole.attempts == part.attempts >= 4
    assert sorted(part.pool.entries) == sorted(whole.pool.entries)
