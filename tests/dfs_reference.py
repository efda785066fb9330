"""A slow, obvious DFS with breaks, written from the docstring of e2opt/construct/dfs/kernel.py and rules.py.

It takes from the kernel only the attempt's rank of the codes (the order candidates are tried in) and
decides every rule itself from the board: which placements fit the cell, how many key sides each misses,
mismatches against every placed neighbour (hints included), the per-depth cap and schedule, the
frame-colour rule, the quota and the touching rule. It never cuts a list short.
"""

from __future__ import annotations

import contextlib

from e2opt.fill.order import DC, DR


class _Enough(Exception):
    pass


def reference_trace(puzzle, order, rules, rank_of, hmin: int, max_nodes: int):
    """(placements as (depth, code), harvested as (depth, codes)) in the order of a recursive DFS."""
    cols, rows = puzzle.cols, puzzle.rows
    ocol = puzzle.oriented.reshape(-1, 4)
    frame = set(rules.frame)
    board = {(h.row, h.col): h.piece * 4 + h.rot for h in puzzle.hints}
    used = {h.piece for h in puzzle.hints}
    touch: dict[tuple[int, int], int] = {}
    m = order.depth
    cells = [divmod(int(c), cols) for c in order.cells]
    placements, harvested, codes = [], [], []

    def fits(code, r, c) -> bool:
        rim = (r == 0, c == cols - 1, r == rows - 1, c == 0)
        return all((ocol[code, s] == 0) == rim[s] for s in range(4))

    def facing(r, c, s):
        return int(ocol[board[(r + DR[s], c + DC[s])], (s + 2) % 4])

    def level_of(d, code):
        """Key sides missed (None: a placement the lists never hold)."""
        r, c = cells[d]
        keys = [int(s) for s in order.keys[d] if s >= 0]
        missed = [s for s in keys if int(ocol[code, s]) != facing(r, c, s)]
        if len(missed) == 2 and len(keys) < 2:
            return None
        on_frame = any(int(ocol[code, s]) in frame or facing(r, c, s) in frame for s in missed)
        if on_frame and not rules.frame_colour_breaks:
            return None
        return len(missed)

    def go(d, cum, q):
        if d == m:
            harvested.append((m, tuple(codes)))
            return
        r, c = cells[d]
        keys = [int(s) for s in order.keys[d] if s >= 0]
        child = False
        pool = [code for code in range(len(ocol)) if code >> 2 not in used and fits(code, r, c)]
        for level in (0, 1, 2):
            if level == 2 and (rules.cap[d] < 2 or len(keys) < 2):
                break
            for code in sorted((x for x in pool if level_of(d, x) == level), key=lambda x: rank_of[x]):
                if code >> 2 in used:
                    continue
                mism, bad, faced = 0, False, []
                for s in range(4):
                    nb = (r + DR[s], c + DC[s])
                    if nb in board and int(ocol[code, s]) != facing(r, c, s):
                        mism += 1
                        faced.append(nb)
                        if s not in keys and not rules.frame_colour_breaks:
                            bad |= int(ocol[code, s]) in frame or facing(r, c, s) in frame
                if bad or mism > rules.cap[d] or cum + mism > rules.allow[d]:
                    continue
                if q + int(rules.qval[code >> 2]) < rules.qmin[d]:
                    continue
                if rules.no_touch and mism and any(touch.get(nb, 0) > 0 for nb in faced):
                    continue
                child = True
                if len(placements) == max_nodes:
                    raise _Enough
                placements.append((d, code))
                board[cells[d]] = code
                used.add(code >> 2)
                codes.append(code)
                if rules.no_touch and mism:
                    for cell in [*faced, cells[d]]:
                        touch[cell] = touch.get(cell, 0) + 1
                go(d + 1, cum + mism, q + int(rules.qval[code >> 2]))
                if rules.no_touch and mism:
                    for cell in [*faced, cells[d]]:
                        touch[cell] -= 1
                codes.pop()
                used.discard(code >> 2)
                del board[cells[d]]
        if not child and d >= hmin:
            harvested.append((d, tuple(codes)))

    with contextlib.suppress(_Enough):
        go(0, 0, 0)
    return placements, harvested
