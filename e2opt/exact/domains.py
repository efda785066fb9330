"""Method ``domains``: depth-first search that keeps every cell's domain consistent (paper 000 section 6.3).

Paper 000 traces the tiny trees of its Choco model to "edge filtering": the colours a cell's placements
can still show on a side restrict the placements of the neighbour across it. Here every cell keeps a
bit set of placements (4 per tile: bit 4*slot + rotation) and each node runs, to a fixpoint:

- **edges**: for each side of a cell whose domain shrank, the colours its placements can show there;
  the neighbour keeps only placements showing one of them on the facing side (arc consistency);
- **naked single**: a cell left with one tile takes it away from every other cell;
- **hidden single**: a tile that fits only one cell pins that cell to it; a tile that fits no cell
  is a contradiction (every tile must be placed: the board has as many cells as tiles).

Every rule only removes, so the fixpoint does not depend on the order the queue takes (the slow Python
reference in reference.py computes it from scratch and must count the same nodes). Branching: the
unbranched cell with the fewest placements (``mindomain``, ties to the lowest cell) or a static order.
A node is one placement tried; removals go on a trail that the next value of a level first undoes.
"""

from __future__ import annotations

import numpy as np

from ..core.board import Board
from ..core.errors import E2optError
from ..fill.tables import fitting
from .dfs import C_DONE, SOLUTION
from .domains_kernel import (
    FLAGGED,
    FOUR,
    HOLDERS,
    NTILES,
    QSIZE,
    QUEUED,
    RING,
    SIZE,
    STACK,
    TOP,
    open_level,
    propagate,
    search,
)
from .model import ORDERS, VALUE_ORDERS, VRANDOM, ExactModel
from .search import KernelCounters

DOMAIN_ORDERS = ("mindomain", "row", "spiral")


def _colour_tables(ocol: np.ndarray, slots: np.ndarray, K: int) -> tuple[np.ndarray, np.ndarray]:
    """pcol[s, v]: the colour placement v shows on side s (``ocol`` in bit order); smask[s, c]: the
    placements showing c there."""
    W = (4 * len(slots) + 63) // 64
    pcol = np.zeros((4, 64 * W), dtype=np.int64)
    pcol[:, : 4 * len(slots)] = ocol[(4 * slots[:, None] + np.arange(4)).ravel()].T
    smask = np.zeros((4, K, W), dtype=np.uint64)
    for v in range(4 * len(slots)):
        for s in range(4):
            smask[s, pcol[s, v], v >> 6] |= np.uint64(1) << np.uint64(v & 63)
    return pcol, smask


