"""The numba depth-first search of construct.method: backtrack, with an explicit stack and scheduled breaks.

One call runs up to a number of nodes (placements) and returns, so Python only checks the clock between
chunks; every piece of search state lives in the arrays of ``stack`` and resumes where it stopped.
At each depth the exact candidates (both key sides match) are tried first, then, when the schedule lets
one more break in, the one-off candidates (one key side mismatched), then, when ``cap`` >= 2 and two more
breaks fit, the two-off candidates (both key sides mismatched: the slot's rim-fitting list, the others
skipped); extra placed sides are checked one by one. A placement is refused when its breaks pass the
schedule (``allow[d]``: cumulative breaks allowed once depth d is placed), when it breaks a frame cell
(``frame_ok``), when a break of it faces a cell that already touches a break of an earlier placement
(``no_touch``), when it has more than ``cap`` mismatched sides (``piece_breaks``, 1 by default), or when
the quota count (sides of the quota colours placed so far) falls below ``qmin[d]``.
"""

from __future__ import annotations

from numba import njit

from ..search.kernels import below

RUNNING, COMPLETE, BUDGET, ABORTED, EXHAUSTED = 0, 1, 2, 3, 4  # kernel return codes

# stack[name] indices (int64 rows of length depth + 1)
POS, END, LEVEL, BUCKET, BREAKS, QUOTA = range(6)
# counters[] indices
DEPTH, NODES, BEST_DEPTH, NEXT_CHECK = range(4)


@njit(cache=True, inline="always")
def facing(board, ocol, nbr, d, s) -> int:
    """The colour the placed neighbour on side s of depth d's cell shows toward it."""
    return ocol[board[nbr[d, s]], (s + 2) & 3]


@njit(cache=True, inline="always")
def enter(d, board, stack, nbr, keys, slot, colours, ocol, ex_start) -> None:
    """Start depth d's candidate scan at its exact list."""
    c0 = facing(board, ocol, nbr, d, keys[d, 0]) if keys[d, 0] >= 0 else 0
    c1 = facing(board, ocol, nbr, d, keys[d, 1]) if keys[d, 1] >= 0 else 0
    b = (slot[d] * colours + c0) * colours + c1
    stack[BUCKET, d] = b
    stack[LEVEL, d] = 0
    stack[POS, d] = ex_start[b]
    stack[END, d] = ex_start[b + 1]


