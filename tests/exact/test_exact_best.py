"""``e2opt solve --best``: the maximum score, proved, against brute force; the known score as a bound."""

from __future__ import annotations

import signal

import numpy as np
import pytest
from conftest import SET1, e2opt, e2opt_here, solve_process

from e2opt.core.board import Board, random_board, score, write_board
from e2opt.core.formats.read import read_puzzle
from e2opt.core.generate import generate
from e2opt.core.puzzle import Puzzle, write_puzzle
from e2opt.core.verify import verify_files
from e2opt.exact.optimum import best_board

RIM = ((-1, 0), (0, 1), (1, 0), (0, -1))  # the neighbour of sides t, r, b, l


def broken(seed: int, rows: int = 3, cols: int = 3) -> Puzzle:
    """A generated puzzle with one inner side recoloured: its planted board loses a join."""
    return generate(rows, cols, 2, 3, seed, recolour=1)[0]


def brute_force_best(puzzle: Puzzle) -> int:
    """The best score over every board whose pieces show grey exactly toward the rim (slow, obvious)."""
    cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
    options = []
    for r, c in cells:
        rim = [not (0 <= r + dr < puzzle.rows and 0 <= c + dc < puzzle.cols) for dr, dc in RIM]
        options.append(
            [
                (p, rot)
                for p in range(len(puzzle.pieces))
                for rot in range(4)
                if all((puzzle.oriented[p, rot, s] == 0) == rim[s] for s in range(4))
            ]
        )
    best, piece, rot = (
        -1,
        np.zeros((puzzle.rows, puzzle.cols), int),
        np.zeros((puzzle.rows, puzzle.cols), int),
    )

    def place(i: int, used: set[int]) -> None:
        nonlocal best
        if i == len(cells):
            best = max(best, score(puzzle, Board(piece.copy(), rot.copy())))
            return
        for p, r in options[i]:
            if p not in used:
                piece[cells[i]], rot[cells[i]] = p, r
                place(i + 1, used | {p})

    place(0, set())
    return best


@pytest.mark.parametrize("seed", range(6))
def test_the_best_score_is_the_brute_force_maximum_and_proved(seed):
    puzzle = broken(seed)
    result = best_board(puzzle, progress=None)
    assert result.complete and result.upper == result.score == brute_force_best(puzzle)
    assert score(puzzle, result.board) == result.score


def test_a_puzzle_with_a_perfect_board_gets_the_full_score():
    puzzle = read_puzzle(SET1 / "set1_04x04.txt")
    result = best_board(puzzle, progress=None)
    assert result.complete and result.score == puzzle.max_score == score(puzzle, result.board)


def test_the_known_score_bounds_the_search_both_ways():
    puzzle = broken(1, 4, 4)
    optimum = best_board(puzzle, progress=None).score
    assert optimum < puzzle.max_score  # the recoloured side costs the planted board a join
    at = best_board(puzzle, known_score=optimum, progress=None)  # nothing beats it: proved, no board
    assert at.complete and at.board is None and at.upper == optimum
    assert at.summary().startswith(
        f"no board scores more than {optimum}/{puzzle.max_score} (complete search)"
    )
    below = best_board(puzzle, known_score=optimum - 2, progress=None)
    assert below.complete and below.score == optimum
    turned_off = best_board(puzzle, symmetry=False, progress=None)
    assert turned_off.complete and turned_off.score == optimum


def test_a_known_board_is_kept_when_nothing_beats_it_and_beaten_otherwise():
    puzzle = broken(2, 4, 4)
    optimum = best_board(puzzle, progress=None).board
    kept = best_board(puzzle, known_board=optimum, progress=None)
    assert (
        kept.complete
        and kept.board is optimum
        and kept.summary().startswith(f"best {kept.score}/{puzzle.max_score}, optimal")
    )
    start = random_board(puzzle, np.random.default_rng(0))
    beaten = best_board(puzzle, known_board=start, progress=None)
    assert beaten.complete and beaten.score == kept.score > score(puzzle, start)


def test_cli_writes_the_best_board_verified_and_says_it_is_optimal(tmp_path):
    puzzle = broken(3)
    path = tmp_path / "p.txt"
    args = ["--rows", "3", "--cols", "3", "--frame-colours", "2", "--inner-colours", "3", "--seed", "3"]
    made = e2opt_here("generate", *args, "--recolour", "1", "-o", path)
    assert made.returncode == 0 and np.array_equal(read_puzzle(path).pieces, puzzle.pieces)
    out = e2opt_here("solve", path, "--best", "--quiet", "-o", tmp_path / "best")
    assert out.returncode == 0, out.stderr
    best = brute_force_best(puzzle)
    assert out.stdout.splitlines()[-1].startswith(f"best {best}/{puzzle.max_score}, optimal")
    report = verify_files(path, tmp_path / "best" / "p_1.board")
    assert report.valid and report.score == best
    write_board(random_board(puzzle, np.random.default_rng(1)), tmp_path / "start.board")
    again = e2opt_here("solve", path, "--best", "--quiet", "--from", tmp_path / "start.board")
    assert again.returncode == 0 and again.stdout.splitlines()[-1].startswith(f"best {best}/")


