"""Benchmark of the CP-SAT construction: success rate, time to solve, peak memory (docs/cpsat.md).

Each (relaxed count, seed) runs in its own subprocess so that ru_maxrss is the peak of that run
alone. Runs go one after the other (the machine is shared); one JSON line per run is appended to
--out. Example (the figures of docs/cpsat.md):

    python benchmarks/cpsat_bench.py --relaxed 16 20 24 32 --seeds 10 --set time_limit_wall_s=40 --out r.jsonl
    python benchmarks/cpsat_bench.py --summarise --out r.jsonl

cpu_s is the subprocess's CPU time (CP-SAT threads included); load1 the load average at its end.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np
import yaml

from e2opt import read_puzzle
from e2opt.construct.config import CpSatConfig
from e2opt.construct.cpsat import construct_cpsat


def one(instance: str, relaxed: int, seed: int, settings: dict) -> dict:
    """One construction without fallback (its max_attempts included): outcome, time, peak memory."""
    cfg = CpSatConfig(**{"fallback": (), **settings, "relaxed": relaxed})
    puzzle = read_puzzle(instance)
    t0 = time.perf_counter()
    _board, info = construct_cpsat(puzzle, cfg, np.random.default_rng(seed))
    last = info["rounds"][-1]  # the solved round, or the last one tried (attempts; no fallback)
    return {
        "instance": instance,
        "relaxed": relaxed,
        "seed": seed,
        "settings": settings,
        "status": last["status"],
        "rounds": len(info["rounds"]),
        "solve_wall_s": round(sum(r.get("wall_s", 0.0) for r in info["rounds"]), 3),
        "total_wall_s": round(time.perf_counter() - t0, 3),
        "score_before": info["score_before_completion"],
        "score_after": info["score_after_completion"],
        "cpu_s": round(time.process_time(), 1),
        "load1": round(os.getloadavg()[0], 1),
        "maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def summarise(path: str) -> str:
    """Markdown table per relaxed count: solved/runs, median wall and CPU of solved runs, peak memory."""
    rows: dict[int, list[dict]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            run = json.loads(line)
            rows.setdefault(run["relaxed"], []).append(run)
    out = [
        "| R | solved | median wall s (solved) | median CPU s (solved) | max RSS MB | load1 |",
        "|---|---|---|---|---|---|",
    ]
    for relaxed, runs in sorted(rows.items()):
        ok = [r for r in runs if r["status"] in ("OPTIMAL", "FEASIBLE")]
        wall = f"{np.median([r['solve_wall_s'] for r in ok]):.1f}" if ok else "-"
        cpu = f"{np.median([r['cpu_s'] for r in ok]):.1f}" if ok else "-"
        loads = [r["load1"] for r in runs]
        out.append(
            f"| {relaxed} | {len(ok)}/{len(runs)} | {wall} | {cpu} | {max(r['maxrss_mb'] for r in runs)} "
            f"| {min(loads)}-{max(loads)} |"
        )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instance", default="instances/eternity2.txt")
    ap.add_argument("--relaxed", type=int, nargs="+", default=[24])
    ap.add_argument("--seeds", type=int, default=10, help="seeds 0..N-1")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--set", action="append", default=[], help="CpSatConfig field=value (YAML value)")
    ap.add_argument("--out", required=True, help="JSON lines file (appended to)")
    ap.add_argument("--summarise", action="store_true", help="print the table of --out and stop")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    settings = {}
    for text in args.set:
        key, _, raw = text.partition("=")
        value = yaml.safe_load(raw)
        settings[key] = tuple(value) if isinstance(value, list) else value
    fields = {f.name for f in dataclasses.fields(CpSatConfig)}
    if not set(settings) <= fields:
        sys.exit(f"unknown CpSatConfig fields: {sorted(set(settings) - fields)}")
    if args.summarise:
        print(summarise(args.out))
        return
    if args.one:
        print(json.dumps(one(args.instance, args.relaxed[0], args.first_seed, settings)))
        return
    for relaxed in args.relaxed:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            cmd = [sys.executable, __file__, "--one", "--instance", args.instance, "--out", args.out]
            cmd += ["--relaxed", str(relaxed), "--first-seed", str(seed)]
            cmd += [x for s in args.set for x in ("--set", s)]
            line = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()
            with open(args.out, "a", encoding="utf-8") as fh:
                fh.write(line + "\n")
            print(line, flush=True)


if __name__ == "__main__":
    main()
