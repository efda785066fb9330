"""The clique side's commands and move: export-clique (refuses to overwrite, one-line errors), solve --method
clique (a verified board), the exact oracle against enumeration, and the clique move under tabu acceptance."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from helpers import plain_search

from e2opt.cli.main import main
from e2opt.clique.dimacs import read_dimacs
from e2opt.clique.exact import max_clique
from e2opt.config.schema import build
from e2opt.core.board import parse_board, random_board, rule_violations, score
from e2opt.core.errors import ConfigError
from e2opt.core.generate import generate
from e2opt.core.verify import verify_files
from e2opt.search.config import SearchConfig
from e2opt.search.moves import MovesConfig
from e2opt.search.moves.clique import CliqueMoveConfig
from e2opt.search.stop import Clock, MaxIterations
from e2opt.search.tabu import TabuSearch
from tests.conftest import SET1, TINY_BOARD, TINY_PUZZLE


def _one_line_error(capsys, words: str) -> None:
    err = capsys.readouterr().err
    assert err.startswith("e2opt: error: ") and words in err and len(err.splitlines()) == 1


def test_export_clique_writes_the_graph_and_refuses_to_overwrite(tmp_path, capsys):
    out = tmp_path / "g.clq"
    assert main(["export-clique", str(SET1 / "set1_04x04.txt"), "-o", str(out)]) == 0
    assert "138 nodes" in capsys.readouterr().out
    first = out.read_bytes()
    assert main(["export-clique", str(SET1 / "set1_04x04.txt"), "-o", str(out)]) == 2
    _one_line_error(capsys, "--force")
    assert (
        main(["export-clique", str(SET1 / "set1_04x04.txt"), "-o", str(out), "--force", "--no-symmetry"]) == 0
    )
    assert (
        out.read_bytes() != first and read_dimacs(out)[0] == 4 * 4 + 8 * 8 + 4 * 4 * 4
    )  # corners, edges, inner x 4 turns


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--window", "0", "0", "2", "2"], "--board and --window go together"),
        (["--board", "B", "--window", "2", "2", "2", "2"], "--window 2 2 2 2"),
        (["--board", "B", "--window", "0", "0", "2", "2", "--no-symmetry"], "--no-symmetry"),
    ],
)
def test_export_clique_bad_arguments_are_one_line_errors(tmp_path, capsys, args, words):
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    (tmp_path / "B").write_text(TINY_BOARD)
    args = [str(tmp_path / "B") if a == "B" else a for a in args]
    assert main(["export-clique", str(tmp_path / "p.txt"), *args, "-o", str(tmp_path / "g.clq")]) == 2
    _one_line_error(capsys, words)
    assert not (tmp_path / "g.clq").exists()


def test_export_clique_of_a_window_and_a_board_that_breaks_the_rules(tmp_path, capsys):
    (tmp_path / "p.txt").write_text(TINY_PUZZLE)
    (tmp_path / "b.board").write_text(TINY_BOARD)
    args = ["export-clique", str(tmp_path / "p.txt"), "--board", str(tmp_path / "b.board"), "--window"]
    assert main([*args, "0", "0", "2", "3", "-o", str(tmp_path / "w.clq")]) == 0
    assert "a perfect clique has 6 nodes" in capsys.readouterr().out
    bad = TINY_BOARD.replace("5:3 3:1", "3:1 5:3")
    (tmp_path / "bad.board").write_text(bad)
    args[3] = str(tmp_path / "bad.board")
    assert main([*args, "0", "0", "2", "3", "-o", str(tmp_path / "x.clq")]) == 2
    _one_line_error(capsys, "not a valid placement")


def test_solve_method_clique_prints_a_verified_best_board(tmp_path, capsys):
    puzzle = SET1 / "set1_05x05.txt"
    assert (
        main(["solve", str(puzzle), "--method", "clique", "--seed", "3", "--quiet", "-o", str(tmp_path)]) == 0
    )
    assert "best board 40/40 (perfect board)" in capsys.readouterr().out
    report = verify_files(puzzle, tmp_path / "set1_05x05_1.board")
    assert report.valid and report.score == 40


def test_solve_method_clique_without_a_perfect_clique_fills_the_holes(tmp_path, capsys):
    puzzle, _ = generate(5, 5, 3, 3, 2, recolour=4)
    path = tmp_path / "p.txt"
    from e2opt.core.puzzle import write_puzzle

    write_puzzle(puzzle, path)
    assert main(["solve", str(path), "--method", "clique", "--selections", "2e4", "--quiet"]) == 0
    text = capsys.readouterr().out
    board = parse_board(text.split("\n\n")[0])
    assert f"best board {score(puzzle, board)}/40" in text and "clique " in text


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--method", "clique", "--count"], "not with --count"),
        (["--method", "clique", "--selections", "0"], "--selections 0"),
        (["--method", "clique", "--max-cpu-s", "0"], "--max-cpu-s 0.0"),
        (["--selections", "100"], "--selections goes with --method clique"),
    ],
)
def test_solve_clique_bad_arguments_are_one_line_errors(args, words, capsys):
    assert main(["solve", str(SET1 / "set1_03x03.txt"), *args]) == 2
    _one_line_error(capsys, words)


def test_the_exact_oracle_equals_enumeration_on_tiny_graphs():
    rng = np.random.default_rng(5)
    for n in (1, 5, 9, 12, 13):
        adj = np.zeros((n, 1), dtype=np.uint64)
        pairs = [(i, j) for i, j in combinations(range(n), 2) if rng.random() < 0.55]
        for i, j in pairs:
            adj[i, 0] |= np.uint64(1 << j)
            adj[j, 0] |= np.uint64(1 << i)
        joined = set(pairs)
        best = max(
            (
                k
                for k in range(1, n + 1)
                for sub in combinations(range(n), k)
                if all(p in joined for p in combinations(sub, 2))
            ),
            default=0,
        )
        found = max_clique(adj)
        assert len(found) == best and all(p in joined for p in combinations(found, 2))


def _clique_search(seed: int, **settings) -> TabuSearch:
    puzzle, _ = generate(7, 7, 3, 4, seed, hints=1)
    rng = np.random.default_rng(seed)
    moves = MovesConfig(
        assignment=None, clique=CliqueMoveConfig(width=4, height=3, selections=3000, **settings)
    )
    return TabuSearch(puzzle, random_board(puzzle, rng), plain_search(moves=moves, cost_noise=0.0), rng)


def test_a_clique_that_would_lose_joins_is_put_back():
    """On a perfect board, 5 selections leave holes the region model cannot always fill perfectly."""
    puzzle, solution = generate(7, 7, 3, 4, 9)
    moves = MovesConfig(assignment=None, clique=CliqueMoveConfig(width=5, height=5, selections=5))
    search = TabuSearch(puzzle, solution.copy(), plain_search(moves=moves), np.random.default_rng(9))
    move = search.moves[0]
    for _ in range(10):
        assert move() == 0
        search.check()
    assert move.undone > 0 and search.current_board() == solution
    assert (
        move.placed > 0
    )  # (tests/search/test_moves.py checks, with the other moves, that it never lowers the score)


def test_the_clique_move_in_the_tabu_loop_with_check_mode():
    """check=True: the loop recomputes board, colours and score after every move and raises on a difference."""
    first = _clique_search(4)
    search = TabuSearch(
        first.puzzle,
        first.current_board(),
        plain_search(moves=first.cfg.moves, check=True, cost_noise=0.0),
        np.random.default_rng(4),
    )
    start = search.state.score
    search.run(MaxIterations(15), Clock())
    assert search.state.score >= start and search.state.best_score >= start
    assert rule_violations(search.puzzle, search.current_board()) == []


def test_clique_move_settings_are_checked():
    with pytest.raises(ConfigError, match=r"search\.moves\.clique\.width"):
        build(SearchConfig, {"moves": {"clique": {"width": 1}}}, "x.yaml", "search")
    with pytest.raises(ConfigError, match=r"search\.moves\.clique\.selections"):
        build(SearchConfig, {"moves": {"clique": {"selections": 0}}}, "x.yaml", "search")
