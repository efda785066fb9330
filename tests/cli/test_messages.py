"""Exact messages, defaults and edge cases of the readers, the verifier and the stopping criteria.

Written against the mutants that survived the first mutation run (docs/mutation.md): each test pins down a
behaviour that a one-token change of the code would alter unnoticed.
"""

from __future__ import annotations

import os
import time
from dataclasses import fields
from typing import Literal

import numpy as np
import pytest
import yaml
from conftest import TINY_BOARD, TINY_PUZZLE
from helpers import MALFORMED

from e2opt.config.schema import _type_name, set_dotted, yaml_load
from e2opt.config.sections import OutputConfig, StopConfig
from e2opt.construct.config import CpSatConfig
from e2opt.core import fsutil
from e2opt.core.board import Board, cell_mismatches, parse_board, write_board
from e2opt.core.errors import BoardError, ConfigError, PuzzleError
from e2opt.core.formats.read import read_puzzle_cached
from e2opt.core.puzzle import parse_puzzle, rotate
from e2opt.core.signals import Interrupted
from e2opt.core.verify import verify_files
from e2opt.engine.config import RunConfig
from e2opt.engine.loader import load_config, parse_override, read_config_data
from e2opt.search.config import SearchConfig
from e2opt.search.moves.assignment import AssignmentConfig
from e2opt.search.stop import AnyOf, Clock, MaxCpuTime, Status


@pytest.fixture
def files(tmp_path):
    puzzle, board = tmp_path / "p.txt", tmp_path / "b.board"
    puzzle.write_text(TINY_PUZZLE)
    board.write_text(TINY_BOARD)
    return puzzle, board


# --- verify.py: files that cannot be read are named, with the reason ---


def test_verify_files_names_the_unreadable_file_and_why(files, tmp_path):
    puzzle, board = files
    missing = tmp_path / "missing.txt"
    with pytest.raises(PuzzleError) as caught:
        verify_files(missing, board)
    assert str(caught.value) == f"{missing}: no such file"  # as every reader says it (fsutil.read_user_text)
    with pytest.raises(BoardError) as caught:
        verify_files(puzzle, missing)
    assert str(caught.value) == f"{missing}: cannot read board file: no such file"
    latin = tmp_path / "latin.txt"
    latin.write_bytes(TINY_PUZZLE.encode() + b"# caf\xe9\n")
    with pytest.raises(PuzzleError, match=r"not UTF-8 text \(bad byte at offset 81\)"):
        verify_files(latin, board)


def test_verify_files_names_each_file_in_its_format_errors(files, tmp_path):
    puzzle, board = files
    bad = tmp_path / "bad.txt"
    bad.write_text("3 x\n")
    with pytest.raises(PuzzleError) as caught:
        verify_files(bad, board)
    assert str(caught.value).startswith(f"{bad}, line 1: ")
    bad.write_text("3 3\n0:0\n")
    with pytest.raises(BoardError) as caught:
        verify_files(puzzle, bad)
    assert str(caught.value).startswith(f"{bad}: header says 3 rows")


# --- puzzle.py and board.py ---


def test_rotate_takes_any_number_of_quarter_turns():
    sides = (1, 2, 3, 4)
    assert rotate(sides, 1) == (4, 1, 2, 3)
    assert rotate(sides, 5) == rotate(sides, 1) and rotate(sides, -1) == rotate(sides, 3) == (2, 3, 4, 1)
    assert rotate(sides, 4) == sides


def test_board_equality_needs_the_same_pieces_and_rotations():
    board = parse_board(TINY_BOARD)
    turned = Board(board.piece, (board.rot + 1) % 4)
    swapped = Board(board.piece[::-1], board.rot)
    assert board == board.copy() and board != turned and board != swapped
    assert board != TINY_BOARD and board != None  # noqa: E711 - __eq__ with other types


def test_cell_mismatches_counts_each_cells_bad_joins():
    puzzle = parse_puzzle(TINY_PUZZLE)
    board = parse_board(TINY_BOARD)
    assert cell_mismatches(puzzle, board).tolist() == [[0] * 3] * 3
    broken = Board(board.piece, board.rot.copy())
    broken.rot[1, 1] = (broken.rot[1, 1] + 1) % 4  # the centre turned: its four joins break
    counts = cell_mismatches(puzzle, broken)
    assert counts.dtype.kind == "i"
    assert counts.tolist() == [[0, 1, 0], [1, 4, 1], [0, 1, 0]]


