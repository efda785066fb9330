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
from ..config.translate import fill_dumped, say_translated, translate, translate_key
from ..construct import check_against_puzzle
from ..construct.dfs.legacy import translate_old_sections
from ..core.errors import ConfigError
from ..core.fsutil import UnreadableFile, read_user_text
from ..search.moves import default_moves
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


def translated(data: dict, source: str, dumped: bool = False) -> tuple[dict, list[tuple[str, str]]]:
    """``data`` with the settings of older e2opt versions in their new places, and the (old, new) pairs.
    ``dumped``: a run's full dump, whose missing keys read the values they had (translate.fill_dumped).
    Without a ``search.moves`` section it gets the default mix, which dotted keys set later then change."""
    data, moved = translate(data, source, (translate_old_sections,))
    if dumped:
        fill_dumped(data)
    search = data.get("search")
    if search is None or (isinstance(search, dict) and search.get("moves") is None):
        data["search"] = {**(search or {}), "moves": {name: {} for name, _ in default_moves().enabled()}}
    return data, moved


def config_from_dict(
    data: Any,
    source: str,
    base_dir: Path | None = None,
    moved: list[tuple[str, str]] | None = None,
    dumped: bool = False,
) -> RunConfig:
    """Validate plain data as a RunConfig (older settings translated, one line saying so); relative paths
    resolve against base_dir. An error in a translated key (``moved``: those translated before) names the
    key as written. ``dumped``: the full dump of a run (a sweep journal's), see ``translated``."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the config must be a mapping of sections")
    if "instance" not in data:
        raise ConfigError(f"{source}: missing key 'instance' (the puzzle file)")
    data, now = translated(data, source, dumped)
    say_translated(source, now)
    moved = (moved or []) + now
    try:
        return _validated(data, source, base_dir)
    except ConfigError as exc:
        old = {new: old for old, new in moved}.get(exc.key or "")
        if old is None:
            raise
        raise ConfigError(str(exc).replace(f"'{exc.key}'", f"'{old}'"), old, exc.problem) from None


def _validated(data: dict, source: str, base_dir: Path | None) -> RunConfig:
    """The RunConfig of translated data, its paths resolved and checked against the puzzle."""
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
    _check_against_puzzle(cfg, source)
    return cfg


def _check_against_puzzle(cfg: RunConfig, source: str) -> None:
    """Settings that only the puzzle can refute (relaxed cells, a warm-start board): fail before any work."""
    problems = check_against_puzzle(cfg.construct, cfg.instance) + _limit_problems(cfg)
    if problems:
        key, problem = problems[0]
        raise ConfigError(f"{source}: key '{key}': {problem}", key, problem)


def _limit_problems(cfg: RunConfig) -> list[tuple[str, str]]:
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
        problems.append(
            (
                "search.moves.assignment.holes",
                f"{holes} holes per move, but {puzzle.name} has {movable} movable cells",
            )
        )
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


def load_config(
    path: str | Path, overrides: list[str] | tuple[str, ...] = (), *, dumped: bool = False, **values: Any
) -> RunConfig:
    """Load a YAML config, apply ``--set`` style overrides and keyword values, and validate; ``dumped``: a
    run folder's config.yaml (see ``translated``)."""
    path = Path(path)
    data, moved = translated(read_config_data(path), str(path), dumped)  # before the options (new names)
    say_translated(str(path), moved)
    given: dict[str, str] = {}  # dotted key -> the option that set it, to blame it rather than the file
    for text in overrides:
        key, value = parse_override(text)
        new, value = translate_key(key, value)
        say_translated(f"--set {text}", [(key, new)] if new != key else [])
        set_dotted(data, new, value)
        given[new] = f"--set {text}"
    if "instance" in given and "name" not in given and values.get("name") is None:
        data["name"] = ""  # a run of another puzzle (--set instance=...) is named after that puzzle
    for key, value in values.items():
        if value is not None:
            new, value = translate_key(key, value)
            set_dotted(data, new, value)
            given[new] = f"{CLI_OPTIONS[key]} {value}" if key in CLI_OPTIONS else f"{key}={value!r}"
    moved = [(old, new) for old, new in moved if _option_for(new, given) is None]  # an option set it since
    try:
        return config_from_dict(data, str(path), path.resolve().parent, moved, dumped)
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