def _initial_domains(model: ExactModel, slot_of: np.ndarray) -> np.ndarray:
    """Placements grey exactly toward the rim (fill/tables.py's ``fitting``); fixed cells hold their one
    placement, forbid honoured."""
    n, T = model.n, len(model.pieces)
    dom = np.zeros((n, (4 * T + 63) // 64), dtype=np.uint64)
    for i in range(n):
        codes = fitting(model.ocol, int(((model.nbr[i] < 0) << np.arange(4)).sum()), np.arange(T))
        v = 4 * slot_of[codes >> 2] + (codes & 3)
        np.bitwise_or.at(dom[i], v >> 6, np.uint64(1) << (v & 63).astype(np.uint64))
        if model.forbid[i] >= 0:
            k = slot_of[model.forbid[i]]
            dom[i, (4 * k) >> 6] &= ~(FOUR << np.uint64((4 * k) & 63))
    for cell, tile, rot in model.fixed:
        v = 4 * int(slot_of[tile]) + rot
        keep = dom[cell, v >> 6] & (np.uint64(1) << np.uint64(v & 63))
        dom[cell] = 0
        dom[cell, v >> 6] = keep
    return dom


def _counters(dom: np.ndarray, smask: np.ndarray, T: int) -> tuple[np.ndarray, ...]:
    """The counts the kernel keeps up to date, computed once: colours per side (cnt) and the colours no
    placement shows (lost, to propagate), placements and tiles per cell (cellv), holders per tile (tilev)."""
    n, K = dom.shape[0], smask.shape[1]
    bits = np.unpackbits(dom.view(np.uint8), axis=1, bitorder="little")[:, : 4 * T].astype(np.int64)
    cnt = np.zeros((n, 4, K), dtype=np.int64)
    lost = np.zeros((n, 4), dtype=np.uint64)
    for s in range(4):
        shows = np.unpackbits(smask[s].view(np.uint8), axis=1, bitorder="little")[:, : 4 * T].astype(np.int64)
        cnt[:, s, :] = bits @ shows.T
        for i in range(n):
            lost[i, s] = np.uint64(sum(1 << c for c in range(K) if not cnt[i, s, c]))
    holds = bits.reshape(n, T, 4).any(axis=2)  # (n, T)
    cellv = np.zeros((n, 4), dtype=np.int64)
    cellv[:, SIZE], cellv[:, NTILES] = bits.sum(axis=1), holds.sum(axis=1)
    cellv[:, QUEUED], cellv[:, RING] = 1, np.arange(n)  # every cell queued for the first fixpoint
    tilev = np.zeros((T, 3), dtype=np.int64)
    tilev[:, HOLDERS] = holds.sum(axis=0)
    tilev[:, FLAGGED], tilev[:, STACK] = 1, np.arange(T)  # every tile stacked for the first fixpoint
    return cnt, lost, cellv, tilev


class DomainSearch(KernelCounters):
    """The ``domains`` search of one ExactModel; ``step`` advances it, the counters say how far."""

    def __init__(
        self, model: ExactModel, order: str, value_order: str, stop_at_solution: bool, seed: int = 0
    ):
        n, T, K = model.n, len(model.pieces), model.K
        if K > 64:
            raise E2optError(
                f"--method domains takes colours 0-63, this puzzle has colours up to {K - 1} (use colorpairs, dfs or scan)"
            )
        slots = np.arange(T)  # slot k of the bit sets holds tile slots[k]
        if VALUE_ORDERS[value_order] == VRANDOM:
            slots = np.random.default_rng(seed).permutation(T)
        self.slots, self.rows_cols, self.levels = slots, (model.rows, model.cols), int(model.branch.sum())
        pcol, smask = _colour_tables(model.ocol, slots, K)
        params = np.array(
            [self.levels, ORDERS[order], VALUE_ORDERS[value_order], stop_at_solution], dtype=np.int64
        )
        self.M = (model.nbr, smask, pcol, model.order, params)
        slot_of = np.empty(T, dtype=np.int64)
        slot_of[slots] = np.arange(T)
        dom = _initial_domains(model, slot_of)
        cnt, lost, cellv, tilev = _counters(dom, smask, T)
        heads = np.zeros(4, dtype=np.int64)
        heads[QSIZE], heads[TOP] = n, T  # every cell queued, every tile stacked: the first fixpoint
        levels = max(1, self.levels)
        levels_state = (
            (model.branch == 0).astype(np.int64),  # placed or branched? (fixed cells start at 1)
            np.zeros(levels, dtype=np.int64),  # cell of each level
            np.zeros(levels, dtype=np.int64),  # trail length when the level opened
            np.zeros(levels, dtype=np.int64),  # candidate start
            np.zeros(levels, dtype=np.int64),  # candidate count
            np.zeros(levels, dtype=np.int64),  # next candidate
            np.zeros(levels * 4 * T + 1, dtype=np.int64),  # candidates
        )
        trail = np.zeros((n * 4 * T + 1, 3), dtype=np.int64)  # cell, word, removed bits
        self.ctl = np.zeros(6, dtype=np.int64)  # depth, nodes, backtracks, solutions, phase, done
        self.S = (dom, cnt, lost, trail, cellv, tilev, heads, levels_state, self.ctl)
        feasible = bool(cellv[:, SIZE].all()) and bool(
            propagate(model.nbr, smask, pcol, dom, cnt, lost, trail, cellv, tilev, heads)
        )
        self.trivial = feasible and self.levels == 0  # every cell fixed: the fixed board is the only leaf
        if not feasible:
            self.ctl[C_DONE] = 1
        elif not self.trivial:
            open_level(0, model.order, params, dom, cellv, heads, levels_state)

    def step(self, budget: int) -> int:
        """Advance by at most ``budget`` nodes: BUDGET, SOLUTION (a full board) or DONE."""
        if self.trivial_leaf():
            return SOLUTION
        return int(search(self.M, self.S, budget))

    def board(self) -> Board:
        """The board as the domains stand: the placement of every cell left with one (others -1)."""
        dom = self.S[0]
        piece = np.full(dom.shape[0], -1, dtype=np.int64)
        rot = np.full(dom.shape[0], -1, dtype=np.int64)
        for i in range(dom.shape[0]):
            bits = np.flatnonzero(np.unpackbits(dom[i].view(np.uint8), bitorder="little"))
            if len(bits) == 1:
                piece[i], rot[i] = self.slots[bits[0] >> 2], bits[0] & 3
        return Board(piece.reshape(self.rows_cols), rot.reshape(self.rows_cols))
