"""Settings of older e2opt versions, translated once when a config is read, so that every old run folder
and config still loads: the families' translators run first (construct/dfs/legacy.py: the sections of the
constructions the DFS replaced), then each old key of ``RENAMES`` moves to its new place (its value changed
where the meaning of a number changed), and one warning line on stderr names the file and every old -> new
key. Nothing after this reads an old name; a run folder's config.yaml is written with the new ones.

A run folder's config.yaml (and a sweep journal's run) is a full dump of its settings, so a key it lacks was
added after it was written: ``fill_dumped`` gives it the value of ``OLD_DEFAULTS`` it had then, and the run
resumes as it ran."""

from __future__ import annotations

import contextlib
import copy
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..core.errors import ConfigError


@dataclass(frozen=True)
class Rename:
    """One old key: its dotted path then and now (``*`` matches any one key, the same one in both), how its
    value changes (None: it does not; ``note`` says how for the docs), and what fills a section the file
    set to null (switched off)."""

    old: str
    new: str
    value: Callable[[Any], Any] | None = None
    off: tuple[tuple[str, Any], ...] | None = None
    note: str = ""


def _plus_one(value: Any) -> Any:
    """restarts (rounds after the first) -> max_attempts (rounds in all)."""
    return value + 1 if isinstance(value, int) and not isinstance(value, bool) else value


# what a CPU s of the pilot placed on the strict clues here (docs/dfs_results.md)
PILOT_NODES_PER_CPU_S = 40_000_000


def _pilot_nodes(value: Any) -> Any:
    """pilot.cpu_s -> pilot.nodes: the placements those CPU s made (15 s -> 6e8, today's default)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return round(value * PILOT_NODES_PER_CPU_S) if number else value


# paper 001's names of the assignment move's settings, once read at the top of ``search:``
_PAPER001 = (
    "holes",
    "select",
    "bias",
    "tabu_cells",
    "tabu_arcs",
    "reverse_penalty",
    "tie_noise",
    "cost_noise",
)

# (old dotted key, new): a time setting names its clock, one idea has one name across sections
_RENAMED = (
    ("construct.cpsat.time_limit_s", "construct.cpsat.time_limit_wall_s"),
    ("construct.cpsat.fallback_time_limit_s", "construct.cpsat.fallback_time_limit_wall_s"),
    ("construct.beam.time_limit_s", "construct.beam.time_limit_cpu_s"),
    ("construct.dfs.time_limit_s", "construct.dfs.time_limit_cpu_s"),
    ("construct.dfs.harvest.cpsat_s", "construct.dfs.harvest.cpsat_wall_s"),
    ("construct.dfs.harvest.repair_s", "construct.dfs.harvest.repair_cpu_s"),
    ("construct.regions.time_limit_s", "construct.regions.time_limit_wall_s"),
    ("construct.regions.backtrack_time_s", "construct.regions.backtrack_wall_s"),
    ("search.restart_after_s", "search.restart_after_wall_s"),
    ("search.moves.*.cost_ms", "search.moves.*.cost_cpu_ms"),
    ("search.moves.*.time_limit_s", "search.moves.*.time_limit_wall_s"),
    ("search.acceptance.period_s", "search.acceptance.period_cpu_s"),
    ("output.checkpoint_every_s", "output.checkpoint_every_wall_s"),
    ("output.stats_every_s", "output.stats_every_wall_s"),
    ("output.progress_every_s", "output.progress_every_wall_s"),
    ("output.log_every_s", "output.log_every_wall_s"),
    ("run.share_every_s", "run.share_every_wall_s"),
    ("run.roles.repair_s", "run.roles.leave_after_wall_s"),
    ("run.roles.repair_moves", "run.roles.leave_after_moves"),
)

RENAMES: tuple[Rename, ...] = (
    *(Rename(f"search.{key}", f"search.moves.assignment.{key}", off=(("weight", 0.0),)) for key in _PAPER001),
    *(Rename(old, new) for old, new in _RENAMED),
    Rename(
        "construct.cpsat.restarts",
        "construct.cpsat.max_attempts",
        _plus_one,
        note="the value + 1: rounds in all",
    ),
    Rename(
        "construct.dfs.pilot.cpu_s",
        "construct.dfs.pilot.nodes",
        _pilot_nodes,
        note="the value x 4e7: the placements a CPU s of the pilot made",
    ),
)

# The defaults before the shipped pipeline became the code's defaults (dotted key, value then).
OLD_DEFAULTS: tuple[tuple[str, Any], ...] = (
    ("seed", 0),
    ("construct.method", "random"),
    ("construct.beam.time_limit_cpu_s", None),
    ("construct.dfs.harvest.complete", 3),
    ("construct.dfs.harvest.cpsat_wall_s", 10.0),
    ("construct.dfs.harvest.repair_cpu_s", 15.0),
    ("search.moves", {"assignment": {}}),
    ("search.schedule.kind", "adaptive"),
    ("stop.max_wall_s", None),
    ("run.workers", 1),
    ("run.restart_from", "fresh"),
    ("run.roles.method", None),
)

Translator = Callable[[dict, str], list[tuple[str, str]]]  # changes the data in place; (old, new) pairs


def _matches(node: Any, parts: list[str], done: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every concrete key path below ``node`` that the pattern ``parts`` names (``*``: any key there)."""
    if not parts:
        yield done
        return
    if not isinstance(node, dict):
        return
    head, rest = parts[0], parts[1:]
    keys = [k for k in node if isinstance(k, str)] if head == "*" else [head] if head in node else []
    for key in keys:
        if rest and not isinstance(node[key], dict):
            continue
        yield from _matches(node[key], rest, (*done, key))


