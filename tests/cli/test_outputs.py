"""Outputs never overwrite by accident (issue 14): an output equal to an input or another output, or an
existing file without --force, is one error line and exit 2, and the file is byte-identical afterwards."""

from __future__ import annotations

import pytest
from conftest import e2opt
from helpers import one_error_line

from e2opt.core.fsutil import atomic_write_text

GEN = ("generate", "--rows", "4", "--cols", "4", "--frame-colours", "2", "--inner-colours", "3")


def test_generate_output_and_solution_on_one_file_is_refused(tmp_path):
    line = one_error_line(e2opt(*GEN, "-o", "same.txt", "--solution", "./same.txt", cwd=tmp_path))
    assert "--solution ./same.txt: the same file as -o" in line
    assert not (tmp_path / "same.txt").exists()
    assert "the same file" in one_error_line(
        e2opt(*GEN, "-o", "same.txt", "--solution", "same.txt", "--force", cwd=tmp_path)
    )


def test_generate_refuses_an_existing_file_unless_forced(tmp_path):
    out = tmp_path / "puzzle.txt"
    out.write_text("my puzzle\n")
    line = one_error_line(e2opt(*GEN, "-o", out))
    assert "the file exists; give --force" in line and out.read_text() == "my puzzle\n"
    solution = tmp_path / "sol.board"
    solution.write_text("mine\n")
    one_error_line(e2opt(*GEN, "-o", tmp_path / "new.txt", "--solution", solution))
    assert solution.read_text() == "mine\n" and not (tmp_path / "new.txt").exists()  # nothing half-written
    proc = e2opt(*GEN, "-o", out, "--force")
    assert proc.returncode == 0 and out.read_text().startswith("4 4\n")


def test_render_refuses_to_write_over_its_inputs_or_an_existing_file(tiny, tmp_path):
    puzzle, board = tiny
    before = puzzle.read_bytes(), board.read_bytes()
    for target in (puzzle, board):
        moved = target.with_suffix(".svg")
        target.rename(moved)  # an input with a picture's name: rendering onto it must still be refused
        line = one_error_line(
            e2opt("render", *(moved if t == target else t for t in (puzzle, board)), "-o", moved, "--force")
        )
        assert "the same file as" in line
        moved.rename(target)
    assert (puzzle.read_bytes(), board.read_bytes()) == before
    out = tmp_path / "b.svg"
    out.write_text("keep")
    assert "give --force" in one_error_line(e2opt("render", puzzle, board, "-o", out))
    assert out.read_text() == "keep"
    assert e2opt("render", puzzle, board, "-o", out, "--force").returncode == 0
    assert out.read_text().startswith("<svg")
    assert "is a folder" in one_error_line(e2opt("render", puzzle, board, "-o", tmp_path, "--force"))


def test_a_write_error_names_the_users_file_not_a_temporary_one(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for target, reason in (
        (tmp_path / "no" / "p.txt", "No such file"),
        (blocker / "p.txt", "Not a directory"),
    ):
        line = one_error_line(e2opt(*GEN, "-o", target))
        assert f"{target}: {reason}" in line and ".tmp" not in line, line
        with pytest.raises(OSError) as caught:
            atomic_write_text(target, "x")
        assert caught.value.filename == str(target)
