"""construct.method: dfs as a construction: presets, the old sections read as dfs, schedules, completions, progress."""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import INSTANCES, SET1
from helpers import plain_yaml

from e2opt.construct.dfs.build import build_dfs
from e2opt.construct.dfs.complete import beam_fill
from e2opt.construct.dfs.config import DfsConfig, HarvestConfig
from e2opt.construct.dfs.recipes import preset_recipe
from e2opt.construct.dfs.rules import make_rules
from e2opt.construct.finish import fill_by_assignment
from e2opt.core.board import Board, format_board
from e2opt.core.errors import ConfigError
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import format_puzzle
from e2opt.core.verify import verify_texts
from e2opt.engine.loader import load_config
from e2opt.fill.order import make_order


def _valid_score(puzzle, board) -> int:
    report = verify_texts(format_puzzle(puzzle), format_board(board))
    assert report.valid, report.problems
    return report.score


def test_zero_breaks_solve_clue_one_and_set_one_up_to_six_by_six():
    cfg = DfsConfig(recipe="backtrack", breaks=(), node_budget=200_000, time_limit_cpu_s=20,
                    harvest=HarvestConfig(complete=1, repair_cpu_s=0))  # fmt: skip
    small = sorted(p for p in SET1.glob("set1_0*x0*.txt") if max(map(int, p.stem[5:].split("x"))) <= 6)
    paths = [INSTANCES / "clue1_6x6.txt", *small]
    assert len(paths) >= 10
    for path in paths:
        puzzle = read_puzzle(path)
        board, info = build_dfs(puzzle, cfg, np.random.default_rng(1), None, None, None)
        assert info["best_placed"] == puzzle.n_cells, path  # a perfect board: the DFS stops there
        assert _valid_score(puzzle, board) == puzzle.max_score, path


def test_the_backtrack_preset_on_the_real_puzzle_builds_a_valid_board_and_reports():
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    cfg = DfsConfig(
        recipe="backtrack",
        time_limit_cpu_s=0.5,
        harvest=HarvestConfig(complete=1, cpsat_wall_s=0.5, repair_cpu_s=0),
    )
    board, info = build_dfs(puzzle, cfg, np.random.default_rng(3), None, None, None)
    assert _valid_score(puzzle, board) >= info["completion"]["partial_joins"]
    assert info["nodes"] > 0 and info["attempts"] >= 1 and info["best_placed"] > 150
    assert info["recipe"]["recipe"] == "backtrack" and info["recipe"]["frame_breaks"] is False


def test_same_seed_and_bounded_attempts_give_the_same_board():
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    cfg = DfsConfig(recipe="backtrack", node_budget=50_000, max_attempts=3, time_limit_cpu_s=100,
                    harvest=HarvestConfig(complete=1, cpsat_wall_s=0, repair_cpu_s=0))  # fmt: skip
    one, a = build_dfs(puzzle, cfg, np.random.default_rng(9), None, None, None)
    two, b = build_dfs(puzzle, cfg, np.random.default_rng(9), None, None, None)
    three, _ = build_dfs(puzzle, cfg, np.random.default_rng(10), None, None, None)
    assert one == two and a["nodes"] == b["nodes"] == 150_000 and a["attempts"] == 3
    assert one != three


def old_section(tmp_path, name: str, section: dict) -> DfsConfig:
    """The construct.dfs section a config of an older e2opt with ``construct.<name>`` loads as."""
    path = tmp_path / "old.yaml"
    data = {"instance": str(INSTANCES / "eternity2.txt"), "construct": {"method": name, name: section}}
    path.write_text(plain_yaml(data))
    cfg = load_config(path)
    assert cfg.construct.method == "dfs"
    return cfg.construct.dfs


