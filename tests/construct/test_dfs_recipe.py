"""The recipe of the DFS: auto's choice per puzzle, the statistics it is derived from, the pilot."""

from __future__ import annotations

import itertools
import json
import time

import numpy as np
import pytest
from conftest import INSTANCES

from e2opt.construct.dfs import pilot
from e2opt.construct.dfs.build import resolve
from e2opt.construct.dfs.candidates import LAMS, QUOTA_SHAPE, SLACK
from e2opt.construct.dfs.config import DfsConfig, HarvestConfig, PilotConfig
from e2opt.construct.dfs.derive import QuotaShape, branching, derived_breaks, derived_quota, quota_bounds
from e2opt.construct.dfs.longrun import LongRun, default_min_placed
from e2opt.construct.dfs.recipes import (
    BLACKWOOD_BREAKS,
    BLACKWOOD_QUOTA,
    preset_recipe,
    quota_values,
    recipe_name,
    user_to_internal,
)
from e2opt.construct.dfs.rules import sequence
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate


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
    breaks = derived_breaks(branching(e2, seq), e2.cols, pilot.Knobs(0.8, 0.4, 0).onset, SLACK)
    assert [most for _, most in breaks] == list(range(1, len(breaks) + 1))  # one at a time, as his
    assert all(
        abs(a - b) <= 2 for (a, _), (b, _) in zip(breaks, BLACKWOOD_BREAKS, strict=False)
    )  # his 10, by 239
    assert len(breaks) > len(BLACKWOOD_BREAKS) and breaks[-1][0] < e2.n_cells  # then on to the last cell


@pytest.mark.parametrize("seed", range(6))
def test_the_derived_schedule_against_a_slow_reference(seed):
    rng = np.random.default_rng(seed)
    b = rng.exponential(2.0, 40)
    b[rng.integers(40, size=3)] = np.inf  # hint positions
    onset, slack, window = 0.8, float(rng.uniform(0.2, 1.0)), 4
    finite = [50.0 if np.isinf(x) else float(x) for x in b]
    start = next((i for i in range(40) if np.mean(finite[i : i + window]) < onset), None)
    want, total = [], 0.0  # the allowance after each position from the onset on, to the last cell
    for p in range(start if start is not None else 40, 40):
        total += np.exp(-finite[p])
        if int(np.floor(slack * total)) > (want[-1][1] if want else 0):
            want.append((p, int(np.floor(slack * total))))
    assert derived_breaks(b, window, onset, slack) == tuple(want)


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
    flat = QuotaShape(ramp=0.0, hold=1.0, late=0.0, until=1.0)  # lam all the way
    quota = derived_quota(expected, most, 0.5, 4, flat, knots=4)
    assert quota[0] == (4, 0) and all(
        v == int(np.floor(expected[p] + 0.5 * (most[p] - expected[p]))) for p, v in quota[1:]
    )


@pytest.mark.parametrize("lam", [0.4, 0.6, 0.8])
def test_the_quota_share_ramps_in_holds_and_rises_late(lam):
    shape, cells, start = QUOTA_SHAPE, 256, 16
    share = [shape.share(lam, p, start, cells) for p in range(start, round(shape.until * cells) + 1)]
    assert share[0] == 0 and all(b >= a for a, b in itertools.pairwise(share))  # never asks less later
    assert shape.share(lam, round(0.3 * cells), start, cells) == lam
    assert share[-1] == pytest.approx(lam + shape.late * (1 - lam))
    assert shape.share(lam, start + 4, start, cells) == pytest.approx(
        lam * (4 / (0.22 * cells - start)) ** 0.5
    )


def test_the_derived_quota_gives_blackwoods_back_on_the_official_set():
    e2 = read_puzzle(INSTANCES / "eternity2.txt")
    seq = sequence(e2, "blackwood", 5)
    qval = quota_values(e2, user_to_internal(e2, [5, 20, 7]), "colours", None)
    quota = derived_quota(*quota_bounds(e2, seq, qval), 0.8, e2.cols, QUOTA_SHAPE)
    his_at, his = zip(*BLACKWOOD_QUOTA, strict=True)
    assert quota[-1][0] == his_at[-1] == 160
    assert all(abs(v - np.interp(p, his_at, his)) <= 3 for p, v in quota)


