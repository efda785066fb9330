"""Lane shares by completed boards (shares.py): the shares against a slow sampled reference, their
properties, the quotas and completion order they give, and a call of build_dfs that follows them."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy.special import ndtr

from e2opt.construct.dfs.build import _chosen, build_dfs
from e2opt.construct.dfs.completed import COMPLETED, Completed, read_completed
from e2opt.construct.dfs.config import DfsConfig, HarvestConfig
from e2opt.construct.dfs.harvest import board_entry
from e2opt.construct.dfs.longrun import LongRun, recipe_key
from e2opt.construct.dfs.recipes import preset_recipe
from e2opt.construct.dfs.shares import (
    FLOOR,
    PRIOR_BOARDS,
    best_chances,
    charge,
    lane_shares,
    share_order,
    share_quotas,
)
from e2opt.core.generate import generate


def _reference(scores: list[list[int]], samples: int, rng: np.random.Generator) -> list[float]:
    """The shares the obvious way: each lane's posterior mean drawn ``samples`` times, the winner counted."""
    every = [x for s in scores for x in s]
    mean = sum(every) / len(every)
    resid = [x - np.mean(s) for s in scores if len(s) > 1 for x in s]
    dof = sum(len(s) - 1 for s in scores if len(s) > 1)
    spread = max(math.sqrt(sum(r * r for r in resid) / dof) if dof else float(np.std(every)), 0.5)
    draws = np.stack(
        [
            rng.normal((sum(s) + PRIOR_BOARDS * mean) / (len(s) + PRIOR_BOARDS),
                       spread / math.sqrt(len(s) + PRIOR_BOARDS), samples)
            for s in scores
        ]
    )  # fmt: skip
    wins = np.bincount(draws.argmax(axis=0), minlength=len(scores)) / samples
    return [FLOOR / len(scores) + (1 - FLOOR) * w for w in wins]


@pytest.mark.parametrize("seed", range(8))
def test_the_shares_match_a_sampled_reference(seed):
    rng = np.random.default_rng(seed)
    lanes = int(rng.integers(2, 6))
    scores = [list(rng.integers(440, 450, size=int(rng.integers(0, 7))) + i) for i in range(lanes)]
    if not any(scores):
        scores[0] = [447]
    got, want = lane_shares(scores), _reference(scores, 400_000, rng)
    assert np.allclose(got, want, atol=0.01), (scores, got, want)


def test_the_shares_are_even_without_scores_and_favour_the_better_lane():
    assert lane_shares([[], [], []]) == [1 / 3] * 3 and lane_shares([[455, 460]]) == [1.0]
    shares = lane_shares([[455, 456, 455], [459, 458], [], [457]])
    assert math.isclose(sum(shares), 1.0) and min(shares) >= FLOOR / 4
    assert shares[1] == max(shares) and shares[0] == min(shares)
    # the same scores in another lane order: the same shares in that order
    assert np.allclose(lane_shares([[457], [], [459, 458], [455, 456, 455]]), shares[::-1])
    # more boards saying the same: a surer answer
    assert lane_shares([[455] * 6, [459] * 6])[1] > lane_shares([[455], [459]])[1]


def test_the_quotas_add_up_and_follow_the_shares():
    rng = np.random.default_rng(3)
    for _ in range(200):
        shares = rng.dirichlet(np.ones(int(rng.integers(1, 6))))
        total = int(rng.integers(0, 10**7))
        q = share_quotas(total, shares)
        assert sum(q) == total and all(abs(x - total * s) < 1 for x, s in zip(q, shares, strict=True))


def test_two_lanes_chances_match_the_closed_form_even_for_a_narrow_lane():
    rng = np.random.default_rng(5)
    for _ in range(50):
        mu = rng.normal(450, 3, 2)
        sd = np.exp(rng.uniform(np.log(1e-3), np.log(3), 2))
        want = ndtr((mu[0] - mu[1]) / math.hypot(*sd))
        assert abs(best_chances(mu, sd)[0] - want) < 1e-3, (mu, sd)
    # a point at the others' common mean is highest when both fall below it: a quarter
    assert np.allclose(best_chances([450, 450, 450], [1e-4, 1, 1]), [0.25, 0.375, 0.375], atol=1e-3)