@pytest.mark.parametrize(
    "name, section, equivalent",
    [
        ("breakdfs", {"breaks": [[180, 1], [200, 3]], "quota": [], "time_limit_s": 60, "max_attempts": 2,
                      "node_budget": 30_000, "harvest": {"complete": 1, "cpsat_s": 0, "repair_s": 0}},
         DfsConfig(recipe="blackwood", breaks=((180, 1), (200, 3)), quota=(), abort=(), time_limit_cpu_s=60,
                   max_attempts=2, node_budget=30_000, privileged=(),
                   harvest=HarvestConfig(complete=1, cpsat_wall_s=0, repair_cpu_s=0))),
        ("backtrack", {"time_limit_s": 60, "max_restarts": 2, "node_budget": 30_000, "finish_width": 8},
         DfsConfig(recipe="backtrack", time_limit_cpu_s=60, max_attempts=2, node_budget=30_000, scale_from=None,
                   frame_colour_breaks=True, privileged=(), privileged_frame=0, privileged_inner=3,
                   abort=((1_500, 0.35), (4_500, 0.5), (12_000, 0.59), (21_000, 0.645)),
                   harvest=HarvestConfig(complete=1, cpsat_wall_s=0.0, neighbours=False, beam_width=8, repair_cpu_s=0.0))),
    ],
)  # fmt: skip
def test_an_old_section_is_read_as_the_dfs_section_that_builds_its_board(tmp_path, name, section, equivalent):
    """The node budget ends each build, never a clock, and no CP-SAT completes it (its wall-clock limit): the
    boards do not depend on the machine's load."""
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    translated = old_section(tmp_path, name, section)
    assert preset_recipe(translated, puzzle, equivalent.recipe) == preset_recipe(
        equivalent, puzzle, equivalent.recipe
    )
    assert translated.harvest == equivalent.harvest
    old, _ = build_dfs(puzzle, translated, np.random.default_rng(5), None, None, None)
    new, _ = build_dfs(puzzle, equivalent, np.random.default_rng(5), None, None, None)
    assert old == new


def test_an_old_section_loads_with_one_line_naming_file_and_keys_and_runs_as_dfs(tmp_path, capfd):
    path = tmp_path / "c.yaml"
    data = {"instance": str(INSTANCES / "eternity2.txt"),
            "construct": {"method": "breakdfs", "breakdfs": {"frame_colour_breaks": True},
                          "backtrack": {"teeth": 3}}}  # fmt: skip
    path.write_text(plain_yaml(data))
    cfg = load_config(path)
    load_config(path)  # loaded again (as every worker does): still one line
    err = capfd.readouterr().err.splitlines()
    assert err == [f"warning: {path}: settings of an older e2opt, read under their new names: "
                   "construct.breakdfs -> construct.dfs (recipe: blackwood); construct.method: breakdfs -> "
                   "construct.method: dfs; construct.backtrack -> nothing (no construction used it)"]  # fmt: skip
    assert cfg.construct.dfs.frame_colour_breaks is True and cfg.construct.dfs.recipe == "blackwood"
    path.write_text(
        plain_yaml({"instance": str(INSTANCES / "eternity2.txt"), "construct": {"method": "dfs"}})
    )
    load_config(path)
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize(
    "construct, run, key, words",
    [
        ({"method": "backtrack", "backtrack": {"finish_widht": 8}}, {}, "construct.backtrack.finish_widht",
         "unknown key"),
        ({"method": "breakdfs"}, {"roles": {"method": "backtrack"}}, "run.roles.method", "cannot both run"),
        ({"method": "backtrack", "backtrack": {"node_budget": "9"}}, {}, "construct.backtrack.node_budget",
         "expected an integer"),
        ({"method": "backtrack", "backtrack": {"abort": [["a", 1]]}}, {}, "construct.backtrack.abort", "pairs"),
        ({"method": "backtrack", "backtrack": [1]}, {}, "construct.backtrack", "expected a mapping"),
        ({"method": ["backtrack"]}, {}, "construct.method", "expected one of"),
    ],
)  # fmt: skip
def test_an_old_section_that_cannot_be_read_is_one_line_naming_key_and_file(
    tmp_path, construct, run, key, words
):
    path = tmp_path / "c.yaml"
    data = {"instance": str(INSTANCES / "eternity2.txt"), "construct": construct, "run": run}
    path.write_text(plain_yaml(data))
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value).startswith(f"{path}: ") and f"'{key}'" in str(err.value) and words in str(err.value)


