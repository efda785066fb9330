"""The DFS construction alone on named puzzles: pieces placed within its CPU share, then the completed score.

python benchmarks/dfs_bench.py PUZZLE... [--seeds 1 2 3] [--dfs-s 60] [--total-s 120] [--recipe auto] [--order O]
  [--set KEY=VALUE ...] [--label L] [--out F.jsonl] [--boards DIR]
python benchmarks/dfs_bench.py --summary F.jsonl...    (a markdown table per puzzle: pieces placed, score, medians)

Per puzzle and seed: construct.dfs with ``time_limit_cpu_s`` = --dfs-s (the pilot of a derived recipe counted
in it) inside a construction deadline of --total-s CPU s (the completion of the best partial: CP-SAT 5 s,
tabu repair 10 s); one JSON line with the recipe, the pilot, the deepest partial (pieces, hints included),
nodes per CPU s and the completed board's score, re-checked from the puzzle file by the independent
verifier. Boards go to --boards. ``--set`` sets any other key of the ``construct.dfs`` section (YAML values,
e.g. ``--set clue_breaks=1 --set clue_zone=2``); ``--label`` names the variant in the rows and board names.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from e2opt import read_puzzle
from e2opt.config.schema import build, set_dotted
from e2opt.construct.dfs.build import build_dfs
from e2opt.construct.dfs.config import DfsConfig
from e2opt.core.board import format_board
from e2opt.core.verify import verify_texts
from e2opt.engine.loader import parse_override


def summary(paths: list[str]) -> str:
    """Per puzzle and variant (``--label``), in the order first seen: the seeds' pieces placed and scores,
    and their medians."""
    rows: dict[str, list[dict]] = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            label = f" ({row['label']})" if row.get("label") else ""
            rows.setdefault(row["puzzle"] + label, []).append(row)
    out = ["| puzzle | recipe (pilot's choice per seed) | seeds | pieces placed in 60 CPU s | median | completed score | median |",
           "|---|---|---|---|---|---|---|"]  # fmt: skip
    for name, found in rows.items():
        found.sort(key=lambda r: r["seed"])
        placed, scores = [r["placed"] for r in found], [r["score"] for r in found]
        recipes = "; ".join(sorted({r.get("knobs") or r["recipe"] for r in found}))
        out.append(f"| {name} | {recipes} | {', '.join(str(r['seed']) for r in found)} | "
                   f"{', '.join(map(str, placed))} | {statistics.median(placed):g} | "
                   f"{', '.join(map(str, scores))} | {statistics.median(scores):g} |")  # fmt: skip
    return "\n".join(out)


def dfs_section(sets: list[str], **base) -> dict:
    """The ``construct.dfs`` section that ``--set KEY=VALUE`` items make over ``base`` (the CLI's parse of a
    value); pilot_choice.py and dfs_depths.py read their ``--set`` with it too."""
    section = dict(base)
    for item in sets:
        set_dotted(section, *parse_override(item))
    return section


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("puzzles", nargs="*")
    ap.add_argument("--summary", nargs="+", default=None)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--dfs-s", type=float, default=60.0)
    ap.add_argument("--total-s", type=float, default=120.0)
    ap.add_argument("--recipe", default="auto")
    ap.add_argument("--order", default=None, help="the DFS's fill order (default: the recipe's)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--boards", default=None)
    ap.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--label", default=None, help="the variant's name in the rows (default: the recipe)")
    args = ap.parse_args()
    section = dfs_section(args.sets)
    if args.summary:
        print(summary(args.summary))
        return
    out = open(args.out, "a", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
    for path in args.puzzles:
        puzzle = read_puzzle(path)
        text = Path(path).read_text(encoding="utf-8")
        for seed in args.seeds:
            cfg = build(DfsConfig, {**section, "recipe": args.recipe, "time_limit_cpu_s": args.dfs_s, "order": args.order,
                                    "harvest": {"complete": 1, "cpsat_wall_s": 5.0, "repair_cpu_s": 10.0}}, "--set")  # fmt: skip
            began = time.process_time()
            board, info = build_dfs(puzzle, cfg, np.random.default_rng(seed), args.total_s, None, None)
            cpu = time.process_time() - began
            board_text = format_board(board)
            checked = verify_texts(text, board_text)
            if args.boards:
                Path(args.boards).mkdir(parents=True, exist_ok=True)
                name = f"{puzzle.name}_{args.label or args.recipe}_{args.order or 'order'}_s{seed}_{checked.score}.board"
                (Path(args.boards) / name).write_text(board_text, encoding="utf-8")
            row = {
                "puzzle": puzzle.name, "seed": seed, "recipe": info["recipe"].get("recipe"), "order": args.order,
                "label": args.label, "sets": args.sets,
                "knobs": info["recipe"].get("knobs"), "placed": info["best_placed"],
                "nodes_per_s": info["nodes_per_s"], "bands": info["band_nodes_per_s"], "pilot_cpu_s": info["pilot"].get("cpu_s", 0.0),
                "dfs_cpu_s": info["dfs_cpu_s"], "score": checked.score, "valid": checked.valid,
                "cpu_s": round(cpu, 1), "breaks": info["recipe"]["breaks"], "quota": info["recipe"]["quota"],
                "pilot": info["pilot"].get("trials", []),
            }  # fmt: skip
            out.write(json.dumps(row) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
