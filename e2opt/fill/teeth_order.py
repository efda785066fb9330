"""Blackwood's fill order: a bottom-up row scan, then the top rows as a block, vertical teeth and a staircase.

Learned from jblackwood345/EternityII_Solver (``Get_Board_Order``, the order of the 470 board); written
here for any board size. With ``teeth`` = h (5 on 16x16): the bottom ``rows - h`` rows are scanned row by
row from the bottom, left to right (176 cells on 16x16); then the top h rows: an h x h block at the left
(row by row, bottom up), columns h .. cols-h as vertical teeth (bottom up), and the last h - 1 columns as
a staircase that alternates a row segment and a column segment until a 2x2 square is left, which is
scanned row by row. Every cell then has its left and bottom neighbours placed (or the rim) and no other,
so candidates are looked up by that colour pair alone.
"""

from __future__ import annotations


def _staircase(level0: int, col0: int, top: int, right: int) -> list[tuple[int, int]]:
    """Cells (level, col) of the rectangle levels level0..top x cols col0..right, row and column alternately."""
    out: list[tuple[int, int]] = []
    lv, c = level0, col0
    row_turn = True
    while lv <= top and c <= right:
        if top - lv <= 1 and right - c <= 1:  # the last 2x2 (or smaller): row by row
            out += [(x, y) for x in range(lv, top + 1) for y in range(c, right + 1)]
            break
        if row_turn:
            out += [(lv, y) for y in range(c, right + 1)]
            lv += 1
        else:
            out += [(x, c) for x in range(lv, top + 1)]
            c += 1
        row_turn = not row_turn
    return out


def blackwood(rows: int, cols: int, teeth: int = 5) -> list[tuple[int, int]]:
    """Blackwood's order as (row, col) from the top-left; ``teeth`` = height of the toothed top band."""
    h = max(1, min(teeth, rows))
    flat = rows - h
    levels: list[tuple[int, int]] = [(lv, c) for lv in range(flat) for c in range(cols)]
    block = min(h, cols)
    levels += [(lv, c) for lv in range(flat, rows) for c in range(block)]
    stair = min(h - 1, cols - block)
    levels += [(lv, c) for c in range(block, cols - stair) for lv in range(flat, rows)]
    levels += _staircase(flat, cols - stair, rows - 1, cols - 1)
    return [(rows - 1 - lv, c) for lv, c in levels]