def _apply(rule: Rename, data: dict, source: str) -> list[tuple[str, str]]:
    """Move every key ``rule`` names to its new place; the (old, new) dotted pairs moved."""
    moved = []
    old_parts, new_parts = rule.old.split("."), rule.new.split(".")
    for path in list(_matches(data, old_parts)):
        stars = iter(path[i] for i, part in enumerate(old_parts) if part == "*")
        target = [next(stars) if p == "*" else p for p in new_parts]
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        node = data
        for depth, key in enumerate(target[:-1], 1):
            if node.get(key) is None:
                off = key in node and depth == len(target) - 1 and rule.off is not None
                node[key] = dict(rule.off) if off else {}  # a section set to null stays off
            if not isinstance(node[key], dict):
                break  # not a mapping: the build says so
            node = node[key]
        else:
            old, new = ".".join(path), ".".join(target)
            if target[-1] in node:
                problem = f"given twice, as '{old}' (its older name) and as '{new}': keep '{new}'"
                raise ConfigError(f"{source}: key '{old}': {problem}", old, problem)
            value = parent.pop(path[-1])
            node[target[-1]] = rule.value(value) if rule.value else value
            moved.append((old, new))
    return moved


def translate(
    data: dict, source: str, translators: tuple[Translator, ...] = ()
) -> tuple[dict, list[tuple[str, str]]]:
    """A copy of ``data`` with every old section and key in its new place, and the (old, new) pairs of
    what moved or went (empty for a config written with today's names)."""
    data = copy.deepcopy(data)
    moved: list[tuple[str, str]] = []
    for translator in translators:
        moved += translator(data, source)
    for rule in RENAMES:
        moved += _apply(rule, data, source)
    return data, moved


def fill_dumped(data: dict) -> dict:
    """``data``, a full dump of a run's settings (translated), with each key of ``OLD_DEFAULTS`` it lacks (in place)."""
    for dotted, value in OLD_DEFAULTS:
        *path, last = dotted.split(".")
        node = data
        for key in path:
            if node.get(key) is None:
                node[key] = {}
            node = node[key]
            if not isinstance(node, dict):
                break  # not a mapping: the build says so
        else:
            node.setdefault(last, copy.deepcopy(value))
    return data


def translate_key(dotted: str, value: Any) -> tuple[str, Any]:
    """One ``--set`` style key and its value under today's name (unchanged when the key is not old)."""
    parts = dotted.split(".")
    for rule in RENAMES:
        old = rule.old.split(".")
        if len(old) == len(parts) and all(o in ("*", p) for o, p in zip(old, parts, strict=True)):
            stars = iter(p for o, p in zip(old, parts, strict=True) if o == "*")
            new = ".".join(next(stars) if n == "*" else n for n in rule.new.split("."))
            return new, rule.value(value) if rule.value else value
    return dotted, value


_SAID: set[str] = set()


def say_translated(source: str, moved: list[tuple[str, str]]) -> None:
    """One ``warning:`` line on stderr naming ``source`` and every old -> new key; once per process for
    the same keys (a sweep reads its file once per run)."""
    pairs = "; ".join(f"{old} -> {new}" for old, new in moved)
    if not moved or pairs in _SAID:
        return
    _SAID.add(pairs)
    text = f"warning: {source}: settings of an older e2opt, read under their new names: {pairs}"
    with contextlib.suppress(OSError, ValueError):  # a closed stderr silences it, never the run
        print(text, file=sys.stderr, flush=True)
