"""The max-clique heuristic paper 002 used: the iterated local search of Grosso, Locatelli and Pullan (2008).

One parameter, q: the number of selections (one selection = one add or swap step). What we took from the
paper (J. Heuristics 14:587-612) and from reading LEMON's ``grosso_locatelli_pullan_mc.h`` (no code copied):

* the state is the current clique C and, for every node v, delta[v] = members of C that v is not adjacent
  to; PA = {v not in C: delta 0} (possible additions) and OM = {v not in C: delta 1} (one missing) are kept
  as arrays with positions, so an add or a removal costs one pass over the node's non-neighbours (the
  complement of its adjacency bitset row) and a selection is O(1) plus skipping tabu nodes;
* a local search adds a random non-tabu node of PA while there is one; else swaps a random non-tabu node
  of OM in for its one non-adjacent member of C, which becomes tabu for the rest of the local search; else
  adds a tabu node of PA; else stops. Swaps on one plateau are limited to |C| at its start (the size when
  the tabu set was last empty), which ends cycling on plateaus without a tenure parameter;
* the restart (perturbation) of GLP's "rule 2": a node r drawn among the nodes that conflict with at least
  ``restart_delta`` members of C (any node when there is none) is forced in, the members it conflicts with
  leave, and the tabu set is emptied. The clique keeps most of its structure, which is what made the
  algorithm fast on DIMACS graphs; random selection (not degree or penalty) is GLP's recommended variant.

Buffers are allocated once per graph (``CliqueSearch``); the kernel allocates nothing, keeps its rng
(splitmix64, one integer) and loop state in arrays, and can be stopped and continued at any selection with
the same result as one uninterrupted run of the same q.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ..kernels.rng import below
from .kernels import WORD

C, PA, OM = 0, 1, 2  # the three node sets kept as lists with positions
SEL, IN_LS, MAX_SWAP, BEST, NTABU, RESTARTS, BEST_AT = range(7)  # slots of the loop state array
RESTART_DELTA = 2  # default: restart nodes conflict with >= 2 members of C (a cell and a piece, or a join)


@njit(cache=True, inline="always")
def _set_add(k, v, lists, pos, size) -> None:
    pos[k, v] = size[k]
    lists[k, size[k]] = v
    size[k] += 1


@njit(cache=True, inline="always")
def _set_del(k, v, lists, pos, size) -> None:
    at = pos[k, v]
    if at < 0:
        return
    last = lists[k, size[k] - 1]
    lists[k, at] = last
    pos[k, last] = at
    pos[k, v] = -1
    size[k] -= 1


@njit(cache=True)
def _add(u, adj, valid, delta, lists, pos, size) -> None:
    """Put u into C; nodes not adjacent to u move PA -> OM -> out.

    _add and _remove keep their own copy of the loop over u's non-neighbours: one shared loop with the
    direction as an argument (inlined or not) made 7x7 runs 10-14% slower (docs/clique.md)."""
    _set_del(PA, u, lists, pos, size)
    _set_del(OM, u, lists, pos, size)
    _set_add(C, u, lists, pos, size)
    for w in range(adj.shape[1]):
        x = ~adj[u, w] & valid[w]
        while x:
            v = w * WORD + trailing_zeros(x)
            x &= x - np.uint64(1)
            if v == u:
                continue
            d = delta[v]
            delta[v] = d + 1
            if pos[C, v] < 0:
                if d == 0:
                    _set_del(PA, v, lists, pos, size)
                    _set_add(OM, v, lists, pos, size)
                elif d == 1:
                    _set_del(OM, v, lists, pos, size)


@njit(cache=True)
def _remove(u, adj, valid, delta, lists, pos, size) -> None:
    """Take u out of C; nodes not adjacent to u move out -> OM -> PA; u joins PA or OM."""
    _set_del(C, u, lists, pos, size)
    for w in range(adj.shape[1]):
        x = ~adj[u, w] & valid[w]
        while x:
            v = w * WORD + trailing_zeros(x)
            x &= x - np.uint64(1)
            if v == u:
                continue
            d = delta[v]
            delta[v] = d - 1
            if pos[C, v] < 0:
                if d == 1:
                    _set_del(OM, v, lists, pos, size)
                    _set_add(PA, v, lists, pos, size)
                elif d == 2:
                    _set_add(OM, v, lists, pos, size)
    if delta[u] == 0:
        _set_add(PA, u, lists, pos, size)
    elif delta[u] == 1:
        _set_add(OM, u, lists, pos, size)


@njit(cache=True, inline="always")
def _adjacent(adj, u, v) -> bool:
    return (adj[u, v // WORD] >> np.uint64(v % WORD)) & np.uint64(1) != 0


@njit(cache=True)
def _pick(k, lists, size, tabu, allow_tabu, rng) -> int:
    """A random node of set k, skipping tabu ones unless allowed; -1 when there is none."""
    n = size[k]
    if n == 0:
        return -1
    start = below(rng, n)
    for t in range(n):
        v = lists[k, (start + t) % n]
        if allow_tabu or tabu[v] == 0:
            return v
    return -1


@njit(cache=True)
def _perturb(adj, valid, delta, lists, pos, size, tabu, tabu_list, st, restart_delta, buf, rng) -> None:
    """GLP's restart: force in a node conflicting with >= restart_delta members of C; empty the tabu set."""
    n = adj.shape[0]
    far = 0
    if size[C] > 0:
        for v in range(n):
            if pos[C, v] < 0 and delta[v] >= restart_delta:
                far += 1
    if far > 0:
        pick = below(rng, far)
        r = -1
        for v in range(n):
            if pos[C, v] < 0 and delta[v] >= restart_delta:
                if pick == 0:
                    r = v
                    break
                pick -= 1
    else:
        r = below(rng, n)
    if pos[C, r] < 0:
        m = 0
        for t in range(size[C]):
            u = lists[C, t]
            if not _adjacent(adj, r, u):
                buf[m] = u
                m += 1
        for t in range(m):
            _remove(buf[t], adj, valid, delta, lists, pos, size)
        _add(r, adj, valid, delta, lists, pos, size)
    for t in range(st[NTABU]):
        tabu[tabu_list[t]] = 0
    st[NTABU] = 0
    st[MAX_SWAP] = size[C]
    st[RESTARTS] += 1


