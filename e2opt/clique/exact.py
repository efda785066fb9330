"""An exact maximum clique of a small graph: the slow, obvious oracle the heuristic is tested against.

Branch and bound of Carraghan and Pardalos (1990) on Python integers as bit sets: pick the candidates in
order, branch on each with the candidates joined to it, and prune when the clique plus every remaining
candidate cannot beat the best. Meant for graphs of a few hundred nodes at most (tests, tiny puzzles).
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
        while cand:
            if len(clique) + cand.bit_count() <= len(best):
                return
            v = cand.bit_length() - 1
            cand &= ~(1 << v)
            clique.append(v)
            grow(clique, cand & nbr[v])
            clique.pop()

    grow([], (1 << len(nbr)) - 1)
    return sorted(best)
