"""Region-by-region construction: valid boards, brute-force optimum, backtracking cuts, fallbacks, config."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from cpsat_checks import assert_valid
from helpers import plain_yaml

from e2opt.construct import regions as regions_mod
from e2opt.construct.config import RegionsConfig
from e2opt.construct.region_pieces import fill_region, possible_joins
from e2opt.construct.regions import construct_regions, region_list
from e2opt.core import ticks
from e2opt.core.board import Board, join_matches, score
from e2opt.core.errors import ConfigError
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import GREY, Puzzle
from e2opt.engine.loader import load_config
from e2opt.engine.run import run_config

ROOT = Path(__file__).resolve().parents[2]
SET1 = ROOT / "instances" / "brendan_set1"
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def random_puzzle(rows: int, cols: int, colours: int, seed: int) -> Puzzle:
    """Pieces of the right kinds with random colours: usually no perfect board exists."""
    rng = np.random.default_rng(seed)
    pieces = []
    for r in range(rows):
        for c in range(cols):
            rim = (r == 0, c == cols - 1, r == rows - 1, c == 0)
            pieces.append([GREY if edge else int(rng.integers(1, colours + 1)) for edge in rim])
    return Puzzle(rows, cols, np.array(pieces)[rng.permutation(rows * cols)])


def brute_force(p: Puzzle) -> int:
    """The best score over every valid board (tiny puzzles only)."""
    cells = [(r, c) for r in range(p.rows) for c in range(p.cols)]
    by_kind = {k: [i for i in range(len(p.pieces)) if p.kinds[i] == k] for k in range(3)}
    cell_kinds = [p.cell_kind(r, c) for r, c in cells]
    best = -1
    board = Board(np.zeros((p.rows, p.cols), int), np.zeros((p.rows, p.cols), int))
    slots = {k: [i for i, ck in enumerate(cell_kinds) if ck == k] for k in range(3)}
    for perms in itertools.product(*(itertools.permutations(by_kind[k]) for k in range(3))):
        for k in range(3):
            for i, piece in zip(slots[k], perms[k], strict=True):
                board.piece[cells[i]] = piece
        options = [p.valid_rotations(int(board.piece[cell]), *cell) for cell in cells]
        for rots in itertools.product(*options):
            board.rot[:] = np.array(rots).reshape(p.rows, p.cols)
            best = max(best, score(p, board))
    return best


def config(**values) -> RegionsConfig:
    return RegionsConfig(**{"time_limit_wall_s": 5.0, "backtrack_wall_s": 3.0, **values})


SHAPES = [
    {},
    {"height": 2},
    {"shape": "blocks", "height": 2, "width": 3},
    {"order": "frame_first"},
    {"order": "frame_first", "shape": "blocks", "height": 3},
    {"candidates": "best", "candidates_per_cell": 2},
]


@pytest.mark.parametrize("shape", SHAPES)
def test_regions_cover_every_free_cell_once(shape):
    p, _ = generate(7, 9, 3, 4, 2, 3)
    cells = np.concatenate(region_list(p, config(**shape)))
    listed = sorted(map(tuple, cells.tolist()))
    free = sorted((r, c) for r in range(7) for c in range(9) if (r, c) not in p.hint_map())
    assert listed == free


@pytest.mark.parametrize("mode", ["greedy", "backtracking"])
@pytest.mark.parametrize("shape", SHAPES)
def test_boards_are_valid_and_mismatches_add_up(mode, shape):
    p, _ = generate(6, 6, 3, 4, 11, 2)
    board, info = construct_regions(
        p, config(mode=mode, backtrack_wall_s=1.0, **shape), np.random.default_rng(1)
    )
    assert_valid(p, board)
    assert info["regions"] == len(region_list(p, config(**shape))) == len(info["mismatches_per_region"])
    horizontal, vertical = join_matches(p, board)
    hinted = p.hint_map()
    between_hints = sum(
        1
        for (r, c) in hinted
        for matched, other in ((horizontal, (r, c + 1)), (vertical, (r + 1, c)))
        if other in hinted and not matched[r, c]
    )  # joins no region sees
    assert score(p, board) == p.max_score - sum(info["mismatches_per_region"]) - between_hints
    assert not info["fallback_used"] and info["regions_solved"] == info["regions"]


@pytest.mark.parametrize("seed", range(4))
def test_one_region_equal_to_the_board_finds_the_optimum(seed):
    p = random_puzzle(3, 3, 3, seed)
    cfg = config(shape="blocks", height=3, width=3)
    board, info = construct_regions(p, cfg, np.random.default_rng(seed))
    assert_valid(p, board)
    assert info["status_per_region"] == ["optimal"]
    assert score(p, board) == brute_force(p)


def test_one_region_solves_a_perfect_puzzle():
    p = read_puzzle(SET1 / "set1_03x03.txt")
    board, _ = construct_regions(p, config(shape="blocks", height=3, width=3), np.random.default_rng(0))
    assert_valid(p, board)
    assert score(p, board) == p.max_score == brute_force(p)


@pytest.mark.parametrize("limit", [2.0, 1e-9])
def test_warm_start_is_never_worse_than_its_rows_one_by_one(limit):
    p, _ = generate(6, 6, 3, 5, 8, 0)
    board, info = construct_regions(p, config(height=2, time_limit_wall_s=limit), np.random.default_rng(2))
    assert_valid(p, board)
    starts = info["warm_start_joins_per_region"]
    assert None not in starts  # bands of 2 rows
    for i, start in enumerate(starts):
        assert info["mismatches_per_region"][i] <= region_possible(p, board, i) - start
    if limit < 1:  # nothing solved in time: each band keeps its rows' fill
        assert info["status_per_region"] == ["unknown"] * 3 and info["regions_filled"] == 0


def region_possible(p: Puzzle, board: Board, i: int) -> int:
    """The joins band i (of 2 rows) could match when it was placed (the bands before it on the board)."""
    regions = region_list(p, config(height=2))
    partial = board.copy()
    for later in regions[i:]:
        partial.piece[later[:, 0], later[:, 1]] = -1
    return possible_joins(p, partial, regions[i])


def test_possible_joins_and_fill_against_a_slow_reference():
    p, _ = generate(6, 7, 3, 4, 4, 0)
    rng = np.random.default_rng(3)
    board = Board(np.full((6, 7), -1), np.zeros((6, 7), int))
    for cells in region_list(p, config(shape="blocks", height=2, width=3)):
        inside = set(map(tuple, cells.tolist()))
        slow = sum(
            1
            for r in range(6)
            for c in range(7)
            for dr, dc in ((0, 1), (1, 0))
            if r + dr < 6
            and c + dc < 7
            and ((r, c) in inside or (r + dr, c + dc) in inside)
            and ((r, c) in inside or board.piece[r, c] >= 0)
            and ((r + dr, c + dc) in inside or board.piece[r + dr, c + dc] >= 0)
        )
        assert possible_joins(p, board, cells) == slow
        used = set(board.piece[board.piece >= 0].tolist())
        pool = np.array([i for i in range(len(p.pieces)) if i not in used])
        piece, rot = fill_region(p, board, cells, pool, rng)
        board.piece[cells[:, 0], cells[:, 1]], board.rot[cells[:, 0], cells[:, 1]] = piece, rot
    assert_valid(p, board)


def test_backtracking_cuts_the_previous_placement_and_terminates(monkeypatch):
    """Every re-solve after a backtrack returns a placement different from all the excluded ones."""
    p = random_puzzle(5, 5, 4, 7)
    calls = []
    real = regions_mod.solve_region

    def spy(*args, **kwargs):
        sol = real(*args, **kwargs)
        calls.append((list(kwargs["exclude"]), sol))  # a copy: the construction appends to its list
        return sol

    monkeypatch.setattr(regions_mod, "solve_region", spy)
    board, info = construct_regions(
        p, config(mode="backtracking", backtrack_wall_s=4.0), np.random.default_rng(0)
    )
    assert_valid(p, board)
    assert info["backtracks"] > 0
    assert info["backtracking_end"] in ("time limit", "no perfect first region", "complete")
    resolved = [(exclude, sol) for exclude, sol in calls if len(exclude) > 0]
    assert resolved
    for exclude, sol in resolved:
        if sol.status in ("optimal", "feasible"):
            got = (sol.piece.tolist(), sol.rot.tolist())
            assert all(got != (pc.tolist(), np.asarray(rt).tolist()) for pc, rt in exclude)
    assert info["wall_s"] < 4.0 + 5 * 5.0 + 5  # the budget, then greedy over at most 5 regions


def test_backtracking_completes_a_perfect_puzzle():
    """A 4x4 puzzle whose perfect rows need a dozen backtracks (5x5 ones can need thousands)."""
    p, _ = generate(4, 4, 2, 5, 1, 0)
    board, info = construct_regions(
        p, config(mode="backtracking", backtrack_wall_s=20.0), np.random.default_rng(0)
    )
    assert_valid(p, board)
    assert info["backtracking_end"] == "complete" and info["backtracks"] > 0
    assert score(p, board) == p.max_score


def test_too_short_a_time_limit_falls_back_and_says_so(tmp_path):
    p, _ = generate(10, 10, 3, 6, 5, 0)
    cfg = config(shape="blocks", height=10, width=10, time_limit_wall_s=0.001, warm_start=False)
    board, info = construct_regions(p, cfg, np.random.default_rng(0))
    assert_valid(p, board)
    assert info["fallback_used"] and info["regions_filled"] == 1 and info["regions_solved"] == 0
    assert info["status_per_region"] == ["unknown"] and "best-fit fill in 1 of 1" in info["fallback"]


def test_deadline_and_stop_request_still_give_a_complete_board():
    p, _ = generate(6, 6, 3, 4, 1, 1)
    board, info = construct_regions(p, config(), np.random.default_rng(0), deadline_s=0.0)
    assert_valid(p, board)
    assert set(info["status_per_region"]) == {"skipped"} and info["solves"] == 0
    board, info = construct_regions(
        p, config(mode="backtracking"), np.random.default_rng(0), stop_requested=lambda: True
    )
    assert_valid(p, board)
    assert info["interrupted"] and info["solves"] == 0


def test_seeded_runs_repeat():
    p, _ = generate(6, 6, 3, 4, 9, 0)
    cfg = config(candidates="best", candidates_per_cell=3)
    a, _ = construct_regions(p, cfg, np.random.default_rng(5))
    b, _ = construct_regions(p, cfg, np.random.default_rng(5))
    assert a == b


def test_run_records_construction_and_shows_progress(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(ticks, "REPORT_EVERY_S", 0.0)
    path = tmp_path / "c.yaml"
    data = {
        "instance": str(SET1 / "set1_04x04.txt"),
        "construct": {"method": "regions", "regions": {"height": 2, "mode": "backtracking"}},
        "stop": {"max_iterations": 0},
        "output": {"runs_dir": str(tmp_path / "runs"), "plots": False},
    }
    path.write_text(plain_yaml(data))
    result = run_config(load_config(path), quiet=False)
    out = capsys.readouterr().out
    assert "regions: 1/2 placed" in out and "construction (regions)" in out
    saved = json.loads((Path(result.run_dir) / "result.json").read_text())["construction"]
    for key in (
        "regions_solved",
        "backtracks",
        "mismatches_per_region",
        "seconds_per_region",
        "cpu_s_per_region",
    ):
        assert key in saved
    assert saved["score"] == result.best_score


@pytest.mark.parametrize(
    "regions, key, words",
    [
        ({"hieght": 2}, "construct.regions.hieght", "unknown key"),
        ({"mode": "greedy2"}, "construct.regions.mode", "'backtracking'"),
        ({"height": 0}, "construct.regions.height", "positive"),
        ({"width": 2}, "construct.regions.width", "only blocks"),
        ({"time_limit_wall_s": -1}, "construct.regions.time_limit_wall_s", "positive"),
        ({"candidates": "some"}, "construct.regions.candidates", "'best'"),
        ({"height": 5}, "construct.regions.height", "more than the 4"),
        ({"shape": "blocks", "width": 9}, "construct.regions.width", "more than the 4"),
    ],
)
def test_config_errors_name_file_and_key(tmp_path, regions, key, words):
    path = tmp_path / "c.yaml"
    data = {"instance": str(SET1 / "set1_04x04.txt"), "construct": {"method": "regions", "regions": regions}}
    path.write_text(plain_yaml(data))
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(path) in str(err.value) and f"'{key}'" in str(err.value) and words in str(err.value)
