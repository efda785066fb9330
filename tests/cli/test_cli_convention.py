"""One command-line convention (issue 34): budgets spelled alike, --debug anywhere, one exit-code table for
every command, and each message a user met fixed to one line naming the file, line or cell."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import INSTANCES, ROOT, TINY_BOARD, TINY_PUZZLE, e2opt, e2opt_here
from helpers import EVENTS, make_run

from e2opt.cli import exits
from e2opt.cli.command import budget_overrides
from e2opt.cli.main import build_parser, main
from e2opt.core.errors import E2optError
from e2opt.engine.envfail import RunWriteFailed

E2 = INSTANCES / "eternity2.txt"
E2_BOARD = INSTANCES / "boards" / "eternity2_468_Joshua_Blackwood_468.board"


def one_line(proc: subprocess.CompletedProcess) -> str:
    """The single stderr line of a command, no traceback."""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


# --- the options ---


def test_an_unknown_option_is_named_with_its_subcommand(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["run", "c.yaml", "--bogus"])
    assert stop.value.code == 2
    assert (
        capsys.readouterr().err
        == "e2opt: error: run: unrecognized arguments: --bogus (see e2opt run --help)\n"
    )
    with pytest.raises(SystemExit) as stop:
        main(["bench", "throughput", "--bogus", "1"])
    assert stop.value.code == 2 and capsys.readouterr().err == (
        "e2opt: error: bench throughput: unrecognized arguments: --bogus 1 (see e2opt bench throughput --help)\n"
    )


@pytest.mark.parametrize("where", ["before", "after"])
def test_debug_works_before_or_after_the_subcommand(tmp_path, where):
    missing = tmp_path / "missing.txt"
    args = ["--debug", "info", missing] if where == "before" else ["info", missing, "--debug"]
    proc = e2opt(*args)
    assert proc.returncode == 2
    assert (
        "Traceback" in proc.stderr
        and proc.stderr.splitlines()[-1] == f"e2opt: error: {missing}: no such file"
    )


@pytest.mark.parametrize(
    ("args", "wall", "cpu"),
    [
        (["run", "c.yaml", "--max-wall-s", "40", "--max-cpu-s", "60"], 40.0, 60.0),
        (["run", "c.yaml", "--max-wall-s", "40"], 40.0, None),
        (["resume", "D", "--max-wall-s", "40", "--max-cpu-s", "60"], 40.0, 60.0),
        (["sweep", "s.yaml", "--max-wall-s", "40", "--max-cpu-s", "60"], 40.0, 60.0),
        (["solve", "p.txt", "--max-cpu-s", "5"], None, 5.0),
        (["bench", "throughput", "--max-cpu-s", "5"], None, 5.0),
        (["bench", "exact", "p.txt", "--max-cpu-s", "5"], None, 5.0),
        (["bench", "quality", "--config", "c.yaml", "--max-cpu-s", "5"], None, 5.0),
        (["bench", "construct", "--config", "c.yaml", "--max-cpu-s", "5", "9"], None, [5.0, 9.0]),
    ],
)
def test_every_budget_is_spelled_max_wall_s_or_max_cpu_s(args, wall, cpu):
    parsed = build_parser().parse_args(args)
    assert getattr(parsed, "max_wall_s", None) == wall and parsed.max_cpu_s == cpu


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["run", "c.yaml", "--max-runtime", "40"], "e2opt: error: run: --max-runtime is spelled --max-wall-s now"),
        (["solve", "p.txt", "--time-limit=5"], "e2opt: error: solve: --time-limit is spelled --max-cpu-s now"),
        (["bench", "construct", "--config", "c.yaml", "--cpu-s", "5"],
         "e2opt: error: bench: --cpu-s is spelled --max-cpu-s now"),
    ],
)  # fmt: skip
def test_an_older_spelling_of_a_budget_is_one_line_naming_the_new_one(args, line, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(args)
    err = capsys.readouterr().err.splitlines()
    assert stopped.value.code == 2 and len(err) == 1 and err[0].startswith(line)


def test_resume_and_sweep_budgets_are_stop_overrides():
    parsed = build_parser().parse_args(["resume", "D", "--max-wall-s", "40", "--max-cpu-s", "1.5"])
    assert budget_overrides(parsed) == ["stop.max_wall_s=40", "stop.max_cpu_s=1.5"]


def test_sweep_resume_refuses_a_budget(tmp_path, capsys):
    assert main(["sweep", "--resume", str(tmp_path), "--max-cpu-s", "5"]) == 2
    assert capsys.readouterr().err == (
        "e2opt: error: --resume continues a sweep as it was expanded: no --set, --max-wall-s, --max-cpu-s, "
        "--seeds or --runs-dir\n"
    )


# --- exit codes: one table for every command ---


def test_error_codes_are_the_same_for_every_command():
    assert exits.error_code(E2optError("x")) == 2
    assert exits.error_code(FileNotFoundError(errno.ENOENT, "No such file or directory", "x")) == 2
    for code in (errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EROFS, errno.EIO):
        assert exits.error_code(OSError(code, os.strerror(code), "x")) == 74
    assert exits.error_code(RunWriteFailed("x")) == 74
    assert exits.stop_code("max_wall_s (4 s)") == 0 and exits.stop_code("SIGTERM") == 143
    assert exits.answer_code(None, True) == 0 and exits.answer_code("time limit", False) == 1


def test_no_perfect_board_is_a_negative_answer(tmp_path):
    puzzle = tmp_path / "nosol.txt"
    puzzle.write_text(TINY_PUZZLE.replace("3 4 3 4\n", "3 4 3 3\n"))  # colour 4 can no longer be matched
    proc = e2opt_here("solve", puzzle, "--quiet")
    assert proc.returncode == 1 and proc.stderr == ""
    assert proc.stdout.splitlines()[-1].startswith("no solution: complete search, ")


def test_a_bug_is_a_traceback_and_exit_70(monkeypatch, capsys, tiny):
    def broken(puzzle):
        raise RuntimeError("a bug")

    monkeypatch.setattr("e2opt.core.info.describe", broken)
    assert main(["info", str(tiny[0])]) == 70
    err = capsys.readouterr().err
    assert "Traceback" in err and "RuntimeError: a bug" in err
    assert (
        err.splitlines()[-1]
        == "e2opt: internal error: a bug in e2opt (the traceback above); please report it"
    )


@pytest.mark.parametrize(
    ("missing", "install"),
    [("distributed.client", 'pip install -e ".[dask]"'), ("numba", 'pip install -e ".")')],
)
def test_a_dependency_not_installed_is_named_with_its_install_not_a_bug(
    monkeypatch, capsys, tiny, missing, install
):
    def absent(puzzle):
        raise ModuleNotFoundError(f"No module named {missing!r}", name=missing)

    monkeypatch.setattr("e2opt.core.info.describe", absent)
    assert main(["info", str(tiny[0])]) == exits.ENVIRONMENT
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1
    assert err.startswith(f"e2opt: error: the package {missing.split('.')[0]!r} is not installed in ")
    assert install in err


def test_a_module_of_e2opt_not_found_is_a_bug(monkeypatch, capsys, tiny):
    def absent(puzzle):
        raise ModuleNotFoundError("No module named 'e2opt.gone'", name="e2opt.gone")

    monkeypatch.setattr("e2opt.core.info.describe", absent)
    assert main(["info", str(tiny[0])]) == 70
    assert "Traceback" in capsys.readouterr().err


def test_a_closed_stdout_ends_quietly_with_the_commands_own_code(tmp_path):
    run_dir = make_run(tmp_path, EVENTS, None)
    read, write = os.pipe()
    os.close(read)  # `| head -0`: the reader is gone before the first line
    with open(write, "w") as closed:
        proc = subprocess.run(
            [sys.executable, "-m", "e2opt", "report", str(run_dir)],
            cwd=ROOT,
            stdout=closed,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 0 and proc.stderr == ""  # before: "e2opt: error: Broken pipe", exit 2


# --- each message a user met: one line naming the file, line or cell ---


@pytest.fixture
def rotation_7(tmp_path: Path) -> tuple[Path, Path]:
    """The tiny puzzle and its perfect board with the inner piece turned 7 times."""
    puzzle, board = tmp_path / "tiny.txt", tmp_path / "rot7.board"
    puzzle.write_text(TINY_PUZZLE)
    board.write_text(TINY_BOARD.replace("7:2", "7:7"))
    return puzzle, board


def test_rotation_7_in_verify_is_one_broken_rule_not_a_missing_piece(rotation_7):
    proc = e2opt("verify", *rotation_7)
    assert proc.returncode == 1 and proc.stderr == ""
    assert proc.stdout == "8/12 INVALID: 1 broken rule(s)\ncell (1,1), piece 7: rotation 7 is not 0..3\n"


@pytest.mark.parametrize("command", ["convert", "render"])
def test_rotation_7_elsewhere_names_file_line_and_cell(rotation_7, tmp_path, command):
    puzzle, board = rotation_7
    if command == "convert":
        proc = e2opt("convert", board, "--puzzle", puzzle, "--to", "blackwood")
    else:
        proc = e2opt("render", puzzle, board, "-o", tmp_path / "r.svg")
    assert proc.returncode == 2 and not (tmp_path / "r.svg").exists()
    assert one_line(proc) == f"e2opt: error: {board}, line 3: cell (1,1): rotation 7 of piece 7 is not 0..3"


def test_a_blackwood_text_of_3_rows_is_refused(tmp_path):
    text = e2opt("convert", E2_BOARD, "--puzzle", E2, "--to", "blackwood").stdout
    short = tmp_path / "bw3.txt"
    short.write_text("\n".join(text.splitlines()[:3]) + "\n")
    proc = e2opt("verify", E2, short)
    assert proc.returncode == 2 and proc.stdout == ""
    assert one_line(proc) == f"e2opt: error: {short}, line 3: 3 rows of cells, the puzzle has 16"


def test_a_viewer_link_without_board_edges_says_so(tmp_path):
    link = e2opt("convert", E2_BOARD, "--puzzle", E2, "--to", "url").stdout
    start, rest = link.split("board_edges=")
    cut = tmp_path / "link.txt"
    cut.write_text(start + rest.split("&", 1)[1])
    proc = e2opt("verify", E2, cut)
    assert proc.returncode == 2
    assert one_line(proc) == (
        f"e2opt: error: {cut}: the viewer link has no board_edges=: e2opt reads a link's board from its edge letters"
    )


def test_an_anjou_json_whose_score_disagrees_is_refused(tmp_path):
    doc = e2opt("convert", E2_BOARD, "--puzzle", E2, "--to", "anjou").stdout
    assert '"score": 468,' in doc
    wrong = tmp_path / "a.json"
    wrong.write_text(doc.replace('"score": 468,', '"score": 470,'))
    proc = e2opt("verify", E2, wrong)
    assert proc.returncode == 2 and proc.stdout == ""
    assert one_line(proc) == f"e2opt: error: {wrong}: 'score' says 470, the board scores 468"


def test_export_clique_into_a_missing_folder_names_the_users_path(tiny, tmp_path):
    out = tmp_path / "nodir" / "x"
    proc = e2opt("export-clique", tiny[0], "-o", out)
    assert proc.returncode == 2
    assert one_line(proc) == f"e2opt: error: {out}: No such file or directory"
