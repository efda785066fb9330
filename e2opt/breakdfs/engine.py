"""Attempts of the DFS with breaks: the kernel's arrays, the attempt loop, and the exact state to save.

An attempt sorts every list afresh with the search's own generator (the randomised opening) and runs
until its node budget is spent or its tree is exhausted. Everything needed to continue exactly (list
order, stack, counters, generator) is in ``arrays()`` and goes back in with ``load()``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..construct.order import FillOrder, make_order
from ..core.board import Board
from ..core.puzzle import Puzzle
from . import kernel as k
from .config import BreakDfsConfig
from .recipe import Rules, depth_of_position, make_rules, position
from .tables import Geometry, Lists, build_geometry, build_lists

HARVEST_BUFFER = 64  # boards the kernel collects before it hands them back


def default_min_placed(puzzle: Puzzle) -> int:
    """248 pieces on 16x16 (Blackwood's 60-s depth), scaled by the number of cells elsewhere."""
    return max(1, round(248 * puzzle.n_cells / 256))


@dataclass
class Found:
    """A board the kernel handed back: placed codes by depth (a dead end, or complete) and its joins."""

    codes: np.ndarray
    complete: bool
    joins: int


def _pairs(puzzle: Puzzle, order: FillOrder) -> np.ndarray:
    """pairs[d]: joins between two placed cells (hints included) once depths 0..d-1 are placed."""
    hinted = {h.row * puzzle.cols + h.col for h in puzzle.hints}
    base = sum(1 for cell in hinted for other in hinted if other in (cell + 1, cell + puzzle.cols)
               and (other != cell + 1 or cell % puzzle.cols != puzzle.cols - 1))  # fmt: skip
    placed_nbrs = (order.nbr >= 0).sum(axis=1)
    out = np.zeros(order.depth + 1, dtype=np.int64)
    out[0] = base
    np.cumsum(placed_nbrs, out=out[1:])
    out[1:] += base
    return out


class BreakDfs:
    """One search: puzzle, order, tables, rules and the kernel's state; ``step`` runs one chunk."""

    def __init__(self, puzzle: Puzzle, cfg: BreakDfsConfig, seed: int):
        self.puzzle, self.cfg = puzzle, cfg
        self.order: FillOrder = make_order(puzzle, cfg.order, cfg.teeth)
        self.rules: Rules = make_rules(puzzle, self.order, cfg)
        self.geo: Geometry = build_geometry(puzzle, self.order)
        self.lists: Lists = build_lists(puzzle, self.order, self.rules.frame, cfg.frame_colour_breaks)
        m, nh = self.order.depth, len(puzzle.hints)
        self.st = k.new_state(m, m + nh + 1, len(puzzle.pieces))
        self.st[4][m : m + nh] = self.geo.hint_codes
        self.st[4][m + nh] = len(puzzle.pieces) * 4  # the all-zero sentinel code
        for h in puzzle.hints:
            self.st[6][h.piece] = 1
        self.rng = np.array([np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]], dtype=np.uint64)
        hmin = cfg.harvest.min_placed or default_min_placed(puzzle)
        self.hbuf = np.full((HARVEST_BUFFER, m), -1, dtype=np.int32)
        self.hdep = np.zeros(HARVEST_BUFFER, dtype=np.int32)
        self.hbrk = np.zeros(HARVEST_BUFFER, dtype=np.int32)
        self.pairs = _pairs(puzzle, self.order)
        self.hmin = max(0, hmin - nh)  # the kernel counts placed depths, hints not included
        depth = depth_of_position(puzzle, cfg.order, cfg.teeth)
        self.abort = [
            (int(n), int(depth[min(position(at, puzzle.n_cells, cfg.scale_from), puzzle.n_cells)]))
            for n, at in cfg.abort
        ]
        self.attempts = 0
        self.aborted = 0
        self.status = k.EXHAUSTED  # no attempt running yet
        self.nodes_done = 0  # nodes of finished attempts
        self.floor = 0  # the attempt's deepest before ``restart_deepest`` (for the abort marks)

    @property
    def depth(self) -> int:
        return self.order.depth

    def _tab(self) -> tuple:
        li = self.lists
        return (li.start, li.ent, li.ocol, li.colours, li.frame_col)

    def _rules(self) -> tuple:
        r = self.rules
        return (r.allow, r.qmin, r.qval, self.cfg.piece_breaks, int(self.cfg.frame_colour_breaks))

    def new_attempt(self) -> None:
        """Sort the lists with a fresh draw and start at depth 0."""
        self.nodes_done += int(self.st[7][k.NODES])
        self.st[7][k.NODES] = 0
        self.st[6][:] = 0
        for h in self.puzzle.hints:
            self.st[6][h.piece] = 1
        k.sort_lists(self.lists.start, self.lists.ent, self.rules.qval, self.rng)
        k.begin(self.st, self.geo.arrays(), self._tab())
        self.attempts += 1
        self.floor = 0
        self.status = k.RUNNING

    def restart_deepest(self) -> None:
        """Record the deepest partial afresh from here (a new call's own deepest); the abort marks still
        see the attempt's deepest, so the search visits the same nodes."""
        self.floor = max(self.floor, int(self.st[7][k.DEEPEST]))
        self.st[7][k.DEEPEST] = 0

    def step(self, chunk: int) -> list[Found]:
        """Run one chunk (a new attempt first when the last one ended); the boards it harvested."""
        if self.status in (k.BUDGET, k.EXHAUSTED):
            self.new_attempt()
        ctr = self.st[7]
        ctr[k.HFILL] = 0
        harvest = (self.hbuf, self.hdep, self.hbrk, self.hmin)
        mark = next(((n, d) for n, d in self.abort if n > ctr[k.NODES]), None)
        if mark is not None:  # chunks end exactly on the abort marks, so a resumed run decides the same
            chunk = min(chunk, mark[0] - int(ctr[k.NODES]))
        self.status = k.dfs(
            self.st, self.geo.arrays(), self._tab(), self._rules(), harvest, self.cfg.node_budget, chunk
        )
        at_mark = mark is not None and ctr[k.NODES] == mark[0] and self.status in (k.RUNNING, k.FULL)
        if at_mark and max(int(ctr[k.DEEPEST]), self.floor) < mark[1]:
            self.status = k.BUDGET  # behind the trajectory: the next step starts a new attempt
            self.aborted += 1
        m = self.depth
        out = []
        for i in range(int(ctr[k.HFILL])):
            d = int(self.hdep[i])
            out.append(Found(self.hbuf[i, :d].copy(), d == m, int(self.pairs[d] - self.hbrk[i])))
        return out

    @property
    def nodes(self) -> int:
        """Placements made so far, all attempts."""
        return self.nodes_done + int(self.st[7][k.NODES])

    @property
    def deepest(self) -> int:
        return int(self.st[7][k.DEEPEST])

    def deepest_codes(self) -> np.ndarray:
        """The current attempt's deepest partial board, codes by depth."""
        return self.st[8][: self.deepest].copy()

    def board(self, codes: np.ndarray) -> Board:
        """The board of codes by depth (hints in place, the other cells empty: piece -1)."""
        p = self.puzzle
        piece = np.full(p.n_cells, -1, dtype=np.int64)
        rot = np.zeros(p.n_cells, dtype=np.int64)
        for h in p.hints:
            piece[h.row * p.cols + h.col], rot[h.row * p.cols + h.col] = h.piece, h.rot
        cells = self.order.cells[: len(codes)]
        piece[cells], rot[cells] = codes >> 2, codes & 3
        return Board(piece.reshape(p.rows, p.cols), rot.reshape(p.rows, p.cols))

    def arrays(self) -> dict[str, np.ndarray]:
        """Everything needed to continue exactly."""
        names = ("pos", "end", "cum", "qcum", "pc", "child", "used", "ctr", "best", "dead")
        out = {n: a.copy() for n, a in zip(names, self.st, strict=True)}
        out["ent"] = self.lists.ent.copy()
        out["rng"] = self.rng.copy()
        meta = [self.attempts, self.status, self.nodes_done, self.aborted, self.floor]
        out["meta"] = np.array(meta, dtype=np.int64)
        return out

    def load(self, arrays: dict[str, np.ndarray]) -> None:
        """Continue from ``arrays()`` of the same puzzle and config."""
        names = ("pos", "end", "cum", "qcum", "pc", "child", "used", "ctr", "best", "dead")
        for n, a in zip(names, self.st, strict=True):
            a[:] = arrays[n]
        self.lists.ent[:] = arrays["ent"]
        self.rng[:] = arrays["rng"]
        meta = [int(x) for x in arrays["meta"]] + [0]  # states saved before ``floor`` existed have 4
        self.attempts, self.status, self.nodes_done, self.aborted, self.floor = meta[:5]
