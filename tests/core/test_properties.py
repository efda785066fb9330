"""Property-based tests of the readers (issue 14): any input gives a clean result or our own error, never another
exception. Random text, near-valid files built from valid pieces, and raw bytes."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import yaml
from conftest import TINY_BOARD, TINY_PUZZLE
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from e2opt.core.board import Board, parse_board, rule_violations
from e2opt.core.errors import BoardError, ConfigError, E2optError, PuzzleError
from e2opt.core.formats.read import read_board, read_puzzle
from e2opt.core.puzzle import Puzzle, format_puzzle, parse_puzzle
from e2opt.engine.config import RunConfig
from e2opt.engine.loader import config_from_dict, load_config, parse_override

EXAMPLES = int(os.environ.get("E2OPT_PROPERTY_EXAMPLES", "150"))  # docs/mutation.md runs with fewer
FAST = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
TOKENS = st.one_of(
    st.integers(-3, 12).map(str),
    st.sampled_from(["hint", "#", "x", "1e3", "٣", "²", "\ufeff", "\x00", "9" * 25, "", ":", "1:2", "3:"]),
)
LINES = st.lists(st.lists(TOKENS, max_size=6).map(" ".join), max_size=14)


CELLS = st.one_of(
    st.tuples(st.integers(0, 12), st.integers(0, 5)).map(lambda pr: f"{pr[0]}:{pr[1]}"),
    st.sampled_from(["9" * 25 + ":1", "1:" + "9" * 30, "²:1", "-1:0", "1:", ":1", "1::2"]),
)
BOARD_LINES = st.lists(CELLS, min_size=3, max_size=3).map(" ".join)  # rows of the right length
BOARDS = st.lists(BOARD_LINES, min_size=3, max_size=3).map(lambda rows: "3 3\n" + "\n".join(rows) + "\n")
COLOURS = st.one_of(st.integers(1, 5), st.sampled_from([9_000_000_000, 10**18 - 1, 10**30]))
HINT_LINES = st.lists(st.integers(0, 9).map(str), min_size=4, max_size=4).map(lambda t: "hint " + " ".join(t))


def _recolour(colours: list[int], hints: list[str]) -> str:
    """The tiny puzzle with its non-grey sides recoloured in order, plus hint lines."""
    it = iter(colours)
    head, *pieces = TINY_PUZZLE.split("\n")[:10]
    lines = [" ".join(t if t == "0" else str(next(it)) for t in line.split()) for line in pieces]
    return "\n".join([head, *lines, *hints]) + "\n"


PUZZLES = st.tuples(st.lists(COLOURS, min_size=24, max_size=24), st.lists(HINT_LINES, max_size=2)).map(
    lambda parts: _recolour(*parts)
)  # well formed 3x3 files: the checks of kinds, greys, hints and numbers decide


def near(text: str, line: st.SearchStrategy[str] | None = None) -> st.SearchStrategy[str]:
    """A valid file with some lines replaced, dropped or duplicated."""
    lines = text.splitlines()

    def mutate(edits: list[tuple[int, int, str]]) -> str:
        out = list(lines)
        for kind, where, new in edits:
            i = where % max(len(out), 1)
            if kind == 0 and out:
                out[i] = new
            elif kind == 1 and out:
                del out[i]
            elif kind == 2:
                out.insert(i, new if new else (out[i] if out else ""))
        return "\n".join(out) + "\n"

    if line is None:
        line = st.lists(TOKENS, min_size=1, max_size=5).map(" ".join)
    return st.lists(st.tuples(st.integers(0, 2), st.integers(0, 20), line), min_size=1, max_size=4).map(
        mutate
    )


def _puzzle_or_error(text: str) -> Puzzle | None:
    try:
        puzzle = parse_puzzle(text, "p.txt")
    except PuzzleError as exc:
        assert str(exc).startswith("p.txt") and "\n" not in str(exc)
        return None
    assert parse_puzzle(format_puzzle(puzzle)).n_cells == puzzle.n_cells  # what was read can be written back
    return puzzle


@FAST
@given(st.one_of(st.text(max_size=300), LINES.map("\n".join), near(TINY_PUZZLE), PUZZLES))
def test_any_puzzle_text_is_a_puzzle_or_a_puzzle_error(text):
    _puzzle_or_error(text)


@FAST
@given(st.binary(max_size=300))
def test_any_puzzle_bytes_are_a_puzzle_or_a_puzzle_error(tmp_path, data):
    path = tmp_path / "p.txt"
    path.write_bytes(data)
    try:
        read_puzzle(path)
    except PuzzleError as exc:
        assert str(exc).startswith(str(path))


@FAST
@given(
    st.one_of(st.text(max_size=200), LINES.map("\n".join), near(TINY_BOARD), near(TINY_BOARD, BOARD_LINES))
)
def test_any_board_text_is_a_board_or_a_board_error(text):
    try:
        board = parse_board(text, "b.board")
    except BoardError as exc:
        assert str(exc).startswith("b.board") and "\n" not in str(exc)
        return
    assert isinstance(board, Board)
    rule_violations(parse_puzzle(TINY_PUZZLE), board)  # checking it against a puzzle never raises either


@FAST
@given(st.binary(max_size=200))
def test_any_board_bytes_are_a_board_or_a_board_error(tmp_path, data):
    path = tmp_path / "b.board"
    path.write_bytes(data)
    with contextlib.suppress(BoardError):
        read_board(path)


KEYS = ["instance", "seed", "name", "search", "stop", "output", "construct", "holes", "max_iterations",
        "runs_dir", "method", "cpsat", "relaxed", "target_score", "bogus"]  # fmt: skip
VALUES = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.integers(-5, 2**70), st.floats(allow_nan=True),
        st.text(max_size=8), st.just("p.txt"),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)),
    max_leaves=12,
)  # fmt: skip


@FAST
@given(st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=6))
def test_any_config_data_is_a_config_or_our_error(tmp_path, data):
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    try:
        cfg = config_from_dict({"instance": "p.txt", **data}, "c.yaml", tmp_path)
    except E2optError as exc:
        assert "\n" not in str(exc)
        return
    assert isinstance(cfg, RunConfig)


@FAST
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_any_config_file_is_a_config_or_a_config_error(tmp_path, content):
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    path = tmp_path / "c.yaml"
    if isinstance(content, str):
        content = ("instance: p.txt\n" + content).encode("utf-8", "surrogatepass")
    path.write_bytes(content)
    try:
        load_config(path)
    except E2optError as exc:
        assert "\n" not in str(exc) or isinstance(exc, ConfigError)


@FAST
@given(st.text(max_size=40))
def test_any_set_text_parses_or_is_a_config_error(text):
    try:
        key, _value = parse_override(text)
    except ConfigError:
        return
    assert key and key == key.strip()


@FAST
@given(st.text(max_size=40), st.integers(-10, 10))
@example(name="1e6", seed=0)  # a name the loader would read back as a float if it were stored unquoted
@example(name="0.0", seed=0)
def test_yaml_values_round_trip_through_a_stored_config(tmp_path, name, seed):
    """A config e2opt stores (config.yaml) reads back equal, or the values were refused in the first place."""
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    try:
        cfg = config_from_dict({"instance": "p.txt", "name": name, "seed": seed}, "c.yaml", tmp_path)
    except ConfigError:
        return
    stored = Path(tmp_path / "stored.yaml")
    stored.write_text(cfg.to_yaml())
    assert load_config(stored) == cfg
    assert yaml.safe_load(stored.read_text())["name"] == cfg.name
