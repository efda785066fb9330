"""The one table builder (fill/tables.py) against slow, obvious lists: the fill orders' candidate tables and
the exact searches' key tables (exact/model.py), on small random puzzles, square and not, with hints."""

from __future__ import annotations

import numpy as np
import pytest

from e2opt.core.generate import generate
from e2opt.core.puzzle import GREY, Puzzle
from e2opt.exact.model import build_model
from e2opt.fill.order import ORDERS, make_order
from e2opt.fill.tables import build_tables

PUZZLES = [
    (3, 3, 2, 2, 0, 0),
    (4, 4, 3, 4, 11, 0),
    (3, 5, 2, 3, 5, 0),
    (5, 4, 3, 3, 7, 2),
    (4, 6, 2, 4, 3, 3),
]


def _puzzle(case: tuple[int, ...]) -> Puzzle:
    rows, cols, frame, inner, seed, hints = case
    return generate(rows, cols, frame, inner, seed, hints=hints)[0]


def _lists(start: np.ndarray, codes: np.ndarray) -> list[list[int]]:
    """A CSR table as one list per key."""
    return [codes[start[b] : start[b + 1]].tolist() for b in range(len(start) - 1)]


def _reference_fill(puzzle: Puzzle, order) -> tuple[list, list, list]:
    """Per slot and key colours: the fitting codes of free pieces matching both keys, missing one, any."""
    C = puzzle.n_colours
    hinted = {h.piece for h in puzzle.hints}
    col = puzzle.oriented.reshape(-1, 4)
    exact, one_off, every = [], [], []
    for rim, k0, k1 in order.slots:
        fits = [
            code
            for code in range(4 * len(puzzle.pieces))
            if code // 4 not in hinted and all((col[code, s] == GREY) == bool(rim >> s & 1) for s in range(4))
        ]
        every.append(fits)
        keys = [s for s in (k0, k1) if s >= 0]
        for c0 in range(C):
            for c1 in range(C):
                want = [c0, c1][: len(keys)]
                if any(c != 0 for c in [c0, c1][len(keys) :]):
                    exact.append([])
                    one_off.append([])
                    continue
                exact.append(
                    [x for x in fits if all(col[x, s] == c for s, c in zip(keys, want, strict=True))]
                )
                missed = []
                for j in range(len(keys)):
                    missed += [
                        x
                        for x in fits
                        if want[j] != 0
                        and col[x, keys[j]] != want[j]
                        and all(
                            col[x, s] == c for i, (s, c) in enumerate(zip(keys, want, strict=True)) if i != j
                        )
                    ]
                one_off.append(missed)
    return exact, one_off, every


@pytest.mark.parametrize("case", PUZZLES)
@pytest.mark.parametrize("name", list(ORDERS))
def test_fill_tables_match_the_slow_lists(case, name):
    puzzle = _puzzle(case)
    order = make_order(puzzle, name)
    t = build_tables(puzzle, order)
    exact, one_off, every = _reference_fill(puzzle, order)
    assert _lists(t.exact_start, t.exact) == exact
    assert _lists(t.one_off_start, t.one_off) == one_off
    assert _lists(t.every_start, t.every) == every


def _reference_keys(puzzle: Puzzle, tiles: np.ndarray) -> list[list[tuple[int, int]]]:
    """Per key of exact/model.py: the (tile, k) whose own sides k, k+1 / k, k+2 / k show its colours, or all."""
    K, p = puzzle.n_colours, puzzle.pieces
    out: list[list[tuple[int, int]]] = [[] for _ in range(2 * K * K + K + 1)]
    for t in tiles:
        for k in range(4):
            out[p[t, k] * K + p[t, (k + 1) % 4]].append((int(t), k))
            out[K * K + p[t, k] * K + p[t, (k + 2) % 4]].append((int(t), k))
            out[2 * K * K + p[t, k]].append((int(t), k))
            out[2 * K * K + K].append((int(t), k))
    return out


@pytest.mark.parametrize("case", PUZZLES)
@pytest.mark.parametrize("seed", [None, 4])
def test_exact_key_tables_match_the_slow_lists(case, seed):
    puzzle = _puzzle(case)
    model = build_model(puzzle, shuffle_seed=seed)
    T, K = len(puzzle.pieces), puzzle.n_colours
    tiles = np.arange(T) if seed is None else np.random.default_rng(seed).permutation(T)
    start, tile, k = model.tab_start, model.tab_tile, model.tab_k
    got = [
        list(zip(tile[start[b] : start[b + 1]].tolist(), k[start[b] : start[b + 1]].tolist(), strict=True))
        for b in range(len(start) - 1)
    ]
    assert got == _reference_keys(puzzle, tiles)
    having = [[t for t in range(T) if q in set(model.tile_pairs[t])] for q in range(2 * K * K)]
    assert _lists(model.ptile_start, model.ptile) == having
