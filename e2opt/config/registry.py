"""The one shape of a registry entry (a move, a construction, an exact method): a settings class, its options
and one line of help. ``registry_problems`` lists what an entry lacks, so a test walks every registry.

Each family's entry class adds its implementation (the Move class, the build, the search) and its own options
class; every options class names ``kernels``, the modules whose numba kernels the entry runs, so the warm-up
can compile or load them before a run's clock starts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any


@dataclasses.dataclass(frozen=True)
class NoSettings:
    """The settings class of an entry without settings of its own: explicit, so that none is forgotten."""


def registry_problems(registry: Mapping[str, Any], label: str) -> list[str]:
    """What the entries of ``registry`` lack (a settings dataclass, options, one line of help, a tuple of
    kernel modules), one line each naming ``label`` and the entry; empty when every entry is whole."""
    problems = []
    for name, entry in registry.items():
        where = f"{label}[{name!r}]"
        settings = getattr(entry, "settings", None)
        if not (isinstance(settings, type) and dataclasses.is_dataclass(settings)):
            problems.append(
                f"{where}: settings must be a dataclass (NoSettings when it has none), got {settings!r}"
            )
        options = getattr(entry, "options", None)
        if not dataclasses.is_dataclass(options) or isinstance(options, type):
            problems.append(
                f"{where}: options must be an instance of its family's options class, got {options!r}"
            )
        elif not isinstance(kernels := getattr(options, "kernels", None), tuple) or not all(
            isinstance(k, str) for k in kernels
        ):
            problems.append(f"{where}: options.kernels must be a tuple of module names, got {kernels!r}")
        text = getattr(entry, "help", None)
        if not isinstance(text, str) or not text.strip() or "\n" in text:
            problems.append(f"{where}: help must be one non-empty line, got {text!r}")
    return problems


@dataclasses.dataclass(frozen=True)
class Flag:
    """A command-line option an entry owns: its spelling, the settings field it sets and one line of help;
    ``parse`` reads its text (None: a switch, which sets the field to ``switch``)."""

    spelling: str
    field: str
    help: str
    parse: Callable[[str], Any] | None = str
    switch: Any = True
    metavar: str | None = None


def refusal(subject: str, given: Sequence[str], owners: Mapping[str, str]) -> str:
    """The one line for options ``given`` that ``subject`` does not take, each with what it goes with
    (``owners``: option -> who takes it): ``--method dfs: not with --shave (--shave goes with --method colorpairs)``."""
    goes = "; ".join(f"{flag} goes with {owners[flag]}" for flag in given if owners.get(flag))
    return f"{subject}: not with {', '.join(given)}" + (f" ({goes})" if goes else "")


def warm_entries(
    registry: Mapping[str, Any], names: Iterable[str], warmed: set[str], warm_one: Callable[[str], None]
) -> list[str]:
    """The one warm-up loop of every family: ``warm_one`` compiles (or loads from numba's cache) the kernels of
    each named entry whose options name kernels and that ``warmed`` (the family's record for this process) lacks;
    the names warmed now, in order."""
    todo = [n for n in dict.fromkeys(names) if n not in warmed and registry[n].options.kernels]
    for name in todo:
        warm_one(name)
        warmed.add(name)
    return todo
