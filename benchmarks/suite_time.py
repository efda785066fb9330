"""The README's test command of several commits, side by side in one sitting (issue 34's suite-time target).

Each variant is a fresh clone of this repository at a commit, set up as its README says (a new virtualenv,
``pip install -q -e ".[dev,dask]"``, cold numba cache: what CI sees), then its test command, timed. The
variants run one after the other on the same machine, so a busy machine slows all of them:

    python benchmarks/suite_time.py --out benchmarks/results/suite/side_by_side.json \\
        --variant before a2fb96a "{python} -m pytest -q" \\
        --variant after HEAD "{python} -m pytest -q -n auto"

``{python}`` is the clone's virtualenv Python (``--python P``: use P and install nothing, for a quick look).
Each variant's figures: wall seconds of the command, CPU seconds of it and all its descendants (orphans
included: this process is their subreaper), pytest's last line
(passed, failed, its own seconds), the commit, and the set-up's wall seconds apart.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def count(word: str, line: str) -> int:
    """The number before ``word`` in pytest's last line (``3 failed, 1918 passed in 612.1s``), 0 if absent."""
    found = re.search(rf"(\d+) {word}", line)
    return int(found.group(1)) if found else 0


def children_cpu() -> float:
    """CPU seconds of the finished children of this process so far (user + system)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def adopt_orphans() -> None:
    """Make this process the subreaper of its descendants (Linux): a process whose parent ends before it
    (a forkserver outliving its run by a moment) is reaped here, so its CPU counts in children_cpu."""
    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def reap_orphans(timeout_s: float = 30.0) -> None:
    """Wait (``timeout_s`` at most) for the descendants still running after the command ended."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                time.sleep(0.05)
        except ChildProcessError:
            return


def setup(clone: Path, commit: str, python: str | None) -> tuple[str, str, float]:
    """Clone the repository at ``commit`` into ``clone`` and install it there; its Python, full commit id and
    the set-up's wall seconds."""
    start = time.monotonic()
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", commit], check=True)
    full = subprocess.run(
        ["git", "-C", str(clone), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()
    if python is None:
        subprocess.run([sys.executable, "-m", "venv", ".venv"], cwd=clone, check=True)
        python = str(clone / ".venv" / "bin" / "python")
        install = [python, "-m", "pip", "install", "-q", "-e", ".[dev,dask]"]
        subprocess.run(install, cwd=clone, check=True)
    return python, full, time.monotonic() - start


def measure(label: str, commit: str, command: str, python: str | None, work: Path) -> dict:
    """One variant: set up its clone, run its command there, its figures."""
    clone = work / label
    python, full, setup_s = setup(clone, commit, python)
    words = [word.replace("{python}", python) for word in shlex.split(command)]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    cpu0, start = children_cpu(), time.monotonic()
    proc = subprocess.run(words, cwd=clone, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    reap_orphans()
    cpu = children_cpu() - cpu0
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    seconds = re.search(r" in ([\d.]+)s", last)
    return {
        "label": label,
        "commit": full,
        "command": command,
        "exit": proc.returncode,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "passed": count("passed", last),
        "failed": count("failed", last) + count("error", last),
        "pytest_s": float(seconds.group(1)) if seconds else None,
        "last_line": last,
        "setup_s": round(setup_s, 1),
        "cores": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variant",
        nargs=3,
        action="append",
        required=True,
        metavar=("LABEL", "COMMIT", "COMMAND"),
        help="a name, a commit of this repository and its test command ({python}: the clone's Python)",
    )
    parser.add_argument("--python", help="run every variant with this Python, installing nothing")
    parser.add_argument("--out", required=True, help="JSON file of the figures (written after each variant)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    python = args.python and os.path.abspath(shutil.which(args.python) or args.python)  # the clone is the cwd
    rows: list[dict] = []
    adopt_orphans()
    with tempfile.TemporaryDirectory(prefix="suite_time_") as work:
        for label, commit, command in args.variant:
            row = measure(label, commit, command, python, Path(work))
            rows.append(row)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(rows, indent=1) + "\n")
            print(
                f"{label} ({row['commit'][:7]}): exit {row['exit']}, {row['wall_s']:.0f} s wall, "
                f"{row['cpu_s']:.0f} CPU s; {row['last_line']} (set-up {row['setup_s']:.0f} s)",
                flush=True,
            )
    return 0 if all(row["exit"] == 0 for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
