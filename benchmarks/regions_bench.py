"""Measure construct.method regions (docs/regions.md): one `e2opt run` per seed, one JSON line per run.

    PYTHONPATH=. python benchmarks/regions_bench.py config/eternity2_regions.yaml --seeds 1 2 3 \\
        --label h1 --out benchmarks/results/regions/regions_e2.jsonl --set construct.regions.height=1

Each run stops after construction (stop.max_iterations=0); with --search-cpu S a second run then
searches from that board (construct.method: board) for S CPU seconds and the line gives its score.
The load average before and after each run is recorded: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def _run(config: str, seed: int, sets: list[str], runs_dir: str) -> dict:
    """One `e2opt run` in a subprocess; its result.json plus the run folder."""
    cmd = [
        sys.executable,
        "-m",
        "e2opt",
        "run",
        config,
        "--seed",
        str(seed),
        "--quiet",
        "--runs-dir",
        runs_dir,
    ]
    for item in [*sets, "output.plots=false"]:
        cmd += ["--set", item]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    folder = next(line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("run folder: "))
    return {**json.loads((Path(folder) / "result.json").read_text()), "folder": folder}


def run_one(
    config: str,
    seed: int,
    sets: list[str],
    search_cpu: float | None,
    runs_dir: str,
    search_config: str | None = None,
) -> dict:
    """Construct only; with ``search_cpu``, then search from that board (construct.method board) for that
    many CPU seconds, so that every start gets the same search budget whatever its construction cost.
    ``search_config`` (default: ``config``) gives the search settings of that second run, one worker."""
    load = os.getloadavg()[0]
    built = _run(config, seed, [*sets, "stop.max_iterations=0"], runs_dir)
    c = built["construction"]
    line = {
        "seed": seed,
        "construction_score": c["score"],
        "construction_cpu_s": c.get("cpu_s"),
        "construction_wall_s": c.get("wall_s", c.get("seconds")),
        "backtracks": c.get("backtracks"),
        "backtracking_end": c.get("backtracking_end"),
        "mismatches_per_region": c.get("mismatches_per_region"),
        "status_per_region": c.get("status_per_region", c.get("status")),
        "final_score": None,
    }
    if search_cpu:
        board = str(Path(built["folder"]) / "best.board")
        searched = _run(
            search_config or config,
            seed,
            [
                *(sets if search_config is None else []),
                "construct.method=board",
                f"construct.board={board}",
                f"stop.max_cpu_s={search_cpu}",
                "stop.max_wall_s=null",
                "run.workers=1",
            ],
            runs_dir,
        )
        line.update(final_score=searched["best_score"], search_cpu_s=searched["cpu_s"])
    line.update(load_before=round(load, 2), load_after=round(os.getloadavg()[0], 2))
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--set", action="append", default=[], dest="sets")
    parser.add_argument("--label", required=True)
    parser.add_argument("--search-cpu", type=float, default=None)
    parser.add_argument("--search-config", default=None, help="config of the search run (default: the same)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as runs_dir:
        for seed in args.seeds:
            line = {
                "label": args.label,
                "config": args.config,
                "sets": args.sets,
                "search_cpu_s": args.search_cpu,
                "search_config": args.search_config,
            }
            line.update(run_one(args.config, seed, args.sets, args.search_cpu, runs_dir, args.search_config))
            with open(args.out, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(line) + "\n")
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
