"""A slow, obvious DFS with breaks, written from the docstring of e2opt/construct/dfs/kernel.py and rules.py.

It takes from the kernel only the attempt's rank of the codes (the order candidates are tried in) and
decides every rule itself from the board: which placements fit the cell, how many key sides each misses,
mismatches against every placed neighbour (hints included), the per-depth cap and schedule, the
frame-colour rule, the quota and the touching rule. It never cuts a list short. With the rules'
``backjump`` each call returns why it failed: the set of earlier depths that made it fail (its placed
neighbours, the depths holding the used pieces among its exact placements, what its children named), or
None when the failure may depend on any depth (a break spent before it or possible at it, a quota
rejection, a child that said None, a complete board); a set whose deepest depth is not the caller's is
passed up unread, a set naming nothing ends the search.
"""

from __future__ import annotations

import contextlib

from e2opt.fill.order import DC, DR


class _Enough(Exception):
    pass


class _Exhausted(Exception):
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
    depth_of: dict = {}  # cell or piece -> the depth that placed it
    hint_cells, hint_pieces = set(board), {h.piece for h in puzzle.hints}

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
            return None
        r, c = cells[d]
        keys = [int(s) for s in order.keys[d] if s >= 0]
        child = False
        named = rules.backjump and cum == 0 and (rules.allow[d] < 1 or rules.cap[d] < 1)
        why: set[int] = set()
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
                    named = False
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
                depth_of[cells[d]] = depth_of[code >> 2] = d
                if rules.no_touch and mism:
                    for cell in [*faced, cells[d]]:
                        touch[cell] = touch.get(cell, 0) + 1
                below = go(d + 1, cum + mism, q + int(rules.qval[code >> 2]))
                if rules.no_touch and mism:
                    for cell in [*faced, cells[d]]:
                        touch[cell] -= 1
                codes.pop()
                used.discard(code >> 2)
                del board[cells[d]]
                if below is None:
                    named = False
                elif max(below) < d:
                    return below  # a jump past this depth
                else:
                    why |= below - {d}
        if not child and d >= hmin:
            harvested.append((d, tuple(codes)))
        if not named or d == 0:
            return None
        for s in range(4):
            nb = (r + DR[s], c + DC[s])
            if nb in board and nb not in hint_cells:
                why.add(depth_of[nb])
        taken = (
            x for x in range(len(ocol)) if x >> 2 in used and x >> 2 not in hint_pieces and fits(x, r, c)
        )
        why |= {depth_of[x >> 2] for x in taken if level_of(d, x) == 0}
        if not why:
            raise _Exhausted
        return why

    with contextlib.suppress(_Enough, _Exhausted):
        go(0, 0, 0)
    return placements, harvested
