"""Fill orders, candidate tables and the beam construction, against slow references (the DFS: test_dfs_*.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import INSTANCES, SET1
from construct_reference import best_gain_codes, brute_force_best
from helpers import plain_yaml

from e2opt.construct.beam import run_beam
from e2opt.construct.config import BeamConfig
from e2opt.construct.scan import build_beam
from e2opt.core.board import format_board
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import format_puzzle
from e2opt.core.verify import verify_texts
from e2opt.fill.order import ORDERS, make_order
from e2opt.fill.tables import build_tables


def assert_valid(puzzle, board) -> int:
    """The independent verifier accepts the board and the hints are in place; its score."""
    report = verify_texts(format_puzzle(puzzle), format_board(board))
    assert report.valid, report.problems
    for h in puzzle.hints:
        assert (board.piece[h.row, h.col], board.rot[h.row, h.col]) == (h.piece, h.rot)
    return report.score


def codes_of(order, board) -> np.ndarray:
    """The board's placements as codes by depth of ``order``."""
    flat_p, flat_r = board.piece.ravel(), board.rot.ravel()
    return flat_p[order.cells] * 4 + flat_r[order.cells]


@pytest.mark.parametrize("name", sorted(ORDERS))
@pytest.mark.parametrize("hints", [0, 2])
def test_orders_visit_every_cell_and_know_their_placed_neighbours(name, hints):
    puzzle, _ = generate(5, 6, 3, 4, seed=7, hints=hints)
    order = make_order(puzzle, name)
    hinted = {h.row * 6 + h.col for h in puzzle.hints}
    assert sorted([*order.cells, *hinted]) == list(range(30))
    when = {int(c): d for d, c in enumerate(order.cells)} | {c: -1 for c in hinted}
    front = np.full(order.frontier, -1)
    front[: len(hinted)] = sorted(hinted)
    for d, cell in enumerate(order.cells):
        r, c = divmod(int(cell), 6)
        for s, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            rr, cc = r + dr, c + dc
            inside = 0 <= rr < 5 and 0 <= cc < 6
            placed = inside and when[rr * 6 + cc] < d
            assert order.nbr[d, s] == (rr * 6 + cc if placed else -1)
            if placed:  # the frontier slot still holds that neighbour
                assert front[order.fnbr[d, s]] == rr * 6 + cc
        sides = {int(s) for s in [*order.keys[d], *order.extras[d]] if s >= 0}
        assert sides == {s for s in range(4) if order.nbr[d, s] >= 0}
        if order.fpos[d] >= 0:
            front[order.fpos[d]] = cell


