"""`e2opt bench`: the throughput and quality tables (tiny instances and budgets; no timing assertions)."""

from __future__ import annotations

import statistics

import pytest

from e2opt.bench import (
    QualityRow,
    Trace,
    format_quality,
    format_throughput,
    quality,
    run_quality,
    throughput,
)
from e2opt.cli import main
from e2opt.config import SearchConfig
from e2opt.errors import E2optError
from e2opt.puzzle import read_puzzle
from tests.conftest import INSTANCES, SET1


def test_throughput_rows_per_hole_count():
    puzzle = read_puzzle(INSTANCES / "clue1_6x6.txt")
    rows = throughput(puzzle, [3, 6], repeats=3, cpu_s=0.05)
    assert [row.holes for row in rows] == [3, 6]
    for row in rows:
        assert len(row.rates) == 3 and min(row.rates) > 0
        assert row.median == statistics.median(row.rates)
    table = format_throughput(rows, "clue1_6x6.txt").splitlines()
    assert table[1].split() == ["holes", "median", "min", "max"]
    assert table[2].split()[0] == "3" and table[3].split()[0] == "6"


def test_quality_rows_give_best_median_and_gap():
    puzzles = [read_puzzle(SET1 / "set1_03x03.txt"), read_puzzle(INSTANCES / "clue1_6x6.txt")]
    rows = quality(puzzles, SearchConfig(holes=4), cpu_s=0.1, seeds=[1, 2, 3])
    assert [row.instance for row in rows] == ["set1_03x03", "clue1_6x6"]
    for row, puzzle in zip(rows, puzzles, strict=True):
        assert row.seeds == (1, 2, 3) and len(row.scores) == 3
        assert all(0 <= s <= puzzle.max_score for s in row.scores)
        assert row.best_known == puzzle.max_score
    text = format_quality(rows)
    assert "set1_03x03" in text and "clue1_6x6" in text


def test_quality_marks_read_one_search_at_earlier_budgets():
    puzzle = read_puzzle(INSTANCES / "clue1_6x6.txt")
    rows = quality([puzzle], SearchConfig(holes=4), cpu_s=0.3, seeds=[1, 2], marks=[0.3, 0.05, 5.0, 0.0])
    assert [row.cpu_s for row in rows] == [0.05, 0.3]  # marks outside (0, budget) are dropped
    early, late = rows
    assert all(a <= b for a, b in zip(early.scores, late.scores, strict=True))
    alone = quality([puzzle], SearchConfig(holes=4), cpu_s=0.3, seeds=[1, 2])
    assert alone[0].seeds == late.seeds and all(0 < s <= puzzle.max_score for s in late.scores)


def test_trace_score_at_takes_the_best_found_by_then():
    trace = Trace(1e4, ((0.01, 50), (0.5, 60), (2.0, 65), (7.5, 70)))
    assert [trace.score_at(t) for t in (0.0, 0.4, 0.5, 1.9, 2.0, 100)] == [50, 50, 60, 60, 65, 70]


def test_quality_table_computes_the_gap_to_the_best_known():
    row = QualityRow("eternity2", 480, 470, (1, 2, 3), (430, 441, 436), (3e4, 3e4, 3e4), 60.0)
    assert row.best == 441 and row.median == 436
    line = format_quality([row]).splitlines()[2].split()
    assert line[:6] == ["eternity2", "60", "441/480", "436", "470", "29"]


def test_bench_cli(tmp_path, capsys):
    config = tmp_path / "c.yaml"
    config.write_text(f"instance: {SET1 / 'set1_03x04.txt'}\nsearch:\n  holes: 3\n")
    assert main(["bench", "quality", "--config", str(config), "--cpu-s", "0.1", "--seeds", "4", "5"]) == 0
    out = capsys.readouterr().out
    assert "set1_03x04" in out and "/17" in out and "(4), " in out
    args = ["--cpu-s", "0.2", "--seeds", "1", "2", "--at", "0.1", "--workers", "2", "--set", "search.holes=2"]
    assert main(["bench", "quality", "--config", str(config), *args]) == 0
    lines = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("set1_03x04")]
    assert [line[1] for line in lines] == ["0.1", "0.2"]
    args = ["--instance", str(SET1 / "set1_04x04.txt"), "--holes", "3", "--repeats", "1", "--cpu-s", "0.05"]
    assert main(["bench", "throughput", *args]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split()[0] == "3"
    assert main(["bench", "quality", "--config", str(tmp_path / "missing.yaml"), "--cpu-s", "1"]) == 2
    assert "missing.yaml" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, words",
    [
        (["throughput", "--holes", "1"], "--holes 1: a move needs at least 2 holes"),
        (["throughput", "--holes", "8", "--repeats", "0"], "--repeats 0: must be at least 1"),
        (["throughput", "--cpu-s", "0"], "--cpu-s 0: must be a positive number"),
        (["quality", "--cpu-s", "1", "--workers", "0"], "--workers 0: must be at least 1"),
        (["quality", "--cpu-s", "0"], "--cpu-s 0: must be a positive number"),
        (["quality", "--cpu-s", "-2"], "--cpu-s -2: must be a positive number"),
        (["quality", "--cpu-s", "nan"], "--cpu-s nan: must be a positive number"),
        (["quality", "--cpu-s", "1", "--seeds", "-1"], "--seeds -1: a seed is a non-negative integer"),
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