def test_write_board_flushes_to_disk_unless_told_not_to(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(fsutil.os, "fsync", lambda fd: calls.append(fd))
    board = parse_board(TINY_BOARD)
    write_board(board, tmp_path / "a.board")
    assert len(calls) == 1
    write_board(board, tmp_path / "b.board", fsync=False)
    assert len(calls) == 1 and parse_board((tmp_path / "b.board").read_text()) == board


# --- configload.py ---


@pytest.mark.parametrize(
    ("tp", "name"),
    [
        (type(None), "null"),
        (int, "an integer"),
        (float, "a number"),
        (str, "a string"),
        (bool, "true or false"),
        (Literal["a", "b"], "'a' or 'b'"),
        (int | None, "an integer or null"),
        (int | tuple[int, int], "an integer or a list of 2 values"),
        (tuple[int, ...], "a list of an integer"),
        (tuple[int, int, int], "a list of 3 values"),
        (StopConfig, "a mapping"),
        (bytes, "bytes"),
    ],
)
def test_type_names_in_messages(tp, name):
    assert _type_name(tp) == name


def test_set_dotted_keeps_the_rest_of_a_section_and_names_a_non_section():
    data = {"search": {"holes": 2}}
    set_dotted(data, "search.bias", 1.0)
    set_dotted(data, "stop.max_cpu_s", 5)
    assert data == {"search": {"holes": 2, "bias": 1.0}, "stop": {"max_cpu_s": 5}}
    with pytest.raises(ConfigError) as caught:
        set_dotted(data, "search.holes.x", 1)
    assert str(caught.value) == "--set search.holes.x: 'holes' is not a section"


def test_duplicate_keys_are_found_after_an_unhashable_key():
    with pytest.raises(yaml.YAMLError, match="duplicate key 'a'"):
        yaml_load("? [1]\n: 2\na: 1\na: 2\n")
    assert yaml_load("a: {b: [1, {c: 2}]}\n") == {"a": {"b": [1, {"c": 2}]}}


# --- config.py ---


def test_parse_override_splits_at_the_first_equals_and_keeps_bad_yaml_as_text():
    assert parse_override("name=a=b") == ("name", "a=b")
    assert parse_override("name=[oops") == ("name", "[oops")
    assert parse_override(" stop.max_cpu_s = 1e3") == ("stop.max_cpu_s", 1000.0)
    assert parse_override("name=") == ("name", None)


def test_to_yaml_keeps_the_field_order():
    cfg = RunConfig(instance="p.txt")
    assert list(yaml.safe_load(cfg.to_yaml())) == [f.name for f in fields(RunConfig)]
    assert cfg.to_yaml().startswith("instance: p.txt\n")


def test_values_from_code_are_blamed_by_their_dotted_key(tmp_path):
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    path = tmp_path / "c.yaml"
    path.write_text("instance: p.txt\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path, **{"search.moves.assignment.holes": 40})
    assert (
        str(caught.value) == "search.moves.assignment.holes=40: 40 holes per move, but p has 9 movable cells"
    )
    assert (caught.value.key, caught.value.problem) == (
        "search.moves.assignment.holes",
        "40 holes per move, but p has 9 movable cells",
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path, seed=-2)
    assert (caught.value.key, caught.value.problem) == ("seed", "must be non-negative, got -2")
    assert (
        load_config(path, **{"search.moves.assignment.holes": 64}).search.assignment.holes
        == AssignmentConfig().holes
    )  # the default: fine


# --- stop.py ---


def test_clock_starts_at_zero_or_at_the_given_offsets():
    clock = Clock()
    assert 0 <= clock.wall() < 0.5 and 0 <= clock.cpu() < 0.5
    later = Clock(100.0, 50.0)
    assert 100 <= later.wall() < 100.5 and 50 <= later.cpu() < 50.5
    time.sleep(0.01)
    assert clock.wall() >= 0.01


def test_interrupted_and_any_of_start_untriggered_with_their_reasons():
    stop = Interrupted()
    assert stop.triggered is False and stop.reason == "interrupted" and not stop(Status())
    stop.trigger()
    assert stop.triggered is True and stop.reason == "interrupted" and stop(Status())
    stop.trigger("SIGTERM")
    assert stop.reason == "SIGTERM"
    assert AnyOf().reason == "" and not AnyOf()(Status())
    assert MaxCpuTime(2.0)(Status(cpu_s=2.0)) and not MaxCpuTime(2.0)(Status(cpu_s=np.nextafter(2.0, 0)))


# --- config.py: every range check, at its bound, with its message ---

RANGE_CHECKS = [
    (CpSatConfig, "relaxed", True), (CpSatConfig, "time_limit_wall_s", False), (CpSatConfig, "num_workers", False),
    (CpSatConfig, "symmetry_level", True), (CpSatConfig, "probing_level", True),
    (CpSatConfig, "max_presolve_iterations", False), (CpSatConfig, "max_attempts", False),
    (CpSatConfig, "fallback_rounds", True), (CpSatConfig, "fallback_step", False),
    (CpSatConfig, "fallback_time_limit_wall_s", False),
    (AssignmentConfig, "bias", True), (AssignmentConfig, "reverse_penalty", True), (AssignmentConfig, "cost_noise", True),
    (SearchConfig, "plateau", False), (SearchConfig, "diversify_swaps", True), (SearchConfig, "intensify_after", False),
    (StopConfig, "max_wall_s", False), (StopConfig, "max_cpu_s", False), (StopConfig, "max_iterations", True),
    (StopConfig, "target_score", False), (StopConfig, "max_intensifications", False),
    (OutputConfig, "checkpoint_every_wall_s", False), (OutputConfig, "stats_every_wall_s", False),
    (OutputConfig, "progress_every_wall_s", False), (OutputConfig, "log_every_wall_s", False),
    (RunConfig, "seed", True),
]  # fmt: skip


def _make(cls, **kwargs):
    return cls(instance="p.txt", **kwargs) if cls is RunConfig else cls(**kwargs)


@pytest.mark.parametrize(
    ("cls", "name", "zero_ok"), RANGE_CHECKS, ids=lambda v: getattr(v, "__name__", str(v))
)
def test_each_range_check_at_its_bound(cls, name, zero_ok):
    word = "non-negative" if zero_ok else "positive"
    with pytest.raises(ValueError) as caught:
        _make(cls, **{name: -1})
    assert str(caught.value) == f"{name}: must be {word}, got -1"
    if zero_ok:
        assert getattr(_make(cls, **{name: 0}), name) == 0
    else:
        with pytest.raises(ValueError, match=f"^{name}: must be positive, got 0$"):
            _make(cls, **{name: 0})
    assert getattr(_make(cls, **{name: 1}), name) == 1
    if isinstance(getattr(_make(cls), name), float):
        with pytest.raises(ValueError, match=f"^{name}: must be a finite number, got inf$"):
            _make(cls, **{name: float("inf")})


def test_a_fallback_step_listed_twice_is_named():
    with pytest.raises(ValueError) as caught:
        CpSatConfig(fallback=("max_matches", "more_relaxed", "max_matches"))
    assert (
        str(caught.value)
        == "fallback: a step is listed twice: ['max_matches', 'more_relaxed', 'max_matches']"
    )


@pytest.mark.parametrize("name", [".", "..", "a/b", "a\\b", "tab\there", "x" * 101])
def test_run_names_that_cannot_be_a_folder_name(name):
    with pytest.raises(ValueError, match="cannot be part of a folder name"):
        RunConfig(instance="p.txt", name=name)


@pytest.mark.parametrize("name", ["a.b", "..x", "x" * 100, "run 1", "ü"])
def test_run_names_that_can(name):
    assert RunConfig(instance="p.txt", name=name).name == name


def test_limits_hold_at_their_bounds_and_count_hints(tmp_path):
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    (tmp_path / "h.txt").write_text(TINY_PUZZLE + "hint 7 1 1 2\n")
    path = tmp_path / "c.yaml"
    path.write_text("instance: p.txt\n")
    assert load_config(path, ["search.holes=9", "stop.target_score=12"]).stop.target_score == 12
    path.write_text("instance: h.txt\n")
    with pytest.raises(ConfigError, match="9 holes per move, but h has 8 movable cells"):
        load_config(path, ["search.holes=9"])
    assert load_config(path, ["search.holes=8"]).search.assignment.holes == 8


def test_config_file_messages(tmp_path):
    path = tmp_path / "c.yaml"
    with pytest.raises(ConfigError) as caught:
        read_config_data(path)
    assert str(caught.value) == f"{path}: no such config file"
    path.write_text("- a\n")
    with pytest.raises(ConfigError) as caught:
        read_config_data(path)
    assert str(caught.value) == f"{path}: the config must be a mapping of sections"
    path.write_text("instance: [p.txt\n")
    with pytest.raises(ConfigError) as caught:
        read_config_data(path)
    message = str(caught.value)
    assert message.startswith(f"{path}, line 2: not valid YAML: expected ',' or ']'") and "\n" not in message
    path.write_text("instance: p\x07\n")  # a reader error: no line mark, no 'problem'
    with pytest.raises(ConfigError) as caught:
        read_config_data(path)
    assert str(caught.value).startswith(f"{path}: not valid YAML: unacceptable character #x0007")


def test_max_iterations_zero_is_allowed():
    assert StopConfig(max_iterations=0).max_iterations == 0


# --- configload.py: the message of each type mismatch ---


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("search: 3", "key 'search': expected a mapping, got 3"),
        ("search: {bias: x}", "key 'search.bias': expected a number, got 'x'"),
        ("name: 3", "key 'name': expected a string, got 3"),
        ("search: {check: 1}", "key 'search.check': expected true or false, got 1"),
        ("construct: {method: magic}", "key 'construct.method': expected one of 'random', 'cpsat', 'board', 'beam', 'dfs', 'regions', got 'magic'"),
        ("construct: {method: true}", "key 'construct.method': expected one of 'random', 'cpsat', 'board', 'beam', 'dfs', 'regions', got True"),
        ("search: {tabu_cells: 3}", "key 'search.tabu_cells': expected a list of 2 values, got 3"),
        ("search: {tabu_cells: [1, 2, 3]}", "key 'search.tabu_cells': expected a list of 2 values, got [1, 2, 3]"),
        ("stop: {max_cpu_s: x}", "key 'stop.max_cpu_s': expected a number or null, got 'x'"),
        ("seed: 9223372036854775808", "key 'seed': 9223372036854775808 is out of range (at most 9223372036854775807)"),
        ("seed: 2.5", "key 'seed': expected an integer, got 2.5"),
        ("stop: {maxcpu: 1}", "unknown key 'stop.maxcpu' (known here: max_cpu_s, max_intensifications, "
         "max_iterations, max_wall_s, target_score)"),
    ],
)  # fmt: skip
def test_type_mismatch_messages(tmp_path, text, message):
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    path = tmp_path / "c.yaml"
    path.write_text(f"instance: p.txt\n{text}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == f"{path}: {message}"


def test_integers_up_to_64_bits_and_integral_floats_are_taken(tmp_path):
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    path = tmp_path / "c.yaml"
    path.write_text("instance: p.txt\nseed: 9223372036854775807\nstop: {max_iterations: 2.0e3}\n")
    cfg = load_config(path)
    assert (
        cfg.seed == 2**63 - 1 and cfg.stop.max_iterations == 2000 and isinstance(cfg.stop.max_iterations, int)
    )


# --- puzzle.py: the cached read notices a changed file ---


def test_cached_puzzle_read_sees_every_change(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(TINY_PUZZLE)
    first = read_puzzle_cached(path)
    assert read_puzzle_cached(path) is first  # unchanged: read once
    stat = path.stat()
    path.write_text(TINY_PUZZLE.replace("3 4 3 4", "3 4 3 9"))  # same size, later mtime
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    second = read_puzzle_cached(path)
    assert int(second.pieces.max()) > int(first.pieces.max())
    stat = path.stat()
    path.write_text(TINY_PUZZLE + "hint 7 1 1 2\n")  # another size, the same mtime
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert len(read_puzzle_cached(path).hints) == 1
    with pytest.raises(PuzzleError, match="no such file"):
        read_puzzle_cached(tmp_path / "missing.txt")


# --- board.py: every parse error, with its line ---


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "b.board, line 1: missing header 'rows cols'"),
        ("# only a comment\n\n", "b.board, line 1: missing header 'rows cols'"),
        ("\n\n3\n", "b.board, line 3: missing header 'rows cols'"),
        ("\n1 5\n0:0\n", "b.board, line 2: bad header: board 1x5 is below 2x2"),
        ("2 2\n0:0 1:0\n", "b.board, line 2: expected 2 rows of cells, found 1"),
        ("\n2 2\n", "b.board, line 2: expected 2 rows of cells, found 0"),
        ("2 2\n0:0 1:0\n2:0 3:0\n\n0:0 0:0\n", "b.board, line 5: expected 2 rows of cells, found 3"),
        ("2 2\n0:0 1:0\n2:0\n", "b.board, line 3: expected 2 cells 'piece:rotation', got 1"),
        ("2 2\n0:0 1:0\n2:0 3:0:1\n", "b.board, line 3: '3:0:1' is not 'piece:rotation'"),
        ("2 2\n0:0 1:0\n2:0 :1\n", "b.board, line 3: ':1' is not 'piece:rotation'"),
        ("2 2\n0:0 1:0\n2:0 31\n", "b.board, line 3: '31' is not 'piece:rotation'"),
    ],
)
def test_board_parse_errors_name_the_line(text, message):
    with pytest.raises(BoardError) as caught:
        parse_board(text, "b.board")
    assert str(caught.value) == message


