"""Sweep files: expansion into runs, and the Sweep journal (runs.json, status.jsonl).

Parameter sweeps: a base config x a grid of overrides x named variants x seeds, each run an ordinary run folder.

A sweep file (YAML)::

    name: holes                      # default: the file's stem
    base: ../eternity2.yaml          # the base run config, relative to the sweep file
    seeds: 5                         # seeds 1..5, or a list such as [1, 7, 42]
    set: {stop.max_cpu_s: 30}        # overrides for every run
    grid: {search.holes: [2, 4, 8]}  # dotted key -> values; runs take the cartesian product
    variants:                        # optional, named; each a set of overrides that may bring its own grid
      cpsat: {construct.method: cpsat, grid: {construct.cpsat.relaxed: [0, 8, 16]}}
      random: {construct.method: random}

Overrides apply in the order base < set (then ``--set``) < variant < grid < seed. Every run's config is built
and validated before any run starts. The sweep folder ``runs/<UTC stamp>_<name>/`` holds sweep.yaml (a
copy), runs.json (the expanded runs, written once), status.jsonl (one line per status change, appended by
the sweep process only) and one run folder per run, named by its run id (``cpsat_relaxed=8_s3``). Runs go
out seed by seed, so a sweep stopped halfway has the same number of seeds for every setting.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..config.schema import set_dotted
from ..core.errors import ConfigError, E2optError
from ..core.fsutil import STATE_FILE_MB, UnreadableFile, atomic_write_text, read_user_text
from ..engine.loader import config_from_dict, parse_override, read_config_data, translated
from ..engine.runfolder import require

MAX_SEEDS = 100_000  # a seed count beyond any real sweep: a typo must not expand into millions of runs
SPEC_KEYS = ("name", "base", "seeds", "set", "grid", "variants")
JOURNAL = "runs.json"
STATUS = "status.jsonl"
STATUSES = ("pending", "done", "failed", "interrupted")
_PATH_KEYS = ("instance", "construct.board")  # path values in a sweep file are relative to the sweep file
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")


@dataclass(frozen=True)
class SweepRun:
    """One run of a sweep: its id (= its folder name), its place in the sweep, its validated config."""

    id: str
    variant: str | None
    values: dict[str, Any]  # swept dotted key -> value (the grid point; not the variant's fixed overrides)
    seed: int
    config: dict[str, Any]  # RunConfig.to_dict() of the validated config, paths absolute

    @property
    def setting(self) -> str:
        """The id without the seed: runs that differ only by seed share a setting."""
        label = self.id.removesuffix(f"s{self.seed}").rstrip("_")
        return label or "base"


@dataclass
class Sweep:
    """An expanded sweep (runs.json, written once) and the status of each run (status.jsonl)."""

    name: str
    source: str  # the sweep file
    base: str  # the base config file
    keys: list[str]  # swept dotted keys, in order of first appearance
    variants: list[str]
    runs: list[SweepRun]
    overrides: list[str] = field(default_factory=list)  # command-line changes (--set, --seeds)
    status: dict[str, dict[str, Any]] = field(default_factory=dict)  # run id -> {"status", "error"}

    def status_of(self, run_id: str) -> str:
        """pending, done, failed or interrupted."""
        return self.status.get(run_id, {}).get("status", "pending")

    def error_of(self, run_id: str) -> str | None:
        """The one-line error recorded with the run's status, if any."""
        return self.status.get(run_id, {}).get("error")

    def write(self, sweep_dir: Path) -> None:
        """Write runs.json, the expanded runs with their full configs (once, when the sweep folder is made)."""
        head = {k: getattr(self, k) for k in ("name", "source", "base", "keys", "variants", "overrides")}
        data = {**head, "runs": [asdict(run) for run in self.runs]}
        atomic_write_text(sweep_dir / JOURNAL, json.dumps(data, indent=1) + "\n")

    def set_status(self, sweep_dir: Path, run_id: str, status: str, error: str | None = None) -> None:
        """Record a run's new status: one line appended to status.jsonl (by the sweep process only)."""
        self.status[run_id] = {"status": status, "error": error}
        line = json.dumps({"id": run_id, "status": status, "error": error}).encode("utf-8") + b"\n"
        with open(sweep_dir / STATUS, "a+b") as f:
            if f.seek(0, os.SEEK_END) > 0 and f.seek(-1, os.SEEK_END) >= 0 and f.read(1) != b"\n":
                line = b"\n" + line  # after a torn last line (a killed sweep), start a fresh one
            f.write(line)
            f.flush()
            os.fsync(f.fileno())

    @classmethod
    def load(cls, sweep_dir: str | Path) -> Sweep:
        """The sweep of a sweep folder; the last status.jsonl line of a run wins (a torn line is skipped)."""
        path = require(sweep_dir, "sweep") / JOURNAL
        if not path.exists():
            raise E2optError(f"{sweep_dir}: not a sweep folder (no {JOURNAL})")
        try:
            data = json.loads(read_user_text(path, STATE_FILE_MB))
            runs = [SweepRun(**item) for item in data.pop("runs")]
            sweep = cls(**data, runs=runs)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise E2optError(f"{path}: unreadable sweep file ({type(exc).__name__}: {exc})") from None
        status_path = Path(sweep_dir) / STATUS
        try:
            lines = read_user_text(status_path, STATE_FILE_MB).splitlines() if status_path.exists() else []
        except UnreadableFile as exc:
            raise E2optError(f"{status_path}: {exc}") from None
        for line in lines:
            try:
                entry = json.loads(line)
                sweep.status[entry["id"]] = {"status": entry["status"], "error": entry.get("error")}
            except (ValueError, KeyError, TypeError):
                continue
        return sweep


