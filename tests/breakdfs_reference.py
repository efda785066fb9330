"""A slow plain-Python DFS with breaks, written from the docstring of e2opt/breakdfs/kernel.py.

It takes the kernel's candidate lists only for their order (the attempt's shuffle) and decides every rule
itself from the board: mismatches against every placed neighbour (hints included), the per-piece cap, the
cumulative schedule, the frame-colour rule and the quota. It never cuts a list short.
"""

from __future__ import annotations

import contextlib

from e2opt.construct.order import DC, DR


class _Enough(Exception):
    pass


def reference_trace(puzzle, order, lists, rules, cap, frame_ok, hmin, max_nodes):
    """(placements as (depth, code), harvested as (depth, codes tuple)) in the order of a recursive DFS."""
    cols, rows, colours = puzzle.cols, puzzle.rows, puzzle.n_colours
    ocol = puzzle.oriented.reshape(-1, 4)
    frame = set(rules.frame)
    board = {(h.row, h.col): h.piece * 4 + h.rot for h in puzzle.hints}
    used = {h.piece for h in puzzle.hints}
    m = order.depth
    cells = [divmod(int(c), cols) for c in order.cells]
    placements, harvested, codes = [], [], []

    def key_colour(d, j):
        s = int(order.keys[d, j])
        if s < 0:
            return 0
        r, c = cells[d]
        return int(ocol[board[(r + DR[s], c + DC[s])], (s + 2) % 4])

    def check(d, code, breaks_before, q_before):
        r, c = cells[d]
        mism, on_frame = 0, False
        for s in range(4):
            rr, cc = r + DR[s], c + DC[s]
            if (rr, cc) in board:
                mine, theirs = int(ocol[code, s]), int(ocol[board[(rr, cc)], (s + 2) % 4])
                if mine != theirs:
                    mism += 1
                    on_frame |= mine in frame or theirs in frame
        rim = (r == 0, c == cols - 1, r == rows - 1, c == 0)
        assert all((ocol[code, s] == 0) == rim[s] for s in range(4)), "a list entry that does not fit the rim"
        if mism > cap or breaks_before + mism > rules.allow[d] or (on_frame and not frame_ok):
            return None
        q = q_before + int(rules.qval[code >> 2])
        return None if q < rules.qmin[d] else (mism, q)

    def go(d, breaks, q):
        if d == m:
            harvested.append((m, tuple(codes)))
            return
        b = (int(order.slot[d]) * colours + key_colour(d, 0)) * colours + key_colour(d, 1)
        child = False
        for x in lists.ent[lists.start[b] : lists.start[b + 1]]:
            code = int(x) >> 1
            if code >> 2 in used:
                continue
            ok = check(d, code, breaks, q)
            if ok is None:
                continue
            child = True
            if len(placements) == max_nodes:
                raise _Enough
            placements.append((d, code))
            board[cells[d]] = code
            used.add(code >> 2)
            codes.append(code)
            go(d + 1, breaks + ok[0], ok[1])
            codes.pop()
            used.discard(code >> 2)
            del board[cells[d]]
        if not child and d >= hmin:
            harvested.append((d, tuple(codes)))

    with contextlib.suppress(_Enough):
        go(0, 0, 0)
    return placements, harvested