def test_the_derived_recipe_is_the_same_for_a_seed(tmp_path):
    p = generate(8, 8, 3, 5, 4, recolour=4)[0]
    cfg = DfsConfig(pilot=PilotConfig(nodes=160_000, candidates=4))
    a, _, state = _winner(p, cfg, 11, None)
    b, _, _ = _winner(p, cfg, 11, None)
    assert a == b and a.source["recipe"] == "derived"
    again, _, _ = _winner(p, cfg, 11, tmp_path)
    assert (tmp_path / "recipe.json").exists()
    kept, report, kept_state = _winner(p, cfg, 12, tmp_path)  # another seed, the same folder: its recipe
    assert kept == again and "trials" in report
    assert state is not None and kept_state is None  # the folder's DFS goes on from its own state then


def test_the_run_continues_the_pilots_winning_attempt():
    """The pilot's deepest partial is this call's from the start: the run goes on in that attempt."""
    p = generate(8, 8, 3, 5, 4, recolour=4)[0]
    cfg = DfsConfig(pilot=PilotConfig(nodes=160_000, candidates=4))
    recipe, report, state = _winner(p, cfg, 11, None)
    won = next(t for t in report["trials"] if t["dropped"] is None)
    run = LongRun(p, recipe, cfg.harvest, 11, None, start=state)
    summary = run.run(max_nodes=won["nodes"] + 1)
    assert summary.attempts == 1 and len(summary.call_codes) + len(p.hints) >= won["placed"]
    fresh = LongRun(p, recipe, cfg.harvest, 11, None).run(max_nodes=1)
    assert fresh.nodes == 1 and len(fresh.call_codes) <= 1  # without it: a fresh attempt from the root


def _winner(p, cfg, seed, folder):
    """The chosen recipe, the report and the chosen attempt of ``resolve``."""
    ranked, report = resolve(p, cfg, seed, folder)
    return ranked[0][0], report, ranked[0][1]


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
    [(recipe, state)], report = pilot.calibrate(
        p, DfsConfig(pilot=PilotConfig(nodes=300_000)), 3, said.append
    )
    assert len(said) == 1 and said[0].startswith("dfs: no pilot attempt reached position")
    assert report["relaxed"] == said[0] and recipe.source.get("relaxed") is True
    assert recipe.quota == () and state is None  # relaxed: a fresh attempt
    assert recipe.clue_breaks == 0 and not p.hints  # no hint: a clue break would change no rule
    monkeypatch.setattr(pilot, "derived_recipe", real)
    [(_, state), _], report = pilot.calibrate(p, DfsConfig(pilot=PilotConfig(nodes=300_000)), 3, said.append)
    assert "relaxed" not in report and len(said) == 1 and state is not None  # passes: no new warning


def test_the_relaxed_warning_names_a_real_position_or_the_end_of_the_board():
    """A schedule without breaks has no first break: the warning names the board's end, no internal value."""
    p = generate(6, 6, 3, 4, 2, recolour=3)[0]
    recipe = pilot.derived_recipe(p, DfsConfig(), pilot.Knobs(None, 0.4, 0))
    assert pilot.first_break(recipe.with_(breaks=()), p.n_cells) == p.n_cells
    assert pilot.first_break(recipe.with_(breaks=((p.n_cells + 5, 1),)), p.n_cells) == p.n_cells
    assert pilot.first_break(recipe.with_(breaks=((20, 1),)), p.n_cells) == 20
    assert "reached all 36 cells (no break allowed) (deepest 7)" in pilot.relaxed_warning(36, 36, 7)
    assert "reached position 20, where breaks begin (deepest 7)" in pilot.relaxed_warning(20, 36, 7)


