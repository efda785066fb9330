"""Exact messages of reading a config (config/schema.py, engine/loader.py): YAML, types, keys, overrides."""

from __future__ import annotations

from typing import Literal

import pytest
import yaml
from conftest import TINY_BOARD, TINY_PUZZLE

from e2opt.config.schema import _type_name, set_dotted, yaml_load
from e2opt.config.sections import StopConfig
from e2opt.core.errors import ConfigError
from e2opt.engine.loader import load_config, parse_override, read_config_data
from e2opt.search.moves.assignment import AssignmentConfig

# --- schema.py: type names, dotted keys, YAML ---


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


def test_type_name_of_something_without_a_name_is_its_text():
    assert _type_name(3) == "3"


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


# --- loader.py: overrides, files, limits ---


def test_parse_override_splits_at_the_first_equals_and_keeps_bad_yaml_as_text():
    assert parse_override("name=a=b") == ("name", "a=b")
    assert parse_override("name=[oops") == ("name", "[oops")
    assert parse_override(" stop.max_cpu_s = 1e3") == ("stop.max_cpu_s", 1000.0)
    assert parse_override("name=") == ("name", None)


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
