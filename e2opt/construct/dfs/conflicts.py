"""Conflict sets for the kernel's backjumping (kernel.py, module docstring "Backjumping").

A depth's conflict set is a bitset over the depths (``nw`` uint64 words per depth in ``conf``): the
earlier depths whose placements made it fail. It is valid while ``infl`` is set (a depth entered afresh
starts with none) and collects its placed neighbours (they chose its list), the depths holding the pieces
of its exact candidates that were used (``where``: the depth of every placed piece) and what its
children's failures named, the depth itself taken out.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...kernels.bits import clz
from .lists import N0, NX

ONE = np.uint64(1)
ZERO = np.uint64(0)
_u = np.uint64


@njit(cache=True, inline="always")
def _add(conf, base, n) -> None:
    conf[_u(base + (n >> 6))] |= ONE << np.uint64(n & 63)


@njit(cache=True, inline="always")
def culprit(d, g, m, dg, conf, infl, ent, lo, hi, avail, code_of, where) -> int:
    """Complete depth d's conflict set (its neighbours, the holders of the used pieces among its exact
    candidates ``ent[lo:hi]``) and return its deepest depth, -1 when it names none."""
    nw = conf.shape[0] // infl.shape[0]
    cb = d * nw
    if infl[_u(d)] == 0:
        for w in range(nw):
            conf[_u(cb + w)] = ZERO
    for j in range(2 + dg[_u(g + NX)]):
        n = dg[_u(g + N0 + 3 * j)]
        if n < m:
            _add(conf, cb, n)
    for y in range(lo, hi):
        r = np.int64(ent[_u(y)])
        if (avail[_u(r >> 6)] >> np.uint64(r & 63)) & ONE == ZERO:
            _add(conf, cb, where[_u(code_of[_u(r)] >> 2)])
    for w in range(nw - 1, -1, -1):
        word = conf[_u(cb + w)]
        if word != ZERO:
            return w * 64 + 63 - np.int64(clz(word))
    return -1


@njit(cache=True, inline="always")
def merge(conf, infl, d, j) -> None:
    """Depth d's conflict set, j taken out, into depth j's."""
    nw = conf.shape[0] // infl.shape[0]
    cb, jb = d * nw, j * nw
    fresh = infl[_u(j)] == 0
    for w in range(nw):
        v = conf[_u(cb + w)]
        conf[_u(jb + w)] = v if fresh else conf[_u(jb + w)] | v
    conf[_u(jb + (j >> 6))] &= ~(ONE << np.uint64(j & 63))
    infl[_u(j)] = 1
