"""The constructions' numba warm-up: each method the registry says runs numba kernels (``MethodOptions.kernels``)
builds one board of a tiny generated puzzle, so its kernels are compiled (or loaded from numba's cache) before a
run's clock starts. Once per process and method."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..config.registry import warm_entries
from ..core.generate import generate
from . import METHODS, ConstructConfig, construct
from .config import BeamConfig

WARM_S = 1.0  # a deadline for the tiny build (its kernels are called in its first moments)
_warmed: set[str] = set()


def warm_constructions(names: Iterable[str]) -> list[str]:
    """Compile or load the kernels of the named construction methods; the names warmed now, in order."""
    return warm_entries(METHODS, names, _warmed, _build_one)


def _build_one(name: str) -> None:
    """Build one board of a tiny generated puzzle by the method (one beam: the kernels, not the repeats)."""
    puzzle, _ = generate(6, 6, 3, 4, 1)
    cfg = ConstructConfig(method=name, beam=BeamConfig(time_limit_cpu_s=None))
    construct(puzzle, cfg, np.random.default_rng(0), WARM_S)