def test_hints_add_the_clue_candidates_and_a_puzzle_without_hints_keeps_the_exact_ones():
    """Without hints only the exact candidates (no clue break), so a hint-free puzzle cannot lose by clue zones; with hints the same
    ones first, then each with one break in the zone of every hint reached a row before the breaks."""
    bare = generate(6, 6, 3, 4, 5)[0]
    hinted = generate(6, 6, 3, 4, 5, hints=2)[0]
    exact = pilot.candidates(bare, 100)
    assert len(exact) == 2 * len(LAMS) and {(k.clue_breaks, k.clue_zone) for k in exact} == {(0, 0)}
    both = pilot.candidates(hinted, 100)
    assert both[: len(exact)] == exact
    assert [(k.lam, k.onset) for k in both[len(exact) :]] == [(k.lam, k.onset) for k in exact]
    assert {(k.clue_breaks, k.clue_zone, k.clue_lead) for k in both[len(exact) :]} == {(1, 1, 1)}


def test_a_clue_candidate_with_no_hint_that_late_is_the_exact_one_and_tried_once(monkeypatch):
    """The official set with its centre hint alone (reached at 119, long before the derived breaks at 199):
    the clue candidates make the exact candidates' rules, so the pilot tries 8 candidates, not 16 (before,
    it gave the same 8 recipes a second time, at half the pilot's CPU each); the strict 5-clue puzzle keeps
    its clue candidates (two hints in row 2, at 188 and 247)."""
    tried = []
    monkeypatch.setattr(pilot, "halving", lambda attempts, total, stop: tried.append(len(attempts)) or [0])
    cfg = DfsConfig(recipe="derived", pilot=PilotConfig(nodes=1000))
    for name in ("eternity2.txt", "eternity2_5hints.txt"):
        puzzle = read_puzzle(INSTANCES / name)
        recipes = [pilot.derived_recipe(puzzle, cfg, k) for k in pilot.candidates(puzzle, 16)]
        clued = {(r.clue_breaks, r.clue_zone) for r in recipes}
        assert clued == ({(0, 0)} if name == "eternity2.txt" else {(0, 0), (1, 1)}), clued
        assert all(r.clue_from == 0 if r.clue_breaks == 0 else 119 < r.clue_from <= 188 for r in recipes)
        pilot.calibrate(puzzle, cfg, 1)
    assert tried == [8, 16]


def test_a_set_clue_from_is_what_the_recipe_and_its_label_say():
    """``clue_from`` set in the section replaces the pilot's lead of a row before the breaks: the recipe
    keeps that position and its label names it, not the lead (the label said "1 rows before" before)."""
    puzzle = read_puzzle(INSTANCES / "eternity2_5hints.txt")
    knobs = pilot.Knobs(0.6, 0.6, 1, 1, 1)
    led = pilot.derived_recipe(puzzle, DfsConfig(recipe="derived"), knobs)
    assert led.clue_from > 103 and "rows before the breaks" in led.source["knobs"]
    set_ = pilot.derived_recipe(puzzle, DfsConfig(recipe="derived", clue_from=103), knobs)
    assert set_.clue_from == 103
    assert set_.source["knobs"].endswith("hints from position 103"), set_.source["knobs"]
    assert "rows before" not in set_.source["knobs"]


def test_a_stop_ends_the_pilot_at_once_and_its_cut_choice_is_not_kept(tmp_path):
    """Asked to stop (a run's Ctrl-C), the pilot ends within a chunk, relaxes nothing and says nothing,
    and its choice is not written to the folder: the next call there runs the whole pilot (before, a
    Ctrl-C waited for the pilot's 15 CPU s)."""
    puzzle = read_puzzle(INSTANCES / "eternity2_5hints.txt")
    cfg = DfsConfig(pilot=PilotConfig(nodes=2_000_000_000))
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 3

    said: list[str] = []
    began = time.process_time()
    ranked, report = resolve(puzzle, cfg, 1, tmp_path, said.append, None, stop)
    assert time.process_time() - began < 5.0 and report["cut"] is True and not said
    assert ranked and sum(t["cpu_s"] for t in report["trials"]) < 1.0
    assert not (tmp_path / "recipe.json").exists()
    _, report = resolve(puzzle, DfsConfig(pilot=PilotConfig(nodes=2_000_000)), 1, tmp_path)
    assert "cut" not in report and (tmp_path / "recipe.json").exists()