@njit(cache=True)
def run_selections(
    adj, valid, delta, lists, pos, size, tabu, tabu_list, best, st, buf, rng, limit, target, restart_delta
) -> None:
    """Selections until st[SEL] reaches limit or the best clique reaches target; best[:st[BEST]] holds it."""
    while st[SEL] < limit and st[BEST] < target:
        if st[IN_LS] == 0:
            _perturb(adj, valid, delta, lists, pos, size, tabu, tabu_list, st, restart_delta, buf, rng)
            st[IN_LS] = 1
        st[SEL] += 1
        u = _pick(PA, lists, size, tabu, False, rng)
        if u >= 0:
            _add(u, adj, valid, delta, lists, pos, size)
            if st[NTABU] == 0:
                st[MAX_SWAP] = size[C]
        else:
            u = _pick(OM, lists, size, tabu, False, rng)
            if u >= 0:
                v = -1
                for t in range(size[C]):
                    if not _adjacent(adj, u, lists[C, t]):
                        v = lists[C, t]
                        break
                _add(u, adj, valid, delta, lists, pos, size)
                _remove(v, adj, valid, delta, lists, pos, size)
                tabu[v] = 1
                tabu_list[st[NTABU]] = v
                st[NTABU] += 1
                st[MAX_SWAP] -= 1
                if st[MAX_SWAP] <= 0:
                    st[IN_LS] = 0
            else:
                u = _pick(PA, lists, size, tabu, True, rng)
                if u >= 0:
                    _add(u, adj, valid, delta, lists, pos, size)
                else:
                    st[IN_LS] = 0
        if size[C] > st[BEST]:
            for t in range(size[C]):
                best[t] = lists[C, t]
            st[BEST] = size[C]
            st[BEST_AT] = st[SEL]


class CliqueSearch:
    """GLP's heuristic on an adjacency bitset. Buffers are sized once for ``capacity`` nodes and reused by
    ``reset`` for every graph that fits (the clique move's windows); ``run`` continues the search."""

    def __init__(self, adj: np.ndarray, seed: int, restart_delta: int = RESTART_DELTA, capacity: int = 0):
        cap = max(adj.shape[0], capacity, 1)
        self.valid = np.zeros((cap + WORD - 1) // WORD, dtype=np.uint64)
        self.delta = np.zeros(cap, dtype=np.int64)
        self.lists = np.zeros((3, cap), dtype=np.int64)
        self.pos = np.full((3, cap), -1, dtype=np.int64)
        self.size = np.zeros(3, dtype=np.int64)
        self.tabu = np.zeros(cap, dtype=np.int64)
        self.tabu_list = np.zeros(cap, dtype=np.int64)
        self.best_nodes = np.zeros(cap, dtype=np.int64)
        self.buf = np.zeros(cap, dtype=np.int64)
        self.st = np.zeros(7, dtype=np.int64)
        self.rng = np.zeros(1, dtype=np.uint64)
        self.restart_delta = int(restart_delta)
        self.reset(adj, seed)

    def reset(self, adj: np.ndarray, seed: int) -> None:
        """Start afresh on ``adj`` (at most the capacity's nodes): empty clique, every node in PA."""
        n = adj.shape[0]
        if n > len(self.delta) or adj.shape[1] > len(self.valid):
            raise ValueError(f"clique search: {n} nodes exceed the buffers' {len(self.delta)}")
        self.adj, self.n = adj, n
        words = adj.shape[1]
        full, rest = divmod(n, WORD)
        self.valid[:] = 0
        self.valid[:full] = np.uint64(2**64 - 1)
        if rest:
            self.valid[full] = np.uint64((1 << rest) - 1)
        self.valid_view = self.valid[:words]
        self.delta[:n] = 0
        self.pos[:, :n] = -1
        self.lists[PA, :n] = np.arange(n)
        self.pos[PA, :n] = np.arange(n)
        self.size[:] = (0, n, 0)
        self.tabu[:n] = 0
        self.st[:] = 0
        self.rng[0] = np.random.SeedSequence(int(seed)).generate_state(1, dtype=np.uint64)[0]

    @property
    def selections(self) -> int:
        return int(self.st[SEL])

    @property
    def best_size(self) -> int:
        return int(self.st[BEST])

    @property
    def best_at(self) -> int:
        """Selections done when the best clique was found."""
        return int(self.st[BEST_AT])

    def best(self) -> np.ndarray:
        """The nodes of the largest clique found, sorted."""
        return np.sort(self.best_nodes[: self.best_size])

    def run(self, limit: int, target: int | None = None) -> None:
        """Select until ``limit`` selections in all (or a clique of ``target`` nodes is found)."""
        if self.n == 0:
            return
        run_selections(
            self.adj,
            self.valid_view,
            self.delta,
            self.lists,
            self.pos,
            self.size,
            self.tabu,
            self.tabu_list,
            self.best_nodes,
            self.st,
            self.buf,
            self.rng,
            int(limit),
            int(target if target else self.n),
            self.restart_delta,
        )
