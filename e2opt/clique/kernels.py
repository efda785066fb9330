"""Numba kernels of the clique graph: the compatibility test, edge counts, the adjacency bitset, DIMACS lines.

One test decides every pair of nodes (paper 002, section 2.2): two placements are joined by an edge unless
they use the same piece, the same cell, or sit in adjacent cells with colours that do not match. Everything
(counts, bitset, the streamed DIMACS text) calls ``compatible``, so they cannot disagree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

WORD = 64


@njit(cache=True, inline="always")
def compatible(i, j, lcell, piece, colours, side) -> bool:
    """True when nodes i and j can both be on the board: other piece, other cell, matching if adjacent."""
    a, b = lcell[i], lcell[j]
    if a == b or piece[i] == piece[j]:
        return False
    s = side[a, b]
    return s < 0 or colours[i, s] == colours[j, (s + 2) % 4]


@njit(cache=True)
def count_edges(lcell, piece, colours, side) -> int:
    """Number of compatible pairs (i < j): the graph's edges."""
    n = lcell.shape[0]
    m = 0
    for i in range(n):
        for j in range(i + 1, n):
            if compatible(i, j, lcell, piece, colours, side):
                m += 1
    return m


@njit(cache=True)
def fill_bitset(lcell, piece, colours, side, adj) -> None:
    """adj[i, j // 64] bit j % 64 set when i and j are compatible (adj zeroed by the caller)."""
    n = lcell.shape[0]
    one = np.uint64(1)
    for i in range(n):
        for j in range(i + 1, n):
            if compatible(i, j, lcell, piece, colours, side):
                adj[i, j // WORD] |= one << np.uint64(j % WORD)
                adj[j, i // WORD] |= one << np.uint64(i % WORD)


@njit(cache=True)
def _put_int(buf, at, value) -> int:
    """Write value (>= 0) in decimal at buf[at:]; return the position after it."""
    digits = 1
    v = value
    while v >= 10:
        v //= 10
        digits += 1
    end = at + digits
    v = value
    for k in range(end - 1, at - 1, -1):
        buf[k] = 48 + v % 10
        v //= 10
    return end


@njit(cache=True)
def dimacs_lines(lcell, piece, colours, side, pos, buf) -> int:
    """Write ``e i j`` lines (1-based, i < j) from pair pos = (i, j) on into buf until it is nearly full.

    Returns the bytes written; pos is advanced to the next pair not written (pos[0] == n when done).
    A line has at most 44 bytes, so the buffer is never overrun.
    """
    n = lcell.shape[0]
    limit = buf.shape[0] - 48
    at = 0
    i, j = pos[0], pos[1]
    while i < n:
        if j <= i:
            j = i + 1
        while j < n:
            if at >= limit:
                pos[0], pos[1] = i, j
                return at
            if compatible(i, j, lcell, piece, colours, side):
                buf[at] = 101  # e
                buf[at + 1] = 32
                at = _put_int(buf, at + 2, i + 1)
                buf[at] = 32
                at = _put_int(buf, at + 1, j + 1)
                buf[at] = 10
                at += 1
            j += 1
        i += 1
        j = i + 1
    pos[0], pos[1] = n, 0
    return at