def test_every_recipe_harvests_from_the_scaled_248_and_the_sections_min_placed_wins(tmp_path):
    """The pool's floor is the section's ``min_placed``, else Blackwood's 248 scaled by cells, whatever depth
    the pilot reached; a recipe.json that holds the older pilot-made ``harvest_from`` resumes to the same
    recipe without it."""
    p = generate(8, 8, 3, 5, 4, recolour=4)[0]
    cfg = DfsConfig(pilot=PilotConfig(nodes=160_000, candidates=4))
    recipe, report, state = _winner(p, cfg, 11, tmp_path)
    won = next(t for t in report["trials"] if t["dropped"] is None)
    assert won["placed"] - 1 != default_min_placed(p)  # a floor from the pilot's depth would differ
    run = LongRun(p, recipe, cfg.harvest, 11, None, start=state)
    assert run.pool.min_placed == default_min_placed(p) == 62
    assert LongRun(p, recipe, HarvestConfig(min_placed=7), 11, None).pool.min_placed == 7
    saved = json.loads((tmp_path / "recipe.json").read_text(encoding="utf-8"))
    saved["recipe"]["harvest_from"] = won["placed"] - 1
    (tmp_path / "recipe.json").write_text(json.dumps(saved), encoding="utf-8")
    loaded, _, start = _winner(p, cfg, 11, tmp_path)
    assert loaded == recipe and start is None  # the folder's recipe, not a fresh pilot's


def test_the_pilots_ranking_is_kept_in_the_folder_and_a_folder_without_it_resumes_with_one(tmp_path):
    """resolve returns the candidates best first (the winner, then by the round each was dropped in and
    its joins; a runner-up that never reached its first break is left out), each with its own attempt and
    abort marks; the folder gives the same recipes back, without attempts (its DFS state is its own); a
    recipe.json written before the ranking and ``lane_recipes`` existed holds one recipe and is taken as
    it is (not a fresh pilot's)."""
    p = generate(8, 8, 3, 5, 4, recolour=4)[0]
    cfg = DfsConfig(pilot=PilotConfig(nodes=160_000, candidates=4))
    ranked, report = resolve(p, cfg, 11, tmp_path)
    trials = report["trials"]
    best_first = sorted(
        range(len(trials)), key=lambda i: (-(trials[i]["dropped"] or 99), -trials[i]["joins"], i)
    )
    first = [pilot.first_break(pilot.derived_recipe(p, cfg, k), p.n_cells) for k in pilot.candidates(p, 4)]
    lanes = best_first[:1] + [i for i in best_first[1:] if trials[i]["placed"] >= first[i]]
    assert 1 < len(lanes) < 4  # this seed has both: a runner-up past its first break, one short of it
    assert [r.source["knobs"] for r, _ in ranked] == [trials[i]["knobs"] for i in lanes]
    assert all(state is not None for _, state in ranked)
    assert [r.abort for r, _ in ranked] == [pilot.abort_marks(pilot.Trial(None, trials[i]["placed"],
                                            nodes=trials[i]["nodes"])) for i in lanes]  # fmt: skip
    again, _ = resolve(p, cfg, 12, tmp_path)
    assert [r for r, _ in again] == [r for r, _ in ranked] and all(s is None for _, s in again)
    saved = json.loads((tmp_path / "recipe.json").read_text(encoding="utf-8"))
    del saved["runners_up"], saved["section"]["backjump"]  # as a folder written before either existed
    (tmp_path / "recipe.json").write_text(json.dumps(saved), encoding="utf-8")
    assert [r for r, _ in resolve(p, cfg, 12, tmp_path)[0]] == [ranked[0][0]]


