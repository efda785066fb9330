"""The recipe of the DFS: auto's choice per puzzle, the statistics it is derived from, the pilot."""

from __future__ import annotations

import numpy as np
from conftest import INSTANCES

from e2opt.construct.dfs import pilot
from e2opt.construct.dfs.build import resolve
from e2opt.construct.dfs.config import DfsConfig, PilotConfig
from e2opt.construct.dfs.derive import branching, derived_breaks, derived_quota, quota_bounds
from e2opt.construct.dfs.recipes import BLACKWOOD_BREAKS, preset_recipe, recipe_name
from e2opt.construct.dfs.rules import make_rules, sequence
from e2opt.construct.dfs.search import Dfs
from e2opt.construct.finish import placed_joins
from e2opt.construct.order import make_order
from e2opt.core.generate import generate
from e2opt.core.puzzle import read_puzzle


def test_auto_is_blackwood_only_on_the_official_set_with_its_starter_hint():
    cfg = DfsConfig()
    assert recipe_name(cfg, read_puzzle(INSTANCES / "eternity2.txt")) == "blackwood"
    assert recipe_name(cfg, read_puzzle(INSTANCES / "eternity2_5hints.txt")) == "derived"
    assert recipe_name(cfg, read_puzzle(INSTANCES / "meta2010_16x16.txt")) == "derived"
    assert recipe_name(cfg, generate(6, 6, 3, 4, 1)[0]) == "derived"
    assert recipe_name(DfsConfig(recipe="verhaard"), generate(6, 6, 3, 4, 1)[0]) == "verhaard"


def test_blackwood_colours_are_not_applied_to_another_puzzle():
    meta = read_puzzle(INSTANCES / "meta2010_16x16.txt")
    recipe = preset_recipe(DfsConfig(recipe="blackwood"), meta, "blackwood")
    assert recipe.source.get("privileged") == "derived"
    e2 = read_puzzle(INSTANCES / "eternity2.txt")
    assert preset_recipe(DfsConfig(recipe="blackwood"), e2, "blackwood").privileged == (5, 7, 20)


def test_the_derived_schedule_gives_blackwoods_back_on_the_official_set():
    e2 = read_puzzle(INSTANCES / "eternity2.txt")
    seq = sequence(e2, "blackwood", 5)
    breaks = derived_breaks(
        branching(e2, seq), e2.cols, pilot.Knobs(0.8, 0.4, 0).onset, pilot.SLACK, pilot.BREAKS_UNTIL
    )
    assert [most for _, most in breaks] == list(range(1, 11))  # 10 breaks, one at a time, as his
    assert all(abs(a - b) <= 2 for (a, _), (b, _) in zip(breaks, BLACKWOOD_BREAKS, strict=True))


def test_quota_bounds_by_hand_on_a_tiny_puzzle():
    p = generate(4, 4, 2, 2, 3)[0]
    seq = sequence(p, "row_scan", 2)
    qval = np.arange(len(p.pieces)) % 3
    expected, most = quota_bounds(p, seq, qval)
    kinds = [min((r in (0, 3)) + (c in (0, 3)), 2) for r, c in seq]  # 0 inner, 1 edge, 2 corner
    kind_of = {0: 2, 1: 1, 2: 0}
    mean = {k: np.mean([qval[i] for i in range(16) if p.kinds[i] == kind_of[k]]) for k in range(3)}
    assert np.allclose(expected[1:], np.cumsum([mean[k] for k in kinds]))
    assert most[-1] == expected[-1] == qval.sum() and (most >= expected - 1e-9).all()
    quota = derived_quota(expected, most, 0.5, 4, 1.0, knots=4)
    assert quota[0] == (4, 0) and all(
        v == int(np.floor(expected[p] + 0.5 * (most[p] - expected[p]))) for p, v in quota[1:]
    )


def test_the_derived_recipe_is_the_same_for_a_seed(tmp_path, monkeypatch):
    p = generate(8, 8, 3, 5, 4, recolour=4)[0]
    cfg = DfsConfig(pilot=PilotConfig(cpu_s=0.05, candidates=4))
    monkeypatch.setattr(pilot, "trial", _placements_trial)
    a, _ = resolve(p, cfg, 11, None)
    b, _ = resolve(p, cfg, 11, None)
    assert a == b and a.source["recipe"] == "derived"
    again, _ = resolve(p, cfg, 11, tmp_path)
    assert (tmp_path / "recipe.json").exists()
    kept, report = resolve(p, cfg, 12, tmp_path)  # another seed, the same folder: the recipe resolved there
    assert kept == again and "trials" in report


def _placements_trial(puzzle, recipe, knobs, seed, cpu_s):
    """The pilot's trial, bounded by placements instead of CPU seconds (the same choice on any machine)."""
    order = make_order(puzzle, recipe.order, recipe.teeth)
    dfs = Dfs(puzzle, order, make_rules(puzzle, order, recipe), seed, puzzle.n_cells + 1)
    dfs.step(20_000)
    joins = placed_joins(puzzle, dfs.board(dfs.deepest_codes()))
    return pilot.Trial(knobs, dfs.deepest + len(puzzle.hints), int(dfs.pairs[dfs.deepest]) - joins, joins,
                       dfs.nodes, 0.0)  # fmt: skip


def test_an_impossible_quota_is_detected_and_relaxed_with_one_warning(monkeypatch):
    """Candidates whose quota asks for more than the puzzle has die before the first break: relaxed."""
    p = generate(6, 6, 3, 4, 2, recolour=3)[0]
    real = pilot.derived_recipe

    def impossible(puzzle, cfg, knobs):
        recipe = real(puzzle, cfg, knobs)
        if knobs.lam is None:
            return recipe
        return recipe.with_(quota=((2, 0), (8, 10 * sum(recipe.qval) + 100)))  # more than every piece holds

    monkeypatch.setattr(pilot, "derived_recipe", impossible)
    monkeypatch.setattr(
        pilot, "candidates", lambda puzzle, limit: [pilot.Knobs(0.8, 0.4, 0), pilot.Knobs(0.8, 0.6, 0)]
    )
    said: list[str] = []
    recipe, report = pilot.calibrate(p, DfsConfig(pilot=PilotConfig(cpu_s=0.1)), 3, said.append)
    assert len(said) == 1 and said[0].startswith("dfs: no pilot attempt got past position")
    assert report["relaxed"] == said[0] and recipe.source.get("relaxed") is True
    assert recipe.quota == () and recipe.clue_breaks == 1
    monkeypatch.setattr(pilot, "derived_recipe", real)
    _, report = pilot.calibrate(p, DfsConfig(pilot=PilotConfig(cpu_s=0.1)), 3, said.append)
    assert "relaxed" not in report and len(said) == 1  # the real recipe passes: no new warning
