"""The config classes' range checks at their bounds, with messages; run names, search bounds, field order."""

from __future__ import annotations

from dataclasses import fields

import pytest
import yaml

from e2opt.config.sections import OutputConfig, StopConfig
from e2opt.construct.config import CpSatConfig
from e2opt.engine.config import RunConfig
from e2opt.search.config import SearchConfig
from e2opt.search.moves.assignment import AssignmentConfig

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


def test_max_iterations_zero_is_allowed():
    assert StopConfig(max_iterations=0).max_iterations == 0


def test_to_yaml_keeps_the_field_order():
    cfg = RunConfig(instance="p.txt")
    assert list(yaml.safe_load(cfg.to_yaml())) == [f.name for f in fields(RunConfig)]
    assert cfg.to_yaml().startswith("instance: p.txt\n")


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
