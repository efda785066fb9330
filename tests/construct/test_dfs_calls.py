"""build_dfs within a deadline, and called again and again on one folder (the producers of a long run)."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from e2opt.construct.dfs import build
from e2opt.construct.dfs.build import MAX_REPEATS, _chosen, build_dfs, dfs_limit
from e2opt.construct.dfs.complete import completion_cost
from e2opt.construct.dfs.completed import COMPLETED, Completed, read_completed
from e2opt.construct.dfs.config import DfsConfig, HarvestConfig
from e2opt.construct.dfs.harvest import board_entry, make_entry
from e2opt.construct.dfs.longrun import LongRun
from e2opt.construct.dfs.recipes import preset_recipe
from e2opt.construct.warm import warm_constructions
from e2opt.core.board import format_board, rule_violations, score
from e2opt.core.generate import generate
from e2opt.core.puzzle import format_puzzle
from e2opt.core.verify import verify_texts
from e2opt.search.moves import MOVES
from e2opt.search.warm import warm_moves


def _cfg(**keys) -> DfsConfig:
    """A section on Blackwood's preset (its keys overridden), as the old breakdfs section was."""
    return DfsConfig(recipe="blackwood", **keys)


def _run(p, cfg: DfsConfig, seed: int, folder=None) -> LongRun:
    return LongRun(p, preset_recipe(cfg, p, "blackwood"), cfg.harvest, seed, folder)


def _assert_full_and_valid(p, board):
    assert (board.piece >= 0).all()
    assert rule_violations(p, board) == []
    report = verify_texts(format_puzzle(p), format_board(board))
    assert report.valid and report.score == score(p, board)


def _chunks(n):
    """A stop request after ``n`` chunks of the DFS: the same placements whatever the machine's speed."""
    calls = [0]

    def stop() -> bool:
        calls[0] += 1
        return calls[0] > n

    return stop


def _dfs_chunks(n):
    """Ends the DFS after ``n`` chunks like ``_chunks``, but asks nothing more of the completions that follow
    (a stop request makes a construction complete one board only)."""
    calls = [0]

    def stop() -> bool:
        calls[0] += 1
        return calls[0] == n + 1

    return stop


def test_dfs_limit_leaves_the_completions_their_share_and_never_more_than_their_cost():
    h = HarvestConfig(complete=2, cpsat_wall_s=5, repair_cpu_s=20, deadline_share=0.25)
    cfg = _cfg(time_limit_cpu_s=10, harvest=h)
    assert completion_cost(h) == 30
    assert dfs_limit(cfg, None, 0.0) == 10  # no deadline: the DFS's own limit, completions on top
    assert dfs_limit(cfg, None, 3.0) == 7  # a pilot's 3 s count in the DFS's own limit
    assert dfs_limit(cfg, 25, 0.0) == 10  # 25 - 6.25 leaves more than the DFS wants
    assert dfs_limit(cfg, 8, 0.5) == pytest.approx(8 - 2 - 0.5)
    assert dfs_limit(cfg, 8, 9.0) == 0.0
    cheap = _cfg(time_limit_cpu_s=100, harvest=HarvestConfig(complete=1, cpsat_wall_s=1, repair_cpu_s=1))
    assert dfs_limit(cheap, 100, 0.0) == pytest.approx(100 - 3)  # reserve = the completions' cost (3) < 25


@pytest.mark.parametrize("deadline", [1.5, 3.0])
def test_dfs_and_completions_keep_within_the_deadline(tmp_path, deadline):
    warm_constructions(["dfs"]), warm_moves(MOVES)  # kernels loaded or compiled outside the budget, as a run
    import ortools.sat.python.cp_model  # noqa: F401  (loaded outside the budget too)

    p = generate(7, 7, 3, 5, 2, hints=1, recolour=5)[0]
    cfg = _cfg(
        scale_from=None, teeth=3, breaks=((30, 1), (36, 2), (42, 3)), quota=(), time_limit_cpu_s=60,
        harvest=HarvestConfig(min_placed=40, complete=3, cpsat_wall_s=10, repair_cpu_s=20),
    )  # fmt: skip
    began = time.process_time()
    board, info = build_dfs(p, cfg, np.random.default_rng(1), deadline, tmp_path, None)
    used = time.process_time() - began
    _assert_full_and_valid(p, board)
    assert info["dfs_limit_s"] <= deadline * (1 - cfg.harvest.deadline_share) + 1e-9
    assert info["dfs_cpu_s"] <= info["dfs_limit_s"] + 0.5  # one chunk past the clock at most (loaded machine)
    assert info["cpu_s"] <= deadline + 1.0 and used <= deadline + 1.0  # 50 CPU s against 25 before
    assert info["completion"]["repair_s"] <= deadline
    assert info["cpu_s"] >= 0.6 * deadline  # and it does use its time