def test_board_comments_and_default_name():
    board = parse_board("2 2 # size # again\n0:0 1:3 # first row\n# a line of comment\n2:0 3:1\n")
    assert board.piece.tolist() == [[0, 1], [2, 3]] and board.rot.tolist() == [[0, 3], [0, 1]]
    assert board.piece.dtype == np.int64
    with pytest.raises(BoardError, match=r"^<string>, line 1: "):
        parse_board("x")


# --- verify.py: every broken rule is reported, each with its cell ---


def test_verify_reports_every_broken_rule_in_order():
    from e2opt.core.verify import parse_board_text, parse_puzzle_text, verify

    puzzle = parse_puzzle_text(TINY_PUZZLE.replace("2 0 0 1\n", "0 0 0 1\n") + "hint 7 1 1 2\n")
    board = parse_board_text("3 3\n9:0 9:1 0:3\n4:0 7:0 4:0\n1:1 2:0 8:5\n")
    assert verify(puzzle, board).problems == [
        "cell (0,0), piece 9: piece id out of range (pieces are 0..8)",
        "cell (0,1), piece 9: piece id out of range (pieces are 0..8)",
        "cell (1,2), piece 4: piece used twice (also at (1, 0))",
        "cell (1,2), piece 4: rim side right is colour 4, not grey",
        "cell (1,2), piece 4: grey side left does not face the rim",
        "cell (2,2), piece 8: rotation 5 is not 0..3",
        "cell (1,1), piece 7: hint not in place (the hint wants 7:2, the board has 7:0)",
        "piece 3: missing from the board",
        "piece 5: missing from the board",
        "piece 6: missing from the board",
    ]  # piece 8 is on the board, badly turned: not missing (issue 34)
    whole = verify(puzzle, parse_board_text("3 3\n5:3 3:1 0:3\n4:0 7:2 6:2\n1:1 2:0 8:0\n"))
    assert whole.problems == ["cell (2,2), piece 8: piece kind 3-grey on cell kind corner"]
    small = verify(puzzle, parse_board_text("2 2\n0:0 1:0\n2:0 3:0\n"))
    assert (small.score, small.max_score, small.problems) == (0, 12, ["board is 2x2, puzzle is 3x3"])
    with pytest.raises(BoardError, match=r"^<board>: header says"):
        parse_board_text("2 2\n")


