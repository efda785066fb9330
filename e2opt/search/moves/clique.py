"""Region repair by max clique (paper 002's RO, section 3.3): a W x H window's clique graph, GLP's heuristic
on it, the holes the clique leaves filled by the CP-SAT region model.

The window's centre is drawn as the region move draws it (weight 1 + bias * mismatched joins, cells of the
last ``tabu`` clique calls skipped), then the W x H rectangle around it; hint cells stay out. Nodes are the
window's own pieces on its cells, agreeing with the placed board around the window (e2opt.clique.graph).
The new placement is kept only when the board loses no joins (ties are kept: sideways moves), so the move
never lowers the score; when it would, the old placement is put back. The clique search's buffers and the
bitset are allocated once, for the largest window graph (W*H cells x W*H pieces x 4 turns).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...clique.graph import window_graph
from ...clique.place import fill
from ...clique.pls import CliqueSearch
from ...config.schema import positive
from ...kernels.rng import below, next_u64
from ..context import SearchContext
from .base import Move, MoveWeight
from .region import RegionMove


@dataclass(frozen=True)
class CliqueMoveConfig(MoveWeight):
    """Region repair by max clique (paper 002's RO): GLP's heuristic on a window's clique graph, the holes it
    leaves filled by the CP-SAT region model; the board changes only when the window loses no joins."""

    width: int = 6  # window columns (paper 002, Table 2: 6 x 6)
    height: int = 6  # window rows
    selections: int = 100_000  # the heuristic's q per call (docs/clique.md)
    bias: float = 4.0  # centre cell weight = 1 + bias * mismatched joins (as the region move)
    tabu: int = 30  # a repaired window's cells are not drawn as a centre for this many clique calls
    deterministic_limit: float | None = (
        0.1  # CP-SAT deterministic time for the holes; null: the wall limit only
    )
    time_limit_wall_s: float = 1.0  # CP-SAT wall limit for the holes

    def __post_init__(self):
        super().__post_init__()
        for name in ("width", "height"):  # 8 x 8: buffers for 16,384 nodes, a 34 MB bitset
            if not 2 <= getattr(self, name) <= 8:
                raise ValueError(f"{name}: window sides must be 2..8, got {getattr(self, name)}")
        positive("selections", self.selections)
        positive("bias", self.bias, allow_zero=True)
        positive("tabu", self.tabu, allow_zero=True)
        positive("time_limit_wall_s", self.time_limit_wall_s)
        positive("deterministic_limit", self.deterministic_limit)


class CliqueMove(RegionMove):
    """Max clique on one window per call (its own tabu arrays: it does not share the region move's)."""

    name = "clique"
    settings: CliqueMoveConfig

    def __init__(self, ctx: SearchContext, settings: CliqueMoveConfig):
        Move.__init__(self, ctx, settings)  # not RegionMove's: its tabu arrays belong to the region move
        extra, n = ctx.state.extra, ctx.flat.n
        if extra.get("clique_tabu", np.zeros(0)).shape != (n,):
            extra["clique_tabu"] = np.zeros(n, dtype=np.int64)
            extra["clique_calls"] = np.zeros(1, dtype=np.int64)
        self._tabu, self._calls = extra["clique_tabu"], extra["clique_calls"]
        self._height = min(settings.height, ctx.flat.rows)
        self._width = min(settings.width, ctx.flat.cols)
        cap = self._height * self._width
        cap = cap * cap * 4
        words = (cap + 63) // 64
        self._adj = np.zeros(cap * words, dtype=np.uint64)
        self._search = CliqueSearch(np.zeros((0, 1), dtype=np.uint64), 0, capacity=cap)
        self.placed = 0  # cells placed by cliques / filled by the region model, over all calls (for docs)
        self.filled = 0
        self.undone = 0  # calls whose result lost joins and was put back

    def repair(self, cells: np.ndarray) -> int:
        """Max clique on flat ``cells``, holes filled; applied unless it loses joins; the score change."""
        ctx, settings = self.ctx, self.settings
        seed = int(next_u64(ctx.state.rng) >> np.uint64(33))
        board = ctx.board_view()
        graph = window_graph(ctx.puzzle, board, cells)
        self._search.reset(graph.bitset(self._adj), seed)
        self._search.run(settings.selections, graph.target)
        result = fill(
            ctx.puzzle,
            graph,
            self._search.best(),
            board,
            time_limit_s=settings.time_limit_wall_s,
            seed=seed,
            deterministic_time=settings.deterministic_limit,
        )
        self.placed += result.placed
        self.filled += result.holes
        old_piece, old_rot = ctx.state.piece[cells].copy(), ctx.state.rot[cells].copy()
        delta = ctx.place(graph.cells, result.piece, result.rot)
        if delta < 0:
            delta += ctx.place(cells, old_piece, old_rot)
            self.undone += 1
        return delta

    def window(self) -> np.ndarray:
        """Flat movable cells of the next H x W window around a drawn centre (module docstring)."""
        f, rng = self.ctx.flat, self.ctx.state.rng
        weights = (1.0 + self.settings.bias * self.ctx.mis) * f.movable
        free = weights * (self._tabu <= self._calls[0])
        centre = self._draw(free if free.sum() > 0 else weights)
        r, c = divmod(centre, f.cols)
        h, w = self._height, self._width
        r0 = min(max(r - below(rng, h), 0), f.rows - h)
        c0 = min(max(c - below(rng, w), 0), f.cols - w)
        cells = (np.arange(r0, r0 + h)[:, None] * f.cols + np.arange(c0, c0 + w)[None, :]).ravel()
        return cells[f.movable[cells]]
