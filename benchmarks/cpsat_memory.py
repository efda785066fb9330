"""Peak memory of one CP-SAT round against the model-size estimate of e2opt/construct/cpsat.py.

For each size, a generated E2-like puzzle (seed 1), and each model (table, element), one subprocess builds
the round's model and solves it for ``--limit`` seconds with 2 workers; its ru_maxrss is compared with
memory_estimate_mb. Writes docs/cpsat_memory.md (or --out).

    python benchmarks/cpsat_memory.py --sizes 8 12 16 20 24 --limit 2
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import json, resource, sys, time
import numpy as np
from e2opt.construct.config import CpSatConfig
from e2opt.construct.cpsat import memory_estimate_mb, options, solve_interruptibly, solver_for
from e2opt.cpsat.relaxed_model import build_model
from e2opt.core.generate import generate
size, table, limit = int(sys.argv[1]), sys.argv[2] == "table", float(sys.argv[3])
puzzle, _ = generate(size, size, 5, 17 if size > 10 else 8, 1)
t0 = time.perf_counter()
pm = build_model(puzzle, [], table=table, symmetry=False, soft=False, order_rng=None)
built = time.perf_counter() - t0
solver = solver_for(CpSatConfig(num_workers=2), limit, 1, False, None)
status = solve_interruptibly(solver, pm.model, lambda: False)
print(json.dumps({
    "options": options(puzzle, []), "estimate_mb": memory_estimate_mb(puzzle, []),
    "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "build_s": built, "solve_wall_s": time.perf_counter() - t0 - built, "status": solver.status_name(status),
}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 12, 16, 20, 24])
    parser.add_argument("--limit", type=float, default=2.0, help="CP-SAT time limit per round (s)")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "docs" / "cpsat_memory.md", help="the page written"
    )
    args = parser.parse_args()
    lines = [
        "# CP-SAT round memory against the estimate",
        "",
        f"Command: `python benchmarks/cpsat_memory.py --sizes {' '.join(map(str, args.sizes))} --limit {args.limit:g}`",
        "(generated puzzles, seed 1, no relaxed cell, 2 workers; one subprocess per row, shared 2-core machine).",
        "",
        "| size | model | options | estimate MB | peak RSS MB | estimate / peak | build s | solve wall s | status |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for size in args.sizes:
        for model in ("table", "element"):
            proc = subprocess.run(
                [sys.executable, "-c", CHILD, str(size), model, str(args.limit)],
                capture_output=True,
                text=True,
            )
            if proc.returncode != 0:
                lines.append(f"| {size}x{size} | {model} | failed: {proc.stderr.strip().splitlines()[-1]} |")
                continue
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            lines.append(
                f"| {size}x{size} | {model} | {r['options']:,} | {r['estimate_mb']:,.0f} | {r['maxrss_mb']:,.0f} | "
                f"{r['estimate_mb'] / r['maxrss_mb']:.2f} | {r['build_s']:.1f} | {r['solve_wall_s']:.1f} | {r['status']} |"
            )
            print(lines[-1], flush=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