# --- config.py: paths, bounds and messages of whole configs ---


def test_a_warm_start_board_path_resolves_against_the_config_folder(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    (tmp_path / "sub" / "b.board").write_text(TINY_BOARD)
    path = tmp_path / "sub" / "c.yaml"
    path.write_text("instance: ../p.txt\nconstruct: {method: board, board: b.board}\n")
    cfg = load_config(path)
    assert cfg.construct.board == str(tmp_path / "sub" / "b.board") and cfg.instance == str(
        tmp_path / "p.txt"
    )
    path.write_text("instance: ../p.txt\nconstruct: {method: board, board: nope.board}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert (
        str(caught.value)
        == f"{path}: key 'construct.board': no board file at {tmp_path / 'sub' / 'nope.board'}"
    )


def test_config_data_that_is_not_a_mapping():
    from e2opt.engine.loader import config_from_dict

    with pytest.raises(ConfigError) as caught:
        config_from_dict(["instance"], "c.yaml")
    assert str(caught.value) == "c.yaml: the config must be a mapping of sections"


def test_messages_with_a_colon_inside_keep_the_right_key(tmp_path):
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    path = tmp_path / "c.yaml"
    path.write_text("instance: p.txt\nconstruct: {cpsat: {fallback: [max_matches, max_matches]}}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == (
        f"{path}: key 'construct.cpsat.fallback': a step is listed twice: ['max_matches', 'max_matches']"
    )
    assert caught.value.problem == "a step is listed twice: ['max_matches', 'max_matches']"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"holes": 1}, "holes: needs [min, max] with 2 <= min <= max, got [1, 1]"),
        ({"holes": (1, 5)}, "holes: needs [min, max] with 2 <= min <= max, got [1, 5]"),
        ({"holes": (6, 5)}, "holes: needs [min, max] with 2 <= min <= max, got [6, 5]"),
        ({"tabu_cells": (-1, 2)}, "tabu_cells: needs [min, max] with 0 <= min <= max, got [-1, 2]"),
        ({"tabu_arcs": (3, 2)}, "tabu_arcs: needs [min, max] with 0 <= min <= max, got [3, 2]"),
    ],
)
def test_search_bounds(kwargs, message):
    with pytest.raises(ValueError) as caught:
        SearchConfig.of(**kwargs)
    assert str(caught.value) == message


