"""The DFS with breaks (e2opt/construct/dfs): order, harvest pool, completion, exact resume, recipes of presets.

The kernel against a slow reference: tests/construct/test_dfs_kernel.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from e2opt.construct.dfs.build import check_dfs
from e2opt.construct.dfs.complete import complete, holes_of
from e2opt.construct.dfs.completed import entry_board
from e2opt.construct.dfs.config import DfsConfig, HarvestConfig
from e2opt.construct.dfs.derive import derive_privileged
from e2opt.construct.dfs.harvest import Pool, make_entry
from e2opt.construct.dfs.longrun import LongRun, default_min_placed
from e2opt.construct.dfs.recipes import BLACKWOOD_BREAKS, preset_recipe
from e2opt.construct.dfs.rules import frame_colours, make_rules
from e2opt.construct.finish import placed_joins
from e2opt.core.board import format_board, rule_violations, score
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import format_puzzle
from e2opt.core.verify import verify_texts
from e2opt.fill.order import DC, DR, make_order
from e2opt.fill.teeth_order import blackwood

ROOT = Path(__file__).resolve().parents[2]


def _puzzle(rows, cols, seed, hints=0, recolour=3, frame=2, inner=3):
    return generate(rows, cols, frame, inner, seed, hints=hints, recolour=recolour)[0]


def _cfg(**keys) -> DfsConfig:
    """A section on Blackwood's preset (its keys overridden), as the old breakdfs section was."""
    return DfsConfig(recipe="blackwood", **keys)


def _run(p, cfg: DfsConfig, seed: int, folder=None) -> LongRun:
    return LongRun(p, preset_recipe(cfg, p, "blackwood"), cfg.harvest, seed, folder)


def test_blackwood_order_is_the_published_one_and_keys_on_left_and_bottom():
    seq = blackwood(16, 16, 5)
    assert seq[:16] == [(15, c) for c in range(16)]  # the bottom row first, left to right
    assert seq[175] == (5, 15) and seq[176:181] == [(4, c) for c in range(5)]
    assert seq[201:206] == [(r, 5) for r in (4, 3, 2, 1, 0)]  # the first tooth, bottom up
    assert seq[236:240] == [(4, 12), (4, 13), (4, 14), (4, 15)] and seq[-1] == (0, 15)
    for rows, cols, teeth in ((16, 16, 5), (7, 9, 3), (5, 4, 5), (3, 3, 2)):
        seq = blackwood(rows, cols, teeth)
        assert sorted(seq) == [(r, c) for r in range(rows) for c in range(cols)]
        when = {rc: i for i, rc in enumerate(seq)}
        for i, (r, c) in enumerate(seq):
            placed = {
                s for s in range(4) if (r + DR[s], c + DC[s]) in when and when[(r + DR[s], c + DC[s])] < i
            }
            assert placed <= {2, 3}, (rows, cols, r, c)  # only the bottom and left neighbours


def _recount_breaks_ok(p, dfs, cells_codes) -> None:
    """Breaks of a harvested board recounted from the board along the order never pass the schedule."""
    grid = np.array(cells_codes).reshape(p.rows, p.cols)
    ocol = p.oriented.reshape(-1, 4)
    placed = {(h.row, h.col) for h in p.hints}
    total = 0
    for d, cell in enumerate(dfs.order.cells):
        r, c = divmod(int(cell), p.cols)
        if grid[r, c] < 0:
            break
        mine = 0
        for s in range(4):
            rr, cc = r + DR[s], c + DC[s]
            if (rr, cc) in placed and ocol[grid[r, c], s] != ocol[grid[rr, cc], (s + 2) % 4]:
                mine += 1
        assert mine <= dfs.rules.cap[d]
        total += mine
        assert total <= dfs.rules.allow[d], (d, total)
        placed.add((r, c))


