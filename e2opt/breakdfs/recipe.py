"""The recipe's numbers for one puzzle: frame colours, the privileged colours, and the per-depth rules.

Schedules in the config count positions of the full fill order with the hint cells (Blackwood's index);
the search places the other cells only, so a position p becomes depth p minus the hints placed before it.

The privileged colours, when not given, are derived by one deterministic rule (tested, compared with
Blackwood's published set in docs/breakdfs.md): a colour is awkward to place late when the placements that
show it on a key side share their (left, bottom) colour pair with few other placements. For every colour
the mean size of those buckets is computed over every rotation of every piece (the two adjacent sides of a
rotation = its key pair); the ``n_frame`` frame colours and the ``n_inner`` inner colours with the
smallest means are privileged (ties: lower colour first). Frame and inner colours are ranked apart
because the frame is its own sub-puzzle with half as many sides per colour.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..construct.order import ORDERS, FillOrder
from ..core.puzzle import GREY, Puzzle
from .config import BreakDfsConfig
from .good import good_pieces


def frame_colours(puzzle: Puzzle) -> list[int]:
    """Internal colour ids on the joins between two rim cells (the sides next to a grey side)."""
    out: set[int] = set()
    for sides in puzzle.pieces:
        for s in range(4):
            if sides[s] == GREY:
                for t in ((s + 1) & 3, (s + 3) & 3):
                    if sides[t] != GREY:
                        out.add(int(sides[t]))
    return sorted(out)


def awkwardness(puzzle: Puzzle) -> dict[int, float]:
    """Per colour: mean size of the (side, next side) colour-pair buckets of the rotations that show it."""
    pairs: Counter[tuple[int, int]] = Counter()
    for sides in puzzle.pieces:
        for s in range(4):
            pairs[(int(sides[s]), int(sides[(s + 1) & 3]))] += 1
    sizes: dict[int, list[int]] = {}
    for (a, b), n in pairs.items():
        for c in {a, b} - {GREY}:
            sizes.setdefault(c, []).extend([n] * n)
    return {c: float(np.mean(v)) for c, v in sizes.items()}


def derive_privileged(puzzle: Puzzle, n_frame: int, n_inner: int) -> list[int]:
    """The privileged colours (internal ids) by the rule of the module docstring."""
    score = awkwardness(puzzle)
    frame = set(frame_colours(puzzle))
    ranked = sorted(score, key=lambda c: (score[c], c))
    return sorted(
        [c for c in ranked if c in frame][:n_frame] + [c for c in ranked if c not in frame][:n_inner]
    )


def privileged_colours(puzzle: Puzzle, cfg: BreakDfsConfig) -> list[int]:
    """Configured (user numbers) or derived privileged colours, as internal ids."""
    if cfg.privileged:
        lookup = {puzzle.user_colour(c): c for c in range(puzzle.n_colours)}
        return sorted(lookup[c] for c in cfg.privileged if c in lookup)
    return derive_privileged(puzzle, cfg.privileged_frame, cfg.privileged_inner)


def depth_of_position(puzzle: Puzzle, order_name: str, teeth: int) -> np.ndarray:
    """depth[p]: search depth of fill-order position p (hints left out), for p in 0..n_cells."""
    hinted = {(h.row, h.col) for h in puzzle.hints}
    seq = ORDERS[order_name](puzzle.rows, puzzle.cols, teeth)
    out = np.zeros(len(seq) + 1, dtype=np.int64)
    d = 0
    for p, rc in enumerate(seq):
        out[p] = d
        d += rc not in hinted
    out[len(seq)] = d
    return out


def position(at: int | float, cells: int, scale_from: int | None = None) -> int:
    """A fill position: a float is a fraction of the cells; an int is absolute, or written for a board of
    ``scale_from`` cells and scaled to this one."""
    if isinstance(at, float):
        return round(at * cells)
    return int(at) if scale_from is None else round(at * cells / scale_from)


@dataclass(frozen=True)
class Rules:
    """Per-depth rule arrays of the kernel: cumulative breaks allowed, minimum quota count, quota values."""

    allow: np.ndarray
    qmin: np.ndarray
    qval: np.ndarray
    privileged: list[int]
    frame: list[int]


def make_rules(puzzle: Puzzle, order: FillOrder, cfg: BreakDfsConfig) -> Rules:
    """The schedules of ``cfg`` on this puzzle's depths, and each piece's privileged sides."""
    m, cells = order.depth, puzzle.n_cells
    depth = depth_of_position(puzzle, cfg.order, cfg.teeth)
    allow = np.zeros(m + 1, dtype=np.int32)
    for at, most in cfg.breaks:
        allow[depth[min(position(at, cells, cfg.scale_from), cells)] :] = most
    priv = privileged_colours(puzzle, cfg)
    qval = np.isin(puzzle.pieces, priv).sum(axis=1).astype(np.int32)
    if cfg.quota_on == "pieces":  # Verhaard: one per good piece
        qval = np.zeros(len(puzzle.pieces), dtype=np.int32)
        qval[good_pieces(puzzle, cfg.good_pieces)] = 1
    qmin = np.zeros(m + 1, dtype=np.int32)
    if cfg.quota:
        xs = [position(at, cells, cfg.scale_from) for at, _ in cfg.quota]
        scale = 1.0 if cfg.scale_from is None else cells / cfg.scale_from
        ys = [v * scale for _, v in cfg.quota]
        hint_pos = {(h.row, h.col): h for h in puzzle.hints}
        seq = ORDERS[cfg.order](puzzle.rows, puzzle.cols, cfg.teeth)
        hint_q = 0
        for p in range(min(xs[-1], cells - 1) + 1):  # Blackwood's count includes hints placed before p
            if seq[p] in hint_pos:
                hint_q += int(qval[hint_pos[seq[p]].piece])
                continue
            need = int(np.floor(np.interp(p, xs, ys))) if p >= xs[0] else 0
            qmin[depth[p]] = max(need - hint_q, 0)
    return Rules(allow, qmin, qval, priv, frame_colours(puzzle))
