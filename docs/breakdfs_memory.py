"""Memory of a long breakdfs DFS with harvesting (issue 24's target: RSS growth < 50 MB after 5 minutes).

python docs/breakdfs_memory.py WALL_S HARVEST_DIR OUT_CSV [SEED] [--set key=value ...]

Runs the DFS of config/eternity2_blackwood.yaml on E2 in this process (LongRun with its harvest folder,
checkpoints every 60 CPU s as in a run) for WALL_S wall seconds, and samples every 30 wall s its
VmRSS (/proc/self/status), its CPU seconds, placements, deepest partial and pool size: one CSV line per
sample, written as it comes. At the end one line: RSS at the first sample after 300 wall s, the last
and the peak, the growth, and the CPU seconds the process got.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from e2opt.breakdfs.longrun import LongRun
from e2opt.core.puzzle import read_puzzle
from e2opt.engine.loader import load_config

ROOT = Path(__file__).resolve().parents[1]
EVERY_S = 30.0
SETTLE_S = 300.0


def rss_mb() -> float:
    """This process's resident set, MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wall_s", type=float)
    ap.add_argument("harvest_dir", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("seed", type=int, nargs="?", default=1)
    ap.add_argument("--set", action="append", default=[])
    args = ap.parse_args()
    cfg = load_config(str(ROOT / "config" / "eternity2_blackwood.yaml"), args.set)
    puzzle = read_puzzle(cfg.instance)
    seed = int(np.random.default_rng(np.random.SeedSequence(args.seed)).integers(2**62))
    run = LongRun(puzzle, cfg.construct.breakdfs, seed, args.harvest_dir)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    samples: list[tuple[float, float]] = []
    out = args.out.open("w", encoding="utf-8")
    out.write("wall_s,cpu_s,rss_mb,placements,deepest_placed,pool,attempts\n")
    nh = len(puzzle.hints)
    next_at = [0.0]

    def sample() -> None:
        wall = time.perf_counter() - wall0
        rss = rss_mb()
        samples.append((wall, rss))
        dfs = run.dfs
        out.write(f"{wall:.1f},{time.process_time() - cpu0:.1f},{rss:.1f},{dfs.nodes},"
                  f"{len(run.best_codes) + nh},{len(run.pool.entries)},{dfs.attempts}\n")  # fmt: skip
        out.flush()

    def stop() -> bool:
        wall = time.perf_counter() - wall0
        if wall >= next_at[0]:
            sample()
            next_at[0] += EVERY_S
        return wall >= args.wall_s

    summary = run.run(stop=stop)
    run.pool.close()
    sample()
    out.close()
    settled = [s for s in samples if s[0] >= SETTLE_S] or samples
    first, last = settled[0], settled[-1]
    peak = max(r for _, r in samples)
    print(
        f"{len(samples)} samples over {last[0]:.0f} wall s, {time.process_time() - cpu0:.0f} CPU s, "
        f"{summary.nodes:,} placements, {summary.attempts} attempts, deepest {summary.deepest + nh} pieces, "
        f"pool {summary.kept}, harvested partials {sum(summary.counts['joins'].values())}; RSS at "
        f"{first[0]:.0f} s {first[1]:.1f} MB, at {last[0]:.0f} s {last[1]:.1f} MB "
        f"(growth {last[1] - first[1]:+.1f} MB), peak {peak:.1f} MB",
        flush=True,
    )


if __name__ == "__main__":
    main()
