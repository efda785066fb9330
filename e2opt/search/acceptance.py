"""Acceptance: which score changes the search keeps: all (Algorithm 1's tabu rules) or simulated annealing.

Annealing keeps a loss of d joins with probability exp(-d / T); T cools geometrically from t_start to t_end
over the run's budget: its CPU budget if it has one, else its iteration budget, else repeated coolings of
``period_cpu_s`` CPU seconds. With a budget, ``reheats`` splits it into reheats + 1 equal coolings, each from
t_start (the reheats of a destroy-and-repair search's outer annealing). The temperature lives in
state.extra (checkpointed with the rest).
"""

from __future__ import annotations

import math

import numpy as np

from ..kernels.rng import uniform
from .config import AcceptanceConfig
from .state import SearchState
from .stop import AnyOf, MaxCpuTime, MaxIterations


def _budget(stop, kind: type) -> float | None:
    """The smallest bound of criterion class ``kind`` in stop (looking inside AnyOf)."""
    if isinstance(stop, kind):
        return float(stop.seconds if kind is MaxCpuTime else stop.n)
    if isinstance(stop, AnyOf):
        bounds = [b for b in (_budget(c, kind) for c in stop.criteria) if b is not None]
        return min(bounds) if bounds else None
    return None


class Acceptance:
    """``undoes`` tells the loop whether a change must be rolled back; ``cool`` sets the temperature."""

    def __init__(self, cfg: AcceptanceConfig, state: SearchState):
        self.cfg, self.state = cfg, state
        self.annealing = cfg.kind == "annealing"
        if state.extra.get("temperature", np.zeros(0)).shape != (1,):
            state.extra["temperature"] = np.array([cfg.t_start], dtype=np.float64)
        self.temperature = state.extra["temperature"]
        self._cpu_budget: float | None = None
        self._iteration_budget: float | None = None

    def start(self, stop) -> None:
        """Read the run's budget from its stopping criteria."""
        self._cpu_budget = _budget(stop, MaxCpuTime)
        self._iteration_budget = _budget(stop, MaxIterations)

    def cool(self, iteration: int, cpu_s: float) -> None:
        """Set the temperature for the run's progress (called every few moves)."""
        if not self.annealing:
            return
        budget = self._cpu_budget or self._iteration_budget
        if budget:
            laps = min((cpu_s if self._cpu_budget else iteration) / budget, 1.0) * (self.cfg.reheats + 1)
            progress = 1.0 if laps >= self.cfg.reheats + 1 else laps - math.floor(laps)
        else:
            progress = (cpu_s % self.cfg.period_cpu_s) / self.cfg.period_cpu_s
        self.temperature[0] = self.cfg.t_start * (self.cfg.t_end / self.cfg.t_start) ** progress

    def undoes(self, delta: int) -> bool:
        """True when a change of ``delta`` joins is rejected (never under the tabu rules)."""
        if delta >= 0 or not self.annealing:
            return False
        return uniform(self.state.rng) >= math.exp(delta / self.temperature[0])
