"""Run configuration: one frozen dataclass per YAML section, validated on load.

A bad key or value raises ConfigError naming the file and the dotted key path. Relative paths
in a config file (``instance``, ``construct.board``) are taken relative to that file's folder.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import yaml

from .configload import build, set_dotted, to_plain
from .errors import ConfigError


def _positive(name: str, value: float | None, allow_zero: bool = False) -> None:
    """Range check of a count, budget, interval or weight; None (not set) passes, NaN and inf do not."""
    if value is None:
        return
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name}: must be a finite number, got {value}")
    if value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{name}: must be {'non-negative' if allow_zero else 'positive'}, got {value}")


def _bounds(name: str, value: tuple[int, int], low: int = 0) -> None:
    if value[0] < low or value[1] < value[0]:
        raise ValueError(f"{name}: needs [min, max] with {low} <= min <= max, got {list(value)}")


@dataclass(frozen=True)
class CpSatConfig:
    """The relaxed CP-SAT model of paper 001 sections 2 and 5 (construct.method: cpsat); see docs/cpsat.md.

    ``relaxed_cells`` (a list of [row, col]) overrides the random draw of ``relaxed`` cells. None for a
    presolve knob keeps CP-SAT's own default. ``fallback`` lists the steps tried, in order, when the
    first round finds nothing; a random board is always the last resort.
    """

    relaxed: int = 24
    relaxed_cells: tuple[tuple[int, int], ...] | None = None
    time_limit_s: float = 10.0
    num_workers: int = 2
    table: Literal["table", "element"] = "table"
    symmetry_breaking: bool = True
    variable_strategy: Literal["default", "min_domain", "max_domain", "row_scan", "spiral"] = "default"
    value_strategy: Literal["min", "max", "random"] = "min"
    presolve: bool = True
    symmetry_level: int | None = 0
    probing_level: int | None = 0
    max_presolve_iterations: int | None = 1
    restarts: int = (
        3  # the first round again, new draw of R (unless relaxed_cells) and new seed, before any fallback
    )
    fallback: tuple[Literal["more_relaxed", "max_matches"], ...] = ("more_relaxed", "max_matches")
    fallback_rounds: int = 1
    fallback_step: int = 8
    fallback_time_limit_s: float = 20.0
    log: bool = False

    def __post_init__(self):
        _positive("relaxed", self.relaxed, allow_zero=True)
        _positive("time_limit_s", self.time_limit_s)
        _positive("num_workers", self.num_workers)
        for name in ("symmetry_level", "probing_level"):
            _positive(name, getattr(self, name), allow_zero=True)
        _positive("max_presolve_iterations", self.max_presolve_iterations)
        _positive("restarts", self.restarts, allow_zero=True)
        _positive("fallback_rounds", self.fallback_rounds, allow_zero=True)
        _positive("fallback_step", self.fallback_step)
        _positive("fallback_time_limit_s", self.fallback_time_limit_s)
        if len(set(self.fallback)) != len(self.fallback):
            raise ValueError(f"fallback: a step is listed twice: {list(self.fallback)}")


@dataclass(frozen=True)
class RegionsConfig:
    """Region-by-region construction on CP-SAT (construct.method: regions; paper 002 §3.1-3.2, docs/regions.md).

    Regions are bands of ``height`` rows (``shape: rows``) or ``height`` x ``width`` blocks, filled top
    to bottom (``order: frame_first`` solves the frame ring first, then tiles the interior). ``greedy``
    solves each region once for the most joins; ``backtracking`` asks each region for no mismatch at
    all, goes back one region (no-good cut on its placement) when none exists, and after
    ``backtrack_time_s`` finishes greedily from the deepest partial board. ``candidates: best`` offers
    a region only the ``candidates_per_cell`` best fitting pieces of each cell (faster, not exact).
    """

    shape: Literal["rows", "blocks"] = "rows"
    height: int = 1
    width: int | None = None  # blocks only: block width (default: height)
    order: Literal["top_down", "frame_first"] = "top_down"
    mode: Literal["greedy", "backtracking"] = "greedy"
    time_limit_s: float = 10.0  # CP-SAT limit of one region solve
    backtrack_time_s: float = 60.0  # backtracking only: then the greedy rule finishes the board
    candidates: Literal["all", "best"] = "all"
    candidates_per_cell: int = 12
    warm_start: bool = True  # greedy: a region of several rows starts from its rows solved one by one
    num_workers: int = 1

    def __post_init__(self):
        _positive("height", self.height)
        _positive("width", self.width)
        if self.shape == "rows" and self.width is not None:
            raise ValueError("width: only blocks have a width (a band spans the whole row)")
        _positive("time_limit_s", self.time_limit_s)
        _positive("backtrack_time_s", self.backtrack_time_s)
        _positive("candidates_per_cell", self.candidates_per_cell)
        _positive("num_workers", self.num_workers)


@dataclass(frozen=True)
class ConstructConfig:
    """How the initial board is made: random, the relaxed CP-SAT model, or a given .board file."""

    method: Literal["random", "cpsat", "board", "regions"] = "random"
    board: str | None = None
    cpsat: CpSatConfig = field(default_factory=CpSatConfig)
    regions: RegionsConfig = field(default_factory=RegionsConfig)

    def __post_init__(self):
        if self.method == "board" and not self.board:
            raise ValueError("board: method 'board' needs a path to a .board file")


@dataclass(frozen=True)
class SearchConfig:
    """The very large neighbourhood tabu search (paper 001, Algorithm 1).

    Defaults tuned on eternity2 from random boards (docs/search.md: 30 to 240 CPU s, seeds 1-4): large k, a
    strong preference for mismatched cells, short tabu tenures, a mild reverse-arc penalty, long plateaus,
    and cost noise of half a join, the one setting that changed the score by more than the seed noise.
    """

    holes: int | tuple[int, int] = 64  # k holes per move, or [min, max] drawn each move
    select: Literal["biased", "random", "checkerboard"] = "biased"
    bias: float = 6.0  # hole weight = 1 + bias * mismatched joins of the cell
    tabu_cells: tuple[int, int] = (0, 1)  # tabu list 1 tenure bounds (moves)
    tabu_arcs: tuple[int, int] = (10, 30)  # tabu list 2 tenure bounds (moves)
    reverse_penalty: float = 1.0  # weight removed from a reverse arc in tabu list 2
    tie_noise: bool = True  # random choice among equally good reassignments (sideways moves)
    cost_noise: float = 0.5  # extra noise per cost entry, in joins: moves may then give up joins (noising)
    plateau: int = 3000  # moves without a new best before a diversification
    diversify_swaps: int = 8  # random swap-and-rotate moves per diversification
    intensify_after: int = 4  # plateaus in a row without a new best before restoring the best board
    check: bool = False

    def __post_init__(self):
        holes = (self.holes, self.holes) if isinstance(self.holes, int) else self.holes
        _bounds("holes", holes, low=2)
        _positive("bias", self.bias, allow_zero=True)
        _bounds("tabu_cells", self.tabu_cells)
        _bounds("tabu_arcs", self.tabu_arcs)
        _positive("reverse_penalty", self.reverse_penalty, allow_zero=True)
        _positive("cost_noise", self.cost_noise, allow_zero=True)
        _positive("plateau", self.plateau)
        _positive("diversify_swaps", self.diversify_swaps, allow_zero=True)
        _positive("intensify_after", self.intensify_after)

    @property
    def holes_range(self) -> tuple[int, int]:
        """(k_min, k_max): the number of holes per move is drawn uniformly from this range."""
        return (self.holes, self.holes) if isinstance(self.holes, int) else self.holes


@dataclass(frozen=True)
class StopConfig:
    """Stopping criteria; the run stops when any one holds. Budgets include construction time."""

    max_wall_s: float | None = None
    max_cpu_s: float | None = None
    max_iterations: int | None = None
    target_score: int | None = None
    max_intensifications: int | None = None

    def __post_init__(self):
        for name in ("max_wall_s", "max_cpu_s", "max_iterations", "target_score", "max_intensifications"):
            _positive(name, getattr(self, name), allow_zero=name == "max_iterations")


@dataclass(frozen=True)
class OutputConfig:
    """Where and how a run reports: run folder, checkpoints, progress, pictures."""

    runs_dir: str = "runs"
    checkpoint_every_s: float = 60.0
    stats_every_s: float = 10.0
    progress_every_s: float = 0.5
    log_every_s: float = 30.0
    plots: bool = True

    def __post_init__(self):
        for name in ("checkpoint_every_s", "stats_every_s", "progress_every_s", "log_every_s"):
            _positive(name, getattr(self, name))


@dataclass(frozen=True)
class RunConfig:
    """A whole run: instance, seed, construction, search, stopping criteria, output."""

    instance: str
    name: str = ""
    seed: int = 0
    construct: ConstructConfig = field(default_factory=ConstructConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    stop: StopConfig = field(default_factory=StopConfig)
    output: OutputConfig = field(default_factory=OutputConfig)

    def __post_init__(self):
        _positive("seed", self.seed, allow_zero=True)
        if not self.name:
            object.__setattr__(self, "name", Path(self.instance).stem)

    def to_dict(self) -> dict[str, Any]:
        """Plain data, as written to a run folder's config.yaml."""
        return to_plain(self)

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_dict(), sort_keys=False)