def test_completions_follow_the_shares_and_keep_each_lanes_order():
    lanes = [0, 1, 0, 2, 1, 1, 0, 2, 1, 0, 1, 1] * 5
    order = share_order(lanes, [0, 0, 0], [0.6, 0.3, 0.1])
    assert sorted(order) == list(range(len(lanes)))
    for lane in range(3):
        mine = [pos for pos in order if lanes[pos] == lane]
        assert mine == sorted(mine)
    firsts = [lanes[pos] for pos in order[:10]]
    assert firsts.count(0) == 6 and firsts.count(1) == 3 and firsts.count(2) == 1
    # the credit the folder's completions left: a lane owed completions comes first
    assert lanes[share_order(lanes, [-2.0, 1.5, 0.5], [0.6, 0.3, 0.1])[0]] == 1


def test_a_new_lane_gets_its_share_of_completions_not_all_of_them():
    """Credit, not counts: two lanes that shared 200 completions and a third added later with the largest
    share; the next 20 completions go by the shares (within one or two), not all to the new lane."""
    credit = [0.0, 0.0]
    for i in range(200):
        charge(credit, [0.5, 0.5], i % 2)
    shares = [0.35, 0.21, 0.44]
    lanes = [0, 1, 2] * 20
    got = [lanes[pos] for pos in share_order(lanes, [*credit, 0.0], shares)[:20]]
    assert all(abs(got.count(i) - 20 * s) <= 2 for i, s in enumerate(shares)), got


def test_a_lane_of_a_larger_share_runs_more_of_a_calls_placements():
    p = generate(6, 6, 3, 4, 11, hints=1, recolour=6)[0]
    cfg = DfsConfig(recipe="blackwood", scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3)),
                    node_budget=60_000, harvest=HarvestConfig(min_placed=30, pool_size=30))  # fmt: skip
    run = LongRun(p, preset_recipe(cfg, p, "blackwood"), cfg.harvest, 4, lanes=2, shares=[0.2, 0.8])
    calls = [0]

    def stop() -> bool:
        calls[0] += 1
        return calls[0] > 50

    run.run(stop=stop, chunk=2_000)
    low, high = (lane.nodes for lane in run.lanes)
    # the next lane is the one least ahead for its share, so they stay within a chunk of it
    assert high > 3 * low > 0 and abs(low / 0.2 - high / 0.8) <= 2_000 / 0.2


def test_a_call_shares_by_the_scores_completed_before_and_records_its_own(tmp_path):
    p = generate(6, 6, 3, 4, 11, hints=1, recolour=6)[0]
    harvest = HarvestConfig(min_placed=30, pool_size=30, cpsat_wall_s=0.5, repair_cpu_s=0.05)
    cfg = DfsConfig(recipe="blackwood", scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3)),
                    node_budget=60_000, lanes=2, lane_shares="scored", harvest=harvest)  # fmt: skip
    folder = tmp_path / "harvest"
    folder.mkdir()
    key = recipe_key(preset_recipe(cfg, p, "blackwood"))
    before = [[0, 40, key], [0, 41, key], [0, 60, "another recipe"], [0, 40, key], [1, 50, key], [1, 51, key],
              [1, 50, key], [1, 50, key], [1, 30]]  # fmt: skip
    (folder / COMPLETED).write_text(json.dumps({"partials": [], "boards": [], "scores": before}))
    shares = lane_shares([[40, 41, 40], [50, 51, 50, 50]])  # scores of another recipe, or of none, left out
    calls = [0]

    def stop() -> bool:
        calls[0] += 1
        return calls[0] > 40

    _, info = build_dfs(p, cfg, np.random.default_rng(1), None, tmp_path, stop)
    assert info["lane_shares"] == [round(x, 4) for x in shares] and shares[1] > 0.8
    after = read_completed(folder)
    assert after.scores[: len(before)] == before and len(after.scores) == len(before) + 1
    assert after.scores[-1][::2] == [1, key]  # lane 1 earned the most credit: the larger share
    assert info["completion"]["lane"] == 1 and np.allclose(after.credit, [shares[0], shares[1] - 1])
    probe = LongRun(p, preset_recipe(cfg, p, "blackwood"), harvest, 0, folder, lanes=2)
    nodes = [lane.nodes for lane in probe.lanes]
    probe.pool.close()
    assert nodes[1] > 3 * nodes[0] > 0


