"""Kernel rate per depth band: E2, Blackwood's recipe, a fixed number of placements per seed.

python benchmarks/dfs_rate.py [SEED ...] [--placements 2e8] [--puzzle instances/eternity2.txt] [--derived-colours]
    [--backjump] [--recipe RUN/worker1/harvest/recipe.json]
Prints, per seed, CPU s and placements per CPU s in the bands < 150, 150-200, > 200 (depth at the end of
each chunk) and a fingerprint of the tree visited (dead ends per depth, the stack and the deepest partial
at the end): two kernels that visit the same nodes print the same fingerprint. Run the kernel before
beside it, one per core: ``PYTHONPATH=<worktree of the kernel before> python benchmarks/dfs_rate.py ...``.
The default is the preset as ``recipe: auto`` runs it on E2 (its privileged colours; one attempt, no abort
marks): it is past depth 200 within a few CPU s on most seeds. ``--derived-colours`` is the earlier
script's recipe (privileged colours derived), which stays below depth 200 for 2e8 placements.
``--backjump``: the same recipe with conflict-directed backjumping (the kernel's jump variant). ``--recipe``:
the recipe a run's pilot chose (its folder's ``recipe.json``) in place of the preset, its abort marks and
node budget dropped (one attempt), backjumping as ``--backjump`` says.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import time
from pathlib import Path

from e2opt import read_puzzle
from e2opt.construct.dfs.config import DfsConfig
from e2opt.construct.dfs.longrun import LongRun
from e2opt.construct.dfs.recipes import preset_recipe
from e2opt.construct.dfs.rules import Recipe


def fingerprint(run: LongRun) -> str:
    """Dead ends per depth, the placed codes on the stack and the deepest partial, hashed."""
    dfs = run.lanes[0]
    st = dict(zip(("dead", "pc", "ctr"), (dfs.st[10], dfs.st[6], dfs.st[8]), strict=True))
    h = hashlib.sha256()
    for a in (st["dead"], st["pc"][: int(st["ctr"][0])], run.best_codes):
        h.update(a.astype("int64").tobytes())
    return h.hexdigest()[:12]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seeds", type=int, nargs="*", default=[14])
    ap.add_argument("--placements", type=float, default=2e8)
    ap.add_argument(
        "--puzzle", type=Path, default=Path(__file__).resolve().parents[1] / "instances" / "eternity2.txt"
    )
    ap.add_argument("--derived-colours", action="store_true")
    ap.add_argument("--backjump", action="store_true")
    ap.add_argument("--recipe", type=Path)
    args = ap.parse_args()
    puzzle = read_puzzle(args.puzzle)
    cfg = DfsConfig(
        recipe="blackwood", abort=(), privileged=() if args.derived_colours else None, backjump=args.backjump
    )
    recipe = preset_recipe(cfg, puzzle, "blackwood")
    if args.recipe is not None:
        chosen = Recipe.from_dict(json.loads(args.recipe.read_text())["recipe"])
        recipe = dataclasses.replace(chosen, abort=(), node_budget=10**15, backjump=args.backjump)
    for seed in args.seeds:
        run = LongRun(puzzle, recipe, cfg.harvest, seed)
        run.run(max_nodes=1000)  # compile / load the kernel outside the timing
        run.band = {name: [0, 0.0] for name in run.band}
        began = time.process_time()
        summary = run.run(max_nodes=int(args.placements), chunk=1 << 21)
        cpu = time.process_time() - began
        print(f"seed {seed}: {summary.nodes:,} placements in {cpu:.1f} CPU s = {summary.nodes / cpu / 1e6:.1f} M/s, "
              f"deepest {summary.deepest}, fingerprint {fingerprint(run)}")  # fmt: skip
        for name, (n, t) in run.band.items():
            print(
                f"  depth {name:>8}: {n / 1e6:8.1f} M placements  {t:6.1f} CPU s  {n / max(t, 1e-9) / 1e6:5.1f} M/s"
            )


if __name__ == "__main__":
    main()
