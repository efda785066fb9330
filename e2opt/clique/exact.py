"""An exact maximum clique of a small graph: the slow, obvious oracle the heuristic is tested against.

Branch and bound with the greedy colouring bound of Tomita and Seki's MCQ (2003), on Python integers as bit
sets: colour the candidates greedily (a colour class is an independent set, so a clique takes at most one
node of each), branch on the candidates from the highest colour down, and prune when the clique plus the
colours left cannot beat the best. Meant for graphs of a few hundred nodes at most (tests, tiny puzzles).
"""

from __future__ import annotations

import numpy as np


def rows_as_ints(adj: np.ndarray) -> list[int]:
    """Each node's neighbours as one Python int (bit j = node j), from the (N, W) uint64 bitset."""
    out = []
    for row in adj:
        value = 0
        for w in range(len(row) - 1, -1, -1):
            value = (value << 64) | int(row[w])
        out.append(value)
    return out


def _colour_order(cand: int, nbr: list[int]) -> tuple[list[int], list[int]]:
    """The candidates in greedy colour order, with the number of colours used up to each."""
    order, bounds, colour = [], [], 0
    while cand:
        colour += 1
        free = cand
        while free:
            v = free.bit_length() - 1
            free &= ~(1 << v) & ~nbr[v]
            cand &= ~(1 << v)
            order.append(v)
            bounds.append(colour)
    return order, bounds


def max_clique(adj: np.ndarray) -> list[int]:
    """A maximum clique of the graph (node ids, sorted)."""
    nbr = rows_as_ints(adj)
    best: list[int] = []

    def grow(clique: list[int], cand: int) -> None:
        nonlocal best
        if not cand:
            if len(clique) > len(best):
                best = list(clique)
            return
        order, bounds = _colour_order(cand, nbr)
        for at in range(len(order) - 1, -1, -1):
            if len(clique) + bounds[at] <= len(best):
                return
            v = order[at]
            clique.append(v)
            grow(clique, cand & nbr[v])
            clique.pop()
            cand &= ~(1 << v)

    grow([], (1 << len(nbr)) - 1)
    return sorted(best)
