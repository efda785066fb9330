"""Search lanes: several independent DFS's interleaved in one LongRun (one process), sharing the pool.

Each lane's path depends on its own placements alone, so a seed gives the same boards whatever the lanes'
interleaving: other chunk sizes, a resume from the folder at any point, one lane or several."""

from __future__ import annotations

import json

import numpy as np
import pytest

from e2opt.construct.dfs import kernel as k
from e2opt.construct.dfs.config import DfsConfig, HarvestConfig
from e2opt.construct.dfs.longrun import LongRun, lane_quotas
from e2opt.construct.dfs.recipes import preset_recipe
from e2opt.core.generate import generate

CFG = DfsConfig(
    recipe="blackwood", scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3)), quota=((10, 0), (20, 8)),
    node_budget=60_000, abort=((300, 30), (1_500, 36)), harvest=HarvestConfig(min_placed=34, pool_size=30),
)  # fmt: skip
PUZZLE = generate(6, 6, 3, 4, 11, hints=1, recolour=6)[0]


RECIPE = preset_recipe(CFG, PUZZLE, "blackwood")
OTHER = RECIPE.with_(quota=(), breaks=((18, 1), (24, 2), (30, 4)))  # a runner-up: other rules, same order


def _run(lanes: int, folder=None, seed: int = 5, others=(), shares=None) -> LongRun:
    return LongRun(PUZZLE, RECIPE, CFG.harvest, seed, folder, lanes=lanes, others=others, shares=shares)


def _same_search(a, b) -> bool:
    """The same attempts at the same placement: draws, rng, attempts, aborts, nodes and the pieces on the
    board. (The scan pointers may stand at another entry between two placements: a chunk that ends on a
    full harvest buffer stops before the scan moves on, one that ends on its placements after.)"""
    x, y = a.arrays(), b.arrays()
    same = ("rank_of", "rng", "used", "avail", "dead")
    return (
        all(np.array_equal(x[n], y[n]) for n in same)
        and np.array_equal(x["meta"][:4], y["meta"][:4])
        and (x["ctr"][k.NODES] == y["ctr"][k.NODES])
    )


def test_quotas_share_the_placements_and_add_up():
    for total in (0, 1, 7, 10, 1_000_003):
        for lanes in (1, 2, 3, 8):
            q = lane_quotas(total, lanes)
            assert sum(q) == total and max(q) - min(q) <= 1 and q == sorted(q, reverse=True)
    assert lane_quotas(None, 3) is None


@pytest.mark.parametrize(
    "lanes, others, shares",
    [(2, (), None), (3, (), None), (3, ((OTHER, None),), None), (3, ((OTHER, None),), (0.6, 0.3, 0.1))],
)
def test_the_lanes_interleaving_never_changes_what_they_find(tmp_path, lanes, others, shares):
    """In one piece with one chunk size, or cut twice at checkpoints and resumed with other chunks; with
    every lane on one recipe or the lanes on recipes of their own; with even shares or given ones."""
    total = 80_001
    whole = _run(lanes, tmp_path / "whole", others=others, shares=shares)
    whole.run(max_nodes=total, chunk=7_001)
    for i, (cut, chunk) in enumerate(((21_003, 3_000), (50_017, 11_111), (total, 2_500))):
        # a new process would do the same: all from the folder
        part = _run(lanes, tmp_path / "cut", others=others, shares=shares)
        part.run(max_nodes=cut, chunk=chunk)
        assert part.nodes == cut, i
    assert [lane.nodes for lane in part.lanes] == lane_quotas(total, lanes, shares)
    assert all(_same_search(a, b) for a, b in zip(whole.lanes, part.lanes, strict=True))
    assert sorted(part.pool.entries) == sorted(whole.pool.entries) and len(whole.pool.entries) > 0
    assert part.pool.counts == whole.pool.counts and part.attempts == whole.attempts > lanes


def test_lane_zero_is_the_single_dfs_and_the_other_lanes_search_elsewhere():
    one, two = _run(1), _run(2)
    one.run(max_nodes=20_000, chunk=4_000)
    two.run(max_nodes=40_000, chunk=9_000)
    assert _same_search(one.lanes[0], two.lanes[0])
    assert not np.array_equal(two.lanes[0].arrays()["rank_of"], two.lanes[1].arrays()["rank_of"])


