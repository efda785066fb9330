"""User mistakes and odd but valid inputs (issue 14): one clear line naming the right culprit, or a clean read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from conftest import TINY_BOARD, TINY_PUZZLE, e2opt
from helpers import one_error_line, plain_search

from e2opt.core.board import parse_board, score
from e2opt.core.errors import BoardError, ConfigError, E2optError, PuzzleError
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.generate import generate
from e2opt.core.info import describe
from e2opt.core.puzzle import format_puzzle, parse_puzzle
from e2opt.engine.loader import load_config, read_config_data
from e2opt.engine.resume import resume_run
from e2opt.engine.run import run_config
from e2opt.search.tabu import TabuSearch

# the plain run (helpers.PLAIN) beside the search and stop sections these configs write
PLAIN_TEXT = "construct: {method: random}\nrun: {workers: 1, restart_from: fresh, roles: {method: null}}\n"


def write_config(tmp_path: Path, text: str = "") -> Path:
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    path = tmp_path / "c.yaml"
    path.write_text(
        f"instance: p.txt\nseed: 1\nsearch: {{holes: 2}}\nstop: {{max_iterations: 50}}\n{text}{PLAIN_TEXT}"
    )
    return path


def test_byte_order_mark_and_crlf_read_like_plain_text(tmp_path):
    plain = parse_puzzle(TINY_PUZZLE)
    for name, data in (("bom.txt", "\ufeff" + TINY_PUZZLE), ("crlf.txt", TINY_PUZZLE.replace("\n", "\r\n"))):
        (tmp_path / name).write_bytes(data.encode("utf-8"))
        assert format_puzzle(read_puzzle(tmp_path / name)) == format_puzzle(plain)
    (tmp_path / "b.board").write_bytes(("\ufeff" + TINY_BOARD.replace("\n", "\r\n")).encode())
    assert score(plain, read_board(tmp_path / "b.board")) == plain.max_score
    config = write_config(tmp_path)
    config.write_bytes(b"\xef\xbb\xbf" + config.read_bytes().replace(b"\n", b"\r\n"))
    assert load_config(config).seed == 1


def test_invisible_characters_are_shown_escaped_in_messages():
    with pytest.raises(PuzzleError) as caught:
        parse_puzzle(TINY_PUZZLE.replace("3 4 3 4", "3 4 3\u200b 4"), "p.txt")
    assert "'3\\u200b'" in str(caught.value)


def test_colour_ids_are_renumbered_densely_and_written_back_as_the_file_had_them():
    huge = 9_000_000_000
    head, pieces = TINY_PUZZLE.split("\n", 1)
    text = head + "\n" + pieces.replace(" 4", f" {huge}").replace("3 ", "70 ")
    puzzle = parse_puzzle(text, "big.txt")
    assert int(puzzle.pieces.max()) == 4 and puzzle.colour_ids == (0, 1, 2, 70, huge)
    assert format_puzzle(puzzle).split() == text.split()
    assert f"{huge}:" in describe(puzzle)  # info shows the file's ids
    board = parse_board(TINY_BOARD)
    assert score(puzzle, board) == puzzle.max_score == score(parse_puzzle(TINY_PUZZLE), board)
    search = TabuSearch(puzzle, board, plain_search(holes=2), np.random.default_rng(0))
    need = next(m for m in search.moves if m.name == "assignment")._need
    assert need.size <= 5  # colour-indexed buffers sized by the colours used, not by their ids
    assert parse_puzzle(TINY_PUZZLE).colour_ids == ()  # already dense: nothing to remember


def test_a_run_on_huge_colour_ids_is_small_and_verifies(tmp_path):
    (tmp_path / "p.txt").write_text(TINY_PUZZLE.replace(" 4", " 9000000000"))
    path = tmp_path / "c.yaml"
    path.write_text(
        f"instance: p.txt\nsearch: {{holes: 2}}\nstop: {{max_iterations: 50}}\noutput: {{plots: false}}\n{PLAIN_TEXT}"
    )
    result = run_config(load_config(path, **{"output.runs_dir": str(tmp_path / "runs")}))
    assert result.best_score == 12
    assert e2opt("verify", tmp_path / "p.txt", Path(result.run_dir) / "best.board").returncode == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3 " + "9" * 19 + "\n", r"out of range \(at most 18 digits\)"),
        ("2000 3\n", r"too large \(at most 1024 rows and columns\)"),
        (TINY_PUZZLE.replace("3 4 3 4", "3 4 " + "5" * 40 + " 4"), "out of range"),
    ],
)
def test_numbers_out_of_range_in_puzzles(text, message):
    with pytest.raises(PuzzleError, match=message):
        parse_puzzle(text)


@pytest.mark.parametrize(
    "text",
    ["3 3\n" + "1" * 30 + ":0 0:0 0:0\n0:0 0:0 0:0\n0:0 0:0 0:0\n", "3 " + "9" * 30 + "\n", "1 5\n0:0\n"],
)
def test_numbers_out_of_range_in_boards(text):
    with pytest.raises(BoardError):
        parse_board(text)


def test_huge_files_are_refused_before_they_are_read(tmp_path):
    for name, reader in (("p.txt", read_puzzle), ("b.board", read_board), ("c.yaml", read_config_data)):
        path = tmp_path / name
        with open(path, "wb") as f:
            f.truncate(65 * 2**20)
        with pytest.raises(E2optError, match="too large"):
            reader(path)


def test_yaml_scientific_notation_is_a_number_and_duplicate_keys_are_an_error(tmp_path):
    cfg = load_config(
        write_config(tmp_path, "output: {checkpoint_every_wall_s: 1e2}\n"), ["stop.max_iterations=1e3"]
    )
    assert cfg.output.checkpoint_every_wall_s == 100.0 and cfg.stop.max_iterations == 1000
    with pytest.raises(
        ConfigError, match=r"c\.yaml, line 5: not valid YAML: duplicate key 'seed' \(first on line 2\)"
    ):
        load_config(write_config(tmp_path, "seed: 2\n"))
    path = tmp_path / "d.yaml"
    path.write_text("instance: p.txt\nsearch:\n  holes: 2\n  holes: 3\n")
    with pytest.raises(ConfigError, match=r"d\.yaml, line 4: not valid YAML: duplicate key 'holes'"):
        load_config(path)


@pytest.mark.parametrize(
    ("overrides", "values", "start"),
    [
        ((), {"seed": -1}, "--seed -1: must be non-negative"),
        ((), {"stop.max_wall_s": float("nan")}, "--max-wall-s nan: must be a finite number"),
        ((), {"name": "../x"}, "--name ../x: '../x' cannot be part of a folder name"),
        ((), {"output.runs_dir": " "}, "--runs-dir  : must name a folder"),
        (
            ("search.moves.assignment.holes=40",),
            {},
            "--set search.moves.assignment.holes=40: 40 holes per move, but p has 9 movable cells",
        ),
        (("stop.target_score=13",), {}, "--set stop.target_score=13: 13 is above the maximum score 12"),
        (
            ("search.moves.assignment.tabu_arcs=[1]",),
            {},
            "--set search.moves.assignment.tabu_arcs=[1]: expected a list of 2 values",
        ),
        (("nope.key=1",), {}, "--set nope.key=1: unknown key 'nope'"),
    ],
)
def test_command_line_values_are_blamed_on_the_command_line(tmp_path, overrides, values, start):
    with pytest.raises(ConfigError) as caught:
        load_config(write_config(tmp_path), overrides, **values)
    assert str(caught.value).startswith(start) and "c.yaml" not in str(caught.value)


def test_the_same_mistakes_in_the_file_are_blamed_on_the_file(tmp_path):
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    path = tmp_path / "c.yaml"
    for text, key in (("name: ../x\n", "name"), ("stop: {target_score: 13}\n", "stop.target_score")):
        path.write_text("instance: p.txt\n" + text)
        with pytest.raises(ConfigError, match=rf"c\.yaml: key '{key}'"):
            load_config(path)


def test_default_holes_are_not_a_mistake_on_a_small_puzzle(tmp_path):
    """64 holes (the default) on a 3x3 puzzle: the user did not ask for them, the search takes what there is."""
    path = tmp_path / "c.yaml"
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    path.write_text("instance: p.txt\n")
    assert load_config(path).search.assignment.holes == 64


def test_integers_beyond_64_bits_are_refused(tmp_path):
    with pytest.raises(ConfigError, match="out of range"):
        load_config(write_config(tmp_path), ["search.plateau=" + "9" * 20])


def test_generate_refuses_a_negative_seed_and_a_huge_board():
    with pytest.raises(E2optError, match="--seed -1: must be non-negative"):
        generate(4, 4, 2, 3, -1)
    with pytest.raises(E2optError, match="too large"):
        generate(4000, 4, 2, 3, 1)


def test_argparse_mistakes_are_one_line_too():
    assert "argument --seed: invalid int value: 'x'" in one_error_line(e2opt("run", "c.yaml", "--seed", "x"))
    assert "required: COMMAND" in one_error_line(e2opt())


def test_sweep_seed_count_is_bounded(tmp_path):
    from e2opt.sweep.spec import parse_seeds

    with pytest.raises(ConfigError, match="at most 100000"):
        parse_seeds(10**9, "s.yaml")
    assert parse_seeds(3, "s.yaml") == [1, 2, 3]


def test_a_stored_config_with_default_holes_resumes(tmp_path):
    """A run's config.yaml lists every value, default holes 64 too: resume must not call that a user mistake."""
    (tmp_path / "p.txt").write_text(
        TINY_PUZZLE.replace("3 4 3 4", "3 4 3 5")
    )  # no perfect board: no early stop
    path = tmp_path / "c.yaml"
    path.write_text(
        f"instance: p.txt\nstop: {{max_iterations: 20}}\noutput: {{runs_dir: {tmp_path}/r, plots: false}}\n"
        f"search: {{moves: {{assignment: {{}}}}}}\n{PLAIN_TEXT}"
    )
    first = run_config(load_config(path))
    assert (
        yaml.safe_load((Path(first.run_dir) / "config.yaml").read_text())["search"]["moves"]["assignment"][
            "holes"
        ]
        == 64
    )
    assert resume_run(first.run_dir, overrides=("stop.max_iterations=40",)).iterations == 40