def test_schedules_become_depths_past_the_hints_and_fractions_scale():
    e2 = read_puzzle(INSTANCES / "eternity2.txt")
    recipe = preset_recipe(DfsConfig(recipe="blackwood"), e2, "blackwood")
    rules = make_rules(e2, make_order(e2, recipe.order, recipe.teeth), recipe)
    # the hint is position 119 of Blackwood's order: position 201 is depth 200, 239 is depth 238
    assert (
        rules.allow[199] == 0 and rules.allow[200] == 1 and rules.allow[238] == 10 and rules.allow[-1] == 10
    )
    assert recipe.privileged == (5, 7, 20) and rules.qmin[26] == 28 - 0 and rules.qmin[160] == 0
    small = generate(6, 6, 3, 4, 1)[0]
    back = preset_recipe(DfsConfig(recipe="backtrack"), small, "backtrack")
    assert back.breaks[0] == (round(0.754 * 36), 1) and back.frame_breaks is False
    rules = make_rules(small, make_order(small, back.order, back.teeth), back)
    order = make_order(small, back.order, back.teeth)
    assert (rules.cap[: order.depth][order.rim > 0] == 0).all() and (
        rules.cap[: order.depth][order.rim == 0] == 1
    ).all()


def test_clue_breaks_add_one_break_per_hint_from_its_first_neighbour():
    p = read_puzzle(INSTANCES / "eternity2_5hints.txt")
    base = preset_recipe(DfsConfig(recipe="blackwood", privileged=()), p, "blackwood")
    order = make_order(p, base.order, base.teeth)
    plain = make_rules(p, order, base)
    more = make_rules(p, order, base.with_(clue_breaks=1))
    cell_of = {h.row * p.cols + h.col: i for i, h in enumerate(p.hints)}
    first = {}
    for d in range(order.depth):
        for n in order.nbr[d]:
            if n >= 0 and int(n) in cell_of:
                first.setdefault(cell_of[int(n)], d)
    assert len(first) == len(p.hints) == 5
    added = np.array([sum(d0 <= d for d0 in first.values()) for d in range(order.depth + 1)])
    assert (more.allow - plain.allow == added).all() and more.allow[-1] == plain.allow[-1] + 5
    next_to = [d for d in range(order.depth) if any(int(n) in cell_of for n in order.nbr[d] if n >= 0)]
    assert len(next_to) == 4 * len(p.hints)  # hints count as placed from the start: all four neighbours
    assert (more.cap[next_to] == 1).all()


def test_a_beam_completes_adjacent_holes_and_an_assignment_isolated_ones():
    puzzle, solution = generate(5, 5, 3, 4, seed=2)
    order = make_order(puzzle, "row_scan")
    partial = Board(solution.piece.copy(), solution.rot.copy())
    for cell in order.cells[-6:]:
        partial.piece.ravel()[cell] = -1
    board = beam_fill(puzzle, partial, order, 64, 1)
    assert board is not None and _valid_score(puzzle, board) == puzzle.max_score
    one = Board(solution.piece.copy(), solution.rot.copy())
    one.piece.ravel()[order.cells[-1]] = -1
    r, c = divmod(int(order.cells[-1]), puzzle.cols)
    assert _valid_score(puzzle, fill_by_assignment(puzzle, one, [(r, c)])) == puzzle.max_score


def test_the_dfs_reports_progress_while_it_runs(monkeypatch):
    from e2opt.core import ticks

    monkeypatch.setattr(ticks, "REPORT_EVERY_S", 0.0)
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    lines: list[str] = []
    cfg = DfsConfig(time_limit_cpu_s=0.5, harvest=HarvestConfig(complete=1, cpsat_wall_s=0, repair_cpu_s=0))
    build_dfs(puzzle, cfg, np.random.default_rng(1), None, None, None, lines.append)
    pattern = r"dfs: attempt \d+, deepest (\d+)/256 placed, [\d,]+ nodes per CPU s"
    assert lines and all(re.fullmatch(pattern, line) for line in lines)
    depths = [int(re.fullmatch(pattern, line).group(1)) for line in lines]
    assert depths == sorted(depths) and depths[-1] > 100


def test_the_run_says_how_deep_the_dfs_got_and_how_its_partial_was_completed():
    from e2opt.engine.progress import construction_line

    info = {"method": "dfs", "score": 461, "best_placed": 247, "completion": {"fill": "cpsat holes"}}
    assert (
        construction_line(info, 480)
        == "construction (dfs): 461/480; the DFS placed 247 pieces, holes filled by cpsat holes"
    )
