"""`e2opt bench`: the throughput and quality tables (tiny instances and budgets; no timing assertions)."""

from __future__ import annotations

import pytest
from helpers import plain_search, plain_yaml

from e2opt.bench.runs import (
    QualityRow,
    ThroughputRow,
    Trace,
    _streams,
    format_quality,
    format_throughput,
    quality,
    run_quality,
    throughput,
)
from e2opt.cli.main import main
from e2opt.core.board import random_board, score
from e2opt.core.errors import E2optError
from e2opt.core.formats.read import read_puzzle
from tests.conftest import INSTANCES, SET1


def test_throughput_rows_per_hole_count():
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    rows = throughput(puzzle, [4, 48], repeats=2, cpu_s=0.15)
    assert [row.holes for row in rows] == [4, 48] and all(len(row.rates) == 2 for row in rows)
    few, many = (row.median for row in rows)
    # real moves: thousands per CPU second, and a 48-hole assignment costs far more than a 4-hole one
    assert few > 2000 and many > 100 and few > 3 * many
    table = format_throughput(rows, "eternity2.txt").splitlines()
    assert table[1].split() == ["holes", "median", "min", "max"]
    assert table[2].split()[0] == "4" and table[3].split()[0] == "48"


def test_throughput_row_median_min_max():
    row = ThroughputRow(3, (5000.0, 1000.0, 3000.0))
    assert row.median == 3000.0
    assert format_throughput([row], "x.txt").splitlines()[2].split() == ["3", "3,000", "1,000", "5,000"]


def test_quality_searches_improve_on_their_random_start():
    puzzles = [read_puzzle(SET1 / "set1_03x03.txt"), read_puzzle(INSTANCES / "clue1_6x6.txt")]
    rows = quality(puzzles, plain_search(holes=4), cpu_s=0.3, seeds=[1, 2, 3])
    assert [row.instance for row in rows] == ["set1_03x03", "clue1_6x6"]
    for row, puzzle in zip(rows, puzzles, strict=True):
        start = [score(puzzle, random_board(puzzle, _streams(seed)[0])) for seed in row.seeds]
        assert row.seeds == (1, 2, 3) and len(row.scores) == 3
        assert all(
            start_score < got <= puzzle.max_score for start_score, got in zip(start, row.scores, strict=True)
        )
        assert row.best_known == puzzle.max_score and min(row.moves_per_s) > 1000
    assert rows[0].scores == (12, 12, 12)  # the 3x3 is solved in a fraction of a second
    assert sum(rows[1].scores) - sum(start) >= 30  # 6x6: a random board scores about 12/60
    text = format_quality(rows)
    assert "set1_03x03" in text and "clue1_6x6" in text


def test_quality_marks_read_one_search_at_earlier_budgets():
    puzzle = read_puzzle(INSTANCES / "clue1_6x6.txt")
    rows = quality([puzzle], plain_search(holes=4), cpu_s=0.3, seeds=[1, 2], marks=[0.3, 0.05, 5.0, 0.0])
    assert [row.cpu_s for row in rows] == [0.05, 0.3]  # marks outside (0, budget) are dropped
    early, late = rows
    assert all(a <= b for a, b in zip(early.scores, late.scores, strict=True))
    alone = quality([puzzle], plain_search(holes=4), cpu_s=0.3, seeds=[1, 2])
    assert alone[0].seeds == late.seeds and all(0 < s <= puzzle.max_score for s in late.scores)


def test_trace_score_at_takes_the_best_found_by_then():
    trace = Trace(1e4, ((0.01, 50), (0.5, 60), (2.0, 65), (7.5, 70)))
    assert [trace.score_at(t) for t in (0.0, 0.4, 0.5, 1.9, 2.0, 100)] == [50, 50, 60, 60, 65, 70]


def test_quality_table_computes_the_gap_to_the_best_known():
    row = QualityRow("eternity2", 480, 470, (1, 2, 3), (430, 441, 436), (3e4, 3e4, 3e4), 60.0)
    assert row.best == 441 and row.median == 436
    line = format_quality([row]).splitlines()[2].split()
    assert line[:6] == ["eternity2", "60", "441/480", "436", "470", "29"]


@pytest.mark.slow
def test_bench_cli(tmp_path, capsys):
    config = tmp_path / "c.yaml"
    config.write_text(plain_yaml({"instance": str(SET1 / "set1_03x04.txt"), "search": {"holes": 3}}))
    assert main(["bench", "quality", "--config", str(config), "--max-cpu-s", "0.1", "--seeds", "4", "5"]) == 0
    out = capsys.readouterr().out
    assert "set1_03x04" in out and "/17" in out and "(4), " in out
    args = [
        "--max-cpu-s",
        "0.2",
        "--seeds",
        "1",
        "2",
        "--at",
        "0.1",
        "--workers",
        "2",
        "--set",
        "search.moves.assignment.holes=2",
    ]
    assert main(["bench", "quality", "--config", str(config), *args]) == 0
    lines = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("set1_03x04")]
    assert [line[1] for line in lines] == ["0.1", "0.2"]
    args = [
        "--instance",
        str(SET1 / "set1_04x04.txt"),
        "--holes",
        "3",
        "--repeats",
        "1",
        "--max-cpu-s",
        "0.05",
    ]
    assert main(["bench", "throughput", *args]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split()[0] == "3"
    assert main(["bench", "quality", "--config", str(tmp_path / "missing.yaml"), "--max-cpu-s", "1"]) == 2
    assert "missing.yaml" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, words",
    [
        (["throughput", "--holes", "1"], "--holes 1: a move needs at least 2 holes"),
        (["throughput", "--holes", "8", "--repeats", "0"], "--repeats 0: must be at least 1"),
        (["throughput", "--max-cpu-s", "0"], "--max-cpu-s 0: must be a positive number"),
        (["quality", "--max-cpu-s", "1", "--workers", "0"], "--workers 0: must be at least 1"),
        (["quality", "--max-cpu-s", "0"], "--max-cpu-s 0: must be a positive number"),
        (["quality", "--max-cpu-s", "-2"], "--max-cpu-s -2: must be a positive number"),
        (["quality", "--max-cpu-s", "nan"], "--max-cpu-s nan: must be a positive number"),
        (["quality", "--max-cpu-s", "1", "--seeds", "-1"], "--seeds -1: a seed is a non-negative integer"),
    ],
)
def test_bad_bench_options_are_one_line_errors(tmp_path, capsys, args, words):
    config = tmp_path / "c.yaml"
    config.write_text(f"instance: {SET1 / 'set1_03x04.txt'}\n")
    if args[0] == "quality":
        args = [*args, "--config", str(config)]
    assert main(["bench", *args]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"e2opt: error: {words}"), err


def test_quality_without_seeds_is_an_error(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(f"instance: {SET1 / 'set1_03x04.txt'}\n")
    with pytest.raises(E2optError, match="--seeds: give at least one seed"):
        run_quality(str(config), None, 1.0, [])