@njit(cache=True)
def dfs(stack, counters, board, used, touch, best, geo, tab, rules, budget, chunk) -> int:
    """Run the DFS for up to ``chunk`` more nodes; see the module docstring. Returns a kernel code.

    ``geo`` = (cells, nbr, keys, extras, slot), ``tab`` = (colours, ocol, exact starts, one-off starts,
    candidates, two-off starts): the lists in one array (one-off starts offset by the exact list's length;
    two-off starts per slot, into the rim-fitting lists appended after them, empty when ``cap`` < 2),
    ``rules`` = (allow, frame_ok, no_touch, qsides, qmin, abort_nodes, abort_depth, cap). ``best`` receives
    the deepest partial board of this attempt (codes by depth). ``budget``: nodes of the attempt.
    The scan position of the current depth lives in locals and goes back to ``stack`` on a move.
    """
    cells, nbr, keys, extras, slot = geo
    colours, ocol, ex_start, off_start, cand, two_start = tab
    allow, frame_ok, no_touch, qsides, qmin, abort_nodes, abort_depth, cap = rules
    m = cells.shape[0]
    d = counters[DEPTH]
    nodes = counters[NODES]
    deepest = counters[BEST_DEPTH]
    stop_at = min(budget, nodes + chunk)
    status = RUNNING
    pos, end, level = stack[POS, d], stack[END, d], stack[LEVEL, d]
    prev = stack[BREAKS, d - 1] if d > 0 else 0
    qprev = stack[QUOTA, d - 1] if d > 0 else 0
    while True:
        if pos >= end:
            if level == 0 and prev < allow[d] and frame_ok[d] and keys[d, 0] >= 0:
                b = stack[BUCKET, d]
                level = 1
                pos = off_start[b]
                end = off_start[b + 1]
                continue
            if level == 1 and cap >= 2 and prev + 2 <= allow[d] and keys[d, 1] >= 0:
                level = 2
                pos = two_start[slot[d]]
                end = two_start[slot[d] + 1]
                continue
            d -= 1  # backtrack
            if d < 0:
                status = EXHAUSTED
                break
            _unplace(d, cells, nbr, board, used, touch, stack, ocol)
            pos, end, level = stack[POS, d], stack[END, d], stack[LEVEL, d]
            prev = stack[BREAKS, d - 1] if d > 0 else 0
            qprev = stack[QUOTA, d - 1] if d > 0 else 0
            continue
        code = cand[pos]
        pos += 1
        if used[code >> 2]:
            continue
        mism = level
        if level == 2:  # the slot's whole list: only placements missing both key colours are new here
            b = stack[BUCKET, d]
            if ocol[code, keys[d, 0]] == (b // colours) % colours or ocol[code, keys[d, 1]] == b % colours:
                continue
        if extras[d, 0] >= 0:  # sides beyond the two keys (next to a hint, a tooth's foot): one by one
            for j in range(2):
                s = extras[d, j]
                if s >= 0 and ocol[code, s] != facing(board, ocol, nbr, d, s):
                    mism += 1
            if mism > cap:
                continue
        if mism > 0:
            if prev + mism > allow[d] or not frame_ok[d]:
                continue
            if no_touch and _touches(code, d, board, ocol, nbr, touch):
                continue
        q = qprev + qsides[code >> 2]
        if q < qmin[d]:
            continue
        # place: save the scan of depth d, go one deeper
        stack[POS, d], stack[END, d], stack[LEVEL, d] = pos, end, level
        stack[BREAKS, d] = prev + mism
        stack[QUOTA, d] = q
        board[cells[d]] = code
        used[code >> 2] = 1
        if mism > 0:
            _mark_break(code, d, cells, board, ocol, nbr, touch, 1)
        prev, qprev = prev + mism, q
        nodes += 1
        d += 1
        if d > deepest:
            deepest = d
            for j in range(d):
                best[j] = board[cells[j]]
        if d == m:
            status = COMPLETE
            break
        enter(d, board, stack, nbr, keys, slot, colours, ocol, ex_start)
        pos, end, level = stack[POS, d], stack[END, d], 0
        if nodes >= stop_at:
            if nodes >= budget:
                status = BUDGET
                break
            k = counters[NEXT_CHECK]
            if k < abort_nodes.shape[0] and nodes >= abort_nodes[k]:
                counters[NEXT_CHECK] = k + 1
                if deepest < abort_depth[k]:
                    status = ABORTED
            break
    counters[DEPTH] = d
    counters[NODES] = nodes
    counters[BEST_DEPTH] = deepest
    return status


@njit(cache=True, inline="always")
def _touches(code, d, board, ocol, nbr, touch) -> bool:
    """True when the mismatched side of ``code`` at depth d faces a cell that already touches a break."""
    for s in range(4):
        n = nbr[d, s]
        if n >= 0 and ocol[code, s] != ocol[board[n], (s + 2) & 3] and touch[n] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def _mark_break(code, d, cells, board, ocol, nbr, touch, delta) -> None:
    """Add ``delta`` to the break marks of depth d's cell and of the neighbour its mismatch faces."""
    touch[cells[d]] += delta
    for s in range(4):
        n = nbr[d, s]
        if n >= 0 and ocol[code, s] != ocol[board[n], (s + 2) & 3]:
            touch[n] += delta


@njit(cache=True, inline="always")
def _unplace(d, cells, nbr, board, used, touch, stack, ocol) -> None:
    """Take depth d's placement off the board (the scan at depth d continues after it)."""
    code = board[cells[d]]
    prev = stack[BREAKS, d - 1] if d > 0 else 0
    if stack[BREAKS, d] > prev:
        _mark_break(code, d, cells, board, ocol, nbr, touch, -1)
    used[code >> 2] = 0
    board[cells[d]] = -1


@njit(cache=True)
def shuffle_lists(start, cand, qsides, rng) -> None:
    """Shuffle every CSR list, then order it stably by quota sides, most first (awkward colours early)."""
    for b in range(start.shape[0] - 1):
        lo, hi = start[b], start[b + 1]
        for i in range(hi - 1, lo, -1):
            j = lo + below(rng, i - lo + 1)
            t = cand[i]
            cand[i] = cand[j]
            cand[j] = t
        for i in range(lo + 1, hi):  # insertion sort: lists are short
            x = cand[i]
            k = i - 1
            while k >= lo and qsides[cand[k] >> 2] < qsides[x >> 2]:
                cand[k + 1] = cand[k]
                k -= 1
            cand[k + 1] = x
