"""The run's numba warm-up, driven by the registries: the moves a config enables (and the loop's own kernels,
those of the assignment move) and the constructions it runs (its own and its producers') compile or load their
kernels before the run's clock starts. Only those: warming every entry costs seconds a run does not need."""

from __future__ import annotations

from ..construct.warm import warm_constructions
from ..search.warm import warm_search
from .config import RunConfig


def warm_up(cfg: RunConfig) -> list[str]:
    """Compile or load every kernel ``cfg`` can run; the entries warmed now (none when all were already)."""
    return warm_search(cfg.search) + warm_constructions(
        [cfg.construct.method, cfg.producer_construct().method]
    )