def test_ranked_lanes_run_the_pilots_best_candidates_and_winner_lanes_the_winner(tmp_path):
    """The construction with two lanes: ``ranked`` runs the pilot's first two, ``winner`` its first twice."""
    from e2opt.construct.dfs.build import build_dfs

    p = generate(8, 8, 3, 5, 4, recolour=4)[0]
    labels, rankings = {}, {}
    for mode in ("ranked", "winner"):
        cfg = DfsConfig(pilot=PilotConfig(nodes=160_000, candidates=4), lanes=2, lane_recipes=mode,
                        time_limit_cpu_s=0.5, harvest=HarvestConfig(cpsat_wall_s=0.2, repair_cpu_s=0.1))  # fmt: skip
        board, info = build_dfs(p, cfg, np.random.default_rng(3), None, tmp_path / mode, None)
        ranked, _ = resolve(p, cfg, 0, tmp_path / mode / "harvest")  # the folder the run wrote
        assert info["lane_recipes"][0] == info["pilot"]["chosen"] == ranked[0][0].source["knobs"]
        labels[mode], rankings[mode] = info["lane_recipes"], [r.source["knobs"] for r, _ in ranked]
        assert sorted(board.piece.ravel()) == list(range(p.n_cells))  # a whole board, each piece once
    assert labels["ranked"] == rankings["ranked"][:2] and len(rankings["ranked"]) > 1
    assert labels["winner"] == [labels["ranked"][0]] * 2 and labels["ranked"][1] != labels["ranked"][0]


def test_the_pilots_choice_does_not_depend_on_the_clock_and_a_small_budget_caps_it(monkeypatch, tmp_path):
    """Bounded in placements, the pilot makes the same trials and choice on a clock 1000 times slower (a
    loaded machine: before, its CPU-second rounds moved the strict clues' choice); with a budget, past
    PILOT_SHARE of it in CPU s it ends as if stopped, says ``capped``, and its choice is kept for the folder."""
    p = generate(8, 8, 3, 5, 4, recolour=4)[0]
    cfg = DfsConfig(pilot=PilotConfig(nodes=160_000, candidates=4))
    _, quick = pilot.calibrate(p, cfg, 11)
    real = time.process_time
    monkeypatch.setattr(time, "process_time", lambda: 1000 * real())
    _, slow = pilot.calibrate(p, cfg, 11)

    def placed(report: dict) -> list[dict]:
        return [{k: v for k, v in t.items() if k != "cpu_s"} for t in report["trials"]]

    assert placed(slow) == placed(quick) and slow["chosen"] == quick["chosen"] and "capped" not in slow
    _, capped = resolve(p, cfg, 11, tmp_path, None, 1.0)
    assert capped["capped"] is True and sum(t["nodes"] for t in capped["trials"]) < sum(
        t["nodes"] for t in quick["trials"]
    )
    assert "cut" not in capped and (tmp_path / "recipe.json").exists()


def test_a_folder_whose_recipe_names_the_pilots_cpu_seconds_keeps_its_recipe(tmp_path):
    """A recipe.json written when the pilot counted CPU s (``pilot: {cpu_s: ...}``) is the same section as
    today's ``pilot.nodes`` those seconds translate to: its recipes are taken, no fresh pilot (whose new
    choice would send the folder's DFS back to the root); another number is another section."""
    p = generate(8, 8, 3, 5, 4, recolour=4)[0]
    cfg = DfsConfig(pilot=PilotConfig(nodes=160_000, candidates=4))
    ranked, _ = resolve(p, cfg, 11, tmp_path)
    saved = json.loads((tmp_path / "recipe.json").read_text(encoding="utf-8"))
    del saved["section"]["pilot"]["nodes"]
    saved["section"]["pilot"]["cpu_s"] = 0.004  # x 4e7 placements per CPU s = 160,000
    (tmp_path / "recipe.json").write_text(json.dumps(saved), encoding="utf-8")
    again, _ = resolve(p, cfg, 12, tmp_path)
    assert [r for r, _ in again] == [r for r, _ in ranked] and all(s is None for _, s in again)
    fresh, _ = resolve(p, DfsConfig(pilot=PilotConfig(nodes=200_000, candidates=4)), 12, tmp_path)
    assert fresh[0][1] is not None  # the pilot's own attempt: it ran
