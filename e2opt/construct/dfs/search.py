"""Attempts of the DFS with breaks: the kernel's arrays, the attempt loop, and the exact state to save.

An attempt ranks the codes afresh with the search's own generator (the randomised opening) and runs until
its node budget is spent, its tree is exhausted or it falls behind an abort mark. Everything needed to
continue exactly (ranks, bitsets, stack, counters, generator) is in ``arrays()`` and goes back with ``load()``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.board import Board
from ...core.puzzle import Puzzle
from ...fill.order import FillOrder, make_order
from . import kernel as k
from .lists import (
    Geometry,
    Lists,
    build_geometry,
    build_lists,
    depth_rows,
    fill_words,
    rank_codes,
    sort_exact,
)
from .rules import Recipe, Rules, make_rules

HARVEST_BUFFER = 64  # boards the kernel collects before it hands them back


@dataclass
class Found:
    """A board the kernel handed back: placed codes by depth (a dead end, or complete) and its joins."""

    codes: np.ndarray
    complete: bool
    joins: int


def pairs_placed(puzzle: Puzzle, order: FillOrder) -> np.ndarray:
    """pairs[d]: joins between two placed cells (hints included) once depths 0..d-1 are placed."""
    hinted = {h.row * puzzle.cols + h.col for h in puzzle.hints}
    base = sum(1 for cell in hinted for other in hinted if other in (cell + 1, cell + puzzle.cols)
               and (other != cell + 1 or cell % puzzle.cols != puzzle.cols - 1))  # fmt: skip
    out = np.zeros(order.depth + 1, dtype=np.int64)
    out[0] = base
    np.cumsum((order.nbr >= 0).sum(axis=1), out=out[1:])
    out[1:] += base
    return out


class Dfs:
    """One search: puzzle, order, lists, rules and the kernel's state; ``step`` runs one chunk."""

    def __init__(self, puzzle: Puzzle, order: FillOrder, rules: Rules, seed: int, hmin: int):
        self.puzzle, self.order, self.rules = puzzle, order, rules
        self.geo: Geometry = build_geometry(puzzle, order)
        self.lists: Lists = build_lists(
            puzzle, order, rules.frame, rules.frame_colour_breaks, int(rules.cap.max())
        )
        m, nh = order.depth, len(puzzle.hints)
        self.st = k.new_state(m, m + nh + 1, self.lists.n_words, len(puzzle.pieces))
        self.st[6][m : m + nh] = self.geo.hint_codes
        self.st[6][m + nh] = len(puzzle.pieces) * 4  # the all-zero sentinel code
        self.rank_of = np.zeros(len(puzzle.pieces) * 4, dtype=np.int64)
        self.code_of = np.full(self.lists.n_words * 64, -1, dtype=np.int64)
        n = max(self.lists.n_entries, 1)
        self.wi = np.zeros(n, dtype=np.int64)
        self.wm = np.zeros(n, dtype=np.uint64)
        self.wcnt = np.zeros(len(self.lists.woff), dtype=np.int64)
        self.ent = self.lists.ent.copy()  # the exact lists, put in rank order by each attempt
        rank_type = np.uint16 if self.lists.n_words * 64 <= 1 << 16 else np.int32
        self.entr = np.zeros(len(self.ent), dtype=rank_type)  # the same lists as ranks (the kernel's)
        none = m + nh
        self.dg = depth_rows(self.geo, rules.allow, rules.cap, rules.qmin, none)
        # derived from the state (``kernel.derive``): packed colours of every pc slot, rank and bucket by depth
        self.aux = (np.zeros(none + 1, dtype=np.uint32), np.zeros(m + 1, dtype=np.int32),
                    np.zeros(m + 1, dtype=np.int32), np.zeros(len(puzzle.pieces), dtype=np.int64))  # fmt: skip
        self.rng = np.array([np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]], dtype=np.uint64)
        self.hbuf = np.full((HARVEST_BUFFER, m), -1, dtype=np.int32)
        self.hdep = np.zeros(HARVEST_BUFFER, dtype=np.int32)
        self.hbrk = np.zeros(HARVEST_BUFFER, dtype=np.int32)
        self.pairs = pairs_placed(puzzle, order)
        self.hmin = max(0, hmin - nh)  # the kernel counts placed depths, hints not included
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
        return (self.entr, li.estart, self.wi, self.wm, li.woff, self.wcnt, li.nb, self.code_of, li.col4,
                li.frame_col)  # fmt: skip

    def _fill(self) -> None:
        li = self.lists
        fill_words(li.lstart, li.lcode, li.lwlo, li.lnw, li.woff, self.wcnt, self.wi, self.wm, self.rank_of)
        sort_exact(li.estart, self.ent, self.rank_of)
        self.entr[:] = self.rank_of[self.ent]

    def _derive(self) -> None:
        k.derive(self.st, self.aux, self.dg, self.lists.col4, self.rank_of, self.lists.colours)

    def _rules(self) -> tuple:
        r = self.rules
        return (r.qval, int(r.frame_colour_breaks), int(r.no_touch), self.lists.colours, int(r.backjump))

    def new_attempt(self) -> None:
        """Rank the codes with a fresh draw, rebuild the bitsets and start at depth 0."""
        li, st = self.lists, self.st
        self.nodes_done += int(st[8][k.NODES])
        rank_codes(li.groups, li.gstart, li.gbase, self.rules.qval, self.rank_of, self.code_of, self.rng)
        self._fill()
        avail = st[11]
        avail[:] = 0
        for p in li.groups:
            r = self.rank_of[p * 4]
            avail[r >> 6] |= np.uint64(15) << np.uint64(r & 63)
        for i in (
            0,
            1,
            2,
            3,
            4,
            5,
            7,
            8,
            13,
            14,
            15,
            16,
        ):  # not pc, best, dead, avail, used (arrays() makes it)
            st[i][:] = 0
        self._open_root()
        self._derive()
        self.attempts += 1
        self.floor = 0
        self.status = k.RUNNING

    def _open_root(self) -> None:
        """Depth 0's scan at the start of its exact list."""
        g, li, st = self.geo, self.lists, self.st
        pc, ocol = st[6], li.ocol
        c0 = int(ocol[pc[g.kn0[0]] * 4 + g.ks0[0]])
        c1 = int(ocol[pc[g.kn1[0]] * 4 + g.ks1[0]])
        b = int(g.base[0]) + c0 * li.colours + c1
        st[1][0], st[2][0], st[3][0] = li.estart[b], li.estart[b + 1], 0

    def restart_deepest(self) -> None:
        """Record the deepest partial afresh from here; the abort marks still see the attempt's deepest."""
        self.floor = max(self.floor, int(self.st[8][k.DEEPEST]))
        self.st[8][k.DEEPEST] = 0

    def step(self, chunk: int) -> list[Found]:
        """Run one chunk (a new attempt first when the last one ended); the boards it harvested."""
        if self.status in (k.BUDGET, k.EXHAUSTED):
            self.new_attempt()
        ctr = self.st[8]
        ctr[k.HFILL] = 0
        harvest = (self.hbuf, self.hdep, self.hbrk, self.hmin)
        abort = self.rules.abort
        mark = next(((n, d) for n, d in abort if n > ctr[k.NODES]), None)
        if mark is not None:  # chunks end exactly on the abort marks, so a resumed run decides the same
            chunk = min(chunk, mark[0] - int(ctr[k.NODES]))
        self.status = k.dfs(
            self.st, self.aux, self.dg, self._tab(), self._rules(), harvest, self.budget, chunk
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
    def budget(self) -> int:
        """The current attempt's placements (rules.Rules.attempt_budget)."""
        return self.rules.attempt_budget(self.attempts)

    @property
    def nodes(self) -> int:
        """Placements made so far, all attempts."""
        return self.nodes_done + int(self.st[8][k.NODES])

    @property
    def deepest(self) -> int:
        return int(self.st[8][k.DEEPEST])

    def deepest_codes(self) -> np.ndarray:
        """The current attempt's deepest partial board, codes by depth."""
        return self.st[9][: self.deepest].copy()

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
        out = {n: a.copy() for n, a in zip(k.STATE_NAMES, self.st, strict=True)}
        used = out["used"]  # the kernel keeps the free pieces in ``avail`` alone; saved as before
        used[:] = 0
        used[[h.piece for h in self.puzzle.hints]] = 1
        used[self.st[6][: int(self.st[8][k.DEPTH])] >> 2] = 1
        out["rank_of"] = self.rank_of.copy()
        out["rng"] = self.rng.copy()
        meta = [self.attempts, self.status, self.nodes_done, self.aborted, self.floor]
        out["meta"] = np.array(meta, dtype=np.int64)
        return out

    def load(self, arrays: dict[str, np.ndarray]) -> None:
        """Continue from ``arrays()`` of the same puzzle and recipe (the bitsets are rebuilt from the ranks). A
        state saved before backjumping has no conflict sets: its depths on the stack may not jump."""
        for n, a in zip(k.STATE_NAMES, self.st, strict=True):
            a[:] = arrays.get(n, 1 if n == "allf" else 0)
        self.rank_of[:] = arrays["rank_of"]
        self.code_of[:] = -1
        for p in self.lists.groups:
            for r in range(4):
                self.code_of[self.rank_of[p * 4 + r]] = p * 4 + r
        self._fill()
        self._derive()
        self.rng[:] = arrays["rng"]
        self.attempts, self.status, self.nodes_done, self.aborted, self.floor = (
            int(x) for x in arrays["meta"]
        )


def recipe_dfs(puzzle: Puzzle, recipe: Recipe, seed: int, arrays: dict[str, np.ndarray] | None = None) -> Dfs:
    """A search of ``recipe`` along its own fill order, harvesting only whole boards; continued from
    ``arrays`` (``Dfs.arrays()`` of the same puzzle and recipe, a pilot's attempt) when given."""
    order = make_order(puzzle, recipe.order, recipe.teeth)
    dfs = Dfs(puzzle, order, make_rules(puzzle, order, recipe), seed, puzzle.n_cells + 1)
    if arrays is not None:
        dfs.load(arrays)
    return dfs