@pytest.mark.parametrize("seed", range(3))
def test_harvested_boards_never_break_more_than_the_schedule(seed):
    p = _puzzle(6, 6, seed, hints=1, recolour=6, frame=3, inner=4)
    cfg = _cfg(
        scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3), (33, 4)), quota=(),
        harvest=HarvestConfig(min_placed=30, pool_size=200), node_budget=200_000,
    )  # fmt: skip
    run = _run(p, cfg, seed)
    summary = run.run(max_nodes=150_000, chunk=1 << 14)
    assert summary.kept > 0
    for entry in run.pool.entries.values():
        assert entry.placed >= 30
        _recount_breaks_ok(p, run.lanes[0], entry.cells)
        board = entry_board(p, entry)
        assert placed_joins(p, board) == entry.joins


def test_derived_privileged_colours_are_deterministic_and_split_frame_and_inner():
    e2 = read_puzzle(ROOT / "instances" / "eternity2.txt")
    first = derive_privileged(e2, 1, 2)
    assert first == derive_privileged(read_puzzle(ROOT / "instances" / "eternity2.txt"), 1, 2)
    assert first == [3, 7, 11]  # docs/dfs_results.md compares this with Blackwood's [5, 7, 20] (our ids)
    frame = set(frame_colours(e2))
    assert frame == {1, 2, 3, 4, 5} and sum(c in frame for c in first) == 1
    recipe = preset_recipe(_cfg(), e2, "blackwood")
    order = make_order(e2, recipe.order, recipe.teeth)
    a, b = make_rules(e2, order, recipe), make_rules(e2, order, recipe)
    assert np.array_equal(a.qmin, b.qmin) and np.array_equal(a.allow, b.allow)
    # positions count the hint (position 119 on E2): position 201 is depth 200, 239 is depth 238
    assert a.allow[199] == 0 and a.allow[200] == 1 and a.allow[238] == 10 and a.allow[-1] == 10
    assert a.qmin[16] == 0 and a.qmin[26] == 28 and a.qmin[160] == 0 and a.qmin.max() <= 119


def test_default_min_placed_scales_with_cells():
    assert default_min_placed(read_puzzle(ROOT / "instances" / "eternity2.txt")) == 248
    assert default_min_placed(_puzzle(8, 8, 1, frame=4, inner=6)) == 62


def _assert_valid(p, board):
    assert rule_violations(p, board) == []
    report = verify_texts(format_puzzle(p), format_board(board))
    assert report.valid and report.score == score(p, board)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.slow
def test_a_completed_partial_is_valid_and_never_below_its_joins(seed):
    p = _puzzle(6, 6, seed, hints=1, recolour=4, frame=3, inner=4)
    cfg = _cfg(
        scale_from=None, teeth=3, breaks=((26, 1), (30, 2)), quota=(), harvest=HarvestConfig(min_placed=20)
    )
    run = _run(p, cfg, seed)
    run.run(max_nodes=40_000, chunk=1 << 14)
    for cut in (len(run.best_codes), len(run.best_codes) - 5):  # the deepest, and one with touching holes
        partial = run.board(run.best_codes[:cut])
        h = HarvestConfig(cpsat_wall_s=0.5, repair_cpu_s=0.3 * (seed % 2))
        board, info = complete(p, partial, h, np.random.default_rng(seed))
        _assert_valid(p, board)
        assert not holes_of(board)
        assert info["score"] >= placed_joins(p, partial) == info["partial_joins"]


def test_pool_keeps_the_top_whatever_the_order_and_dedups():
    rng = np.random.default_rng(0)
    entries = []
    for _ in range(60):
        cells = rng.integers(0, 40, size=16)
        cells[: int(rng.integers(0, 4))] = -1
        entries.append(make_entry(cells, int(rng.integers(0, 24))))
    pools = []
    for perm in (range(60), rng.permutation(60)):
        pool = Pool(10, 2, 13)
        for i in perm:
            pool.offer(entries[i])
            pool.offer(entries[i])  # a duplicate is counted, never kept twice
        pools.append(pool)
    assert [e.key for e in pools[0].ranked()] == [e.key for e in pools[1].ranked()]
    assert pools[0].counts == pools[1].counts
    best = max(e.joins for e in entries if e.complete)
    assert all(e.joins >= best - 2 for e in pools[0].entries.values() if e.complete)
    assert sum(pools[0].counts["placed"].values()) == 120


