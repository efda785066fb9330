"""solve_region: equal to brute force on tiny windows, never worse than the incumbent, rules and hints kept."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from e2opt.core.board import Board, random_board, rule_violations, score
from e2opt.core.generate import generate
from e2opt.core.puzzle import Puzzle
from e2opt.cpsat.region_model import solve_region

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _region_joins(puzzle: Puzzle, piece: np.ndarray, rot: np.ndarray, cells: set[tuple[int, int]]) -> int:
    """Matched joins with at least one end in ``cells`` and both ends holding a piece (slow reference)."""
    total = 0
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            for s, (dr, dc) in ((1, STEPS[1]), (2, STEPS[2])):
                rr, cc = r + dr, c + dc
                if rr >= puzzle.rows or cc >= puzzle.cols:
                    continue
                if (r, c) not in cells and (rr, cc) not in cells:
                    continue
                if piece[r, c] < 0 or piece[rr, cc] < 0:
                    continue
                a = puzzle.oriented[piece[r, c], rot[r, c], s]
                b = puzzle.oriented[piece[rr, cc], rot[rr, cc], (s + 2) % 4]
                total += int(a == b)
    return total


def _brute_force(puzzle: Puzzle, board: Board, cells: list[tuple[int, int]], pieces: list[int]) -> int:
    """The best region joins over every placement of ``pieces`` (or as many of them) on ``cells``."""
    piece, rot = board.piece.copy(), board.rot.copy()
    region = set(cells)
    best = -1
    for perm in itertools.permutations(pieces, len(cells)):
        options = [puzzle.valid_rotations(p, r, c) for p, (r, c) in zip(perm, cells, strict=True)]
        if any(not o for o in options):
            continue
        for rots in itertools.product(*options):
            for p, k, (r, c) in zip(perm, rots, cells, strict=True):
                piece[r, c], rot[r, c] = p, k
            best = max(best, _region_joins(puzzle, piece, rot, region))
    return best


def _placements(puzzle: Puzzle, cells: list[tuple[int, int]]) -> int:
    """How many placements brute force tries (to keep the tests fast)."""
    kinds = [puzzle.cell_kind(r, c) for r, c in cells]
    inner = kinds.count(2)
    return math.prod(math.factorial(kinds.count(g)) for g in range(3)) * 4**inner


def _windows(puzzle: Puzzle, rng: np.random.Generator, limit: int = 3000) -> list[list[tuple[int, int]]]:
    """Random rectangles avoiding hint cells whose brute force stays small."""
    hinted = puzzle.hint_map()
    out = []
    for _ in range(200):
        h, w = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        r0, c0 = int(rng.integers(0, puzzle.rows - h + 1)), int(rng.integers(0, puzzle.cols - w + 1))
        cells = [(r, c) for r in range(r0, r0 + h) for c in range(c0, c0 + w)]
        if any(cell in hinted for cell in cells) or _placements(puzzle, cells) > limit:
            continue
        out.append(cells)
        if len(out) == 4:
            break
    return out


def _apply(board: Board, cells, sol) -> Board:
    out = board.copy()
    for (r, c), p, k in zip(cells, sol.piece, sol.rot, strict=True):
        out.piece[r, c], out.rot[r, c] = p, k
    return out


@pytest.mark.parametrize("seed", range(6))
def test_repair_equals_brute_force(seed):
    puzzle, _ = generate(5, 5, 2, 3, seed, 1)
    rng = np.random.default_rng(seed)
    board = random_board(puzzle, rng)
    for cells in _windows(puzzle, rng):
        pieces = [int(board.piece[r, c]) for r, c in cells]
        sol = solve_region(puzzle, board, cells, seed=seed)
        assert sol.status == "optimal"
        assert sol.joins == _brute_force(puzzle, board, cells, pieces)
        placed = _apply(board, cells, sol)
        assert rule_violations(puzzle, placed) == []
        assert sorted(sol.piece.tolist()) == sorted(pieces)
        assert sol.joins == _region_joins(puzzle, placed.piece, placed.rot, set(cells))


@pytest.mark.parametrize("seed", range(4))
def test_empty_cells_count_no_join_and_pieces_mode(seed):
    puzzle, _ = generate(5, 5, 2, 3, seed, 0)
    rng = np.random.default_rng(100 + seed)
    full = random_board(puzzle, rng)
    for cells in _windows(puzzle, rng):
        board = full.copy()
        pieces = [int(board.piece[r, c]) for r, c in cells]
        for r, c in cells:
            board.piece[r, c] = -1
        outside = [(r, c) for r in range(5) for c in range(5) if (r, c) not in cells]
        for i in rng.choice(len(outside), size=6, replace=False):
            board.piece[outside[i]] = -1  # empty cells around the region: no join with them
        order = rng.permutation(len(pieces))
        sol = solve_region(puzzle, board, cells, pieces=np.array(pieces)[order], seed=seed)
        assert sol.status == "optimal"
        assert sol.joins == _brute_force(puzzle, board, cells, pieces)


def test_pieces_mode_refills_a_solved_region():
    puzzle, solution = generate(8, 8, 3, 4, 7, 0)
    cells = [(r, c) for r in range(0, 4) for c in range(3, 8)]  # a corner, edges and inner cells
    board = solution.copy()
    pieces = np.random.default_rng(0).permutation([int(board.piece[r, c]) for r, c in cells])
    for r, c in cells:
        board.piece[r, c] = -1
    sol = solve_region(puzzle, board, cells, pieces=pieces, time_limit_s=10)
    placed = _apply(board, cells, sol)
    assert sol.status == "optimal"
    assert rule_violations(puzzle, placed) == []
    assert score(puzzle, placed) == puzzle.max_score


@pytest.mark.parametrize("seed", range(4))
def test_repair_never_worse_than_the_incumbent(seed):
    puzzle, _ = generate(10, 10, 3, 6, seed, 3)
    rng = np.random.default_rng(seed)
    board = random_board(puzzle, rng)
    hinted = puzzle.hint_map()
    for _ in range(6):
        size = int(rng.integers(3, 6))
        r0, c0 = (int(v) for v in rng.integers(0, 10 - size + 1, 2))
        cells = [(r, c) for r in range(r0, r0 + size) for c in range(c0, c0 + size) if (r, c) not in hinted]
        before = _region_joins(puzzle, board.piece, board.rot, set(cells))
        for limit in (0.002, 0.2):
            sol = solve_region(puzzle, board, cells, time_limit_s=limit, seed=seed)
            placed = _apply(board, cells, sol)
            assert rule_violations(puzzle, placed) == []
            assert sol.joins >= before
            assert score(puzzle, placed) - score(puzzle, board) == sol.joins - before
        board = placed


def test_hints_are_refused():
    puzzle, solution = generate(5, 5, 2, 3, 1, 2)
    h = puzzle.hints[0]
    with pytest.raises(ValueError, match="hint cell"):
        solve_region(puzzle, solution, [(h.row, h.col)])
    other = next((r, c) for r in range(1, 4) for c in range(1, 4) if (r, c) not in puzzle.hint_map())
    board = solution.copy()
    board.piece[other] = -1
    with pytest.raises(ValueError, match="hinted piece"):
        solve_region(puzzle, board, [other], pieces=np.array([h.piece]))
    with pytest.raises(ValueError, match="listed twice"):
        solve_region(puzzle, solution, [other, other])


def test_wrong_kinds_are_infeasible_and_flat_cells_accepted():
    puzzle, solution = generate(5, 5, 2, 3, 3, 0)
    board = solution.copy()
    corner = int(board.piece[0, 0])
    board.piece[2, 2] = -1
    sol = solve_region(puzzle, board, np.array([2 * 5 + 2]), pieces=np.array([corner]))
    assert sol.status == "infeasible" and sol.joins == -1 and sol.piece.tolist() == [-1]
    sol = solve_region(puzzle, solution, np.array([0, 1, 5, 6]))
    assert sol.joins == _region_joins(puzzle, solution.piece, solution.rot, {(0, 0), (0, 1), (1, 0), (1, 1)})


def _emptied(seed: int, size: tuple[int, int], origin: tuple[int, int]):
    """A solved 6x6 puzzle with an inner window emptied and a few spare inner pieces lifted elsewhere."""
    puzzle, solution = generate(6, 6, 3, 4, seed, 0)
    board = solution.copy()
    cells = [(origin[0] + r, origin[1] + c) for r in range(size[0]) for c in range(size[1])]
    spare = [(4, 4), (4, 3)] if origin[0] < 3 else [(1, 1), (1, 2)]
    pieces = [int(board.piece[cell]) for cell in cells + spare]
    for cell in cells + spare:
        board.piece[cell] = -1
    return puzzle, board, cells, pieces


@pytest.mark.parametrize("seed", range(6))
def test_more_pieces_than_cells_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    puzzle, board, cells, pieces = _emptied(seed, (1, 2), (int(rng.integers(1, 3)), int(rng.integers(1, 3))))
    sol = solve_region(puzzle, board, cells, pieces=np.array(pieces)[rng.permutation(len(pieces))], seed=seed)
    assert sol.status == "optimal"
    assert sol.joins == _brute_force(puzzle, board, cells, pieces)
    assert len(set(sol.piece.tolist())) == len(cells) and set(sol.piece.tolist()) <= set(pieces)
    placed = _apply(board, cells, sol)
    assert sol.joins == _region_joins(puzzle, placed.piece, placed.rot, set(cells))


@pytest.mark.parametrize("seed", range(4))
def test_excluded_placements_are_not_returned(seed):
    puzzle, board, cells, pieces = _emptied(seed, (1, 2), (1, 1))
    seen = []
    for _ in range(3):
        sol = solve_region(puzzle, board, cells, pieces=np.array(pieces), seed=seed, exclude=seen)
        assert sol.status == "optimal"
        got = (sol.piece.tolist(), sol.rot.tolist())
        assert got not in [(p.tolist(), r.tolist()) for p, r in seen]
        seen.append((sol.piece, sol.rot))
    # a placement the model cannot make (a piece not offered) cuts nothing
    first = solve_region(puzzle, board, cells, pieces=np.array(pieces), seed=seed)
    absent = next(p for p in range(len(puzzle.pieces)) if p not in pieces)
    impossible = (np.array([first.piece[0], absent]), first.rot)
    other = solve_region(puzzle, board, cells, pieces=np.array(pieces), seed=seed, exclude=[impossible])
    assert other.joins == first.joins
    with pytest.raises(ValueError, match="excluded placement"):
        solve_region(puzzle, board, cells, pieces=np.array(pieces), exclude=[(np.array([1]), np.zeros(1))])


@pytest.mark.parametrize("seed", range(4))
def test_min_joins_bounds_the_result(seed):
    puzzle, board, cells, pieces = _emptied(seed, (2, 2), (1, 1))
    best = solve_region(puzzle, board, cells, pieces=np.array(pieces), seed=seed)
    assert best.status == "optimal"
    assert (
        solve_region(puzzle, board, cells, pieces=np.array(pieces), min_joins=best.joins).joins == best.joins
    )
    too_many = solve_region(puzzle, board, cells, pieces=np.array(pieces), min_joins=best.joins + 1)
    assert too_many.status == "infeasible" and too_many.joins == -1


def test_a_stop_request_ends_the_solve_early():
    puzzle, _ = generate(12, 12, 4, 8, 5, 0)
    board = random_board(puzzle, np.random.default_rng(0))
    cells = [(r, c) for r in range(1, 11) for c in range(1, 11)]
    sol = solve_region(puzzle, board, cells, time_limit_s=60, stop_requested=lambda: True, hint=False)
    assert sol.seconds < 10
    assert sol.status in ("unknown", "feasible")
    assert rule_violations(puzzle, _apply(board, cells, sol)) == []


@pytest.mark.parametrize("seed", range(3))
def test_warm_start_is_a_lower_bound_and_the_fallback(seed):
    puzzle, board, cells, pieces = _emptied(seed, (1, 2), (1, 1))
    rng = np.random.default_rng(seed)
    start_piece = rng.permutation(pieces)[: len(cells)]  # inner pieces, any turn fits an inner cell
    start = (start_piece, rng.integers(0, 4, len(cells)))
    before = _region_joins(puzzle, *_set(board, cells, *start), set(cells))
    late = solve_region(puzzle, board, cells, pieces=np.array(pieces), warm_start=start, time_limit_s=1e-9)
    assert late.status == "unknown" and late.joins == before
    assert late.piece.tolist() == start[0].tolist() and late.rot.tolist() == start[1].tolist()
    best = solve_region(puzzle, board, cells, pieces=np.array(pieces), warm_start=start, seed=seed)
    assert best.status == "optimal" and best.joins == _brute_force(puzzle, board, cells, pieces) >= before
    with pytest.raises(ValueError, match="not offered"):
        solve_region(
            puzzle, board, cells, pieces=np.array(pieces[1:]), warm_start=(np.array(pieces[:4]), start[1])
        )


def _set(board: Board, cells, piece, rot) -> tuple[np.ndarray, np.ndarray]:
    """Piece and rotation arrays of the board with ``cells`` set to the given placement."""
    out = board.copy()
    for (r, c), p, k in zip(cells, piece, rot, strict=True):
        out.piece[r, c], out.rot[r, c] = p, k
    return out.piece, out.rot
