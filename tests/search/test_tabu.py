"""TabuSearch: tabu rules, check mode over long runs, reproducibility and exact resume from a SearchState."""

from __future__ import annotations

import io

import numpy as np
import pytest
from helpers import plain_search

from e2opt.core.board import Board, random_board, rule_violations, score
from e2opt.core.errors import BoardError
from e2opt.core.generate import generate
from e2opt.core.puzzle import Puzzle
from e2opt.search.state import SearchState
from e2opt.search.stop import AnyOf, Clock, MaxIntensifications, MaxIterations, TargetScore
from e2opt.search.tabu import TabuSearch


def _search(seed: int = 0, rows: int = 6, cols: int = 6, hints: int = 2, **cfg) -> tuple[Puzzle, TabuSearch]:
    """A search on a generated puzzle; the move is the plain optimal one unless cost_noise is given."""
    cfg.setdefault("cost_noise", 0.0)
    puzzle, _ = generate(rows, cols, 3, 4, seed, hints)
    rng = np.random.default_rng(seed)
    return puzzle, TabuSearch(puzzle, random_board(puzzle, rng), plain_search(**cfg), rng)


@pytest.mark.parametrize("select", ["random", "biased", "checkerboard"])
def test_tabu_cells_are_never_holes(select):
    far = 10**9  # extra cells made tabu by hand; any change of their mark means one was lifted
    for seed in range(5):
        _, search = _search(seed, select=select, holes=(3, 8), tabu_cells=(1, 4))
        st, flat = search.state, search.flat
        rng = np.random.default_rng(seed)
        for _ in range(60):
            extra = rng.random(flat.n) < 0.2
            st.tabu_cells[extra] = far
            before, it = st.tabu_cells.copy(), st.iteration
            tabu = set(np.flatnonzero(before > it))
            search.move()
            holes = set(np.flatnonzero(st.tabu_cells != before))
            assert holes, "every move lifts at least one cell"
            assert not tabu & holes
            for c in holes:
                assert flat.movable[c]
                assert 1 <= st.tabu_cells[c] - (it + 1) <= 4
                assert not set(flat.nbr[c]) & holes
            st.tabu_cells[extra] = 0


def _twin_puzzle(n: int) -> Puzzle:
    """n x n whose inner pieces are all alike (colour 3 all round): moving them never changes the score."""
    rng = np.random.default_rng(5)
    h = np.full((n, n - 1), 3)
    v = np.full((n - 1, n), 3)
    h[0], h[-1], v[:, 0], v[:, -1] = rng.integers(1, 3, (4, n - 1))  # frame joins
    pieces = []
    for r in range(n):
        for c in range(n):
            top = v[r - 1, c] if r > 0 else 0
            right = h[r, c] if c < n - 1 else 0
            bottom = v[r, c] if r < n - 1 else 0
            left = h[r, c - 1] if c > 0 else 0
            pieces.append((top, right, bottom, left))
    return Puzzle(n, n, np.array(pieces))


@pytest.mark.parametrize("penalty", [0.0, 1.0])
def test_penalised_reverse_arc_is_not_taken_when_an_equal_alternative_exists(penalty):
    puzzle = _twin_puzzle(5)
    board = Board(np.arange(25).reshape(5, 5), np.zeros((5, 5), dtype=np.int64))
    assert score(puzzle, board) == puzzle.max_score
    holes = [6, 8, 12, 16, 18]  # (1,1) (1,3) (2,2) (3,1) (3,3): inner, pairwise diagonal or apart
    used_penalised = used_free = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        cfg = plain_search(reverse_penalty=penalty, tie_noise=True, cost_noise=0.0, holes=5)
        search = TabuSearch(puzzle, board, cfg, rng)
        st = search.state
        penalised = {(x, y) for x in holes for y in holes if x != y and rng.random() < 0.5}
        for x, y in penalised:
            st.tabu_arcs[y, x] = 10  # moving the piece at x to y is penalised until iteration 10
        search.reassign_cells(holes)
        assert st.score == puzzle.max_score
        arcs = {(int(st.piece[y]), y) for y in holes if st.piece[y] != y}  # piece p started on cell p
        used_penalised += len(arcs & penalised)
        used_free += len(arcs - penalised)
    assert used_free > 0
    if penalty > 0:
        assert used_penalised == 0
    else:
        assert used_penalised > 0  # without the penalty, tie noise takes penalised arcs as often as others


def test_moved_pieces_set_reverse_arcs_and_hole_tenures():
    _, search = _search(3, holes=6, tabu_arcs=(7, 9), tabu_cells=(2, 2))
    st = search.state
    for _ in range(30):
        before, it = st.piece.copy(), st.iteration
        search.move()
        moved_to = np.flatnonzero(before != st.piece)
        for dest in moved_to:
            origin = int(np.flatnonzero(before == st.piece[dest])[0])
            assert 8 <= st.tabu_arcs[origin, dest] - it <= 10  # dest -> origin penalised
        holes = np.flatnonzero(st.tabu_cells == it + 3)
        assert set(moved_to) <= set(holes)


