"""The assignment move of Algorithm 1 (paper 001): lift k non-adjacent holes, put them back optimally.

Holes are chosen by the ``select`` mode (random, biased toward mismatched cells, or one checkerboard
colour: paper 002's BW move); tabu list 1 keeps recent holes out, tabu list 2 penalises reverse moves.
AssignmentConfig is the section ``search.moves.assignment`` (its keys are also read at the top of ``search:``,
paper 001's names). The checkerboard move is this move with the checkerboard selection forced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.optimize import linear_sum_assignment

from ...config.schema import bounds, positive
from .. import kernels
from ..context import SearchContext
from .base import Move, MoveWeight

MIN_HOLES = 2  # an assignment move re-places at least two pieces (one alone has nowhere else to go)

MODES = {"random": kernels.RANDOM, "biased": kernels.BIASED, "checkerboard": kernels.CHECKERBOARD}


@dataclass(frozen=True)
class AssignmentConfig(MoveWeight):
    """Algorithm 1's move (paper 001). Defaults tuned on eternity2 from random boards (docs/search.md): large k,
    a strong preference for mismatched cells, short tabu tenures, a mild reverse-arc penalty, and cost noise of
    half a join, the one setting that changed the score by more than the seed noise."""

    holes: int | tuple[int, int] = 64  # k holes per move, or [min, max] drawn each move
    select: Literal["biased", "random", "checkerboard"] = "biased"
    bias: float = 6.0  # hole weight = 1 + bias * mismatched joins of the cell
    tabu_cells: tuple[int, int] = (0, 1)  # tabu list 1 tenure bounds (moves)
    tabu_arcs: tuple[int, int] = (10, 30)  # tabu list 2 tenure bounds (moves)
    reverse_penalty: float = 1.0  # weight removed from a reverse arc in tabu list 2
    tie_noise: bool = True  # random choice among equally good reassignments (sideways moves)
    cost_noise: float = 0.5  # extra noise per cost entry, in joins: moves may then give up joins (noising)

    def __post_init__(self):
        super().__post_init__()
        bounds("holes", self.holes_range, low=MIN_HOLES)
        positive("bias", self.bias, allow_zero=True)
        bounds("tabu_cells", self.tabu_cells)
        bounds("tabu_arcs", self.tabu_arcs)
        positive("reverse_penalty", self.reverse_penalty, allow_zero=True)
        positive("cost_noise", self.cost_noise, allow_zero=True)

    @property
    def holes_range(self) -> tuple[int, int]:
        """(k_min, k_max): the number of holes per move is drawn uniformly from this range."""
        return (self.holes, self.holes) if isinstance(self.holes, int) else self.holes


class AssignmentMove(Move):
    """Algorithm 1 steps 1-4 with the buffers of every call allocated once."""

    name = "assignment"

    settings: AssignmentConfig

    def __init__(self, ctx: SearchContext, settings: AssignmentConfig, select: str | None = None):
        super().__init__(ctx, settings)
        cfg, st, f = settings, ctx.state, ctx.flat
        n = f.n
        kmin, kmax = cfg.holes_range
        self._mode = MODES[select or cfg.select]
        self._kmin, self._kmax = int(kmin), int(kmax)
        self._bias = float(cfg.bias)
        self._penalty = float(cfg.reverse_penalty)
        self._tie_noise, self._cost_noise = bool(cfg.tie_noise), float(cfg.cost_noise)
        self._tenures = np.array([*cfg.tabu_cells, *cfg.tabu_arcs], dtype=np.int64)
        self._need = np.zeros(int(f.oriented.max()) + 1, dtype=np.int64)
        self._pool = np.zeros((kernels.CLASSES, n), dtype=np.int64)
        self._count = np.zeros(kernels.CLASSES, dtype=np.int64)
        self._mark = np.full(n, -1, dtype=np.int64)
        self._holes = np.zeros(n, dtype=np.int64)
        self._lifted = np.zeros(n, dtype=np.int64)
        kcap = n if self._mode == kernels.CHECKERBOARD else min(self._kmax, n)
        self._rots = np.zeros(kcap * kcap, dtype=np.int64)
        self._cost = np.zeros(kcap * kcap, dtype=np.float64)
        self._views = [self._cost[: k * k].reshape(k, k) for k in range(kcap + 1)]
        # argument tails of the kernels: every array is updated in place, never replaced
        # fmt: off
        self._select_args = (f.movable, f.parity, ctx.mis, st.tabu_cells, f.nbr, st.rng, self._pool,
                             self._count, self._mark, self._holes)
        self._cost_args = (self._holes, st.piece, ctx.colour, f.nbr, f.rimmask, f.fit, f.sides,
                           st.tabu_arcs, st.rng, self._need, self._lifted, self._rots, self._cost)
        self._apply_args = (self._holes, self._lifted, self._rots, st.piece, st.rot, ctx.colour, ctx.mis,
                            f.nbr, f.oriented, st.tabu_cells, st.tabu_arcs, self._tenures, st.rng)
        # fmt: on

    def __call__(self) -> int:
        """Choose holes, reassign them; without cost noise the score never drops."""
        it = self.ctx.state.iteration
        k = kernels.select_holes(self._mode, self._kmin, self._kmax, self._bias, it, *self._select_args)
        return self.reassign(k) if k > 0 else 0

    def reassign(self, k: int) -> int:
        """Lift the pieces of holes[:k] and put them back optimally (Algorithm 1 steps 2-4)."""
        it = self.ctx.state.iteration
        noise_amp = self._tie_noise / k + self._cost_noise  # per cost entry, in joins
        kernels.build_costs(k, it, self._penalty, noise_amp, *self._cost_args)
        assign = linear_sum_assignment(self._views[k])[1]
        return int(kernels.apply_assignment(k, it, assign, *self._apply_args))

    def reassign_cells(self, cells: list[int]) -> int:
        """The move on given flat cells (pairwise non-adjacent, movable), without the selection: for tests."""
        self._holes[: len(cells)] = cells
        return self.reassign(len(cells))


class CheckerboardMove(AssignmentMove):
    """The assignment move on every movable non-tabu cell of one checkerboard colour (paper 002's BW); its
    settings are the assignment move's (tenures, noise) with its own weight (the registry's ``shares``)."""

    name = "checkerboard"

    def __init__(self, ctx: SearchContext, settings: AssignmentConfig):
        super().__init__(ctx, settings, select="checkerboard")
