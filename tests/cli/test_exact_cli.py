"""``e2opt solve``: count line, boards written and verified, refusals, one-line errors, Ctrl-C."""

from __future__ import annotations

import signal

import pytest
from conftest import SET1, e2opt, e2opt_here, solve_process

from e2opt.cli.main import main
from e2opt.core.verify import verify_files

PUZZLE = SET1 / "set1_03x04.txt"


def test_count_prints_solutions_and_a_complete_final_line():
    out = e2opt_here("solve", PUZZLE, "--count", "--quiet")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "solutions: 32 (16 distinct up to rotation)"
    assert lines[-1].startswith("32 solutions, complete search,") and lines[-1].endswith(" s")


def test_all_writes_every_board_verified_and_refuses_to_overwrite(tmp_path):
    out = e2opt_here("solve", PUZZLE, "--all", "--method", "dfs", "-o", tmp_path / "boards", "--quiet")
    assert out.returncode == 0, out.stderr
    written = sorted((tmp_path / "boards").glob("set1_03x04_*.board"))
    assert len(written) == 32 and (tmp_path / "boards" / "set1_03x04_32.board").exists()
    assert len({p.read_text() for p in written}) == 32
    for path in written:
        report = verify_files(PUZZLE, path)
        assert report.valid and report.score == report.max_score
    again = e2opt_here("solve", PUZZLE, "--all", "-o", tmp_path / "boards")
    assert again.returncode == 2 and again.stderr.startswith("e2opt: error: ") and "overwrite" in again.stderr
    assert len(again.stderr.splitlines()) == 1


def test_one_board_is_printed_and_perfect(tmp_path):
    out = e2opt_here("solve", SET1 / "set1_05x05.txt", "--method", "chessboard", "--quiet")
    assert out.returncode == 0, out.stderr
    board = tmp_path / "one.board"
    board.write_text("\n".join(out.stdout.splitlines()[:6]) + "\n")
    report = verify_files(SET1 / "set1_05x05.txt", board)
    assert report.valid and report.score == 40
    assert "stopped at the first" in out.stdout.splitlines()[-1]


def test_time_limit_reports_an_incomplete_search():
    out = e2opt("solve", SET1 / "set1_08x08.txt", "--count", "--max-cpu-s", "0.5", "--quiet")
    assert out.returncode == 1
    assert out.stdout.splitlines()[-1].startswith("stopped by time limit after ")
    assert "search incomplete" in out.stdout and "complete search" not in out.stdout
    count = out.stdout.splitlines()[0]  # the --count line itself says the count is only a lower bound
    assert count.startswith("solutions: at least ") and count.endswith(", search incomplete")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--method", "magic"], "--method magic"),
        (
            ["--method", "cpsat", "--order", "row"],
            "--method cpsat: not with --order (--order goes with --method domains",
        ),
        (["--order", "zigzag"], "--order zigzag"),
        (["--value-order", "best"], "--value-order best"),
        (["--method", "chessboard", "--order", "mingap"], "chessboard"),
        (["--method", "dfs", "--workers", "2"], "--workers"),
        (["--all", "--method", "scan", "--checkpoint", "c.json"], "--checkpoint"),
    ],
)
def test_bad_arguments_are_one_line_errors(args, words, capsys):
    assert main(["solve", str(PUZZLE), *args]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith("e2opt: error: ") and words in out.err
    assert len(out.err.splitlines()) == 1


def test_a_worker_count_that_is_not_a_number_is_a_one_line_error(capsys):
    with pytest.raises(SystemExit) as stop:  # argparse's own refusal of an option value
        main(["solve", str(PUZZLE), "--method", "scan", "--workers", "many"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("e2opt: error: ") and "--workers" in err
    assert len(err.splitlines()) == 1


def test_missing_puzzle_is_a_one_line_error(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "nope.txt")]) == 2
    assert capsys.readouterr().err.startswith("e2opt: error: ")


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_ctrl_c_or_sigterm_prints_what_was_found_and_exits_128_plus_the_signal(sig):
    proc = solve_process(
        SET1 / "set1_07x07.txt", "--count", "--max-cpu-s", "120", "--progress-every-s", "0.5"
    )
    try:
        assert proc.stderr.readline().startswith("solve: ")  # the search is running (first progress line)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()  # nothing of a failed test keeps running
    assert proc.returncode == 128 + sig, err
    assert out.splitlines()[-1].startswith("interrupted (Ctrl-C, SIGTERM or SIGHUP) after ")
    assert "found so far, search incomplete" in out


@pytest.mark.slow
def test_progress_lines_come_at_the_chosen_cadence_and_a_bad_one_is_one_line():
    """--progress-every-s S: a line at most every S CPU seconds (none in 1.5 s by default; 7x7 is not counted
    in 1.5 s)."""
    done = e2opt(
        "solve", SET1 / "set1_07x07.txt", "--count", "--max-cpu-s", "1.5", "--progress-every-s", "0.25"
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("solve: ")]
    assert done.returncode == 1 and 2 <= len(lines) <= 7, done.stderr  # checked between kernel slices
    bad = e2opt_here("solve", SET1 / "set1_05x05.txt", "--progress-every-s", "0")
    assert (bad.returncode, bad.stderr) == (
        2,
        "e2opt: error: --progress-every-s 0.0: must be a positive number of seconds\n",
    )
