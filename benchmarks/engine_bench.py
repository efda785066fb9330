"""The one-engine change side by side with the code before it (a checkout of 5c90868 at BEFORE): run-level
moves per CPU second of a one-worker run through each engine, `e2opt bench throughput` and `e2opt bench
construct`, alternating the two trees so that both see the same load. Figures: docs/engine.md.

Run: .venv/bin/python benchmarks/engine_bench.py BEFORE_TREE [--reps 3]
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
RUN = [
    "run", "config/eternity2.yaml", "--quiet", "--workers", "1",
    "--set", "construct.method=random", "--set", "stop.max_iterations=3000", "--set", "output.plots=false",
]  # fmt: skip
THROUGHPUT = ["bench", "throughput", "--holes", "64", "--repeats", "1", "--cpu-s", "4"]
CONSTRUCT = ["bench", "construct", "--config", "config/eternity2_backtrack.yaml", "--cpu-s", "10", "--seeds", "1"]


def e2opt(tree: Path, args: list[str]) -> str:
    """Run ``python -m e2opt ARGS`` with the package of ``tree``."""
    out = subprocess.run([sys.executable, "-m", "e2opt", *args], cwd=tree, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{tree}: e2opt {' '.join(args)} failed: {out.stderr.strip()}")
    return out.stdout


def run_rate(tree: Path) -> float:
    """Moves per CPU second of a one-worker run of 3000 moves on the real puzzle."""
    with tempfile.TemporaryDirectory() as runs:
        e2opt(tree, [*RUN, "--runs-dir", runs])
        result = json.loads(next(Path(runs).glob("*/result.json")).read_text())
    return float(result["moves_per_s"])


def first_number(text: str, pattern: str) -> float:
    return float(re.search(pattern, text).group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", type=Path)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": AFTER}
    figures: dict[str, dict[str, list[float]]] = {name: {"run": [], "kernel": [], "nodes": []} for name in trees}
    for tree in trees.values():  # compile the kernels of both trees before measuring
        e2opt(tree, THROUGHPUT)
    for rep in range(args.reps):
        for name, tree in trees.items() if rep % 2 == 0 else reversed(trees.items()):
            figures[name]["run"].append(run_rate(tree))
            figures[name]["kernel"].append(first_number(e2opt(tree, THROUGHPUT), r"(?m)^\s*64\s+([\d,]+)"))
            figures[name]["nodes"].append(first_number(e2opt(tree, CONSTRUCT), r"median\s+\d+\s+[\d.]+\s+([\d,]+)"))
            print(name, rep, {k: v[-1] for k, v in figures[name].items()}, flush=True)
    for what in ("run", "kernel", "nodes"):
        before, after = (statistics.median(figures[n][what]) for n in trees)
        print(f"{what}: before {before:,.0f}, after {after:,.0f}, after/before {after / before:.3f}")


if __name__ == "__main__":
    main()