def test_search_bounds_accept_their_edges():
    cfg = SearchConfig.of(holes=(2, 2), tabu_cells=(0, 0), tabu_arcs=(5, 5)).assignment
    assert cfg.holes_range == (2, 2) and SearchConfig.of(holes=7).assignment.holes_range == (7, 7)


# --- puzzle.py: the whole message of every malformed case of test_puzzle.py ---

EXACT = {
    "empty file": "p.txt, line 1: missing header 'rows cols' (the file is empty)",
    "header with four numbers": "p.txt, line 1: bad header: expected 'rows cols', got 4 tokens",
    "header not a number": "p.txt, line 1: 'x' is not a non-negative integer",
    "too few pieces": "p.txt, line 9: wrong number of pieces: 3x3 needs 9, the file has 8",
    "too many pieces": "p.txt, line 11: wrong number of pieces: 3x3 needs 9, the file has 10",
    "negative colour": "p.txt, line 5: '-2' is not a non-negative integer",
    "word for colour": "p.txt, line 5: 'blue' is not a non-negative integer",
    "unicode digit in the header": "p.txt, line 1: '³' is not a non-negative integer",
    "unicode digit for colour": "p.txt, line 5: '²' is not a non-negative integer",
    "unicode digit in a hint": "p.txt, line 11: '²' is not a non-negative integer",
    "three colours on a line": "p.txt, line 5: a piece line needs 4 colours 't r b l', got 3 tokens",
    "five colours on a line": "p.txt, line 5: a piece line needs 4 colours 't r b l', got 5 tokens",
    "grey on opposite sides": "p.txt, line 9: piece 7 has grey on opposite sides",
    "grey on three sides": "p.txt, line 9: piece 7 has grey on 3 sides (at most 2)",
    "grey on four sides": "p.txt, line 9: piece 7 has grey on 4 sides (at most 2)",
    "an edge piece too many": "p.txt, line 9: wrong number of edge pieces: piece 7 is one more than the 4 a 3x3 board has",
    "a corner too many": "p.txt, line 10: wrong number of corner pieces: piece 8 is one more than the 4 a 3x3 board has",
    "hint line too short": "p.txt, line 11: hint line needs 'hint piece row col rotation', got 4 tokens",
    "hint names a missing piece": "p.txt, line 11: hint names piece 9, but pieces are 0..8",
    "hint cell off the board": "p.txt, line 11: hint cell (3,1) is off the 3x3 board",
    "hint rotation above 3": "p.txt, line 11: hint rotation 4 is not 0..3",
    "hint cell of the wrong kind": "p.txt, line 11: hint puts inner piece 7 on corner cell (0,0)",
    "hint turns grey inward": "p.txt, line 11: hint rotation 1 of piece 8 at (2,2) does not turn grey toward the rim",
    "two hints on one cell": "p.txt, line 12: two hints on cell (2,2) (first on line 11)",
    "one piece hinted twice": "p.txt, line 12: piece 8 is hinted twice (first on line 11)",
    "piece after a hint": "p.txt, line 12: piece line after a hint line (hints come last)",
}


