"""Every family has one registry of one shape (name -> settings class, implementation, help), and the
config schema, its errors and the help text come from it: an entry without its settings class or help
fails here."""

from __future__ import annotations

import dataclasses

import pytest

from e2opt.cli.command import Command
from e2opt.cli.main import COMMANDS
from e2opt.config.schema import build
from e2opt.construct import METHODS, ConstructConfig
from e2opt.core.errors import ConfigError
from e2opt.exact.solve import EXACT_METHODS
from e2opt.search.moves import MOVES, MovesConfig
from e2opt.search.moves.base import Move, MoveWeight
from tests.conftest import e2opt


@pytest.mark.parametrize("name", MOVES)
def test_every_move_has_its_settings_class_a_move_class_and_help(name):
    entry = MOVES[name]
    assert dataclasses.is_dataclass(entry.settings) and issubclass(entry.settings, MoveWeight)
    assert issubclass(entry.move, Move) and entry.move.name == name
    assert entry.help.strip()
    section = build(MovesConfig, {name: {"weight": 0.5}}, "test.yaml", "search.moves")
    assert getattr(section, name) == entry.settings(weight=0.5)
    assert name in (MovesConfig.__doc__ or "")


def test_the_moves_section_is_the_registry():
    assert [f.name for f in dataclasses.fields(MovesConfig)] == list(MOVES)
    with pytest.raises(ConfigError, match=r"search\.moves\.nope"):
        build(MovesConfig, {"nope": {"weight": 1.0}}, "test.yaml", "search.moves")
    defaults = MovesConfig()
    assert [name for name, _ in defaults.enabled()] == [n for n, e in MOVES.items() if e.default]


@pytest.mark.parametrize("name", METHODS)
def test_every_construction_has_its_settings_section_and_help(name):
    method = METHODS[name]
    assert method.help.strip() and callable(method.build)
    fields = {f.name for f in dataclasses.fields(ConstructConfig)}
    if method.settings is not None:
        assert dataclasses.is_dataclass(method.settings) and name in fields
        assert isinstance(getattr(ConstructConfig(), name), method.settings)
    assert name in (ConstructConfig.__doc__ or "")


def test_construct_method_choices_are_the_registry():
    with pytest.raises(ConfigError) as error:
        build(ConstructConfig, {"method": "nope"}, "test.yaml", "construct")
    assert all(repr(name) in str(error.value) for name in METHODS)


@pytest.mark.parametrize("name", EXACT_METHODS)
def test_every_exact_method_has_help_and_its_orders(name):
    method = EXACT_METHODS[name]
    assert method.help.strip() and callable(method.run)
    assert method.orders or name == "cpsat"  # CP-SAT alone branches by itself


def test_solve_help_comes_from_the_registry():
    text = "".join(e2opt("solve", "--help").stdout.split())  # argparse wraps lines, at hyphens too
    for name, method in EXACT_METHODS.items():
        assert "".join(f"{name}: {method.help}".split()) in text


def test_every_command_has_a_name_help_and_a_run():
    names = [c.name for c in COMMANDS]
    assert len(set(names)) == len(names) and all(c.help.strip() for c in COMMANDS)
    assert all(type(c).run is not Command.run for c in COMMANDS)