def _flatten(data: Any, where: str, source: str, prefix: str = "") -> dict[str, Any]:
    """{'stop': {'max_cpu_s': 30}, 'search.holes': 8} -> {'stop.max_cpu_s': 30, 'search.holes': 8}."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: key '{where}': expected a mapping of dotted keys to values")
    flat: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            flat.update(_flatten(value, where, source, dotted))
        else:
            flat[dotted] = value
    for key in flat:
        if key.split(".")[0] == "seed":
            raise ConfigError(f"{source}: key '{where}.{key}': a sweep sets seeds with its 'seeds' key")
    return flat


def _grid(data: Any, where: str, source: str) -> dict[str, list]:
    """A grid mapping, flattened to dotted keys, each with a non-empty list of values."""
    grid = _flatten(data, where, source)
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise ConfigError(f"{source}: key '{where}.{key}': expected a non-empty list of values")
    return grid


def parse_seeds(value: Any, source: str) -> list[int]:
    """``5`` -> [1, 2, 3, 4, 5]; a list of distinct non-negative integers is taken as is."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_SEEDS:
        return list(range(1, value + 1))
    if (
        isinstance(value, list)
        and value
        and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in value)
        and len(set(value)) == len(value)
    ):
        return list(value)
    raise ConfigError(
        f"{source}: key 'seeds': expected a count (5 means seeds 1..5, at most {MAX_SEEDS}) or a list of "
        f"distinct non-negative integers, got {value!r}"
    )


def _label(key: str, value: Any) -> str:
    """A swept value as it appears in a run id: short, and safe in a folder name."""
    if key in _PATH_KEYS and isinstance(value, str):
        text = Path(value).stem
    elif isinstance(value, bool) or value is None:
        text = str(value).lower()
    elif isinstance(value, list | tuple):
        text = "-".join(_label("", v) for v in value)
    else:
        text = str(value)
    return re.sub(r"[^A-Za-z0-9.+-]", "_", text)


def _short_names(keys: list[str]) -> dict[str, str]:
    """The last part of each dotted key, or the whole key where two swept keys end alike."""
    last = [key.rsplit(".", 1)[-1] for key in keys]
    return {key: (short if last.count(short) == 1 else key) for key, short in zip(keys, last, strict=True)}


def _apply(data: dict, key: str, value: Any, source: str, sweep_dir: Path) -> None:
    """Set one dotted override in raw config data (a path value resolved against the sweep file's folder)."""
    if key in _PATH_KEYS and isinstance(value, str):
        value = str((sweep_dir / Path(value).expanduser()).resolve())
    try:
        set_dotted(data, key, value)
    except ConfigError:
        raise ConfigError(
            f"{source}: key '{key}': '{key.rsplit('.', 1)[0]}' is not a config section"
        ) from None


