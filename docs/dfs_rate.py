"""Kernel rate per depth band: E2, Blackwood's recipe, a fixed number of placements per seed.

python docs/dfs_rate.py [SEED ...] [--placements 2e8]
Prints, per seed, CPU s and placements per CPU s in the bands < 150, 150-200, > 200 (depth at the end of
each chunk), in the format of the earlier docs/breakdfs_rate.py (commit 012ce0b), so that the two can run
side by side, one per core: ``cd <worktree at 012ce0b> && PYTHONPATH=. python docs/breakdfs_rate.py SEED N``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from e2opt.construct.dfs.config import DfsConfig
from e2opt.construct.dfs.longrun import LongRun
from e2opt.construct.dfs.recipes import preset_recipe
from e2opt.core.formats.read import read_puzzle


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("seeds", type=int, nargs="*", default=[14])
    ap.add_argument("--placements", type=float, default=2e8)
    args = ap.parse_args()
    puzzle = read_puzzle(Path(__file__).resolve().parents[1] / "instances" / "eternity2.txt")
    cfg = DfsConfig(
        recipe="blackwood", abort=(), privileged=()
    )  # as the earlier script: derived colours, one attempt
    recipe = preset_recipe(cfg, puzzle, "blackwood")
    for seed in args.seeds:
        run = LongRun(puzzle, recipe, cfg.harvest, seed)
        run.run(max_nodes=1000)  # compile / load the kernel outside the timing
        run.band = {name: [0, 0.0] for name in run.band}
        began = time.process_time()
        summary = run.run(max_nodes=int(args.placements), chunk=1 << 21)
        cpu = time.process_time() - began
        print(f"seed {seed}: {summary.nodes:,} placements in {cpu:.1f} CPU s = {summary.nodes / cpu / 1e6:.1f} M/s, "
              f"deepest {summary.deepest}")  # fmt: skip
        for name, (n, t) in run.band.items():
            print(
                f"  depth {name:>8}: {n / 1e6:8.1f} M placements  {t:6.1f} CPU s  {n / max(t, 1e-9) / 1e6:5.1f} M/s"
            )


if __name__ == "__main__":
    main()