def test_repeated_calls_on_one_folder_never_complete_a_board_twice(tmp_path):
    p = generate(6, 6, 3, 4, 5, hints=1, recolour=6)[0]
    cfg = _cfg(
        scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3), (33, 4)), quota=(), node_budget=300_000,
        harvest=HarvestConfig(min_placed=31, pool_size=50, complete=3, cpsat_wall_s=0.5, repair_cpu_s=0.05),
    )  # fmt: skip
    seen: set[str] = set()
    for call in range(4):
        board, info = build_dfs(p, cfg, np.random.default_rng(call), None, tmp_path, _dfs_chunks(1))
        _assert_full_and_valid(p, board)
        assert info["completed"] and not seen & set(info["completed"])
        seen |= set(info["completed"])
        pool = (tmp_path / "harvest" / "pool.jsonl").read_text().splitlines()
        assert not {json.loads(line)["key"] for line in pool} & seen  # completed boards leave the pool
        assert read_completed(tmp_path / "harvest").partials == seen
    assert len(seen) >= 8


def _key(board) -> str:
    return board_entry(board).key


def test_a_completion_that_repeats_a_board_made_before_is_replaced_by_the_next_partial(tmp_path, monkeypatch):
    """Sibling partials of one DFS subtree often repair to the same board: such a completion does not count,
    the next partial is completed instead (at most MAX_REPEATS times a call), and the boards are remembered
    across calls on the folder."""
    p = generate(6, 6, 3, 4, 5, hints=1, recolour=6)[0]
    cfg = _cfg(
        scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3), (33, 4)), quota=(), node_budget=300_000,
        harvest=HarvestConfig(min_placed=31, pool_size=50, complete=1, cpsat_wall_s=0.5, repair_cpu_s=0.05),
    )  # fmt: skip
    real, first, same = build.complete, [], [0]  # same[0]: completions still to answer with the first board

    def complete(*args, **kwargs):
        board, info = real(*args, **kwargs)
        if first and same[0] > 0:
            same[0] -= 1
            return first[0].copy(), {**info, "score": score(p, first[0])}
        return board, info

    monkeypatch.setattr(build, "complete", complete)
    board, info = build_dfs(p, cfg, np.random.default_rng(0), None, tmp_path, _dfs_chunks(1))
    first.append(board)
    assert info["repeats"] == 0 and len(info["completed"]) == 1
    same[0] = 2  # the next call's first two completions repeat the first board
    board, info = build_dfs(p, cfg, np.random.default_rng(1), None, tmp_path, _dfs_chunks(1))
    _assert_full_and_valid(p, board)
    assert info["repeats"] == 2 and len(info["completed"]) == 3 and not info["completion"]["repeated"]
    assert _key(board) != _key(first[0])
    same[0] = 100  # every completion repeats: 1 + MAX_REPEATS completions, then the board as it is
    board, info = build_dfs(p, cfg, np.random.default_rng(2), None, tmp_path, _dfs_chunks(1))
    assert _key(board) == _key(first[0]) and info["completion"]["repeated"]
    assert info["repeats"] == len(info["completed"]) == 1 + MAX_REPEATS
    done = read_completed(tmp_path / "harvest")
    assert len(done.partials) == 2 + MAX_REPEATS + 3 and len(done.boards) == 2  # the first board, the new one


def test_a_list_of_partials_written_before_boards_were_recorded_still_reads(tmp_path):
    (tmp_path / COMPLETED).write_text(json.dumps(["a", "b"]))
    done = read_completed(tmp_path)
    assert done.partials == {"a", "b"} and done.boards == set()


@pytest.mark.slow
def test_the_deepest_partial_is_not_chosen_again_once_completed():
    """A resumed DFS visits again the nodes since its checkpoint, so a call's deepest partial may be one an
    earlier call completed: it is skipped while fresh partials remain, and chosen only when none is left."""
    p = generate(6, 6, 3, 4, 3, hints=1, recolour=6)[0]
    cfg = _cfg(scale_from=None, teeth=3, breaks=(), quota=(), node_budget=200_000,
               harvest=HarvestConfig(min_placed=20, complete=2))  # fmt: skip
    run = _run(p, cfg, 0)
    run.run(max_nodes=100_000)
    deepest = board_entry(run.board(run.call_codes))
    ranked = run.pool.ranked()
    done = {e.key for e in ranked if e.placed >= deepest.placed} | {deepest.key}
    fresh = [e.key for e in ranked if e.key not in done][:3]
    assert fresh  # shallower than the deepest: before, the deepest went first although completed
    assert [e.key for e, _ in _chosen(p, run, 3, Completed(done))] == fresh
    assert [e.key for e, _ in _chosen(p, run, 3, Completed(done | {e.key for e in ranked}))] == [deepest.key]