@pytest.mark.parametrize("case, text, line, words", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_puzzle_messages_in_full(case, text, line, words):
    with pytest.raises(PuzzleError) as caught:
        parse_puzzle(text, "p.txt")
    assert str(caught.value) == EXACT[case]
    assert (caught.value.path, caught.value.line) == ("p.txt", line)


def test_puzzle_details_beyond_the_messages():
    puzzle = parse_puzzle(
        "# a comment # with two hashes\n" + TINY_PUZZLE.replace("3 4 3 4", "3 4 3 4 # centre")
    )
    assert puzzle.name == "<string>" and puzzle.path == "<string>" and puzzle.n_cells == 9
    assert puzzle.pieces.dtype == np.int64 and not puzzle.pieces.flags.writeable
    assert puzzle.kinds.tolist() == [0, 0, 1, 1, 1, 0, 1, 2, 0] and not puzzle.oriented.flags.writeable
    assert puzzle.max_score == 12 and puzzle.hint_map() == {}
    assert puzzle.valid_rotations(0, 0, 0) == [2] and puzzle.valid_rotations(7, 0, 0) == []
    assert puzzle.fits(5, 0, 0, 3) and not puzzle.fits(5, 0, 0, 0) and puzzle.fits(5, 0, 0, 7)
    assert [puzzle.cell_kind(r, c) for r, c in ((0, 0), (0, 1), (1, 1), (2, 2))] == [0, 1, 2, 0]
    assert puzzle.rim_sides(0, 2) == (True, True, False, False)
    hinted = parse_puzzle(TINY_PUZZLE + "hint 7 1 1 2\n", "dir/h.txt")
    assert hinted.name == "h" and hinted.hint_map()[(1, 1)].rot == 2


# --- the last survivors of the second run ---


def test_verify_checks_every_cell_after_a_bad_rotation():
    from e2opt.core.verify import parse_board_text, parse_puzzle_text, verify

    board = parse_board_text("3 3\n5:4 3:1 0:7\n4:0 7:2 6:2\n1:1 2:0 8:0\n")
    assert verify(parse_puzzle_text(TINY_PUZZLE), board).problems == [
        "cell (0,0), piece 5: rotation 4 is not 0..3",
        "cell (0,2), piece 0: rotation 7 is not 0..3",
    ]  # the badly turned pieces are on the board: none is reported missing


def test_board_error_names_the_first_extra_row():
    with pytest.raises(BoardError, match=r"^b\.board, line 4: expected 2 rows of cells, found 4$"):
        parse_board("2 2\n0:0 1:0\n2:0 3:0\n0:0 0:0\n0:0 0:0\n", "b.board")


def test_write_puzzle_writes_what_format_puzzle_says(tmp_path):
    from e2opt.core.puzzle import format_puzzle, write_puzzle

    puzzle = parse_puzzle(TINY_PUZZLE.replace(" 4", " 40") + "hint 7 1 1 2\n")
    write_puzzle(puzzle, tmp_path / "w.txt")
    assert (
        (tmp_path / "w.txt").read_text()
        == format_puzzle(puzzle)
        == TINY_PUZZLE.replace(" 4", " 40") + "hint 7 1 1 2\n"
    )


def test_type_name_of_something_without_a_name_is_its_text():
    assert _type_name(3) == "3"


def test_an_unsupported_field_type_or_a_plain_value_error_in_a_config_class():
    from dataclasses import dataclass

    from e2opt.config.schema import build

    @dataclass(frozen=True)
    class Odd:
        data: bytes = b""

    with pytest.raises(TypeError, match=r"^unsupported config field type <class 'bytes'> at data$"):
        build(Odd, {"data": 1}, "s.yaml")

    @dataclass(frozen=True)
    class Plain:
        n: int = 0

        def __post_init__(self):
            if self.n:
                raise ValueError("plain")

    with pytest.raises(ConfigError) as caught:
        build(Plain, {"n": 1}, "s.yaml")
    assert (str(caught.value), caught.value.key, caught.value.problem) == (
        "s.yaml: key 'plain': plain",
        "plain",
        "plain",
    )


VERIFY_ERRORS = [
    ("", "puzzle", "f, line 1: missing header 'rows cols'"),
    ("\n\n3\n", "puzzle", "f, line 3: missing header 'rows cols'"),
    ("3 x\n", "puzzle", "f, line 1: 'x' is not a non-negative integer"),
    ("\n1 3\n", "puzzle", "f, line 2: a board is at least 2x2, the header says 1x3"),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint 7 1 1\n",
        "puzzle",
        "f, line 11: a hint line is 'hint piece row col rotation'",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint 9 1 1 0\n",
        "puzzle",
        "f, line 11: hint names a piece, cell or rotation that does not exist",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint 7 3 1 0\n",
        "puzzle",
        "f, line 11: hint names a piece, cell or rotation that does not exist",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint 7 1 3 0\n",
        "puzzle",
        "f, line 11: hint names a piece, cell or rotation that does not exist",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint 7 1 1 4\n",
        "puzzle",
        "f, line 11: hint names a piece, cell or rotation that does not exist",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\nhint x 1 1 0\n",
        "puzzle",
        "f, line 11: 'x' is not a non-negative integer",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3\n2 0 0 1\n",
        "puzzle",
        "f, line 9: a piece line is 4 colours 't r b l'",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 y 4\n2 0 0 1\n",
        "puzzle",
        "f, line 9: 'y' is not a non-negative integer",
    ),
    (
        "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\n1 2 3 4\n\n# end\n",
        "puzzle",
        "f, line 11: 3x3 needs 9 pieces, found 10",
    ),
    ("", "board", "f, line 1: missing header 'rows cols'"),
    ("x y\n", "board", "f, line 1: missing header 'rows cols'"),
    ("2 2\n0:0 1:0\n2:0\n", "board", "f, line 3: expected 2 cells, got 1"),
]


