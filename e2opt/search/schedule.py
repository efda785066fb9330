"""Schedule: which move comes next: a fixed mix of CPU shares, or adaptive shares by recent gain per CPU second.

Weights are shares of CPU time, so a move is called with probability share / (CPU cost per call): a
50 ms CP-SAT repair with share 0.2 runs a fifth of the time, not a fifth of the calls. The adaptive
schedule (ALNS roulette, Ropke and Pisinger 2006) re-estimates every ``segment`` moves: each move's
gain (net score change, at least 0) per CPU second in the segment, normalised, mixed into its share with
the reaction factor; no share falls below ``floor`` times its configured one. Costs are measured
(moving averages of process time) unless a move sets ``cost_cpu_ms``; with every cost nominal, the schedule is
reproducible. Everything it learns lives in state.extra, so a resumed run continues it.
"""

from __future__ import annotations

import numpy as np

from ..kernels.rng import uniform
from .config import ScheduleConfig
from .moves.base import MoveWeight
from .state import SearchState

_SALT = np.uint64(0x5DEECE66D2545F49)  # the schedule's own stream, derived from the search seed
CALLS, GAIN, IMPROVED = 0, 1, 2  # columns of the per-move totals (CPU seconds apart: measured, not replayed)
EMA = 0.05  # weight of the newest call in a measured cost


class Schedule:
    """Picks a move index per iteration and keeps per-move totals (calls, CPU, gain, improving calls)."""

    def __init__(self, cfg: ScheduleConfig, names: list[str], settings: list[MoveWeight], state: SearchState):
        self.cfg, self.names = cfg, names
        m = len(names)
        base = np.array([s.weight for s in settings], dtype=np.float64)
        self.base = base / base.sum()
        self.nominal = np.array([(s.cost_cpu_ms or 0.0) / 1000.0 for s in settings], dtype=np.float64)
        self.timed = m > 1 and bool(np.any(self.nominal == 0.0))
        extra = state.extra
        if extra.get("sched_share", np.zeros(0)).shape != (m,):
            extra["sched_rng"] = np.array([state.rng[0] ^ _SALT], dtype=np.uint64)
            extra["sched_share"] = self.base.copy()
            extra["sched_cost"] = self.nominal.copy()  # CPU seconds per call; 0 = not measured yet
            extra["sched_segment"] = np.zeros((m, 3), dtype=np.float64)  # gain, CPU s, calls
            extra["move_totals"] = np.zeros((m, 3), dtype=np.int64)
            extra["move_cpu"] = np.zeros(m, dtype=np.float64)
        self.rng, self.share, self.cost = extra["sched_rng"], extra["sched_share"], extra["sched_cost"]
        self.segment, self.totals, self.cpu = extra["sched_segment"], extra["move_totals"], extra["move_cpu"]
        self._p = np.zeros(m, dtype=np.float64)

    def pick(self) -> int:
        """The next move: one never called first, then by share / cost (roulette)."""
        if len(self.names) == 1:
            return 0
        unknown = np.flatnonzero(self.cost <= 0.0)
        if len(unknown):
            return int(unknown[0])
        np.divide(self.share, self.cost, out=self._p)
        np.cumsum(self._p, out=self._p)
        x = uniform(self.rng) * self._p[-1]
        return min(int(np.searchsorted(self._p, x, side="right")), len(self._p) - 1)

    def record(self, i: int, delta: int, cpu: float) -> None:
        """Account one call of move i: score change and measured CPU seconds (nominal cost if set)."""
        if self.nominal[i] > 0.0:
            cpu = self.nominal[i]
        elif self.cost[i] <= 0.0:
            self.cost[i] = max(cpu, 1e-7)
        else:
            self.cost[i] += EMA * (cpu - self.cost[i])
        t = self.totals[i]
        t[CALLS] += 1
        self.cpu[i] += cpu
        t[GAIN] += delta
        t[IMPROVED] += delta > 0
        if len(self.names) == 1:
            return
        seg = self.segment[i]
        seg[0] += delta
        seg[1] += cpu
        seg[2] += 1
        if self.cfg.kind == "adaptive" and self.segment[:, 2].sum() >= self.cfg.segment:
            self._adapt()

    def add_cpu(self, cpu: float) -> None:
        """CPU time of the only move, measured per tick rather than per call."""
        self.cpu[0] += cpu

    def _adapt(self) -> None:
        """Mix the segment's normalised gain per CPU second into the shares (moves called in it only)."""
        seg = self.segment
        called = seg[:, 2] > 0
        rate = np.where(called, np.maximum(seg[:, 0], 0.0) / np.maximum(seg[:, 1], 1e-9), 0.0)
        if rate.max() > 0:
            target = self.base * rate
            target *= self.share[called].sum() / target[called].sum()
            r = self.cfg.reaction
            self.share[called] = (1 - r) * self.share[called] + r * target[called]
            np.maximum(self.share, self.cfg.floor * self.base, out=self.share)
            self.share /= self.share.sum()
        seg[:] = 0.0

    def summary(self) -> dict[str, dict]:
        """Per move: calls, CPU seconds, net gain, improving calls, current share (for events and report)."""
        return {
            name: {
                "calls": int(t[CALLS]),
                "cpu_s": round(float(c), 3),
                "gain": int(t[GAIN]),
                "improved": int(t[IMPROVED]),
                "share": round(float(s), 4),
            }
            for name, t, c, s in zip(self.names, self.totals, self.cpu, self.share, strict=True)
        }


def add_totals(summaries: list[dict[str, dict]]) -> dict[str, dict]:
    """Per-move summaries of several searches (workers, restarts) added up; share: the mean of their shares."""
    total: dict[str, dict] = {}
    for summary in summaries:
        for name, m in summary.items():
            t = total.setdefault(name, {"calls": 0, "cpu_s": 0.0, "gain": 0, "improved": 0, "shares": []})
            for key in ("calls", "cpu_s", "gain", "improved"):
                t[key] += m[key]
            t["shares"].append(m["share"])
    for t in total.values():
        shares = t.pop("shares")
        t["cpu_s"], t["share"] = round(t["cpu_s"], 3), round(sum(shares) / len(shares), 4)
    return total