def test_a_call_with_nothing_new_harvested_completes_its_own_deepest_partial(tmp_path):
    # recoloured sides and no breaks allowed: no complete board exists for this DFS; partials need all cells
    p = generate(6, 6, 3, 4, 3, hints=1, recolour=6)[0]
    cfg = _cfg(
        scale_from=None, teeth=3, breaks=(), quota=(), node_budget=200_000,
        harvest=HarvestConfig(min_placed=36, complete=2, cpsat_wall_s=0.5, repair_cpu_s=0.05),
    )  # fmt: skip
    deepest = []
    for call in range(3):
        probe = _run(p, cfg, 0, tmp_path / "harvest")  # what the call will resume from
        before = probe.nodes
        probe.pool.close()
        board, info = build_dfs(p, cfg, np.random.default_rng(call), None, tmp_path, _chunks(1))
        _assert_full_and_valid(p, board)
        assert info["harvest_kept"] == 0 and info["nodes"] > before
        assert len(info["completed"]) == 1  # the deepest partial of this call, and only it
        deepest.append(info["completed"][0])
        assert info["call_placed"] <= info["best_placed"]
    assert len(set(deepest)) == 3


def test_the_deepest_partial_of_a_call_is_reached_in_that_call(tmp_path):
    p = generate(6, 6, 3, 4, 3, hints=1, recolour=6)[0]
    cfg = _cfg(scale_from=None, teeth=3, breaks=(), quota=(), node_budget=10**9,
                         harvest=HarvestConfig(min_placed=36, complete=1, cpsat_wall_s=0.5, repair_cpu_s=0))  # fmt: skip
    first = _run(p, cfg, 4, tmp_path)
    first.run(max_nodes=300_000, chunk=1 << 14)
    second = _run(p, cfg, 4, tmp_path)
    assert len(second.best_codes) == len(first.best_codes) and len(second.call_codes) == 0
    second.run(max_nodes=310_000, chunk=1 << 12)
    codes = second.call_codes
    assert len(codes) > 0 and make_entry(codes, 0).key != make_entry(first.call_codes, 0).key


@pytest.mark.parametrize("budget", [0.1, 1.0])
def test_a_completion_with_touching_holes_keeps_within_its_cpu_share(budget):
    warm_constructions(["dfs"]), warm_moves(MOVES)
    import ortools.sat.python.cp_model  # noqa: F401

    from e2opt.construct.dfs.complete import complete, holes_of
    from e2opt.construct.finish import non_adjacent

    p = generate(8, 8, 3, 5, 2, hints=1, recolour=5)[0]
    h = HarvestConfig(min_placed=60, cpsat_wall_s=10, repair_cpu_s=20)
    cfg = _cfg(scale_from=None, teeth=3, breaks=((40, 1), (50, 2), (55, 3)), quota=(), harvest=h)
    run = _run(p, cfg, 3)
    run.run(max_nodes=200_000, chunk=1 << 14)
    partial = run.board(run.best_codes[: len(run.best_codes) - 14])
    assert not non_adjacent(holes_of(partial))
    began = time.process_time()
    board, info = complete(p, partial, h, np.random.default_rng(0), cpu_s=budget)
    _assert_full_and_valid(p, board)
    assert time.process_time() - began <= budget + 0.3  # against 2 x 10 + 20 s by the settings
    assert info["fill"].startswith("cpsat" if budget * 10 / completion_cost(h) >= 0.2 else "assignment")
    assert info["score"] >= info["partial_joins"]


def test_a_stop_request_ends_the_completions_with_one_board(tmp_path):
    """A signal during a producer's construction: one completed board, its repair cut short (not 3 x 20 s)."""
    p = generate(7, 7, 3, 5, 2, hints=1, recolour=5)[0]
    cfg = _cfg(
        scale_from=None, teeth=3, breaks=((30, 1), (36, 2), (42, 3)), quota=(), time_limit_cpu_s=60,
        harvest=HarvestConfig(min_placed=40, complete=3, cpsat_wall_s=10, repair_cpu_s=20),
    )  # fmt: skip
    board, info = build_dfs(p, cfg, np.random.default_rng(1), None, tmp_path, _chunks(3))
    _assert_full_and_valid(p, board)
    assert len(info["completed"]) == 1
    assert info["completion"]["cpu_s"] < 10  # the 20 CPU s repair ended at the request