def test_tables_list_exactly_the_matching_and_one_off_placements():
    puzzle, _ = generate(4, 5, 2, 3, seed=3, hints=1)
    order = make_order(puzzle, "row_scan")
    t = build_tables(puzzle, order)
    hinted = {h.piece for h in puzzle.hints}
    n = t.colours
    for i, (rim, k0, k1) in enumerate(order.slots):
        every = set(t.every[t.every_start[i] : t.every_start[i + 1]])
        for code in every:
            sides = puzzle.oriented[code // 4, code % 4]
            assert code // 4 not in hinted
            assert all((sides[s] == 0) == bool((rim >> s) & 1) for s in range(4))
        for c0 in range(n if k0 >= 0 else 1):
            for c1 in range(n if k1 >= 0 else 1):
                b = (i * n + c0) * n + c1
                exact = set(t.exact[t.exact_start[b] : t.exact_start[b + 1]])
                off = list(t.one_off[t.one_off_start[b] : t.one_off_start[b + 1]])
                miss = {
                    code: int(k0 >= 0 and t.ocol[code, k0] != c0) + int(k1 >= 0 and t.ocol[code, k1] != c1)
                    for code in every
                }
                assert exact == {code for code, m in miss.items() if m == 0}
                assert sorted(off) == sorted(
                    code for code, m in miss.items() if m == 1 and c0 and (c1 or k1 < 0)
                )


def test_beam_width_one_is_a_greedy_scan():
    puzzle, _ = generate(5, 5, 3, 4, seed=11, hints=1)
    order = make_order(puzzle, "comb")
    board, _ = run_beam(puzzle, order, build_tables(puzzle, order), 1, 1, np.array([5], dtype=np.uint64))
    assert_valid(puzzle, board)
    codes = list(codes_of(order, board))
    for d in range(order.depth):
        _, best = best_gain_codes(puzzle, order, codes[:d], d)
        assert codes[d] in best, d


@pytest.mark.parametrize("seed", range(6))
def test_beam_at_full_width_finds_the_optimum_of_a_3x3(seed):
    puzzle, _ = generate(3, 3, 2, 2, seed=seed)
    order = make_order(puzzle, "row_scan")
    board, _ = run_beam(
        puzzle, order, build_tables(puzzle, order), 5000, 40, np.array([seed], dtype=np.uint64)
    )
    assert assert_valid(puzzle, board) == brute_force_best(puzzle)


def test_beam_on_the_real_puzzle_is_valid_and_seeded():
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    cfg = BeamConfig(width=64, time_limit_cpu_s=None)  # one beam
    one, info = build_beam(puzzle, cfg, np.random.default_rng(1), None, None)
    two, _ = build_beam(puzzle, cfg, np.random.default_rng(1), None, None)
    assert one == two
    assert assert_valid(puzzle, one) > 400
    assert info["expansions"] > 64 * 200


def test_beam_stopped_early_completes_its_best_member():
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    calls = []
    board, _ = build_beam(
        puzzle,
        BeamConfig(width=32, time_limit_cpu_s=None),
        np.random.default_rng(2),
        None,
        lambda: len(calls) > 50 or calls.append(1),
    )
    assert_valid(puzzle, board)


@pytest.mark.parametrize(
    "breaks, words",
    [
        ([[10, 2], [20, 1]], "counts must not decrease"),
        ([[20, 1], [10, 2]], "positions must increase"),
        ([[-3, 1]], "non-negative"),
        ([[0.5, -1]], "non-negative"),
        ([[1.5, 1]], "fractional position is in [0, 1]"),
        ([[0.5, 1], [200, 2]], "mixes absolute"),
        ([[300, 1]], "beyond the 256 cells"),
    ],
)
def test_a_bad_schedule_is_a_config_error(tmp_path, breaks, words):

    from e2opt.core.errors import ConfigError
    from e2opt.engine.loader import load_config

    path = tmp_path / "c.yaml"
    data = {
        "instance": str(INSTANCES / "eternity2.txt"),
        "construct": {"method": "dfs", "dfs": {"breaks": breaks, "scale_from": None}},
    }
    path.write_text(plain_yaml(data))
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "construct.dfs.breaks" in str(err.value) and words in str(err.value)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_beam_section_rejects_unknown_keys(tmp_path):
    from e2opt.core.errors import ConfigError
    from e2opt.engine.loader import load_config

    path = tmp_path / "c.yaml"
    path.write_text(f"instance: {INSTANCES / 'eternity2.txt'}\nconstruct:\n  beam:\n    widht: 3\n")
    with pytest.raises(ConfigError, match=r"unknown key 'construct\.beam\.widht'"):
        load_config(path)
    path.write_text(f"instance: {INSTANCES / 'eternity2.txt'}\nconstruct:\n  beam:\n    width: 0\n")
    with pytest.raises(ConfigError, match=r"construct\.beam\.width"):
        load_config(path)


@pytest.mark.parametrize("method", ["beam", "dfs"])
def test_bench_construct_prints_a_table_per_budget_and_seed(tmp_path, capsys, method):
    from e2opt.cli.main import main

    path = tmp_path / "c.yaml"
    path.write_text(f"instance: {INSTANCES / 'clue1_6x6.txt'}\nconstruct:\n  method: {method}\n")
    assert main(["bench", "construct", "--config", str(path), "--max-cpu-s", "0.2", "--seeds", "1", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"construction ({method}) on clue1_6x6, alone, per CPU budget"
    rows = [line.split() for line in out[2:]]
    assert [row[:2] for row in rows] == [["0.2", "1"], ["0.2", "2"], ["0.2", "median"]]
    assert all(0 < int(row[2]) <= 60 for row in rows[:2])
    assert main(["bench", "construct", "--config", str(path), "--max-cpu-s", "0", "--seeds", "1"]) == 2
    assert "--max-cpu-s 0" in capsys.readouterr().err


@pytest.mark.parametrize("method", ["beam", "dfs"])
def test_a_run_starts_from_the_construction_and_reports_it(tmp_path, method):
    import json

    from e2opt.engine.loader import load_config
    from e2opt.engine.run import run_config

    data = {
        "instance": str(SET1 / "set1_07x07.txt"),
        "seed": 3,
        "construct": {"method": method, method: {"time_limit_cpu_s": 0.3}},
        "search": {"moves": {"assignment": {"holes": 6}}},
        "stop": {"max_iterations": 50},
        "output": {"runs_dir": str(tmp_path / "runs"), "plots": False},
    }
    path = tmp_path / "run.yaml"
    path.write_text(plain_yaml(data))
    result = run_config(load_config(path))
    info = json.loads((Path(result.run_dir) / "result.json").read_text())["construction"]
    assert info["method"] == method and info["score"] <= result.best_score
    assert ("nodes_per_s" if method == "dfs" else "expansions_per_s") in info


def test_beam_reports_progress_while_it_runs(monkeypatch):
    """The lines a run shows during a long construction: beams done, best so far, rate."""
    import re

    from e2opt.core import ticks

    monkeypatch.setattr(ticks, "REPORT_EVERY_S", 0.0)
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    lines: list[str] = []
    cfg = BeamConfig(width=8, fanout=2, time_limit_cpu_s=0.3)
    build_beam(puzzle, cfg, np.random.default_rng(1), None, None, lines.append)
    beam = r"beam: (\d+) beam\(s\), best (\d+)/480, [\d,]+ expansions per CPU s"
    assert lines and all(re.fullmatch(beam, line) for line in lines)
    assert [int(re.fullmatch(beam, line).group(1)) for line in lines] == list(range(1, len(lines) + 1))
