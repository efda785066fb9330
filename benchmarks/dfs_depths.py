"""Where the DFS spends its placements, by depth: the producer's search on a puzzle for a CPU budget.

python benchmarks/dfs_depths.py PUZZLE [PUZZLE ...] [--seeds 1 2 3] [--cpu-s 30] [--chunk 65536] [--band 16]
    [--set KEY=VALUE ...]
Per puzzle and seed: the recipe a run's producer resolves (``recipe: auto``; a derived recipe's pilot first,
its chosen attempt continued, as a run does), then ``--cpu-s`` CPU s of DFS in chunks of ``--chunk``
placements; the depth the search stands at after each chunk is one sample, so the samples split the
placements by depth. One JSON line: the recipe, the share of samples per band of ``--band`` depths (``share``,
from depth 0), the first depth where breaks are allowed, the deepest partial (pieces, hints included),
attempts and placements per CPU s. It says where an attempt's time goes: a search that spends its
placements far below its deepest partial is re-ordering a prefix, one that spends them near it is
trying to get past a wall.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from dfs_bench import dfs_section  # benchmarks/ is the script's folder: sys.path[0]

from e2opt import read_puzzle
from e2opt.config.schema import build
from e2opt.construct.dfs import kernel as k
from e2opt.construct.dfs.build import resolve
from e2opt.construct.dfs.config import DfsConfig
from e2opt.construct.dfs.pilot import first_break
from e2opt.construct.dfs.search import recipe_dfs


def depth_shares(depths: list[int], depth: int, band: int) -> list[float]:
    """The share of ``depths`` in each band of ``band`` depths from 0 to ``depth`` (the last band may be short)."""
    counts = np.bincount(np.asarray(depths, dtype=np.int64) // band, minlength=(depth + band - 1) // band + 1)
    return [round(float(c), 4) for c in counts / max(len(depths), 1)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", nargs="+")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--cpu-s", type=float, default=30.0)
    ap.add_argument("--chunk", type=int, default=1 << 16)
    ap.add_argument("--band", type=int, default=16)
    ap.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    cfg = build(DfsConfig, dfs_section(args.sets), "--set")
    for path in args.puzzles:
        puzzle = read_puzzle(path)
        for seed in args.seeds:
            run_seed = int(np.random.default_rng(seed).integers(2**62))  # build_dfs's draw from the run's rng
            ranked, _ = resolve(puzzle, cfg, run_seed, None)
            recipe, arrays = ranked[0]
            dfs = recipe_dfs(puzzle, recipe, run_seed, arrays)
            before, start, depths, deepest = dfs.nodes, time.process_time(), [], dfs.deepest
            while time.process_time() - start < args.cpu_s:
                dfs.step(args.chunk)
                depths.append(int(dfs.st[8][k.DEPTH]))
                deepest = max(deepest, dfs.deepest)  # a new attempt starts its own deepest
            cpu = time.process_time() - start
            row = {"puzzle": puzzle.name, "seed": seed, "sets": args.sets,
                   "recipe": recipe.source.get("knobs") or recipe.source.get("recipe"),
                   "first_break": first_break(recipe, dfs.depth), "band": args.band,
                   "share": depth_shares(depths, dfs.depth, args.band),
                   "deepest": deepest + len(puzzle.hints), "attempts": dfs.attempts,
                   "nodes_per_s": round((dfs.nodes - before) / max(cpu, 1e-9)), "samples": len(depths)}  # fmt: skip
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
