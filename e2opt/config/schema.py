"""Turning plain YAML data into frozen dataclasses, with errors that name the file and key path.

Supported field types: bool, int, float, str, None, Literal[...], unions of those, tuple[T, ...]
and tuple[T, T] (written as YAML lists), and nested dataclasses (YAML mappings; an empty section,
which YAML reads as null, gets the defaults).
Range checks live in each dataclass's ``__post_init__`` (the shared ones, ``positive`` and ``bounds``, at the end
of this module) and raise ValueError("<field>: ...").
Keys of older e2opt versions are translated before the build (translate.py).
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
import typing
from typing import Any, Literal, get_args, get_origin, get_type_hints

import yaml

from ..core.errors import ConfigError

MAX_INT = 2**63 - 1  # config integers reach numpy and numba as int64


class _Mismatch(Exception):
    """The value does not have the expected type (message says what was expected)."""


def _type_name(tp: Any) -> str:
    if tp is type(None):
        return "null"
    if get_origin(tp) is Literal:
        return " or ".join(repr(a) for a in get_args(tp))
    if get_origin(tp) in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in get_args(tp))
    if get_origin(tp) is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of {_type_name(args[0])}"
        return f"a list of {len(args)} values"
    if dataclasses.is_dataclass(tp):
        return "a mapping"
    plain = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}
    return plain.get(tp, getattr(tp, "__name__", str(tp)))


def _convert(value: Any, tp: Any, where: str, source: str) -> Any:
    origin = get_origin(tp)
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise _Mismatch(f"expected a mapping, got {value!r}")
        return build(tp, value, source, where)
    if origin in (typing.Union, types.UnionType):
        for alt in get_args(tp):
            try:
                return _convert(value, alt, where, source)
            except _Mismatch:
                continue
        raise _Mismatch(f"expected {_type_name(tp)}, got {value!r}")
    if origin is Literal:
        if value in get_args(tp) and type(value) in {type(a) for a in get_args(tp)}:
            return value
        raise _Mismatch(f"expected one of {', '.join(repr(a) for a in get_args(tp))}, got {value!r}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise _Mismatch(f"expected {_type_name(tp)}, got {value!r}")
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(v, args[0], f"{where}[{i}]", source) for i, v in enumerate(value))
        if len(value) != len(args):
            raise _Mismatch(f"expected a list of {len(args)} values, got {value!r}")
        pairs = enumerate(zip(value, args, strict=True))
        return tuple(_convert(v, a, f"{where}[{i}]", source) for i, (v, a) in pairs)
    if tp is type(None):
        if value is None:
            return None
        raise _Mismatch(f"expected null, got {value!r}")
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise _Mismatch(f"expected true or false, got {value!r}")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > MAX_INT:
                raise _Mismatch(f"{value} is out of range (at most {MAX_INT})")
            return value
        if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_INT:
            return int(value)  # 1e6 in YAML is a float with an integer value
        raise _Mismatch(f"expected an integer, got {value!r}")
    if tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise _Mismatch(f"expected a number, got {value!r}")
    if tp is str:
        if isinstance(value, str):
            return value
        raise _Mismatch(f"expected a string, got {value!r}")
    raise TypeError(f"unsupported config field type {tp!r} at {where}")


def build(cls: type, data: dict, source: str, prefix: str = "") -> Any:
    """Build dataclass ``cls`` from ``data``; ConfigError names ``source`` and the dotted key."""
    hints = get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    kwargs = {}
    for key, value in data.items():
        where = f"{prefix}.{key}" if prefix else str(key)
        if key not in names:
            problem = f"unknown key '{where}' (known here: {', '.join(sorted(names))})"
            raise ConfigError(f"{source}: {problem}", where, problem)
        if value is None and dataclasses.is_dataclass(hints[key]):
            value = {}  # a section whose keys are all commented out: YAML reads it as null
        try:
            kwargs[key] = _convert(value, hints[key], where, source)
        except _Mismatch as exc:
            raise ConfigError(f"{source}: key '{where}': {exc}", where, str(exc)) from None
    try:
        return cls(**kwargs)
    except ValueError as exc:
        field, _, msg = str(exc).partition(": ")
        where = f"{prefix}.{field}" if prefix else field
        raise ConfigError(f"{source}: key '{where}': {msg or exc}", where, msg or str(exc)) from None


def to_plain(obj: Any) -> Any:
    """A dataclass tree as plain dicts/lists, ready for yaml.safe_dump."""
    if dataclasses.is_dataclass(obj):
        return {f.name: to_plain(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.init}
    if isinstance(obj, tuple | list):
        return [to_plain(v) for v in obj]
    return obj


def set_dotted(data: dict, dotted: str, value: Any) -> None:
    """Set data['a']['b'] = value for dotted 'a.b', creating mappings on the way."""
    keys = dotted.split(".")
    node = data
    for key in keys[:-1]:
        nxt = node.get(key)
        if nxt is None:
            nxt = node[key] = {}
        if not isinstance(nxt, dict):
            raise ConfigError(f"--set {dotted}: '{key}' is not a section")
        node = nxt
    node[keys[-1]] = value


class _Loader(yaml.SafeLoader):
    """YAML 1.2 numbers (``1e6`` without a dot is a float, as in JSON) and no duplicate keys."""


_EXPONENT_FLOAT = re.compile(r"^[-+]?[0-9][0-9_]*(\.[0-9_]*)?[eE][-+]?[0-9]+$")
_Loader.add_implicit_resolver("tag:yaml.org,2002:float", _EXPONENT_FLOAT, list("-+0123456789"))


class _Dumper(yaml.SafeDumper):
    """Quotes every string the loader would read as a number (``'1e6'``): stored configs read back equal."""


_Dumper.add_implicit_resolver("tag:yaml.org,2002:float", _EXPONENT_FLOAT, list("-+0123456789"))


def dump_yaml(data: Any) -> str:
    """YAML text that ``_Loader`` reads back as ``data`` (keys in their given order)."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=False)


def _mapping(loader: _Loader, node: yaml.MappingNode, deep: bool = False) -> dict:
    """A mapping, refusing a key given twice (PyYAML would keep the last one silently)."""
    loader.flatten_mapping(node)
    first: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            if key in first:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r} (first on line {first[key]})", key_node.start_mark
                )
            first[key] = key_node.start_mark.line + 1
        except TypeError:
            continue  # an unhashable key: construct_mapping says so
    return loader.construct_mapping(node, deep)


_Loader.add_constructor("tag:yaml.org,2002:map", _mapping)


def yaml_load(text: str) -> Any:
    """Parse YAML text for configs, sweep files and ``--set`` values (see _Loader)."""
    return yaml.load(text, Loader=_Loader)


def positive(name: str, value: float | None, allow_zero: bool = False) -> None:
    """Range check of a count, budget, interval or weight; None (not set) passes, NaN and inf do not."""
    if value is None:
        return
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name}: must be a finite number, got {value}")
    if value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{name}: must be {'non-negative' if allow_zero else 'positive'}, got {value}")


def process_count_problem(value: int) -> str | None:
    """The one rule for every count of processes (run.workers; --workers of sweep, bench quality, solve):
    at least one. The problem, worded for the error line, or None."""
    return None if value >= 1 else "must be at least 1"


def bounds(name: str, value: tuple[int, int], low: int = 0) -> None:
    """Range check of a [min, max] pair."""
    if value[0] < low or value[1] < value[0]:
        raise ValueError(f"{name}: needs [min, max] with {low} <= min <= max, got {list(value)}")