def test_incremental_score_survives_long_runs_with_diversify_and_intensify():
    for seed, select in [(0, "biased"), (1, "checkerboard"), (2, "random")]:
        puzzle, search = _search(
            seed, 7, 6, 3, select=select, check=True, plateau=15, intensify_after=3, diversify_swaps=6
        )
        result = search.run(MaxIterations(1500), Clock())
        assert result.iterations == 1500
        assert result.diversifications > 0 and result.intensifications > 0
        assert search.state.score == score(puzzle, search.current_board())
        assert result.best_score == score(puzzle, result.best_board)
        assert rule_violations(puzzle, result.best_board) == []


def test_check_mode_fails_loudly_on_a_wrong_score():
    _, search = _search(4, check=True)
    search.state.score += 1
    with pytest.raises(AssertionError, match="check failed"):
        search.run(MaxIterations(5), Clock())


def _run(seed: int, iterations: int, **cfg) -> TabuSearch:
    _, search = _search(seed, 8, 8, 3, **cfg)
    search.run(MaxIterations(iterations), Clock())
    return search


def test_same_seed_and_iteration_stop_give_the_same_best_board():
    cfg = {"plateau": 40, "intensify_after": 2}
    a, b, other = _run(11, 800, **cfg), _run(11, 800, **cfg), _run(12, 800, **cfg)
    assert a.best_board() == b.best_board() and a.state.best_score == b.state.best_score
    assert a.current_board() == b.current_board()
    assert a.state.iteration == b.state.iteration == 800
    assert other.current_board() != a.current_board()


def _npz_round_trip(data: dict) -> dict:
    buffer = io.BytesIO()
    np.savez(buffer, **{k: np.asarray(v) for k, v in data.items()})
    buffer.seek(0)
    with np.load(buffer) as loaded:
        return {k: loaded[k] for k in loaded.files}


@pytest.mark.parametrize("select", ["biased", "checkerboard"])
def test_resume_from_state_is_bit_identical(select):
    cfg = plain_search(select=select, holes=(4, 9), plateau=30, intensify_after=2)
    puzzle, _ = generate(8, 8, 3, 4, 21, 3)
    board = random_board(puzzle, np.random.default_rng(21))
    whole = TabuSearch(puzzle, board, cfg, np.random.default_rng(5))
    whole.run(MaxIterations(900), Clock())
    first = TabuSearch(puzzle, board, cfg, np.random.default_rng(5))
    first.run(MaxIterations(377), Clock())
    state = SearchState.from_dict(_npz_round_trip(first.state.to_dict()))
    second = TabuSearch.from_state(puzzle, cfg, state)
    result = second.run(MaxIterations(900), Clock())
    assert result.iterations == 900
    assert second.best_board() == whole.best_board() and second.current_board() == whole.current_board()
    a, b = whole.state.to_dict(), second.state.to_dict()
    for key in a:
        if key.startswith("time_to_best") or key == "extra_move_cpu":  # measured times, not replayed
            continue
        assert np.array_equal(a[key], b[key]), key


def test_state_from_dict_names_missing_keys_and_rejects_a_wrong_score():
    _, search = _search(1)
    data = search.state.to_dict()
    del data["tabu_arcs"]
    with pytest.raises(ValueError, match="tabu_arcs"):
        SearchState.from_dict(data)
    state = SearchState.from_dict(search.state.to_dict())
    state.score += 2
    with pytest.raises(ValueError, match="does not match"):
        TabuSearch.from_state(search.puzzle, search.cfg, state)


def test_run_events_and_stop_reasons():
    events: list[tuple[str, dict]] = []
    puzzle, search = _search(2, plateau=10, intensify_after=2)
    stop = AnyOf(TargetScore(puzzle.max_score), MaxIntensifications(2))
    result = search.run(stop, Clock(), lambda kind, info: events.append((kind, info)))
    kinds = [k for k, _ in events]
    assert result.stop_reason in ("max_intensifications (2)", f"target_score ({puzzle.max_score})")
    assert kinds[-1] == "end" and kinds[0] == "tick" and "best" in kinds
    bests = [info["score"] for kind, info in events if kind == "best"]
    assert bests == sorted(bests) and bests[-1] == result.best_score
    if result.stop_reason.startswith("max_intensifications"):
        assert kinds.count("intensify") == 2 == result.intensifications


def test_initial_board_breaking_the_rules_is_refused():
    puzzle, solution = generate(4, 4, 3, 4, 0, 0)
    bad = solution.copy()
    bad.rot[0, 0] = (bad.rot[0, 0] + 1) % 4
    with pytest.raises(BoardError, match="initial board"):
        TabuSearch(puzzle, bad, plain_search(), np.random.default_rng(0))


def test_adopt_best_takes_the_given_board():
    puzzle, solution = generate(5, 5, 3, 4, 2, 0)
    search = TabuSearch(
        puzzle, random_board(puzzle, np.random.default_rng(0)), plain_search(), np.random.default_rng(0)
    )
    search.adopt_best(solution, puzzle.max_score)
    assert search.best_board() == solution and search.state.best_score == puzzle.max_score


def test_cost_noise_lets_moves_give_up_joins_and_the_incremental_score_stays_exact():
    drops = {}
    for noise in (0.0, 3.0):
        _, search = _search(4, rows=7, cols=7, holes=(3, 8), cost_noise=noise, check=True)
        drops[noise] = 0
        for _ in range(300):
            before = search.state.score
            search.move()
            search.check()
            drops[noise] += search.state.score < before
    assert drops[0.0] == 0 and drops[3.0] > 10