def parse_override(text: str) -> tuple[str, Any]:
    """'search.holes=16' -> ('search.holes', 16); the value is read as YAML."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"--set {text!r}: expected key.path=value")
    try:
        value = yaml.safe_load(raw) if raw.strip() else None
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
    _check_against_puzzle(cfg, source)
    return cfg


def _check_against_puzzle(cfg: RunConfig, source: str) -> None:
    """Settings that only the puzzle can refute (relaxed cells, a warm-start board): fail before any work."""
    from .construct import check_against_puzzle

    problems = check_against_puzzle(cfg.construct, cfg.instance)
    if problems:
        key, problem = problems[0]
        raise ConfigError(f"{source}: key '{key}': {problem}")


def _resolve(path: str, base_dir: Path) -> str:
    p = Path(path).expanduser()
    return str(p if p.is_absolute() else (base_dir / p).resolve())


def read_config_data(path: str | Path) -> dict:
    """The raw mapping of a YAML config file; ConfigError on unreadable or malformed YAML."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (bad byte at offset {exc.start})") from None
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
    for text in overrides:
        key, value = parse_override(text)
        set_dotted(data, key, value)
    for key, value in values.items():
        if value is not None:
            set_dotted(data, key, value)
    return config_from_dict(data, str(path), path.resolve().parent)
