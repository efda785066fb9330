"""The one-engine change side by side with the code before it (a checkout of 5c90868 at BEFORE): run-level
moves per CPU second of a one-worker run through each engine, `e2opt bench throughput` and `e2opt bench
construct`, alternating the two trees so that both see the same load. Figures: docs/engine.md.

Run: .venv/bin/python benchmarks/engine_bench.py BEFORE_TREE [--reps 3] [--figures run kernel nodes]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

AFTER = Path(__file__).resolve().parents[1]
KERNEL = r"(?m)^\s*64\s+([\d,]+)"  # the k = 64 row of `bench throughput`
NODES = r"median\s+\d+\s+[\d.]+\s+([\d,]+)"  # the median row of `bench construct`


def e2opt(tree: Path, args: list[str]) -> str:
    """Run ``python -m e2opt ARGS`` with the package of ``tree``."""
    out = subprocess.run([sys.executable, "-m", "e2opt", *args], cwd=tree, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{tree}: e2opt {' '.join(args)} failed: {out.stderr.strip()}")
    return out.stdout


def run_rate(tree: Path, moves: int) -> float:
    """Moves per CPU second of a one-worker run of ``moves`` moves from a random board on the real puzzle."""
    run = ["run", "config/eternity2.yaml", "--quiet", "--workers", "1", "--set", "construct.method=random",
           "--set", f"stop.max_iterations={moves}", "--set", "output.plots=false"]  # fmt: skip
    with tempfile.TemporaryDirectory() as runs:
        e2opt(tree, [*run, "--runs-dir", runs])
        result = json.loads(next(Path(runs).glob("*/result.json")).read_text())
    return float(result["moves_per_s"])


def first_number(text: str, pattern: str) -> float:
    """The first group of ``pattern`` in ``text`` as a number (thousands commas dropped)."""
    return float(re.search(pattern, text).group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--moves", type=int, default=3000, help="moves of the one-worker run")
    parser.add_argument("--kernel-cpu-s", type=float, default=4.0, help="`bench throughput --cpu-s`")
    parser.add_argument("--construct-cpu-s", type=float, default=10.0, help="`bench construct --cpu-s`")
    parser.add_argument(
        "--figures", nargs="+", default=["run", "kernel", "nodes"], choices=["run", "kernel", "nodes"]
    )
    args = parser.parse_args()
    throughput = [
        "bench",
        "throughput",
        "--holes",
        "64",
        "--repeats",
        "1",
        "--max-cpu-s",
        str(args.kernel_cpu_s),
    ]
    construct = ["bench", "construct", "--config", "config/eternity2_backtrack.yaml",
                 "--max-cpu-s", str(args.construct_cpu_s), "--seeds", "1"]  # fmt: skip
    measure = {
        "run": lambda tree: run_rate(tree, args.moves),
        "kernel": lambda tree: first_number(e2opt(tree, throughput), KERNEL),
        "nodes": lambda tree: first_number(e2opt(tree, construct), NODES),
    }
    trees = {"before": args.before.resolve(), "after": AFTER}
    figures = {name: {what: [] for what in args.figures} for name in trees}
    for tree in trees.values():  # compile the kernels of both trees before measuring
        e2opt(tree, throughput)
    for rep in range(args.reps):
        for name, tree in trees.items() if rep % 2 == 0 else reversed(trees.items()):
            for what in args.figures:
                figures[name][what].append(measure[what](tree))
            print(name, rep, {k: v[-1] for k, v in figures[name].items()}, flush=True)
    for what in args.figures:
        before, after = (statistics.median(figures[n][what]) for n in trees)
        print(f"{what}: before {before:,.0f}, after {after:,.0f}, after/before {after / before:.3f}")


if __name__ == "__main__":
    main()
