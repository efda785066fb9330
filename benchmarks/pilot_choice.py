"""What the pilot chooses on a puzzle, seed by seed: the winning candidate, how deep its attempt got, and
how deep every candidate's got by the round it was dropped in.

python benchmarks/pilot_choice.py PUZZLE [PUZZLE ...] [--seeds 1 2 3] [--set KEY=VALUE ...] [--label L]
    [--complete K]
One JSON line per puzzle and seed: the chosen candidate, its deepest partial's pieces (hints included),
matched joins and breaks, every candidate's pieces when it was dropped (``reached``, the candidates' order)
and the pilot's CPU s. With ``--complete K``, the deepest partials of the pilot's first K recipes in its
ranking (the winner, then the others that got past their first break: pilot.calibrate) are each completed
as a producer completes one (complete.py, the section's harvest settings) and the line lists them,
``finalists``: does the pilot's ranking by joins agree with the ranking by completed board?
The pilot is the one a run's producer calls (``recipe: derived``, the section's ``pilot`` settings), seeded
as ``dfs_bench.py`` seeds it, so a seed's choice here is the one that bench's construction makes.
``--set`` sets a key of the ``construct.dfs`` section (``--set pilot.draws=2``).
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from dfs_bench import dfs_section  # benchmarks/ is the script's folder: sys.path[0]

from e2opt import read_puzzle
from e2opt.config.schema import build
from e2opt.construct.dfs.complete import complete
from e2opt.construct.dfs.config import DfsConfig
from e2opt.construct.dfs.pilot import Ranked, calibrate
from e2opt.construct.dfs.search import recipe_dfs
from e2opt.core.puzzle import Puzzle


def finalists(puzzle: Puzzle, cfg: DfsConfig, ranked: Ranked, k: int, seed: int) -> list[dict]:
    """The first ``k`` ranked recipes' deepest partials, each completed: its knobs, pieces (hints included),
    the partial's joins, the filled board's score and the completed (repaired) board's."""
    out = []
    for recipe, arrays in ranked[:k]:
        if arrays is None:  # a relaxed or preset recipe: no attempt to complete
            continue
        dfs = recipe_dfs(puzzle, recipe, 0, arrays)
        partial = dfs.board(dfs.deepest_codes())
        _, info = complete(puzzle, partial, cfg.harvest, np.random.default_rng(seed), order=dfs.order)
        out.append({"knobs": recipe.source.get("knobs"), "placed": dfs.deepest + len(puzzle.hints),
                    "joins": info["partial_joins"], "filled": info["filled_score"],
                    "completed": info["score"]})  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", nargs="+")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--label", default=None)
    ap.add_argument("--complete", type=int, default=0, metavar="K", help="complete the first K ranked")
    args = ap.parse_args()
    cfg = build(DfsConfig, dfs_section(args.sets, recipe="derived"), "--set")
    for path in args.puzzles:
        puzzle = read_puzzle(path)
        for seed in args.seeds:
            run_seed = int(np.random.default_rng(seed).integers(2**62))  # build_dfs's draw from the run's rng
            ranked, report = calibrate(puzzle, cfg, run_seed)
            trials = report.get("trials", [])
            won = next((t for t in trials if t["dropped"] is None), None)
            row = {"puzzle": puzzle.name, "seed": seed, "label": args.label, "sets": args.sets,
                   "chosen": report.get("chosen"), "relaxed": "relaxed" in report,
                   "placed": won and won["placed"], "joins": won and won["joins"], "breaks": won and won["breaks"],
                   "reached": [t["placed"] for t in trials], "cpu_s": report["cpu_s"]}  # fmt: skip
            if args.complete:
                row["finalists"] = finalists(puzzle, cfg, ranked, args.complete, seed)
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
