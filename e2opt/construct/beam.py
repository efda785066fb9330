"""Beam search construction (construct.method: beam): partial boards layer by layer along a fill order.

A member is a partial board kept compactly: the placements its frontier still faces, its used pieces
as bits, and its score (joins matched so far); the path to it is stored as parent links, one placement
and one parent index per layer, so memory is (layers + 2 * frontier) * width small integers. Each member
expands to up to ``fanout`` children drawn without replacement from its best exact-tie class (the
candidates that gain the most joins); the layer's children are counting-sorted by score, the tie class
at the cut is sampled at random, and the best ``width`` survive.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from ..core.board import Board
from ..core.puzzle import Puzzle
from ..fill.order import FillOrder
from ..fill.tables import Tables
from ..kernels.rng import below


@njit(cache=True, inline="always")
def _scan(cand, lo, hi, used, base, ocol, colour, sides, first, last, ties, best, n) -> tuple[int, int]:
    """Ties of the unused placements cand[lo:hi] into ``ties``: gain = base + matches on sides[first:last].

    Continues a scan whose best gain so far is ``best`` with ``n`` ties; returns the new (best, n).
    """
    for i in range(lo, hi):
        code = cand[i]
        p = code >> 2
        if (used[p >> 6] >> np.uint64(p & 63)) & np.uint64(1):
            continue
        g = base
        for j in range(first, last):
            if ocol[code, sides[j]] == colour[j]:
                g += 1
        if g > best:
            best = g
            n = 0
        if g == best:
            ties[n] = code
            n += 1
    return best, n


@njit(cache=True)
def expand_layer(
    d, members, front, used, score, fanout, geo, tab, ties, ch_parent, ch_code, ch_score, rng
) -> int:
    """All children of the layer's members at depth d: (parent, placement, score); returns their count.

    A member's children are drawn from its best class: the unused placements of depth d that gain the most
    joins. ``geo`` and ``tab`` are FillOrder.arrays() and Tables.arrays(). The sides depth d checks are the
    same for every member, so they are found once; the loop over members then only reads colours and scans.
    This was a helper per member: it allocated two scratch arrays and unpacked the tuples each time, and
    numba counted references to a dozen arrays on every call: a beam took twice the time (docs/construct.md).
    """
    fnbr, keys, extras, slot, _ = geo
    colours, ocol, ex_start, ex, off_start, off, ev_start, ev = tab
    sides = np.empty(4, dtype=np.int64)  # the key sides of depth d's cell, then its extra sides
    colour = np.empty(4, dtype=np.int64)  # the colour the member's placed neighbour shows on each of them
    nk = 0
    ne = 0
    for j in range(2):
        if keys[d, j] >= 0:
            sides[nk] = keys[d, j]
            nk += 1
    for j in range(2):
        if extras[d, j] >= 0:
            sides[nk + ne] = extras[d, j]
            ne += 1
    k = 0
    for i in range(members):
        for j in range(nk + ne):
            s = sides[j]
            colour[j] = ocol[front[i, fnbr[d, s]], (s + 2) & 3]
        c0 = colour[0] if nk > 0 else 0
        c1 = colour[1] if nk > 1 else 0
        b = (slot[d] * colours + c0) * colours + c1
        g, n = _scan(
            ex, ex_start[b], ex_start[b + 1], used[i], nk, ocol, colour, sides, nk, nk + ne, ties, -1, 0
        )
        if g <= nk - 1 + ne:  # a one-off placement can still tie
            g, n = _scan(
                off,
                off_start[b],
                off_start[b + 1],
                used[i],
                nk - 1,
                ocol,
                colour,
                sides,
                nk,
                nk + ne,
                ties,
                g,
                n,
            )
        if g <= ne and nk > 0:  # nothing beats a placement missing both keys: scan them all afresh
            lo, hi = ev_start[slot[d]], ev_start[slot[d] + 1]
            g, n = _scan(ev, lo, hi, used[i], 0, ocol, colour, sides, 0, nk + ne, ties, -1, 0)
        take = min(n, fanout)
        for j in range(take):
            r = j + below(rng, n - j)
            code = ties[r]
            ties[r] = ties[j]
            ties[j] = code
            ch_parent[k] = i
            ch_code[k] = code
            ch_score[k] = score[i] + g
            k += 1
    return k


@njit(cache=True)
def select_layer(d, k, width, kids, counts, cur, nxt, fpos, hist, rng) -> int:
    """Keep the best ``width`` children (random among the ties at the cut) as the next layer; its size.

    ``kids`` = (parent, code, score, scratch) of the children, ``cur``/``nxt`` = (frontier, used, score) of
    this layer and the next, ``hist`` = (placement, parent) per layer.
    """
    ch_parent, ch_code, ch_score, pick = kids
    front, used, _ = cur
    nfront, nused, nscore = nxt
    hist_code, hist_parent = hist
    counts[:] = 0
    for j in range(k):
        counts[ch_score[j]] += 1
    cut = counts.shape[0] - 1
    above = 0
    while cut > 0 and above + counts[cut] < width:
        above += counts[cut]
        cut -= 1
    need = min(width, k) - above  # children to draw from the tie class at score ``cut``
    n_tie = 0
    for j in range(k):
        if ch_score[j] == cut:
            pick[n_tie] = j
            n_tie += 1
    for j in range(need):
        r = j + below(rng, n_tie - j)
        t = pick[r]
        pick[r] = pick[j]
        pick[j] = t
    # the chosen tie children are pick[:need]: mark them by a negative score until they are copied
    for j in range(need):
        ch_score[pick[j]] = -1 - ch_score[pick[j]]
    m = 0
    for j in range(k):
        s = ch_score[j]
        if s < 0:
            s = -1 - s
            ch_score[j] = s
        elif s <= cut:
            continue
        p = ch_parent[j]
        for w in range(front.shape[1]):  # not slice copies: numba would count the views' references
            nfront[m, w] = front[p, w]
        for w in range(used.shape[1]):
            nused[m, w] = used[p, w]
        code = ch_code[j]
        if fpos[d] >= 0:
            nfront[m, fpos[d]] = code
        q = code >> 2
        nused[m, q >> 6] |= np.uint64(1) << np.uint64(q & 63)
        nscore[m] = s
        hist_code[d, m] = code
        hist_parent[d, m] = p
        m += 1
    return m


def run_beam(
    puzzle: Puzzle,
    order: FillOrder,
    tables: Tables,
    width: int,
    fanout: int,
    rng_state: np.ndarray,
    prefix: np.ndarray | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[Board, int]:
    """A complete board from a beam of ``width`` members: (board, expansions made).

    ``prefix`` (placement codes of the first depths) starts the beam from that partial board. ``stop()``
    (optional) is asked between layers; when it says so the best member is completed greedily (width 1).
    """
    prefix = np.zeros(0, dtype=np.int64) if prefix is None else np.asarray(prefix, dtype=np.int64)
    f = order.frontier
    words = (len(puzzle.pieces) + 63) // 64
    m_depth = order.depth
    front = np.full((width, f), -1, dtype=np.int16 if 4 * len(puzzle.pieces) < 32768 else np.int32)
    used = np.zeros((width, words), dtype=np.uint64)
    score = np.zeros(width, dtype=np.int64)
    nfront, nused, nscore = np.empty_like(front), np.empty_like(used), np.empty_like(score)
    hist_code = np.zeros((m_depth, width), dtype=front.dtype)
    hist_parent = np.zeros((m_depth, width), dtype=np.int32)
    hint_at = {h.row * puzzle.cols + h.col: h for h in puzzle.hints}
    placed = [hint_at[int(cell)].piece * 4 + hint_at[int(cell)].rot for cell in order.hint_cells]
    front[0, : len(placed)] = placed
    for d, code in enumerate(prefix):
        if order.fpos[d] >= 0:
            front[0, order.fpos[d]] = code
        hist_code[d, 0] = code
        placed.append(int(code))
    for code in placed:
        used[0, code >> 8] |= np.uint64(1) << np.uint64((code >> 2) & 63)
    children = width * fanout
    ch_parent = np.empty(children, dtype=np.int64)
    ch_code = np.empty(children, dtype=np.int64)
    ch_score = np.empty(children, dtype=np.int64)
    pick = np.empty(children, dtype=np.int64)
    counts = np.zeros(puzzle.max_score + 2, dtype=np.int64)
    ties = np.empty(4 * len(puzzle.pieces), dtype=np.int64)
    geo, tab = order.arrays(), tables.arrays()
    members = 1
    expansions = 0
    for d in range(len(prefix), m_depth):
        if stop is not None and width > 1 and stop():
            best = int(np.argmax(score[:members]))
            board, more = run_beam(
                puzzle, order, tables, 1, 1, rng_state, trace_back(hist_code, hist_parent, d, best)
            )
            return board, expansions + more
        k = expand_layer(
            d, members, front, used, score, fanout, geo, tab, ties, ch_parent, ch_code, ch_score, rng_state
        )
        expansions += members
        members = select_layer(
            d,
            k,
            width,
            (ch_parent, ch_code, ch_score, pick),
            counts,
            (front, used, score),
            (nfront, nused, nscore),
            order.fpos,
            (hist_code, hist_parent),
            rng_state,
        )
        front, nfront = nfront, front
        used, nused = nused, used
        score, nscore = nscore, score
    best = int(np.argmax(score[:members]))
    return board_from_codes(puzzle, order, trace_back(hist_code, hist_parent, m_depth, best)), expansions


@njit(cache=True)
def trace_back(hist_code, hist_parent, depth, member) -> np.ndarray:
    """The placements of depth 0..depth-1 on the path to ``member`` of layer depth-1."""
    codes = np.empty(depth, dtype=np.int64)
    for d in range(depth - 1, -1, -1):
        codes[d] = hist_code[d, member]
        member = hist_parent[d, member]
    return codes


def board_from_codes(puzzle: Puzzle, order: FillOrder, codes: np.ndarray) -> Board:
    """The board (empty cells -1) with the hints and the placements of the first len(codes) depths."""
    piece = np.full(puzzle.n_cells, -1, dtype=np.int64)
    rot = np.zeros(puzzle.n_cells, dtype=np.int64)
    for h in puzzle.hints:
        piece[h.row * puzzle.cols + h.col], rot[h.row * puzzle.cols + h.col] = h.piece, h.rot
    cells = order.cells[: len(codes)]
    piece[cells] = codes >> 2
    rot[cells] = codes & 3
    return Board(piece.reshape(puzzle.rows, puzzle.cols), rot.reshape(puzzle.rows, puzzle.cols))
