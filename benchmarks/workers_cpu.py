"""CPU used / CPU available of a run as its worker count grows (issue 48, item 3).

Each case is one ``e2opt run`` of the real puzzle for ``--wall`` seconds with N workers (local processes, or
a Dask LocalCluster with ``dask:N``). Figures per case: the run's search CPU (result.json ``cpu_s``, the
workers' rounds) and the CPU of the command and all its descendants (this process is their subreaper, so
orphans count too), each divided by the CPU available (the run's wall seconds x usable cores), and when the
first and the last worker's first board came (events.jsonl):

    python benchmarks/workers_cpu.py --wall 60 --cases 2 4 8 16 48 dask:16 --out workers_cpu.jsonl

Run folders go to a temporary folder and are deleted; one JSON line per case goes to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from suite_time import adopt_orphans, children_cpu, reap_orphans  # this folder: run as a script

ROOT = Path(__file__).resolve().parents[1]


def one_case(case: str, wall: float, config: str) -> dict:
    """One run of the case (``N`` or ``dask:N``); its figures."""
    dask = case.startswith("dask:")
    workers = int(case.split(":")[-1])
    cores = len(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory() as runs:
        args = [
            sys.executable,
            "-m",
            "e2opt",
            "run",
            config,
            "--workers",
            str(workers),
            "--max-wall-s",
            str(wall),
        ]
        args += ["--runs-dir", runs, "--quiet", "--set", "output.plots=false"]
        if dask:
            args += ["--executor", "dask"]
        before, started = children_cpu(), time.monotonic()
        proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
        reap_orphans()
        elapsed, total = time.monotonic() - started, children_cpu() - before
        run_dir = next(Path(runs).glob("*/result.json")).parent
        result = json.loads((run_dir / "result.json").read_text())
        boards = [e["wall_s"] for e in map(json.loads, (run_dir / "events.jsonl").read_text().splitlines())
                  if e.get("event") == "construction"]  # fmt: skip
    available = result["wall_s"] * cores
    return {
        "case": case, "workers": workers, "cores": cores, "exit": proc.returncode, "wall_s": result["wall_s"],
        "process_wall_s": round(elapsed, 2), "search_cpu_s": result["cpu_s"], "all_cpu_s": round(total, 2),
        "search_share": round(result["cpu_s"] / available, 3), "all_share": round(total / (elapsed * cores), 3),
        "best_score": result["best_score"], "lost": result.get("lost"),
        # run wall s at which the first and the last worker's first board (its first answer) came: the start
        "first_board_s": min(boards, default=None), "last_board_s": max(boards, default=None),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wall", type=float, default=60.0)
    parser.add_argument("--cases", nargs="+", default=["2", "4", "8", "16", "48", "dask:16"])
    parser.add_argument("--config", default=str(ROOT / "config/eternity2.yaml"))
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    adopt_orphans()
    with open(args.out, "a", encoding="utf-8") as out:
        for case in args.cases:
            row = one_case(case, args.wall, args.config)
            print(json.dumps(row), flush=True)
            out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
