"""Kernel rate per depth band on one fixed tree: E2, Blackwood's recipe, a seed whose attempt goes deep.

python docs/breakdfs_rate.py [SEED] [PLACEMENTS]   (defaults 14, 1e9; the same placements every time)
Prints CPU s and placements per CPU s in the bands < 150, 150-200, > 200 (depth at the end of each chunk).
"""

import sys
import time
from pathlib import Path

from e2opt.breakdfs.config import BreakDfsConfig
from e2opt.breakdfs.longrun import LongRun
from e2opt.core.puzzle import read_puzzle

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 14
total = int(float(sys.argv[2])) if len(sys.argv) > 2 else 10**9
puzzle = read_puzzle(Path(__file__).resolve().parents[1] / "instances" / "eternity2.txt")
run = LongRun(puzzle, BreakDfsConfig(), seed)
run.run(max_nodes=1000)  # compile / load the kernel outside the timing
run.band = {name: [0, 0.0] for name in run.band}
began = time.process_time()
summary = run.run(max_nodes=total, chunk=1 << 21)
cpu = time.process_time() - began
print(f"seed {seed}: {summary.nodes:,} placements in {cpu:.1f} CPU s = {summary.nodes / cpu / 1e6:.1f} M/s, deepest {summary.deepest}")
for name, (n, t) in run.band.items():
    print(f"  depth {name:>8}: {n / 1e6:8.1f} M placements  {t:6.1f} CPU s  {n / max(t, 1e-9) / 1e6:5.1f} M/s")
