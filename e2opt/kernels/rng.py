"""Random numbers inside numba loops: splitmix64 on a one-element uint64 array.

The whole stream is one integer that checkpoints with its owner's state. The search, the constructions
(beam, DFS), the exact scan and the clique heuristic all draw from it, so it sits below them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True)
def next_u64(rng: np.ndarray) -> np.uint64:
    """splitmix64: advance the state rng[0] and return 64 random bits."""
    s = rng[0] + _GOLDEN
    rng[0] = s
    z = (s ^ (s >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def uniform(rng: np.ndarray) -> float:
    """A float uniform in [0, 1)."""
    return float(next_u64(rng) >> np.uint64(11)) * _TO_UNIT


@njit(cache=True)
def below(rng: np.ndarray, n: int) -> int:
    """An int uniform in [0, n)."""
    return int(uniform(rng) * n)


@njit(cache=True)
def between(rng: np.ndarray, lo: int, hi: int) -> int:
    """An int uniform in [lo, hi]."""
    return lo + below(rng, hi - lo + 1)
