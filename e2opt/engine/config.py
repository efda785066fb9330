"""RunConfig: a whole run, the sections of every layer below assembled (construct and search from their
families' registries; stop, output and run from config/sections.py). Files become a RunConfig in
engine/loader.py, which names the file and key of any error."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..config.schema import dump_yaml, positive, to_plain
from ..config.sections import OutputConfig, RunSection, StopConfig
from ..construct import METHODS, ConstructConfig
from ..search.config import SearchConfig


def _check_name(name: str) -> None:
    """A run name becomes part of a folder name: one plain path component, printable, not too long."""
    if "/" in name or "\\" in name or name in (".", "..") or not name.isprintable() or len(name) > 100:
        raise ValueError(
            f"name: {name!r} cannot be part of a folder name (no / or \\, printable, at most 100 characters)"
        )


@dataclass(frozen=True)
class RunConfig:
    """A whole run: instance, seed, construction, search, stopping criteria, output."""

    instance: str
    name: str = ""
    seed: int = 1
    construct: ConstructConfig = field(default_factory=ConstructConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    stop: StopConfig = field(default_factory=StopConfig)
    output: OutputConfig = field(default_factory=OutputConfig)
    run: RunSection = field(default_factory=RunSection)

    def __post_init__(self):
        positive("seed", self.seed, allow_zero=True)
        if not self.name:
            object.__setattr__(self, "name", Path(self.instance).stem)
        _check_name(self.name)
        method = self.run.roles.method
        if method is not None and method not in METHODS:
            raise ValueError(
                f"run.roles.method: unknown construction method {method!r} (known: {', '.join(METHODS)})"
            )

    def producer_construct(self) -> ConstructConfig:
        """The construction a producer uses: run.roles.method, with the construct section's settings."""
        method = self.run.roles.method
        return self.construct if method is None else replace(self.construct, method=method)

    def to_dict(self) -> dict[str, Any]:
        """Plain data of the live settings, as written to a run folder's config.yaml: of the construction
        sections only those the workers and producers use (every other one would be read as its defaults)."""
        data = to_plain(self)
        live = {self.construct.method, self.producer_construct().method}
        keep = {"method", *live} | ({"board"} if self.construct.board is not None else set())
        data["construct"] = {key: value for key, value in data["construct"].items() if key in keep}
        return data

    def to_yaml(self) -> str:
        return dump_yaml(self.to_dict())
