"""The pilot's successive halving, its quota stage and its draws, on stand-in attempts whose joins grow
with the placements given to them (one real pilot with draws at the end)."""

from __future__ import annotations

from types import SimpleNamespace

from e2opt.construct.dfs import pilot
from e2opt.construct.dfs.config import DfsConfig, PilotConfig
from e2opt.core.generate import generate


class _Curve:
    """A stand-in attempt whose matched joins grow with the placements given to it: joins = a + b * n."""

    def __init__(self, a: float, b: float):
        self.a, self.b, self.trial = a, b, pilot.Trial(pilot.Knobs(None, 0.4, 0))

    def advance(self, nodes, stop=None):
        self.trial.nodes += nodes
        self.trial.joins = self.a + self.b * self.trial.nodes
        return self.trial


def test_halving_gives_the_survivors_the_longer_horizon_and_equal_rounds():
    """A quota-like candidate (slow start, steady gain) loses a one-shot trial of 2 s but wins the halving."""
    curves = [_Curve(100, 0), _Curve(60, 15), _Curve(10, 0), _Curve(0, 0)]
    assert (
        max(range(4), key=lambda i: (curves[i].a + curves[i].b * 2, -i)) == 0
    )  # one trial each: the fast one
    assert pilot.halving(curves, 8) == [1, 0, 2, 3]
    assert [c.trial.dropped for c in curves] == [2, None, 1, 1]
    assert [c.trial.nodes for c in curves] == [3.0, 3.0, 1.0, 1.0]  # two rounds of 4 s: 4 x 1 s, then 2 x 2 s
    assert pilot.halving([_Curve(5, 0)], 3) == [0]


def test_halving_ranks_by_the_round_a_candidate_was_dropped_in_then_by_its_joins():
    """Round 1 (1 s each): 30, 50, 40, 42 joins, 0 and 2 dropped; round 2 (2 s each): 50 and 32, 3 dropped.
    By final joins alone 2 (40) would come before 3 (32)."""
    curves = [_Curve(10, 20), _Curve(50, 0), _Curve(40, 0), _Curve(47, -5)]
    assert pilot.halving(curves, 8) == [1, 3, 2, 0]
    assert [c.trial.dropped for c in curves] == [1, None, 1, 2]


def test_halving_asked_to_stop_ends_with_the_best_so_far():
    """Stopped in the first round (these stand-ins end their advance anyway): no second round, the best of
    the first wins, every other candidate dropped in that round."""
    curves = [_Curve(10, 20), _Curve(50, 0), _Curve(40, 0), _Curve(47, -5)]
    assert pilot.halving(curves, 8, lambda: True) == [1, 3, 2, 0]
    assert [c.trial.dropped for c in curves] == [1, None, 1, 1]
    assert [c.trial.nodes for c in curves] == [1.0, 1.0, 1.0, 1.0]


def test_halving_breaks_ties_toward_the_earlier_candidate():
    curves = [_Curve(7, 0) for _ in range(5)]
    assert pilot.halving(curves, 6) == [0, 1, 2, 3, 4]
    assert [c.trial.dropped for c in curves] == [None, 3, 2, 1, 1]  # 5 -> 3 -> 2 -> 1


class _Placing(_Curve):
    """A stand-in whose deepest partial's pieces are its joins."""

    def advance(self, nodes, stop=None):
        super().advance(nodes)
        self.trial.placed = int(self.trial.joins)
        return self.trial


def _recipe(quota: bool, first_break: int = 20) -> SimpleNamespace:
    """A stand-in recipe: with or without a quota, breaks from ``first_break``."""
    return SimpleNamespace(quota=((5, 1),) if quota else (), breaks=((first_break, 1),))


def test_a_quota_winner_takes_no_quota_stage():
    """The halving's winner has a quota: the order stands and nothing more is placed."""
    curves = [_Placing(30, 0), _Placing(10, 0)]
    recipes = [_recipe(True), _recipe(False)]
    order = pilot.halving(curves, 4)
    assert pilot.quota_stage(curves, recipes, order, 4, 36) == ([0, 1], None)
    assert [c.trial.nodes for c in curves] == [2, 2]


