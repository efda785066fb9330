"""Environment failures (issue 33): a full disk or lost permission ends a run with one line naming the file,
what can be written written, best.board whole, exit code 74; ``report`` works on a folder it cannot write."""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path

import pytest
import yaml
from conftest import SET1
from helpers import plain_yaml
from small_run import config_file

from e2opt.cli.main import main
from e2opt.core import fsutil
from e2opt.core.verify import verify_files
from e2opt.engine import checkpoint, plots
from e2opt.engine.events import read_events

PUZZLE = SET1 / "set1_06x06.txt"


def failing_writer(monkeypatch, code: int, fails) -> list[str]:
    """Atomic writes fail with ``code`` when ``fails(path, n)`` (n: the writes so far, this one included); the
    paths that failed, in order."""
    real = fsutil.atomic_write_bytes
    done, failed = [0], []

    def write(path, data, fsync=True):
        done[0] += 1
        if fails(Path(path), done[0]):
            failed.append(str(path))
            raise OSError(code, os.strerror(code), str(path))
        real(path, data, fsync)

    monkeypatch.setattr(fsutil, "atomic_write_bytes", write)  # atomic_write_text and write_board too
    monkeypatch.setattr(checkpoint, "atomic_write_bytes", write)
    monkeypatch.setattr(plots, "atomic_write_bytes", write)
    return failed


def config(tmp_path: Path) -> Path:
    """The engine tests' small run on a 6x6, one worker, a checkpoint at every chance."""
    run = {"workers": 1}
    output = {"checkpoint_every_wall_s": 0.01}
    return config_file(tmp_path, PUZZLE, seed=1, run=run, output=output)


def run(tmp_path: Path, capsys) -> tuple[int, str, Path]:
    code = main(["run", str(config(tmp_path)), "--quiet"])
    err = capsys.readouterr().err
    return code, err, next((tmp_path / "runs").iterdir())


def test_a_full_disk_ends_the_run_with_its_own_code_and_keeps_best_board(tmp_path, capsys, monkeypatch):
    failed = failing_writer(
        monkeypatch, errno.ENOSPC, lambda path, n: n > 3
    )  # after marker, config, best.board
    code, err, run_dir = run(tmp_path, capsys)
    assert code == 74
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"e2opt: error: {failed[0]}: No space left on device")
    assert "best.board is whole" in lines[0] and f"e2opt resume {run_dir}" in lines[0]
    assert verify_files(PUZZLE, run_dir / "best.board").valid  # the first one, never torn by a failed write
    assert not (run_dir / "result.json").exists()  # no room for it
    end = list(read_events(run_dir))[-1]  # an append still fitted
    assert end["event"] == "end" and end["stop_reason"].startswith("write failed (")
    assert not [p for p in run_dir.iterdir() if p.name.endswith(".tmp")]  # no temporary file left behind
    capsys.readouterr()
    assert main(["report", str(run_dir)]) == 0
    assert "stopped by write failed (" in capsys.readouterr().out  # not "killed before its end"


def test_a_lost_checkpoint_still_writes_result_and_best(tmp_path, capsys, monkeypatch):
    failing_writer(monkeypatch, errno.EACCES, lambda path, n: path.name == ".checkpoint.new")
    code, err, run_dir = run(tmp_path, capsys)
    assert code == 74 and err.count("\n") == 1
    assert (
        "/.checkpoint.new: Permission denied" in err and "not written: checkpoint (Permission denied)" in err
    )
    result = json.loads((run_dir / "result.json").read_text())
    assert result["stop_reason"].startswith("write failed (") and "Permission denied" in result["stop_reason"]
    report = verify_files(PUZZLE, run_dir / "best.board")
    assert report.valid and report.score == result["best_score"]
    capsys.readouterr()
    assert main(["report", str(run_dir)]) == 0
    assert "stopped by write failed" in capsys.readouterr().out  # and `e2opt resume` continues it


@pytest.mark.parametrize("code", [errno.EACCES, errno.EROFS])
def test_report_on_a_folder_it_cannot_write_prints_the_report(tmp_path, capsys, monkeypatch, code):
    data = yaml.safe_load(config(tmp_path).read_text())
    data["output"]["plots"] = True
    (tmp_path / "run.yaml").write_text(plain_yaml(data))
    assert main(["run", str(tmp_path / "run.yaml"), "--quiet"]) == 0
    run_dir = next((tmp_path / "runs").iterdir())
    before = {p.name: p.stat().st_mtime_ns for p in run_dir.iterdir()}
    capsys.readouterr()
    failing_writer(
        monkeypatch, code, lambda path, n: path.parent == run_dir
    )  # root ignores chmod: fail as one
    assert main(["report", str(run_dir)]) == 0
    out, err = capsys.readouterr()
    assert (
        out.startswith(f"run {run_dir.name}: ")
        and re.search(r"^best \d+/60, best known", out, re.M)
        and err == ""
    )
    note = next(line for line in out.splitlines() if line.startswith("plots: "))
    assert f"{run_dir}: {os.strerror(code)}" in note and "written to " in note
    elsewhere = Path(note.split("written to ")[1].split()[0].rstrip(","))
    assert (elsewhere / "score.png").read_bytes()[:4] == b"\x89PNG" and (elsewhere / "best.svg").is_file()
    assert {p.name: p.stat().st_mtime_ns for p in run_dir.iterdir()} == before