@pytest.mark.parametrize(("text", "kind", "message"), VERIFY_ERRORS)
def test_the_verifiers_own_reader_messages_in_full(text, kind, message):
    from e2opt.core.verify import parse_board_text, parse_puzzle_text

    reader = parse_puzzle_text if kind == "puzzle" else parse_board_text
    with pytest.raises(PuzzleError if kind == "puzzle" else BoardError) as caught:
        reader(text, "f")
    assert str(caught.value) == message
    if kind == "puzzle":
        assert caught.value.path == "f"


def test_the_verifiers_default_names_and_comments():
    from e2opt.core.verify import parse_puzzle_text, verify_texts

    with pytest.raises(PuzzleError, match=r"^<puzzle>, line 1: "):
        verify_texts("x", TINY_BOARD)
    with pytest.raises(BoardError, match=r"^<board>, line 1: "):
        verify_texts(TINY_PUZZLE, "x")
    assert verify_texts("# head\n" + TINY_PUZZLE.replace("3 4 3 4", "3 4 3 4 # centre"), TINY_BOARD).valid
    assert parse_puzzle_text(TINY_PUZZLE + "hint 8 2 2 0\n").hints == [(8, 2, 2, 0)]


def test_random_board_keeps_a_hinted_piece_zero_in_place():
    from e2opt.core.board import random_board, rule_violations

    puzzle = parse_puzzle(TINY_PUZZLE + "hint 0 2 2 0\n")  # piece 0 is a corner: bottom-right, as it comes
    for seed in range(5):
        board = random_board(puzzle, np.random.default_rng(seed))
        assert rule_violations(puzzle, board) == [] and (board.piece[2, 2], board.rot[2, 2]) == (0, 0)


def test_board_colours_take_rotations_modulo_four():
    puzzle = parse_puzzle(TINY_PUZZLE)
    board = parse_board(TINY_BOARD)
    turned = Board(board.piece, board.rot + 4)
    assert np.array_equal(turned.colours(puzzle), board.colours(puzzle))
