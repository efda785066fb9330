"""The numba assignment move against slow references: brute force, fill/assignment.py, the verifier."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from helpers import plain_search

from e2opt.core.board import Board, random_board, rule_violations, score
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.fill.assignment import reassign
from e2opt.kernels.rng import below, between
from e2opt.search import kernels
from e2opt.search.flat import FlatPuzzle
from e2opt.search.tabu import TabuSearch
from tests.conftest import INSTANCES

SIZES = [(3, 3, 0), (4, 5, 2), (5, 5, 1), (6, 4, 0), (2, 2, 0), (3, 7, 3)]


def _search(rows, cols, hints, seed, **cfg) -> tuple:
    """A search on a generated puzzle; the move is the plain optimal one unless cost_noise is given."""
    cfg.setdefault("cost_noise", 0.0)
    puzzle, _ = generate(rows, cols, 3, 4, seed, hints)
    rng = np.random.default_rng(seed)
    search = TabuSearch(puzzle, random_board(puzzle, rng), plain_search(**cfg), rng)
    return puzzle, search


def _random_holes(flat: FlatPuzzle, k: int, rng: np.random.Generator) -> list[int]:
    """Up to k movable, pairwise non-edge-adjacent cells in random order."""
    taken: list[int] = []
    for c in rng.permutation(flat.n):
        if flat.movable[c] and all(d not in taken for d in flat.nbr[c] if d >= 0):
            taken.append(int(c))
        if len(taken) == k:
            break
    return taken


@pytest.mark.parametrize("rows,cols,hints", SIZES)
@pytest.mark.parametrize("select", ["random", "biased", "checkerboard"])
def test_move_never_lowers_score_and_keeps_board_valid(rows, cols, hints, select):
    for seed in range(8):
        puzzle, search = _search(rows, cols, hints, seed, select=select, holes=(2, 6), reverse_penalty=3.0)
        before = search.state.score
        for _ in range(25):
            search.move()
            board = search.current_board()
            assert rule_violations(puzzle, board) == []
            assert search.state.score == score(puzzle, board)
            assert search.state.score >= before
            before = search.state.score


def _brute_force(puzzle, board: Board, holes: list[tuple[int, int]]) -> int:
    """Best score over every permutation of the lifted pieces and every rotation that keeps the board valid."""
    lifted = [int(board.piece[r, c]) for r, c in holes]
    best = -1
    trial = board.copy()
    for perm in itertools.permutations(lifted):
        options = [puzzle.valid_rotations(p, r, c) for p, (r, c) in zip(perm, holes, strict=True)]
        for rots in itertools.product(*options):
            for p, k, (r, c) in zip(perm, rots, holes, strict=True):
                trial.piece[r, c], trial.rot[r, c] = p, k
            best = max(best, score(puzzle, trial))
    return best


@pytest.mark.parametrize("noise", [False, True])
def test_move_equals_brute_force_and_reference(noise):
    rng = np.random.default_rng(7)
    for seed in range(12):
        rows, cols = [(3, 3), (3, 4), (4, 4)][seed % 3]
        puzzle, search = _search(rows, cols, 0, seed, tie_noise=noise, holes=4)
        board = search.current_board()
        cells = _random_holes(search.flat, 4, rng)
        holes = [divmod(c, cols) for c in cells]
        search.reassign_cells(cells)
        assert search.state.score == score(puzzle, search.current_board())
        assert rule_violations(puzzle, search.current_board()) == []
        assert search.state.score == _brute_force(puzzle, board, holes)
        assert search.state.score == score(puzzle, reassign(puzzle, board, holes))


def test_move_equals_reference_on_real_puzzle_with_hint():
    puzzle = read_puzzle(INSTANCES / "eternity2.txt")
    rng = np.random.default_rng(3)
    for _ in range(10):
        board = random_board(puzzle, rng)
        search = TabuSearch(puzzle, board, plain_search(holes=40, cost_noise=0.0), rng)
        cells = _random_holes(search.flat, 40, rng)
        search.reassign_cells(cells)
        expected = score(puzzle, reassign(puzzle, board, [divmod(c, 16) for c in cells]))
        assert search.state.score == expected == score(puzzle, search.current_board())


def test_recompute_matches_verifier_and_cell_mismatches():
    from e2opt.core.board import cell_mismatches

    puzzle = read_puzzle(INSTANCES / "clue2_6x12.txt")
    flat = FlatPuzzle.of(puzzle)
    for seed in range(5):
        board = random_board(puzzle, np.random.default_rng(seed))
        piece, rot = flat.flatten(board)
        colour = np.zeros((flat.n, 4), dtype=np.int64)
        mis = np.zeros(flat.n, dtype=np.int64)
        assert kernels.recompute(piece, rot, flat.oriented, flat.nbr, colour, mis) == score(puzzle, board)
        assert np.array_equal(mis.reshape(6, 12), cell_mismatches(puzzle, board))


def test_fits_mask_equals_puzzle_fits():
    puzzle, _ = generate(4, 5, 3, 4, 0, 0)
    flat = FlatPuzzle.of(puzzle)
    for p in range(len(puzzle.pieces)):
        for cell in range(flat.n):
            r, c = divmod(cell, 5)
            for k in range(4):
                assert (flat.greymask[p, k] == flat.rimmask[cell]) == puzzle.fits(p, r, c, k)


def test_rng_is_uniform_and_reproducible():
    a, b = np.array([12345], dtype=np.uint64), np.array([12345], dtype=np.uint64)
    draws = [below(a, 10) for _ in range(20000)]
    assert draws[:50] == [below(b, 10) for _ in range(50)]
    counts = np.bincount(draws, minlength=10)
    assert counts.min() > 1800 and counts.max() < 2200
    assert {between(a, 3, 5) for _ in range(200)} == {3, 4, 5}


def test_diversify_keeps_board_valid_and_hints_in_place():
    puzzle, _ = generate(5, 6, 3, 4, 4, 3)
    flat = FlatPuzzle.of(puzzle)
    board = random_board(puzzle, np.random.default_rng(0))
    piece, rot = flat.flatten(board)
    rng = np.array([99], dtype=np.uint64)
    kernels.diversify(
        50, flat.by_kind, flat.kind_start, flat.cell_kind, piece, rot, flat.rimmask, flat.greymask, rng
    )
    after = flat.board(piece, rot)
    assert rule_violations(puzzle, after) == []
    assert not np.array_equal(after.piece, board.piece)
