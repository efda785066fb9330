"""Config files -> RunConfig: read YAML, apply overrides, validate, check what only the puzzle can refute.

A bad key or value raises ConfigError naming the file and the dotted key path. Relative paths in a config
file (``instance``, ``construct.board``) are taken relative to that file's folder. This module sits above
construct/ (whose methods check their settings against the puzzle); config.py below it holds only the
dataclasses.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from ..config.schema import build, set_dotted, yaml_load
from ..construct import check_against_puzzle
from ..core.errors import ConfigError
from ..core.fsutil import UnreadableFile, read_user_text
from ..search.moves.assignment import AssignmentConfig
from .config import RunConfig

CONFIG_LIMIT_MB = 4
# Keyword values of load_config that the ``run`` command line sets, by the option the user typed.
CLI_OPTIONS = {
    "seed": "--seed",
    "stop.max_wall_s": "--max-wall-s",
    "stop.max_cpu_s": "--max-cpu-s",
    "name": "--name",
    "output.runs_dir": "--runs-dir",
    "run.workers": "--workers",
}


def parse_override(text: str) -> tuple[str, Any]:
    """'search.holes=16' -> ('search.holes', 16); the value is read as YAML."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"--set {text!r}: expected key.path=value")
    try:
        value = yaml_load(raw) if raw.strip() else None
    except yaml.YAMLError:
        value = raw
    return key.strip(), value


def config_from_dict(data: Any, source: str, base_dir: Path | None = None) -> RunConfig:
    """Validate plain data as a RunConfig; relative paths resolve against base_dir."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the config must be a mapping of sections")
    if "instance" not in data:
        raise ConfigError(f"{source}: missing key 'instance' (the puzzle file)")
    cfg = build(RunConfig, data, source)
    if base_dir is not None:
        cfg = replace(cfg, instance=_resolve(cfg.instance, base_dir))
        if cfg.construct.board:
            construct = replace(cfg.construct, board=_resolve(cfg.construct.board, base_dir))
            cfg = replace(cfg, construct=construct)
    if not Path(cfg.instance).is_file():
        raise ConfigError(f"{source}: key 'instance': no puzzle file at {cfg.instance}")
    if cfg.construct.board and not Path(cfg.construct.board).is_file():
        raise ConfigError(f"{source}: key 'construct.board': no board file at {cfg.construct.board}")
    _check_against_puzzle(cfg, source, _holes_key(data))
    return cfg


def _holes_key(data: dict) -> str:
    """The dotted key the holes were given under: paper 001's ``search.holes`` or their section's."""
    search = data.get("search")
    return (
        "search.holes" if isinstance(search, dict) and "holes" in search else "search.moves.assignment.holes"
    )


def _check_against_puzzle(cfg: RunConfig, source: str, holes_key: str) -> None:
    """Settings that only the puzzle can refute (relaxed cells, a warm-start board): fail before any work."""
    problems = check_against_puzzle(cfg.construct, cfg.instance) + _limit_problems(cfg, holes_key)
    if problems:
        key, problem = problems[0]
        raise ConfigError(f"{source}: key '{key}': {problem}", key, problem)


def _limit_problems(cfg: RunConfig, holes_key: str) -> list[tuple[str, str]]:
    """Holes and a target score the puzzle cannot allow, as (dotted key, problem) pairs.

    The default holes (64, tuned on Eternity II) are never a mistake: on a smaller puzzle the search takes
    the cells there are. A value the user chose is held to the puzzle.
    """
    from ..core.formats.read import read_puzzle_cached

    puzzle = read_puzzle_cached(cfg.instance)
    problems = []
    movable = puzzle.n_cells - len(puzzle.hints)
    assignment = cfg.search.assignment
    holes = assignment.holes_range[1]
    if holes > movable and assignment.holes != AssignmentConfig.holes:
        problems.append((holes_key, f"{holes} holes per move, but {puzzle.name} has {movable} movable cells"))
    target = cfg.stop.target_score
    if target is not None and target > puzzle.max_score:
        problems.append(
            ("stop.target_score", f"{target} is above the maximum score {puzzle.max_score} of {puzzle.name}")
        )
    return problems


def _resolve(path: str, base_dir: Path) -> str:
    p = Path(path).expanduser()
    return str(p if p.is_absolute() else (base_dir / p).resolve())


def read_config_data(path: str | Path) -> dict:
    """The raw mapping of a YAML config file; ConfigError on unreadable or malformed YAML."""
    path = Path(path)
    try:
        data = yaml_load(read_user_text(path, CONFIG_LIMIT_MB))
    except UnreadableFile as exc:
        raise ConfigError(f"{path}: {'no such config file' if str(exc) == 'no such file' else exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark else ""
        raise ConfigError(f"{path}{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the config must be a mapping of sections")
    return data


def load_config(path: str | Path, overrides: list[str] | tuple[str, ...] = (), **values: Any) -> RunConfig:
    """Load a YAML config, apply ``--set`` style overrides and keyword values, and validate."""
    path = Path(path)
    data = read_config_data(path)
    given: dict[str, str] = {}  # dotted key -> the option that set it, to blame it rather than the file
    for text in overrides:
        key, value = parse_override(text)
        set_dotted(data, key, value)
        given[key] = f"--set {text}"
    if "instance" in given and "name" not in given and values.get("name") is None:
        data["name"] = ""  # a run of another puzzle (--set instance=...) is named after that puzzle
    for key, value in values.items():
        if value is not None:
            set_dotted(data, key, value)
            given[key] = f"{CLI_OPTIONS[key]} {value}" if key in CLI_OPTIONS else f"{key}={value!r}"
    try:
        return config_from_dict(data, str(path), path.resolve().parent)
    except ConfigError as exc:
        option = _option_for(exc.key, given)
        if option is None:
            raise
        raise ConfigError(f"{option}: {exc.problem}", exc.key, exc.problem) from None


def _option_for(key: str | None, given: dict[str, str]) -> str | None:
    """The command-line option that set ``key`` (or the section holding it); None when the file did."""
    if key is None:
        return None
    for dotted in reversed(list(given)):
        if key == dotted or key.startswith(f"{dotted}.") or dotted.startswith(f"{key}."):
            return given[dotted]
    return None
