"""Deepest partial of the breakdfs DFS in a CPU budget with a given set of privileged colours (E2, Blackwood).

python docs/breakdfs_privileged.py CPU_S SEED... [--privileged C C C] >> docs/breakdfs_data/privileged.jsonl

The DFS of config/eternity2_blackwood.yaml alone (no completion) for CPU_S CPU seconds per seed, with the
colours derived from the puzzle (default) or the ones given (user colour numbers); one JSON line per seed:
the deepest partial in pieces (hint included), attempts, placements. The seed's generator is made as in
docs/breakdfs_bench.py, so seed N opens the same first attempt there and here.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from e2opt.breakdfs.longrun import LongRun
from e2opt.core.puzzle import read_puzzle
from e2opt.engine.loader import load_config
from e2opt.search.tabu import warm_up

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cpu_s", type=float)
    ap.add_argument("seeds", type=int, nargs="+")
    ap.add_argument("--privileged", type=int, nargs="*", default=[])
    args = ap.parse_args()
    cfg = load_config(str(ROOT / "config" / "eternity2_blackwood.yaml"), [])
    dfs_cfg = replace(cfg.construct.breakdfs, privileged=tuple(args.privileged))
    puzzle = read_puzzle(cfg.instance)
    warm_up()
    for seed in args.seeds:
        rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(2)[0])
        run = LongRun(puzzle, dfs_cfg, int(rng.integers(2**62)))
        began = time.process_time()
        summary = run.run(cpu_s=args.cpu_s)
        row = {
            "seed": seed, "cpu_s": args.cpu_s, "privileged": [puzzle.user_colour(c) for c in run.dfs.rules.privileged],
            "given": args.privileged, "deepest_placed": summary.deepest + len(puzzle.hints),
            "attempts": summary.attempts, "placements": summary.nodes, "used_cpu_s": round(time.process_time() - began, 2),
        }  # fmt: skip
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
