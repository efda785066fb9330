"""Every bad input we know of, tried as a user would: one subprocess per case, results in docs/bad_inputs.md.

Each case runs ``python -m e2opt ...`` in a fresh folder holding a tiny valid puzzle (p.txt), its perfect
board (b.board), a valid config (c.yaml) and the case's own files. It records the exit code and the exact
line printed, and asserts, for every case: exit code 2, exactly one line on stderr starting with
``e2opt: error:``, no traceback, and every file that was there before is byte-identical afterwards.

    PYTHONPATH=. python benchmarks/bad_inputs.py            # writes docs/bad_inputs.md; exits 1 if a case fails
    PYTHONPATH=. python benchmarks/bad_inputs.py --cases 2 --out bad.md    # the first two cases only
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "bad_inputs.md"

PUZZLE = "3 3\n1 0 0 1\n2 0 0 2\n3 1 0 2\n1 3 2 0\n1 4 2 0\n0 0 2 1\n2 4 1 0\n3 4 3 4\n2 0 0 1\n"
BOARD = "3 3\n5:3 3:1 0:3\n4:0 7:2 6:2\n1:1 2:0 8:0\n"
CONFIG = (
    "instance: p.txt\nseed: 1\nsearch: {moves: {assignment: {holes: 2}}}\nstop: {max_iterations: 100}\n"
    "output: {runs_dir: runs, plots: false}\nconstruct: {method: random}\nrun: {workers: 1}\n"  # small and quick
)
SWEEP = "base: c.yaml\nseeds: 1\ngrid: {search.moves.assignment.holes: [2]}\n"
PIECES = PUZZLE.split("\n", 1)[1]  # the nine piece lines, for puzzles with another header


def config(extra: str) -> str:
    """The valid config with ``extra`` YAML lines appended (later sections win in the tests below)."""
    return "instance: p.txt\nseed: 1\noutput: {runs_dir: runs, plots: false}\n" + extra


@dataclass
class Case:
    family: str
    args: list[str]
    files: dict[str, bytes | str | int] = field(default_factory=dict)  # int: a sparse file of that size
    note: str = ""


def cases() -> list[Case]:
    """The cases, by family."""
    out: list[Case] = []

    def add(family: str, *args: str, note: str = "", **files: bytes | str | int) -> None:
        out.append(Case(family, list(args), {k.replace("__", "."): v for k, v in files.items()}, note))

    mine = {
        "mine/config.yaml": "# my notes\ninstance: ../p.txt\n",
        "mine/best.board": BOARD,
        "mine/result.json": "{}\n",
    }
    f = "run folders"
    out += [
        Case(f, ["resume", "mine"], mine, "the user's own folder, no marker"),
        Case(f, ["resume", "mine", "--set", "stop.max_iterations=9"], mine, "with a budget"),
        Case(f, ["report", "mine"], mine, "report of the user's folder"),
        Case(f, ["sweep", "--resume", "mine"], mine, "sweep --resume of the user's folder"),
        Case(f, ["sweep-report", "mine"], mine, "sweep-report of the user's folder"),
    ]
    add(f, "resume", "nowhere", note="missing folder")
    add(f, "report", "p.txt", note="a file, not a folder")
    add(f, "resume", "x", "--set", "search.moves.assignment.holes=4", note="resume changes only stop.*")

    f = "output files"
    add(f, "generate", "--rows", "3", "--cols", "3", "--frame-colours", "2", "--inner-colours", "2", "-o", "s.txt",
        "--solution", "s.txt", note="puzzle and solution on one file")  # fmt: skip
    add(f, "generate", "--rows", "3", "--cols", "3", "--frame-colours", "2", "--inner-colours", "2", "-o", "p.txt",
        note="existing file without --force")  # fmt: skip
    add(f, "generate", "--rows", "3", "--cols", "3", "--frame-colours", "2", "--inner-colours", "2", "-o", "n.txt",
        "--solution", "b.board", note="existing solution file without --force")  # fmt: skip
    add(f, "render", "p.txt", "b.board", "-o", "old.svg", note="existing picture", old__svg="<svg/>")
    add(f, "render", "p.svg", "b.board", "-o", "p.svg", "--force", note="output = the puzzle", p__svg=PUZZLE)
    add(f, "render", "p.txt", "b.svg", "-o", "./b.svg", "--force", note="output = the board", b__svg=BOARD)
    add(f, "render", "p.txt", "b.board", "-o", "sub", note="output is a folder", sub__keep="")
    add(f, "render", "p.txt", "b.board", "-o", "out.pdf", note="unknown picture format")
    add(f, "generate", "--rows", "3", "--cols", "3", "--frame-colours", "2", "--inner-colours", "2", "-o",
        "no/p.txt", note="output folder missing")  # fmt: skip
    add(f, "generate", "--rows", "3", "--cols", "3", "--frame-colours", "2", "--inner-colours", "2", "-o",
        "p.txt/x.txt", note="output folder is a file")  # fmt: skip

    f = "puzzle files"
    bad = {
        "empty file": "",
        "header of one number": "3\n" + PIECES,
        "header not a number": "3 x\n" + PIECES,
        "board below 2x2": "1 5\n" + PIECES,
        "board too large": "5000 5000\n" + PIECES,
        "header number of 30 digits": "3 " + "9" * 30 + "\n" + PIECES,
        "negative colour": PUZZLE.replace("3 4 3 4", "3 4 -3 4"),
        "colour id of 25 digits": PUZZLE.replace("3 4 3 4", "3 4 " + "7" * 25 + " 4"),
        "a superscript digit": PUZZLE.replace("3 4 3 4", "3 4 ² 4"),
        "a NUL byte in a token": PUZZLE.replace("3 4 3 4", "3 4 3\x00 4"),
        "byte-order mark and a bad token": "\ufeff" + PUZZLE.replace("3 4 3 4", "3 4 x 4"),
        "CRLF line ends and a bad token": PUZZLE.replace("3 4 3 4", "3 4 3 y").replace("\n", "\r\n"),
        "too few pieces": PUZZLE.rsplit("\n", 2)[0] + "\n",
        "too many pieces": PUZZLE + "1 2 3 4\n",
        "piece line of 3 colours": PUZZLE.replace("3 4 3 4", "3 4 3"),
        "grey on three sides": PUZZLE.replace("3 4 3 4", "0 0 0 4"),
        "grey on opposite sides": PUZZLE.replace("3 4 3 4", "0 4 0 4"),
        "two inner pieces on a 3x3": PUZZLE.replace("2 0 0 1\n", "2 3 4 1\n"),
        "hint of a missing piece": PUZZLE + "hint 9 1 1 0\n",
        "hint off the board": PUZZLE + "hint 7 3 3 0\n",
        "hint rotation 7": PUZZLE + "hint 7 1 1 7\n",
        "hint of a corner on the inner cell": PUZZLE + "hint 0 1 1 0\n",
        "hint with 3 numbers": PUZZLE + "hint 7 1 1\n",
        "two hints on one cell": PUZZLE + "hint 7 1 1 2\nhint 7 1 1 2\n",
        "piece after a hint": PUZZLE + "hint 7 1 1 2\n1 2 3 4\n",
        "not UTF-8": PUZZLE.encode() + b"\xff\xfe\n",
    }
    for note, text in bad.items():
        add(f, "info", "bad.txt", note=note, bad__txt=text)
    add(f, "info", "huge.txt", note="a 100 MB file (sparse)", huge__txt=100 * 2**20)
    add(f, "info", "missing.txt", note="no such file")
    add(f, "info", "sub", note="a folder", sub__keep="")

    f = "board files"
    boards = {
        "no header": "5:3 3:1 0:3\n",
        "rows missing": "3 3\n5:3 3:1 0:3\n",
        "a row too short": BOARD.replace("4:0 7:2 6:2", "4:0 7:2"),
        "a token without colon": BOARD.replace("7:2", "72"),
        "a negative piece": BOARD.replace("7:2", "-7:2"),
        "a piece id of 40 digits": BOARD.replace("7:2", "1" * 40 + ":2"),
        "header 1x1": "1 1\n0:0\n",
        "header of 50 digits": "3 " + "9" * 50 + "\n",
        "not UTF-8": BOARD.encode() + b"\x80\n",
        "board of another size": "2 2\n0:0 1:0\n2:0 3:0\n",
    }
    for note, text in boards.items():
        add(f, "render", "p.txt", "bad.board", "-o", "o.svg", note=note, bad__board=text)
    add(f, "verify", "p.txt", "missing.board", note="no such board file")
    add(f, "verify", "p.txt", "huge.board", note="a 100 MB board (sparse)", huge__board=100 * 2**20)

    f = "config files"
    configs = {
        "not YAML": "instance: [p.txt\n",
        "not a mapping": "- p.txt\n",
        "unknown key": config("serch: {holes: 2}\n"),
        "unknown nested key": config("search: {hole: 2}\n"),
        "wrong type": config("search: {moves: {assignment: {holes: many}}}\n"),
        "duplicate key": config("seed: 2\n"),
        "negative budget": config("stop: {max_cpu_s: -5}\n"),
        "NaN budget": config("stop: {max_wall_s: .nan}\n"),
        "infinite interval": config("output: {runs_dir: runs, checkpoint_every_wall_s: .inf}\n"),
        "integer of 30 digits": config("stop: {max_iterations: 1" + "0" * 30 + "}\n"),
        "1.5e3 iterations is no integer": config("stop: {max_iterations: 1.5e0}\n"),
        "empty runs_dir": "instance: p.txt\noutput: {runs_dir: ''}\n",
        "a name that is a path": config("name: ../elsewhere\n"),
        "more holes than cells": config("search: {moves: {assignment: {holes: 12}}}\n"),
        "target above the maximum score": config("stop: {target_score: 13}\n"),
        "no instance": "seed: 1\n",
        "instance not found": "instance: nope.txt\n",
        "warm-start board not found": config("construct: {method: board, board: nope.board}\n"),
        "unknown method": config("construct: {method: magic}\n"),
        "too many relaxed cells": config("construct: {method: cpsat, cpsat: {relaxed: 6}}\n"),
        "relaxed cells next to each other": config(
            "construct: {method: cpsat, cpsat: {relaxed_cells: [[0, 0], [0, 1]]}}\n"
        ),
        "a warm-start board of another puzzle": config("construct: {method: board, board: w.board}\n"),
        "not UTF-8": b"instance: p.txt\n\xff\n",
        "a broken puzzle behind a good config": "instance: bad.txt\n",
    }
    for note, text in configs.items():
        add(
            f,
            "run",
            "bad.yaml",
            note=note,
            bad__yaml=text,
            bad__txt="3 3\n",
            w__board="2 2\n0:0 1:0\n2:0 3:0\n",
        )
    add(f, "run", "huge.yaml", note="a 10 MB config (sparse)", huge__yaml=10 * 2**20)
    add(f, "run", "missing.yaml", note="no such config file")

    f = "command-line values"
    for args, note in (
        (["--seed", "-1"], "negative seed"),
        (["--seed", "1" + "0" * 25], "seed out of range"),
        (["--seed", "x"], "seed not a number"),
        (["--max-wall-s", "-5"], "negative budget"),
        (["--max-wall-s", "nan"], "NaN budget"),
        (["--set", "search.moves.assignment.holes=12"], "more holes than cells, from --set"),
        (["--set", "search.hole=2"], "unknown key in --set"),
        (["--set", "stop.max_iterations=-1"], "negative value in --set"),
        (["--set", "stop.target_score=1e6"], "1e6 is a number: above the maximum score"),
        (["--set", "stop"], "--set without ="),
        (["--set", "search=3"], "a section set to a number"),
        (["--name", "a/b"], "run name that is a path"),
        (["--runs-dir", ""], "empty runs directory"),
        (["--runs-dir", "p.txt/runs"], "runs directory under a file"),
    ):
        add(f, "run", "c.yaml", *args, note=note)

    f = "generate"
    base = [
        "generate",
        "--rows",
        "4",
        "--cols",
        "4",
        "--frame-colours",
        "2",
        "--inner-colours",
        "3",
        "-o",
        "g.txt",
    ]
    for swap, note in (
        (("--seed", "-1"), "negative seed"),
        (("--rows", "1"), "one row"),
        (("--rows", "5000"), "too many rows"),
        (("--frame-colours", "0"), "no frame colour"),
        (("--inner-colours", "0"), "no inner colour"),
        (("--hints", "-1"), "negative hints"),
        (("--hints", "17"), "more hints than cells"),
        (("--inner-colours", "1"), "too few colours for distinct pieces"),
        (("--rows", "four"), "rows not a number"),
        (("--hint-cells", "4,0"), "hint cell off the board"),
        (("--hint-cells", "1,1", "1,1"), "hint cell named twice"),
        (("--hint-cells", "1;1"), "hint cell not ROW,COL"),
        (("--hints", "2", "--hint-cells", "1,1"), "a hint count and hint cells"),
    ):
        args = list(base)
        if swap[0] in args:
            args[args.index(swap[0]) + 1] = swap[1]
        else:
            args += list(swap)
        add(f, *args, note=note)

    f = "sweeps"
    add(f, "sweep", "missing.yaml", note="no such sweep file")
    add(f, "sweep", "s.yaml", note="unknown sweep key", s__yaml=SWEEP + "grids: {}\n", c__yaml=CONFIG)
    add(f, "sweep", "s.yaml", note="duplicate key", s__yaml=SWEEP + "seeds: 2\n", c__yaml=CONFIG)
    add(
        f,
        "sweep",
        "s.yaml",
        note="grid value not a list",
        s__yaml="base: c.yaml\ngrid: {search.moves.assignment.holes: 2}\n",
    )
    add(f, "sweep", "s.yaml", "--seeds", "x", note="--seeds not a number", s__yaml=SWEEP)
    add(f, "sweep", "s.yaml", "--workers", "0", note="no workers", s__yaml=SWEEP)
    add(f, "sweep", note="neither a sweep file nor --resume")
    add(f, "sweep", "s.yaml", "--executor", "slurm", note="unknown executor", s__yaml=SWEEP)
    add(
        f, "sweep", "s.yaml", "--set", "stop.target_score=99", note="a bad --set for every run", s__yaml=SWEEP
    )
    add(
        f,
        "sweep",
        "s.yaml",
        note="a grid value no run can take",
        s__yaml="base: c.yaml\nseeds: 1\ngrid: {search.moves.assignment.holes: [2, 99]}\n",
    )
    add(f, "sweep", "s.yaml", "--seeds", "-3", note="negative seed count", s__yaml=SWEEP)

    f = "bench"
    add(f, "bench", "throughput", "--max-cpu-s", "-1", note="negative CPU budget")
    add(f, "bench", "throughput", "--holes", "1", note="one hole")
    add(f, "bench", "throughput", "--repeats", "0", note="no repeats")
    add(
        f, "bench", "quality", "--config", "c.yaml", "--max-cpu-s", "1", "--seeds", "-2", note="negative seed"
    )
    add(f, "bench", "quality", "--config", "missing.yaml", "--max-cpu-s", "1", note="no such config")
    return out


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under the folder -> sha256 of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def prepare(folder: Path, case: Case) -> None:
    """The shared valid files, then the case's own (a name ending in .keep makes an empty folder)."""
    for name, content in {"p.txt": PUZZLE, "b.board": BOARD, "c.yaml": CONFIG, **case.files}.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith(".keep"):  # an empty folder
            (folder / name.removesuffix(".keep")).mkdir()
            continue
        if isinstance(content, int):
            with open(path, "wb") as f:
                f.truncate(content)
        else:
            path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)


