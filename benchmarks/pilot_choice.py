"""What the pilot chooses on a puzzle, seed by seed: the winning candidate, how deep its attempt got, and
how deep every candidate's got by the round it was dropped in.

python benchmarks/pilot_choice.py PUZZLE [PUZZLE ...] [--seeds 1 2 3] [--set KEY=VALUE ...] [--label L]
One JSON line per puzzle and seed: the chosen candidate, its deepest partial's pieces (hints included),
matched joins and breaks, every candidate's pieces when it was dropped (``reached``, the candidates' order)
and the pilot's CPU s.
The pilot is the one a run's producer calls (``recipe: derived``, the section's ``pilot`` settings), seeded
as ``dfs_bench.py`` seeds it, so a seed's choice here is the one that bench's construction makes.
``--set`` sets a key of the ``construct.dfs`` section (``--set pilot.draws=2``).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from e2opt import read_puzzle
from e2opt.config.schema import build, set_dotted
from e2opt.construct.dfs.config import DfsConfig
from e2opt.construct.dfs.pilot import calibrate
from e2opt.engine.loader import parse_override


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzles", nargs="+")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--label", default=None)
    args = ap.parse_args()
    section: dict = {"recipe": "derived"}
    for item in args.sets:
        set_dotted(section, *parse_override(item))
    cfg = build(DfsConfig, section, "--set")
    for path in args.puzzles:
        puzzle = read_puzzle(path)
        for seed in args.seeds:
            run_seed = int(np.random.default_rng(seed).integers(2**62))  # build_dfs's draw from the run's rng
            _, report = calibrate(puzzle, cfg, run_seed)
            trials = report.get("trials", [])
            won = next((t for t in trials if t["dropped"] is None), None)
            row = {"puzzle": puzzle.name, "seed": seed, "label": args.label, "sets": args.sets,
                   "chosen": report.get("chosen"), "relaxed": "relaxed" in report,
                   "placed": won and won["placed"], "joins": won and won["joins"], "breaks": won and won["breaks"],
                   "reached": [t["placed"] for t in trials], "cpu_s": report["cpu_s"]}  # fmt: skip
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