def test_a_lane_with_nothing_in_the_pool_offers_its_deepest_partial():
    p = generate(6, 6, 3, 4, 11, hints=1, recolour=6)[0]
    cfg = DfsConfig(recipe="blackwood", scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3)),
                    node_budget=60_000, harvest=HarvestConfig(min_placed=30, pool_size=30))  # fmt: skip
    run = LongRun(p, preset_recipe(cfg, p, "blackwood"), cfg.harvest, 4, lanes=3, shares=[0.2, 0.5, 0.3])
    run.run(max_nodes=60_000, chunk=2_000)
    run.pool.retire([e.key for e in run.pool.ranked() if e.lane != 0])  # lanes 1 and 2 below the floor
    chosen = _chosen(p, run, 3, Completed())
    assert [e.lane for e, _ in chosen] == [1, 2, 0]  # no credit yet: by share, lane 1 offering one partial
    for lane in (1, 2):
        entry, board = next((e, b) for e, b in chosen if e.lane == lane)
        assert entry.placed == len(run.since[lane]) + len(p.hints) == int((board.piece >= 0).sum())


def _lanes_run(lanes: int, folder=None, shares=None, seed: int = 4) -> tuple:
    p = generate(6, 6, 3, 4, 11, hints=1, recolour=6)[0]
    cfg = DfsConfig(recipe="blackwood", scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3)),
                    node_budget=60_000, harvest=HarvestConfig(min_placed=30, pool_size=30))  # fmt: skip
    recipe = preset_recipe(cfg, p, "blackwood")
    return p, LongRun(p, recipe, cfg.harvest, seed, folder, lanes=lanes, shares=shares)


@pytest.mark.parametrize("seed", range(6))
def test_even_lanes_keep_the_deepest_partial_first_reached(seed):
    """The call's deepest partial under even shares, against the rule before lanes kept their own: after each
    chunk, a lane whose attempt got deeper than the deepest so far replaces it (lanes in turn)."""
    _, run = _lanes_run(3, seed=seed)
    ref = [np.zeros(0, dtype=np.int32)]

    def tick(r: LongRun) -> None:
        for lane in r.lanes:
            if lane.deepest > len(ref[0]):
                ref[0] = lane.deepest_codes()

    run.run(max_nodes=30_000, chunk=1_000, tick=tick)
    assert np.array_equal(run.call_codes, ref[0]) and len(ref[0]) > 0


def test_a_folder_of_more_lanes_read_by_fewer_scored_ones(tmp_path):
    """Pool boards of a lane the call does not have are not chosen; each lane's partial since its last
    completion is checkpointed, read back, and dropped once completed."""
    p, three = _lanes_run(3, tmp_path)
    three.run(max_nodes=60_000, chunk=2_000)
    since = [codes.copy() for codes in three.since]
    three.pool.close()
    assert {e.lane for e in three.pool.ranked()} == {0, 1, 2}
    _, two = _lanes_run(2, tmp_path, shares=[0.5, 0.5])
    assert all(np.array_equal(a, b) for a, b in zip(two.since, since[:2], strict=True))
    chosen = _chosen(p, two, 5, Completed())
    assert chosen and {e.lane for e, _ in chosen} <= {0, 1}
    first = board_entry(two.board(two.since[0])).key
    two.forget(lambda codes: board_entry(two.board(codes)).key == first)
    assert len(two.since[0]) == 0 and np.array_equal(two.since[1], since[1])


def test_with_everything_completed_before_the_calls_deepest_partial_is_completed_again():
    p, run = _lanes_run(2, shares=[0.5, 0.5])
    run.run(max_nodes=20_000, chunk=2_000)
    every = {e.key for e in run.pool.ranked()} | {board_entry(run.board(c)).key for c in run.since}
    (entry, board), *rest = _chosen(p, run, 3, Completed(every))
    assert not rest and entry.key == board_entry(run.board(run.call_codes)).key == board_entry(board).key
    assert entry.lane == run.call_lane
