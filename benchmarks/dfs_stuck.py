"""How deep each of the pilot's candidate recipes gets in a short fresh attempt, seed by seed.

python benchmarks/dfs_stuck.py PUZZLE [PUZZLE ...] [--seeds 1 2 3 4] [--nodes 13500000] [--backjump]
Prints one line per candidate (as the pilot ranks them on that puzzle) with the pieces placed (hints
included) by its deepest partial after ``--nodes`` placements of one attempt per seed (the default, about
0.3 CPU s here, is what the pilot's first round gives a candidate). An attempt that stays
at the same shallow depth on every seed is thrashing: a cell constrained by a hint fails and the search
backtracks through cells that cannot change why (docs/dfs.md "Backjumping"). ``--backjump`` runs the
candidates with ``construct.dfs.backjump: true``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from e2opt import read_puzzle
from e2opt.construct.dfs.candidates import candidates, derived_recipe
from e2opt.construct.dfs.config import DfsConfig
from e2opt.construct.dfs.pilot import Attempt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", type=Path, nargs="+")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument("--nodes", type=lambda v: int(float(v)), default=13_500_000)  # 1.35e7 too
    ap.add_argument("--backjump", action="store_true")
    args = ap.parse_args()
    for path in args.puzzles:
        puzzle = read_puzzle(path)
        cands = candidates(puzzle, 99)
        print(
            f"{path.stem}: {len(puzzle.hints)} hints, {len(cands)} candidates, {args.nodes:,} placements per attempt"
        )
        for knobs in cands:
            recipe = derived_recipe(puzzle, DfsConfig(backjump=args.backjump), knobs)
            placed = [Attempt(puzzle, recipe, knobs, s).advance(args.nodes).placed for s in args.seeds]
            print(f"  {knobs.label():<110} placed {placed}")


if __name__ == "__main__":
    main()