def test_a_folder_of_one_lane_resumes_with_more_lanes_lane_zero_continuing(tmp_path):
    one = _run(1, tmp_path / "f")
    one.run(max_nodes=10_000, chunk=4_000)
    more = _run(3, tmp_path / "f")
    assert _same_search(more.lanes[0], one.lanes[0]) and more.lanes[1].nodes == more.lanes[2].nodes == 0
    more.run(max_nodes=30_000, chunk=4_000)
    assert [lane.nodes for lane in more.lanes] == [10_000, 10_000, 10_000]


def test_lanes_of_their_own_recipe_take_it_in_turn_and_continue_its_attempt():
    """Lane i runs entry i of [recipe, *others] (the plan repeated past its end, a repeat from the root),
    each with the rules of its recipe, and a lane given an attempt continues it placement for placement."""
    attempt = LongRun(PUZZLE, OTHER, CFG.harvest, 9, None)
    attempt.run(max_nodes=5_000, chunk=5_000)
    state = attempt.lanes[0].arrays()
    run = _run(3, others=((OTHER, state),))
    assert run.lane_recipes == [RECIPE, OTHER, RECIPE]
    assert [lane.nodes for lane in run.lanes] == [0, 5_000, 0]
    assert run.lanes[1].rules is not run.lanes[0].rules and run.lanes[2].rules is run.lanes[0].rules
    went_on = LongRun(PUZZLE, OTHER, CFG.harvest, 9, None)
    went_on.run(max_nodes=15_000, chunk=5_000)
    run.run(max_nodes=45_000, chunk=5_000)
    assert _same_search(run.lanes[1], went_on.lanes[0])  # the given attempt, not a fresh one of lane 1's seed
    assert not _same_search(run.lanes[0], run.lanes[2])
    with pytest.raises(ValueError, match="fill order"):
        _run(2, others=((OTHER.with_(order="row_scan"), None),))


def test_a_lane_resumed_under_another_recipe_starts_from_the_root_and_the_others_continue(tmp_path):
    """The checkpoint names each lane's recipe: a folder of two winner lanes resumed with a runner-up for
    lane 1 continues lane 0 and starts lane 1 afresh; a checkpoint written before the names were kept counts
    as every lane on the first recipe."""
    both = _run(2, tmp_path / "f")
    both.run(max_nodes=20_000, chunk=4_000)
    assert _same_search(_run(2, tmp_path / "f").lanes[1], both.lanes[1])  # the same plan: both go on
    other = _run(2, tmp_path / "f", others=((OTHER, None),))
    assert _same_search(other.lanes[0], both.lanes[0]) and other.lanes[1].nodes == 0
    path = tmp_path / "f" / "state.npz"
    with np.load(path) as data:
        arrays = {n: data[n] for n in data.files}
    info = json.loads(bytes(arrays["info"]).decode())
    del info["recipes"]
    arrays["info"] = np.frombuffer(json.dumps(info).encode(), dtype=np.uint8)
    np.savez(path, **arrays)
    old = _run(2, tmp_path / "f", others=((OTHER, None),))
    assert _same_search(old.lanes[0], both.lanes[0]) and old.lanes[1].nodes == 0
    assert _same_search(_run(2, tmp_path / "f").lanes[1], both.lanes[1])


def test_the_given_attempts_are_checkpointed_at_once(tmp_path):
    """A kill before the first periodic checkpoint resumes the pilot's attempts, not fresh ones."""
    attempt = LongRun(PUZZLE, OTHER, CFG.harvest, 9, None)
    attempt.run(max_nodes=5_000, chunk=5_000)
    LongRun(PUZZLE, RECIPE, CFG.harvest, 5, tmp_path, lanes=2, others=((OTHER, attempt.lanes[0].arrays()),))
    resumed = _run(2, tmp_path, others=((OTHER, None),))  # nothing run: as after a kill
    assert [lane.nodes for lane in resumed.lanes] == [0, 5_000]
    assert _same_search(resumed.lanes[1], attempt.lanes[0])


def test_max_attempts_counts_the_attempts_of_every_lane():
    run = LongRun(
        PUZZLE, preset_recipe(CFG, PUZZLE, "blackwood"), CFG.harvest, 5, None, max_attempts=5, lanes=2
    )
    run.run(max_nodes=2_000_000, chunk=20_000)
    assert run.attempts == 5 and run.nodes < 2_000_000


def test_a_bad_lane_count_is_refused():
    for bad in (0, -1, 65):
        with pytest.raises(ValueError, match="lanes"):
            DfsConfig(lanes=bad)
