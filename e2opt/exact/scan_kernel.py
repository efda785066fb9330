"""The numba kernel of method scan: plain depth-first search over a static fill order's candidate tables.

A candidate of the tables (fill/tables.py) already matches the two key sides of its cell, so the
kernel checks only "piece unused" (and, next to a hint, the extra sides): the construction's DFS with no
break allowed, without its breaks, quotas and deepest-board copies. A call runs up to ``chunk``
nodes; the whole state lives in ``stack`` (candidate position and end per depth) and ``counters``, so
the next call resumes. With ``keep`` it returns at every full board (left on ``board`` until the next
call); without, it only counts them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.rng import below

__all__ = ["BUDGET", "COMPLETE", "EXHAUSTED", "RUNNING", "walk"]

_u = np.uint64  # an index cast to it skips numba's check for a negative index
RUNNING, COMPLETE, BUDGET, EXHAUSTED = 0, 1, 2, 4  # kernel return codes
DEPTH, NODES, LEAVES, HELD = range(4)  # counters[] indices; HELD: the last depth holds a full board's piece


@njit(cache=True, inline="always")
def facing(board, ocol, nbr, d, s) -> int:
    """The colour the placed neighbour on side s of depth d's cell shows toward it."""
    return ocol[_u(board[_u(nbr[_u(d), _u(s)])]), _u((s + 2) & 3)]


@njit(cache=True)
def shuffle_lists(start, cand, rng) -> None:
    """Shuffle every CSR list in place (Fisher-Yates with the search's generator)."""
    for b in range(start.shape[0] - 1):
        lo, hi = start[b], start[b + 1]
        for i in range(hi - 1, lo, -1):
            j = lo + below(rng, i - lo + 1)
            t = cand[i]
            cand[i] = cand[j]
            cand[j] = t


@njit(cache=True, inline="always")
def _open(d, board, stack, nbr, keys, slot, colours, ocol, start) -> None:
    """Point depth d's scan at the list of the colours its placed key neighbours show."""
    k0, k1 = keys[_u(d), 0], keys[_u(d), 1]
    c0 = facing(board, ocol, nbr, d, k0) if k0 >= 0 else 0
    c1 = facing(board, ocol, nbr, d, k1) if k1 >= 0 else 0
    b = (slot[_u(d)] * colours + c0) * colours + c1
    stack[0, _u(d)] = start[_u(b)]
    stack[1, _u(d)] = start[_u(b + 1)]


@njit(cache=True)
def open_root(stack, board, geo, tab) -> None:
    """Start a walk: depth 0's scan."""
    _, nbr, keys, _, slot = geo
    _open(0, board, stack, nbr, keys, slot, tab[0], tab[1], tab[2])


@njit(cache=True)
def walk(stack, counters, board, used, geo, tab, budget, chunk, keep) -> int:
    """Run up to ``chunk`` more nodes (``budget``: nodes of the whole walk); returns a kernel code.

    ``geo`` = (cells, nbr, keys, extras, slot), ``tab`` = (colours, ocol, list starts, lists).
    """
    cells, nbr, keys, extras, slot = geo
    colours, ocol, start, cand = tab
    m = cells.shape[0]
    d, nodes, leaves = counters[DEPTH], counters[NODES], counters[LEAVES]
    if counters[HELD]:  # take the last full board's last piece off and scan on
        used[board[cells[d]] >> 2] = 0
        board[cells[d]] = -1
        counters[HELD] = 0
    stop_at = min(budget, nodes + chunk)
    status = RUNNING
    while True:
        p = stack[0, _u(d)]
        if p >= stack[1, _u(d)]:
            d -= 1
            if d < 0:
                status = EXHAUSTED
                break
            cell = _u(cells[_u(d)])
            used[_u(board[cell] >> 2)] = 0
            board[cell] = -1
            continue
        code = cand[_u(p)]
        stack[0, _u(d)] = p + 1
        if used[_u(code >> 2)]:
            continue
        if extras[_u(d), 0] >= 0:  # sides beyond the two keys (next to a hint): one by one
            fits = True
            for j in range(2):
                s = extras[_u(d), j]
                if s >= 0 and ocol[_u(code), _u(s)] != facing(board, ocol, nbr, d, s):
                    fits = False
            if not fits:
                continue
        nodes += 1
        if d == m - 1:
            leaves += 1
            if keep:
                board[_u(cells[_u(d)])] = code
                used[_u(code >> 2)] = 1
                counters[HELD] = 1
                status = COMPLETE
                break
        else:
            board[_u(cells[_u(d)])] = code
            used[_u(code >> 2)] = 1
            d += 1
            _open(d, board, stack, nbr, keys, slot, colours, ocol, start)
        if nodes >= stop_at:
            status = BUDGET if nodes >= budget else RUNNING
            break
    counters[DEPTH] = max(d, 0)
    counters[NODES] = nodes
    counters[LEAVES] = leaves
    return status