SCRIPT = """
import sys
import time
from pathlib import Path
from e2opt.core.generate import generate
from e2opt.construct.dfs.longrun import LongRun
from e2opt.construct.dfs.config import DfsConfig, HarvestConfig
from e2opt.construct.dfs.recipes import preset_recipe
p = generate(6, 6, 3, 4, 5, hints=1, recolour=6)[0]
cfg = DfsConfig(recipe="blackwood", scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3), (33, 4)),
                quota=(), abort=(), harvest=HarvestConfig(min_placed=31, pool_size=50), node_budget=300_000)
run = LongRun(p, preset_recipe(cfg, p, "blackwood"), cfg.harvest, 7, Path(sys.argv[1]))


def tick(r):  # the placements so far, for the test to kill at; a pause to make the run long enough to be hit
    print(r.nodes, flush=True)
    time.sleep(0.0003)


run.run(max_nodes=int(sys.argv[2]), chunk=1 << 12, checkpoint_every_s=0.05, tick=tick)
"""


def _pool_state(folder: Path) -> tuple:
    run = _run(generate(6, 6, 3, 4, 5, hints=1, recolour=6)[0], _cfg(
        scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3), (33, 4)), quota=(), abort=(),
        harvest=HarvestConfig(min_placed=31, pool_size=50), node_budget=300_000), 7, folder)  # fmt: skip
    keys = sorted(e.key for e in run.pool.entries.values())
    lines = (folder / "pool.jsonl").read_text().splitlines() + (
        folder / "journal.jsonl"
    ).read_text().splitlines()
    return keys, run.pool.counts_dict(), run.nodes, len(lines) == len(set(lines))


@pytest.mark.slow
def test_harvest_survives_kill_9_and_resume_without_duplicates_or_loss(tmp_path):
    nodes = 2_000_000
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    straight = tmp_path / "straight"
    quiet = {"env": env, "stdout": subprocess.DEVNULL}
    subprocess.run([sys.executable, "-c", SCRIPT, str(straight), str(nodes)], check=True, **quiet)
    killed = tmp_path / "killed"
    # each run killed by its own progress, not by a clock (a cold numba cache, a loaded machine); the second
    # one starts from the first one's checkpoint
    for share in (0.4, 0.7):
        command = [sys.executable, "-c", SCRIPT, str(killed), str(nodes)]
        proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
        for line in proc.stdout:
            if int(line) >= share * nodes:
                break
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
    assert _pool_state(killed)[2] < nodes  # the kills did cut the run short
    subprocess.run([sys.executable, "-c", SCRIPT, str(killed), str(nodes)], check=True, **quiet)
    a, b = _pool_state(straight), _pool_state(killed)
    assert a[2] == b[2] == nodes
    assert a[0] == b[0] and len(a[0]) > 0
    assert a[1] == b[1]
    assert b[3]  # no board written twice


def test_a_run_cut_in_two_at_a_checkpoint_equals_the_run_in_one_piece_aborts_included(tmp_path):
    p = _puzzle(6, 6, 3, hints=1, recolour=6, frame=3, inner=4)
    cfg = _cfg(
        scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3)), quota=((10, 0), (20, 8)), node_budget=90_000,
        abort=((300, 30), (1_500, 36)), harvest=HarvestConfig(min_placed=30, pool_size=40),
    )  # fmt: skip
    whole = _run(p, cfg, 11, tmp_path / "whole")
    whole.run(max_nodes=400_000, chunk=7_001)
    first = _run(p, cfg, 11, tmp_path / "cut")
    first.run(max_nodes=123_457, chunk=3_000)
    second = _run(p, cfg, 11, tmp_path / "cut")  # a new process would do the same: all from the folder
    second.run(max_nodes=400_000, chunk=5_000)
    assert whole.lanes[0].aborted > 0 and whole.attempts > 2
    assert (second.attempts, second.lanes[0].aborted) == (whole.attempts, whole.lanes[0].aborted)
    assert sorted(second.pool.entries) == sorted(whole.pool.entries)
    assert second.pool.counts == whole.pool.counts


