"""The one table of settings (docs/settings.md), generated from the dataclasses the registries assemble, so
that it cannot drift from the code: every key with its default, the clock of a time setting (named by its
suffix) and the comment beside the field; then every older name with the one it is read as."""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import types
import typing
from typing import Any, get_args, get_origin, get_type_hints

from .schema import to_plain
from .translate import OLD_DEFAULTS, RENAMES

CLOCKS = {"_wall_s": "wall s", "_cpu_s": "CPU s", "_cpu_ms": "CPU ms"}
HEAD = """# Settings

Every key of a run config, as `e2opt settings` generates it from the code (a test keeps this page equal to
what it generates; regenerate with `e2opt settings -o docs/settings.md --force`). Keys are dotted paths
below the file's top level; a time setting names its clock in its suffix (`_wall_s`: wall-clock seconds,
`_cpu_s`: CPU seconds of the process, `_cpu_ms`: CPU milliseconds). The defaults are e2opt's best measured
pipeline, what `config/eternity2.yaml` runs: a config naming only `instance` runs with every value below.
A section of a file changes only the keys it names, except `search.moves`: the default mix is the moves
listed here with a value (assignment, tsr, region, border), and a `search.moves` section written in a file
replaces it, so a move it does not name is off (a dotted key, `--set search.moves.tsr.tries=16` or a
sweep's `set:`, changes one setting of the mix in effect). A section whose default is `null` is off until
the file gives it; its keys are listed with the defaults it then takes. What each setting does: the page of
its family (docs/README.md).
"""
OLD_HEAD = """## Older names

A config, `--set` or run folder of an older e2opt is read with these keys under their new names, with one
`warning:` line naming the file and each old -> new key (`e2opt/config/translate.py`); the `breakdfs` and
`backtrack` sections of the constructions the DFS replaced are read as the `construct.dfs` section of their
preset (`e2opt/construct/dfs/legacy.py`, docs/dfs.md).
"""
DUMPED_HEAD = """## Older defaults

A run folder's `config.yaml` (and a sweep journal's run) holds every setting of its run, so a key it lacks
was added after it was written. The keys whose defaults changed when the code's defaults became the
pipeline of `config/eternity2.yaml` read their earlier defaults there, so that an old run resumes as it ran
(`OLD_DEFAULTS`, `e2opt/config/translate.py`); a config file gets today's.
"""


def _comments(cls: type) -> dict[str, str]:
    """The comment beside each field in the source of the class and its bases (none for a class built at
    run time); a comment that goes on over the next line is cut before its open parenthesis."""
    found: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        try:
            source = inspect.getsource(klass)
        except (OSError, TypeError):
            continue
        for line in source.splitlines():
            match = re.match(r"^    (\w+): [^#]*#\s*(.+)$", line)
            if match:
                text = match.group(2).strip()
                if text.count("(") > text.count(")"):
                    text = text[: text.rfind("(")].rstrip(" ;,")
                found[match.group(1)] = text
    return found


def _section(tp: Any) -> type | None:
    """The dataclass a field holds (alone or with None), or None for a plain value."""
    if dataclasses.is_dataclass(tp):
        return tp
    if get_origin(tp) in (typing.Union, types.UnionType):
        inner = [a for a in get_args(tp) if dataclasses.is_dataclass(a)]
        return inner[0] if inner else None
    return None


def _value(value: Any) -> str:
    """A default as YAML would write it, short."""
    if value == "":
        return '""'
    return json.dumps(to_plain(value)).replace('"', "") if value is not None else "null"


def _clock(key: str) -> str:
    return next((clock for suffix, clock in CLOCKS.items() if f"_{key}".endswith(suffix)), "")


def _default(spec: dataclasses.Field, obj: Any) -> Any:
    """A field's default: its value in ``obj`` (the section's default instance) if given, else its own."""
    if obj is not None:
        return getattr(obj, spec.name)
    if spec.default is dataclasses.MISSING and spec.default_factory is not dataclasses.MISSING:
        return spec.default_factory()
    return None if spec.default is dataclasses.MISSING else spec.default


def rows(cls: type, prefix: str = "", obj: Any = None) -> list[tuple[str, str, str, str]]:
    """(dotted key, default, clock, comment) of every leaf setting below ``cls``, in field order; ``obj``:
    the section's default instance (its values are the defaults: the default mix of ``search.moves``)."""
    out = []
    hints, comments = get_type_hints(cls), _comments(cls)
    for spec in (f for f in dataclasses.fields(cls) if f.init):
        key, default = f"{prefix}{spec.name}", _default(spec, obj)
        inner = _section(hints[spec.name])
        if inner is not None:
            if default is None:
                out.append((key, "null (off)", "", comments.get(spec.name, "")))
            out += rows(inner, f"{key}.", default)
            continue
        required = obj is None and spec.default is dataclasses.MISSING and default is None
        out.append(
            (
                key,
                "(required)" if required else _value(default),
                _clock(spec.name),
                comments.get(spec.name, ""),
            )
        )
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(cls: type) -> str:
    """docs/settings.md: the table of every setting of ``cls`` (a RunConfig), then the older names."""
    lines = [HEAD, "| key | default | clock | note |", "|---|---|---|---|"]
    lines += [
        f"| `{key}` | `{_cell(default)}` | {clock} | {_cell(note)} |"
        for key, default, clock, note in rows(cls)
    ]
    lines += ["", OLD_HEAD, "| older key | read as |", "|---|---|"]
    for rule in RENAMES:
        lines.append(f"| `{rule.old}` | `{rule.new}`{f' ({rule.note})' if rule.note else ''} |")
    lines += ["", DUMPED_HEAD, "| key | read as, when a run folder lacks it |", "|---|---|"]
    lines += [f"| `{key}` | `{_cell(_value(value))}` |" for key, value in OLD_DEFAULTS]
    return "\n".join(lines) + "\n"