@pytest.mark.slow
def test_cli_time_limit_says_incomplete_with_the_bound():
    out = e2opt("solve", SET1 / "set1_08x08.txt", "--best", "--max-cpu-s", "0.5", "--quiet")
    assert out.returncode == 1, out.stderr
    last = out.stdout.splitlines()[-1]
    assert last.startswith("stopped by time limit after ") and last.endswith("search incomplete")
    assert "no board scores more than " in last


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bound", "3"], "not with --bound (--bound goes with --method best)"),
        (["--best", "--count"], "--best runs its own search (scan, then CP-SAT): not with --count"),
        (["--best", "--method", "scan"], "not with --method scan"),
        (["--best", "--bound", "99"], "--bound 99: a score from 0 to 17"),
        (["--best", "--bound", "3", "--from", "x.board"], "give one"),
        (["--best", "--from", "missing.board"], "missing.board"),
    ],
)
def test_bad_best_arguments_are_one_line_errors(args, message):
    out = e2opt_here("solve", SET1 / "set1_03x04.txt", *args, "--quiet")
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_a_search_stopped_before_any_board_claims_no_bound_below_the_maximum():
    """CP-SAT's objective bound reads 0 before its first solution: it must not become a claim."""
    puzzle = read_puzzle(SET1 / "set1_08x08.txt")
    for known in (None, 100):
        result = best_board(puzzle, known_score=known, time_limit_s=0.05, progress=None)
        assert not result.complete and result.stopped == "time limit"
        assert result.upper == puzzle.max_score or result.score is not None  # a bound only with a board
        assert result.upper >= max(result.score or 0, known or 0)


def test_a_from_board_that_breaks_the_rules_is_a_one_line_error(tmp_path):
    puzzle = read_puzzle(SET1 / "set1_04x04.txt")
    start = random_board(puzzle, np.random.default_rng(0))
    write_board(Board(start.piece, (start.rot + 1) % 4), tmp_path / "turned.board")  # grey away from the rim
    out = e2opt_here("solve", SET1 / "set1_04x04.txt", "--best", "--from", tmp_path / "turned.board")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert (
        f"--from {tmp_path / 'turned.board'}: the board is not a valid placement (24 broken rule(s)"
        in out.stderr
    )


@pytest.mark.slow
@pytest.mark.parametrize("phase, sig", [("dfs", signal.SIGINT), ("cpsat", signal.SIGTERM)])
def test_best_stopped_by_ctrl_c_or_sigterm_exits_128_plus_n_with_what_it_found(tmp_path, phase, sig):
    """In the perfect-board DFS (8x8: not decided for a minute) or in CP-SAT (a recoloured 6x6: the DFS
    proves no perfect board in about 2 s, CP-SAT then needs about 15 s)."""
    path = SET1 / "set1_08x08.txt"
    if phase == "cpsat":
        path = tmp_path / "r.txt"
        write_puzzle(generate(6, 6, 3, 5, 1, recolour=2)[0], path)
    proc = solve_process(path, "--best", "--max-cpu-s", "120", "--progress-every-s", "0.5")
    try:
        line = proc.stderr.readline()
        while phase == "cpsat" and " best " not in line:  # CP-SAT's lines say "best 56/60 so far"
            line = proc.stderr.readline()
        assert line.startswith("solve: ")
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 128 + sig, err  # the README's convention: 130 for Ctrl-C, 143 for SIGTERM
    last = out.splitlines()[-1]
    assert last.startswith("interrupted (Ctrl-C, SIGTERM or SIGHUP) after ") and last.endswith(
        "search incomplete"
    )
    assert " found, no board scores more than " in last and "Traceback" not in err
    if phase == "cpsat":
        assert "best " in last and "no board scores more than 59/60" in last  # the DFS's proof is kept


def test_the_dfs_settles_the_perfect_score_before_cp_sat():
    puzzle = broken(1, 4, 4)  # its optimum, 23/24, is found above both ways
    proved = best_board(puzzle, known_score=puzzle.max_score - 1, progress=None)
    assert proved.complete and proved.upper == 23 and proved.branches == 0 and proved.dfs_nodes > 0
    perfect = read_puzzle(SET1 / "set1_04x04.txt")
    found = best_board(perfect, progress=None)
    assert found.complete and found.score == perfect.max_score and found.branches == 0 and found.dfs_nodes > 0