def test_positions_written_for_256_cells_scale_to_other_boards_and_absolute_ones_are_checked():
    p = _puzzle(8, 8, 1, frame=4, inner=6)
    order = make_order(p, "blackwood", 5)
    rules = make_rules(
        p, order, preset_recipe(_cfg(), p, "blackwood")
    )  # Blackwood's numbers scaled by 64 / 256
    assert rules.allow[49] == 0 and rules.allow[50] == 1 and rules.allow[-1] == 10  # 201 * 64 / 256 = 50
    assert rules.qmin[40] == 119 // 4 and rules.qmin.max() <= 119 / 4
    assert check_dfs(_cfg(breaks=BLACKWOOD_BREAKS), p) == []
    problems = check_dfs(_cfg(scale_from=None, breaks=BLACKWOOD_BREAKS), p)
    assert problems[0][0] == "construct.dfs.breaks[0]" and "beyond the 64 cells" in problems[0][1]


def test_good_pieces_are_deterministic_and_count_once_each_in_the_quota():
    from e2opt.construct.dfs.good import good_pieces
    from e2opt.engine.loader import load_config

    e2 = read_puzzle(ROOT / "instances" / "eternity2.txt")
    good = good_pieces(e2, None)
    assert len(good) == 150 and np.array_equal(good, good_pieces(e2, None))
    assert not set(good.tolist()) & {h.piece for h in e2.hints}
    cfg = load_config(str(ROOT / "config" / "eternity2_verhaard.yaml")).construct.dfs
    recipe = preset_recipe(cfg, e2, "verhaard")
    rules = make_rules(e2, make_order(e2, recipe.order, recipe.teeth), recipe)
    assert sorted(np.nonzero(rules.qval)[0].tolist()) == good.tolist() and rules.qval.max() == 1
    assert rules.qmin[10] == 4 and rules.qmin[19] == 4 and rules.qmin[20] == 7 and rules.qmin[100] == 20
    assert (
        rules.allow[191] == 0 and rules.allow[192] == 1 and rules.allow[-1] == 12
    )  # comb: the hint is position 135


def test_a_harvest_folder_of_the_breakdfs_package_goes_on_with_its_pool_and_counts(tmp_path):
    """tests/data/dfs_before/README.md: a folder written before issue 32; its DFS state cannot be continued."""
    import shutil

    folder = tmp_path / "harvest"
    shutil.copytree(ROOT / "tests" / "data" / "dfs_before" / "harvest", folder)
    p = generate(6, 6, 3, 4, 5, hints=1, recolour=6)[0]
    cfg = _cfg(scale_from=None, teeth=3, breaks=((22, 1), (26, 2), (30, 3), (33, 4)), quota=(), abort=(),
               harvest=HarvestConfig(min_placed=31, pool_size=50), node_budget=300_000)  # fmt: skip
    run = _run(p, cfg, 7, folder)
    assert len(run.pool.entries) == 100 and run.cpu_before > 0
    assert sum(run.pool.counts["placed"].values()) == 46751 + 19550 + 2800 + 13710 + 4792
    assert run.attempts == 0 and len(run.best_codes) == 35  # the deepest partial kept, a fresh DFS
    before = dict(run.pool.counts["placed"])
    run.run(max_nodes=20_000, chunk=1 << 12)
    assert run.attempts >= 1 and sum(run.pool.counts["placed"].values()) > sum(before.values())
