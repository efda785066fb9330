"""The one shape of a registry entry (a move, a construction, an exact method): a settings class, its options
and one line of help. ``registry_problems`` lists what an entry lacks, so a test walks every registry.

Each family's entry class adds its implementation (the Move class, the build, the search) and its own options
class; every options class names ``kernels``, the modules whose numba kernels the entry runs, so the warm-up
can compile or load them before a run's clock starts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
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