def test_the_quota_stage_puts_a_quota_candidate_past_its_first_break_first():
    """Round 1 (1 placement each): the quota-free 18 and 16 go on, the quota ones (9 + 2n: 11, 4 + 6n: 10)
    drop; round 2 (2 each): 18 wins. The stage (half of the 8 placements: one round of 2 each between the two
    quota candidates, numbered 4 after the halving's two rounds and its winner's 3, their attempts
    continued): 15 and 22, past the first break at 20: it comes first, the quota-free winner is dropped in
    the stage's round."""
    curves = [_Placing(18, 0), _Placing(9, 2), _Placing(4, 6), _Placing(16, 0)]
    recipes = [_recipe(False), _recipe(True), _recipe(True), _recipe(False)]
    order = pilot.halving(curves, 8)
    assert order == [0, 3, 1, 2]
    assert [c.trial.dropped for c in curves] == [None, 1, 1, 2]
    order, said = pilot.quota_stage(curves, recipes, order, 8, 36)
    assert order == [2, 0, 3, 1] and said.startswith("a quota candidate")
    assert [c.trial.dropped for c in curves] == [4, 4, None, 2]
    assert [c.trial.nodes for c in curves] == [3, 3, 3, 3]
    assert curves[2].trial.placed == 22


def test_the_quota_stage_keeps_the_quota_free_winner_when_no_quota_gets_past_its_first_break():
    """The same trials with the quota winner's first break at 30: 22 is short of it, the order stands;
    asked to stop, no stage at all."""
    curves = [_Placing(18, 0), _Placing(9, 2), _Placing(4, 6), _Placing(16, 0)]
    recipes = [_recipe(False), _recipe(True), _recipe(True, first_break=30), _recipe(False)]
    order, said = pilot.quota_stage(curves, recipes, pilot.halving(curves, 8), 8, 36)
    assert order == [0, 3, 1, 2] and said.startswith("kept the quota-free winner")
    assert [c.trial.dropped for c in curves] == [None, 4, 4, 2]
    assert pilot.quota_stage(curves, recipes, order, 8, 36, lambda: True) == (order, None)


def test_draws_share_the_first_round_and_the_best_goes_on():
    """Two draws of one candidate: round 1's share split between them, the one with more joins kept and
    continued alone; of two level draws, the first."""
    low, high = _Curve(10, 0), _Curve(30, 0)
    draws = pilot.Draws([low, high])
    assert draws.advance(2).joins == 30 and draws.trial is high.trial
    assert (low.trial.nodes, high.trial.nodes) == (1, 1)
    draws.advance(2)
    assert (low.trial.nodes, high.trial.nodes) == (1, 3)
    first, second = _Curve(5, 0), _Curve(5, 0)
    level = pilot.Draws([first, second])
    level.advance(1)
    assert level.trial is first.trial


def test_the_halving_over_draws_ranks_each_candidate_by_its_best_draw():
    """A candidate whose first draw is stuck but whose second goes deep beats one with two middling draws;
    with one draw each (today's pilot) the stuck draw would have dropped it."""
    stuck_then_deep = pilot.Draws([_Curve(5, 0), _Curve(50, 10)])
    middling = pilot.Draws([_Curve(30, 1), _Curve(31, 1)])
    assert pilot.halving([middling, stuck_then_deep], 4) == [1, 0]
    assert pilot.halving([_Curve(30, 1), _Curve(5, 0)], 4) == [0, 1]


def test_a_pilot_with_draws_continues_the_kept_attempt():
    """On a hinted puzzle, two draws per candidate: every candidate reports one trial, and the chosen
    recipe's attempt to continue is the kept draw's (its deepest partial is the trial's)."""
    p = generate(6, 6, 3, 4, 5, hints=2)[0]
    cfg = DfsConfig(recipe="derived", pilot=PilotConfig(nodes=500_000, draws=2))
    ranked, report = pilot.calibrate(p, cfg, 7)
    assert len(report["trials"]) == len(
        {r for r in (pilot.derived_recipe(p, cfg, k) for k in pilot.candidates(p, 16))}
    )
    chosen = next(t for t in report["trials"] if t["dropped"] is None)
    state = ranked[0][1]
    assert state is not None and int(state["ctr"][2]) + len(p.hints) == chosen["placed"]  # ctr[DEEPEST]
    assert int(state["ctr"][1]) == chosen["nodes"]  # the kept draw's placements, not the other's
