"""Python side of the numba search: builds the model and state tuples, places the fixed cells, runs
the kernel in node budgets and reads boards back (used by the dfs, colorpairs and chessboard methods)."""

from __future__ import annotations

import numpy as np

from ..core.board import Board
from .colorpairs import any_pair_failure, place, refresh_slots
from .dfs import (
    BUDGET,
    C_BACKTRACKS,
    C_DEPTH,
    C_DONE,
    C_NODES,
    C_SOLUTIONS,
    DONE,
    SOLUTION,
    open_level,
    search,
)
from .model import MINGAP, ORDERS, VALUE_ORDERS, ExactModel

__all__ = ["BUDGET", "DONE", "SOLUTION", "KernelCounters", "KernelSearch"]


class KernelCounters:
    """Read-only views of a kernel's counters array ``ctl`` (depth, nodes, backtracks, solutions, phase, done)."""

    ctl: np.ndarray
    trivial: bool

    @property
    def nodes(self) -> int:
        return int(self.ctl[C_NODES])

    @property
    def backtracks(self) -> int:
        return int(self.ctl[C_BACKTRACKS])

    @property
    def solutions(self) -> int:
        """Full boards (or chessboard leaves) reached so far, counted inside the kernel."""
        return int(self.ctl[C_SOLUTIONS])

    @property
    def depth(self) -> int:
        """The level the search is at."""
        return int(self.ctl[C_DEPTH])

    @property
    def done(self) -> bool:
        return bool(self.ctl[C_DONE])

    def trivial_leaf(self) -> bool:
        """True once, for a search with no level to branch on: its fixed board is the one leaf,
        counted here (the kernel is never entered); ``trivial`` is set by the subclass."""
        if not self.trivial:
            return False
        self.trivial = False
        self.ctl[C_DONE] = 1
        self.ctl[C_SOLUTIONS] += 1
        return True


class KernelSearch(KernelCounters):
    """One depth-first search over an ExactModel; ``step`` advances it, the counters say how far."""

    def __init__(
        self,
        model: ExactModel,
        *,
        filtering: bool,
        backjump: bool,
        order: str,
        value_order: str,
        stop_at_solution: bool,
        chess: bool = False,
        shave: int = 0,
    ):
        self.model = model
        n, T, K = model.n, len(model.pieces), model.K
        levels = int(model.branch.sum())
        words = levels // 64 + 1
        track = filtering or backjump or ORDERS[order] == MINGAP
        params = np.array(
            [
                K,
                levels,
                ORDERS[order],
                VALUE_ORDERS[value_order],
                filtering,
                backjump and filtering,
                track,
                chess,
                stop_at_solution,
                words,
                shave,
            ],
            dtype=np.int64,
        )
        self.M = (
            model.pieces,
            model.nbr,
            model.tab_start,
            model.tab_tile,
            model.tab_k,
            model.tile_pairs,
            model.ptile_start,
            model.ptile,
            model.forbid,
            model.branch,
            model.order,
            params,
        )
        kc = np.full((n, 4), -1, dtype=np.int64)
        kc[model.nbr < 0] = 0
        pairs = 2 * K * K
        offer = np.zeros(pairs, dtype=np.int64)
        for q in model.tile_pairs.ravel():
            if q >= 0:
                offer[q] += 1
        cap = max(1, levels) * 4 * T + 1
        self.S = (
            np.full(n, -1, dtype=np.int64),  # cell_tile
            np.full(n, -1, dtype=np.int64),  # cell_rot
            np.full(T, -1, dtype=np.int64),  # tile_cell
            np.full(n, -1, dtype=np.int64),  # level of each placed cell
            kc,  # known colour of each side of each cell (rim 0, unknown -1)
            (model.nbr < 0).sum(axis=1).astype(np.int64),  # known sides
            offer,
            np.zeros(pairs, dtype=np.int64),  # demand
            np.full((n, 6), -1, dtype=np.int64),  # pair demanded through each slot
            np.zeros((pairs, n), dtype=np.int64),  # demand sets
            np.zeros((n, pairs), dtype=np.int64),  # positions in the demand sets
            np.zeros(max(1, levels), dtype=np.int64),  # cell of each level
            np.zeros(max(1, levels), dtype=np.int64),  # candidate start
            np.zeros(max(1, levels), dtype=np.int64),  # candidate count
            np.zeros(max(1, levels), dtype=np.int64),  # next candidate
            np.zeros(cap, dtype=np.int64),
            np.zeros(cap, dtype=np.int64),
            np.zeros((max(1, levels), words), dtype=np.uint64),  # conflict sets (levels)
            np.zeros(6, dtype=np.int64),  # depth, nodes, backtracks, solutions, phase, done
        )
        if track:
            for cell in range(n):
                refresh_slots(cell, K, kc, self.S[8], self.S[7], self.S[9], self.S[10])
        self.levels, self.ctl = levels, self.S[-1]
        self.infeasible = not self._place_fixed() or (
            track and filtering and any_pair_failure(self.M, self.S) >= 0
        )
        self.trivial = levels == 0 and not self.infeasible  # every branch cell fixed: the only leaf
        if self.infeasible:
            self.ctl[C_DONE] = 1
        elif not self.trivial:
            open_level(0, self.M, self.S)

    def _place_fixed(self) -> bool:
        """Place hints and the symmetry-breaking corner; False if one clashes with what is placed."""
        pieces, kc, tile_cell = self.model.pieces, self.S[4], self.S[2]
        for cell, tile, rot in self.model.fixed:
            sides = [int(pieces[tile, (s - rot) % 4]) for s in range(4)]
            if tile_cell[tile] >= 0 or self.S[0][cell] >= 0:
                return False
            for s in range(4):
                known = int(kc[cell, s])
                if (known >= 0 and sides[s] != known) or (known < 0 and sides[s] == 0):
                    return False
            place(cell, tile, rot, -1, self.M, self.S)
        return True

    def step(self, budget: int) -> int:
        """Advance by at most ``budget`` nodes: BUDGET, SOLUTION (a full board or leaf) or DONE."""
        if self.trivial_leaf():
            return SOLUTION
        return int(search(self.M, self.S, budget))

    def board(self) -> Board:
        """The board as it stands (empty cells hold -1)."""
        shape = (self.model.rows, self.model.cols)
        return Board(self.S[0].reshape(shape).copy(), self.S[1].reshape(shape).copy())