def run(case: Case) -> tuple[int, str, list[str]]:
    """(exit code, the line printed, problems) for one case."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        prepare(folder, case)
        before = snapshot(folder)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.run(
            [sys.executable, "-m", "e2opt", *case.args], cwd=folder, capture_output=True, text=True, env=env,
            timeout=300,
        )  # fmt: skip
        after = snapshot(folder)
    lines = proc.stderr.strip().splitlines()
    problems = []
    if proc.returncode != 2:
        problems.append(f"exit {proc.returncode}")
    if "Traceback" in proc.stderr:
        problems.append("traceback")
    if len(lines) != 1 or not lines[0].startswith("e2opt: error: "):
        problems.append(f"{len(lines)} stderr lines")
    lost = [name for name, digest in before.items() if after.get(name) != digest]
    if lost:
        problems.append(f"files changed or lost: {lost}")
    line = lines[0] if len(lines) == 1 else " / ".join(lines[-2:])
    return proc.returncode, line.replace(tmp, "."), problems


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=OUT, help="the markdown page written (default: %(default)s)"
    )
    parser.add_argument("--cases", type=int, default=None, help="run only the first N cases")
    args = parser.parse_args()
    results = []
    for case in cases()[: args.cases]:
        code, line, problems = run(case)
        results.append((case, code, line, problems))
        print(
            f"[{case.family}] {' '.join(case.args)} -> {code} {line}{'  PROBLEM: ' + '; '.join(problems) if problems else ''}"
        )
    failed = [r for r in results if r[3]]
    families = list(dict.fromkeys(case.family for case, *_ in results))
    text = [
        "# Bad inputs: one line and exit 2 each",
        "",
        "Made by `PYTHONPATH=. python benchmarks/bad_inputs.py`: every case runs `python -m e2opt ...` in a",
        "fresh folder holding a valid 3x3 puzzle `p.txt`, its board `b.board`, a valid config `c.yaml` and the",
        "case's own files (named in the note). Checked for every case: exit code 2, exactly one line on stderr,",
        "no traceback, and every file that was there before is byte-identical afterwards.",
        "",
        f"**{len(results)} cases, {len(families)} families: {len(results) - len(failed)} pass, {len(failed)} fail; "
        f"tracebacks {sum('traceback' in r[3] for r in results)}, "
        f"exit 0 {sum(r[1] == 0 for r in results)}, "
        f"files lost {sum(any(p.startswith('files') for p in r[3]) for r in results)}.**",
    ]
    for family in families:
        text += ["", f"## {family}", "", "| case | command | exit | line printed |", "|---|---|---|---|"]
        for case, code, line, problems in results:
            if case.family == family:
                flag = f" **{'; '.join(problems)}**" if problems else ""
                command = "e2opt " + " ".join(arg if arg else "''" for arg in case.args)
                text.append(f"| {_cell(case.note)} | `{_cell(command)}` | {code} | `{_cell(line)}`{flag} |")
    args.out.write_text("\n".join(text) + "\n", encoding="utf-8")
    print(f"{len(results)} cases, {len(failed)} failed; wrote {args.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