def expand_sweep(
    spec: Any, source: str | Path, extra_set: dict[str, Any] | None = None, seeds: Any = None
) -> Sweep:
    """Every run of a sweep spec (the sweep file's data), each config built and validated.

    ``extra_set`` (command-line ``--set``) applies after the file's ``set``; ``seeds`` replaces its seeds.
    """
    source = str(source)
    sweep_dir = Path(source).resolve().parent
    if not isinstance(spec, dict):
        raise ConfigError(f"{source}: a sweep file must be a mapping (base, seeds, set, grid, variants)")
    for key in spec:
        if key not in SPEC_KEYS:
            raise ConfigError(f"{source}: unknown key '{key}' (known here: {', '.join(sorted(SPEC_KEYS))})")
    name = spec.get("name", Path(source).stem)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ConfigError(f"{source}: key 'name': expected letters, digits and _.+- only, got {name!r}")
    if not isinstance(spec.get("base"), str):
        raise ConfigError(f"{source}: key 'base': expected the path of the base config file")
    base = (sweep_dir / Path(spec["base"]).expanduser()).resolve()
    if not base.is_file():
        raise ConfigError(f"{source}: key 'base': no config file at {base}")
    base_data = read_config_data(base)
    config_from_dict(copy.deepcopy(base_data), str(base), base.parent)  # the base's own errors name the base
    base_data = translated(base_data, str(base))[0]  # the set keys change the default mix where it has none
    if "seeds" not in spec and seeds is None:
        raise ConfigError(f"{source}: missing key 'seeds' (a count, or a list of seeds)")
    seed_list = parse_seeds(spec["seeds"] if seeds is None else seeds, source)
    common = {**_flatten(spec.get("set") or {}, "set", source), **(extra_set or {})}
    plans = _plans(spec, source)
    keys = list(dict.fromkeys(key for _, _, grid in plans for key in grid))
    short = _short_names(keys)
    runs = []
    for seed in seed_list:
        for variant, overrides, grid in plans:
            for point in itertools.product(*grid.values()):
                values = dict(zip(grid, point, strict=True))
                parts = [variant] if variant else []
                parts += [f"{short[key]}={_label(key, value)}" for key, value in values.items()]
                run_id = "_".join([*parts, f"s{seed}"])
                data = copy.deepcopy(base_data)
                for key, value in {**common, **overrides, **values, "seed": seed}.items():
                    _apply(data, key, value, source, sweep_dir)
                cfg = config_from_dict(data, f"{source} (run {run_id})", base.parent)
                runs.append(SweepRun(run_id, variant, values, seed, cfg.to_dict()))
    twins = [run_id for run_id, n in Counter(run.id for run in runs).items() if n > 1]
    if twins:
        raise ConfigError(
            f"{source}: several runs would share the folder name {twins[0]!r}; make values distinct"
        )
    variants = [variant for variant, _, _ in plans if variant]
    return Sweep(name, str(Path(source).resolve()), str(base), keys, variants, runs)


def _plans(spec: dict, source: str) -> list[tuple[str | None, dict[str, Any], dict[str, list]]]:
    """(variant name, its fixed overrides, its grid) for each variant, or one unnamed plan without variants."""
    grid = _grid(spec.get("grid") or {}, "grid", source)
    variants = spec.get("variants")
    if variants is None:
        return [(None, {}, grid)]
    if not isinstance(variants, dict) or not variants:
        raise ConfigError(f"{source}: key 'variants': expected a mapping of variant names to overrides")
    plans = []
    for name, body in variants.items():
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise ConfigError(
                f"{source}: key 'variants.{name}': use letters, digits and _.+- in variant names"
            )
        body = dict(body) if isinstance(body, dict) else body
        own_grid = body.pop("grid", None) if isinstance(body, dict) else None
        overrides = _flatten(body or {}, f"variants.{name}", source)
        vgrid = grid if own_grid is None else _grid(own_grid, f"variants.{name}.grid", source)
        plans.append((name, overrides, vgrid))
    return plans


def load_sweep(
    path: str | Path, overrides: tuple[str, ...] | list[str] = (), seeds: str | None = None
) -> Sweep:
    """Read and expand a sweep file; ``overrides`` are ``--set key=value`` texts, ``seeds`` '5' or '1,4,9'."""
    extra = dict(parse_override(text) for text in overrides)
    seed_value = None
    if seeds is not None:
        try:
            parts = [int(s) for s in seeds.split(",")]
        except ValueError:
            raise ConfigError(
                f"--seeds {seeds}: expected a count or a comma-separated list of seeds"
            ) from None
        seed_value = parts if "," in seeds else parts[0]
    sweep = expand_sweep(read_config_data(path), path, extra, seed_value)
    sweep.overrides = [f"--set {text}" for text in overrides] + ([f"--seeds {seeds}"] if seeds else [])
    return sweep
