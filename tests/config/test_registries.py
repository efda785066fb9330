"""Every family has one registry of one shape (name -> settings class, implementation, help, options), and the
config schema, its errors, the help text and the numba warm-up come from it: an entry without its settings
class, its options or its help fails here (registry_problems, shown on a planted bad registry)."""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import pytest
from helpers import compiled_kernels

from e2opt.cli.command import Command
from e2opt.cli.main import COMMANDS
from e2opt.config.registry import NoSettings, registry_problems
from e2opt.config.schema import build
from e2opt.construct import METHODS, ConstructConfig, MethodOptions
from e2opt.core.board import random_board
from e2opt.core.errors import ConfigError
from e2opt.core.generate import generate
from e2opt.exact.solve import EXACT_METHODS
from e2opt.search.config import AcceptanceConfig, SearchConfig
from e2opt.search.moves import MOVES, MoveEntry, MoveOptions, MovesConfig, default_moves
from e2opt.search.moves.base import Move, MoveWeight
from e2opt.search.moves.tsr import TsrMove
from e2opt.search.stop import Clock, MaxIterations
from e2opt.search.tabu import TabuSearch
from e2opt.search.warm import warm_search
from tests.conftest import e2opt

REGISTRIES = {"MOVES": MOVES, "construct.METHODS": METHODS, "EXACT_METHODS": EXACT_METHODS}


def test_every_registry_entry_has_a_settings_class_options_and_one_line_of_help():
    assert {label: registry_problems(registry, label) for label, registry in REGISTRIES.items()} == {
        label: [] for label in REGISTRIES
    }


def test_a_planted_incomplete_entry_is_reported():
    """One entry lacking each part: each is named, the whole ones are not."""

    class Bare:  # an entry of no family: no settings, no options, no help
        pass

    planted = {
        "whole": MoveEntry(MoveWeight, TsrMove, "a move", MoveOptions()),
        "no_settings": MoveEntry(None, TsrMove, "a move", MoveOptions()),  # type: ignore[arg-type]
        "not_a_dataclass": MoveEntry(dict, TsrMove, "a move", MoveOptions()),
        "no_options": MoveEntry(MoveWeight, TsrMove, "a move", None),  # type: ignore[arg-type]
        "no_help": MoveEntry(NoSettings, TsrMove, " ", MethodOptions()),
        "two_lines": MoveEntry(NoSettings, TsrMove, "a\nb", MoveOptions(kernels=("x",))),
        "bad_kernels": MoveEntry(NoSettings, TsrMove, "a move", MoveOptions(kernels="e2opt.x")),  # type: ignore[arg-type]
        "bare": Bare(),
    }
    problems = registry_problems(planted, "P")
    assert problems == [
        "P['no_settings']: settings must be a dataclass (NoSettings when it has none), got None",
        "P['not_a_dataclass']: settings must be a dataclass (NoSettings when it has none), got <class 'dict'>",
        "P['no_options']: options must be an instance of its family's options class, got None",
        "P['no_help']: help must be one non-empty line, got ' '",
        "P['two_lines']: help must be one non-empty line, got 'a\\nb'",
        "P['bad_kernels']: options.kernels must be a tuple of module names, got 'e2opt.x'",
        "P['bare']: settings must be a dataclass (NoSettings when it has none), got None",
        "P['bare']: options must be an instance of its family's options class, got None",
        "P['bare']: help must be one non-empty line, got None",
    ]


@pytest.mark.parametrize("label", REGISTRIES)
def test_every_kernel_module_an_entry_names_exists_and_has_numba_kernels(label):
    from numba.core.registry import CPUDispatcher

    for name, entry in REGISTRIES[label].items():
        for module in entry.options.kernels:
            found = importlib.import_module(module)
            assert any(isinstance(v, CPUDispatcher) for v in vars(found).values()), (
                f"{label}[{name!r}]: {module}"
            )


@pytest.mark.parametrize("name", MOVES)
def test_every_move_has_its_settings_class_a_move_class_and_help(name):
    entry = MOVES[name]
    assert dataclasses.is_dataclass(entry.settings) and issubclass(entry.settings, MoveWeight)
    if entry.options.shares is not None:
        assert entry.settings is MoveWeight and entry.options.shares in MOVES  # its own section: weight only
    assert issubclass(entry.move, Move) and entry.move.name == name
    assert entry.help.strip()
    section = build(MovesConfig, {name: {"weight": 0.5}}, "test.yaml", "search.moves")
    assert getattr(section, name) == entry.settings(weight=0.5)
    assert name in (MovesConfig.__doc__ or "")


def test_the_moves_section_is_the_registry():
    assert [f.name for f in dataclasses.fields(MovesConfig)] == list(MOVES)
    with pytest.raises(ConfigError, match=r"search\.moves\.nope"):
        build(MovesConfig, {"nope": {"weight": 1.0}}, "test.yaml", "search.moves")
    mix = default_moves()
    assert [name for name, _ in mix.enabled()] == [n for n, e in MOVES.items() if e.options.default]
    named = build(MovesConfig, {"tsr": {}}, "test.yaml", "search.moves")  # a section replaces the mix
    assert [name for name, _ in named.enabled()] == ["tsr"]


@pytest.mark.parametrize("name", METHODS)
def test_every_construction_has_its_settings_section_and_help(name):
    method = METHODS[name]
    assert method.help.strip() and callable(method.build)
    fields = {f.name for f in dataclasses.fields(ConstructConfig)}
    if method.settings is not NoSettings:
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
    takes_order = any(flag.spelling == "--order" for flag in method.options.flags)
    assert bool(method.orders) == takes_order  # cpsat, best and clique branch by themselves


def test_solve_help_comes_from_the_registry():
    text = "".join(e2opt("solve", "--help").stdout.split())  # argparse wraps lines, at hyphens too
    for name, method in EXACT_METHODS.items():
        assert "".join(f"{name}: {method.help}".split()) in text


def test_every_command_has_a_name_help_and_a_run():
    names = [c.name for c in COMMANDS]
    assert len(set(names)) == len(names) and all(c.help.strip() for c in COMMANDS)
    assert all(type(c).run is not Command.run for c in COMMANDS)


def _quick(settings: type) -> object:
    """A move's default settings with a short cost, a short CP-SAT time and few clique selections where it has
    them (its windows, and so the signatures of its kernels, stay the default ones)."""
    short = {"deterministic_limit": 0.005, "selections": 1000}
    return settings(cost_cpu_ms=0.1, **{k: v for k, v in short.items() if k in settings.__dataclass_fields__})


@pytest.mark.parametrize("kind", ["tabu", "annealing"])
def test_after_the_warm_up_a_search_of_every_move_compiles_nothing(kind):
    """The warm-up walks the registry: a search running every move, warmed first, compiles no kernel inside
    its clock (a move whose kernels the warm-up missed would add signatures here)."""
    names = list(MOVES)
    moves = MovesConfig(**{name: _quick(MOVES[name].settings) for name in names})
    cfg = SearchConfig(moves=moves, plateau=50, intensify_after=2, acceptance=AcceptanceConfig(kind=kind))
    warm_search(cfg)
    before = compiled_kernels()
    puzzle, _ = generate(8, 8, 3, 5, 3)
    rng = np.random.default_rng(1)
    TabuSearch(puzzle, random_board(puzzle, rng), cfg, rng).run(MaxIterations(300), Clock())
    assert compiled_kernels() == before
