"""One producer alone, on one core: build_dfs called again and again on one folder as a run's producer does
(the shipped ``construct.dfs`` section, ``--set`` changing its keys), until a CPU budget; one JSON line per
call with the completed board's score re-verified from the puzzle file, the lane of its partial and the
lanes' shares. Measures what the producer hands the repairers without the repairers' share of the machine.

python benchmarks/producer_alone.py PUZZLE DIR --seed S --cpu-s N [--set KEY=VALUE ...]   (ends with the summary)
python benchmarks/producer_alone.py --summary DIR...   (a line per folder: boards, mean, best, by lane)

Resumable: the same command again continues (DIR/calls.jsonl holds the calls made, DIR/harvest the DFS);
a call cut by a kill is made again from the DFS's last checkpoint.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from dfs_bench import dfs_section  # benchmarks/ is the script's folder: sys.path[0]

from e2opt import read_puzzle
from e2opt.config.schema import build
from e2opt.construct.dfs.build import build_dfs
from e2opt.construct.dfs.config import DfsConfig
from e2opt.core.board import format_board
from e2opt.core.verify import verify_texts


def summary(folder: Path) -> str:
    rows = [json.loads(line) for line in (folder / "calls.jsonl").read_text(encoding="utf-8").splitlines()]
    scores = [r["score"] for r in rows]
    lanes = defaultdict(list)
    for r in rows:
        lanes[r["lane"]].append(r["score"])
    per_lane = ", ".join(
        f"lane {i}: {len(s)} mean {statistics.mean(s):.1f} best {max(s)}" for i, s in sorted(lanes.items())
    )
    return (f"{folder.name}: {len(rows)} boards in {rows[-1]['cpu_total_s']:.0f} CPU s, mean "
            f"{statistics.mean(scores):.1f}, best {max(scores)}, last shares {rows[-1]['shares']}; {per_lane}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("puzzle", nargs="?")
    ap.add_argument("dir", nargs="?")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cpu-s", type=float, default=3600.0)
    ap.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--summary", nargs="+", default=None)
    args = ap.parse_args()
    if args.summary:
        print("\n".join(summary(Path(d)) for d in args.summary))
        return
    puzzle, text = read_puzzle(args.puzzle), Path(args.puzzle).read_text(encoding="utf-8")
    cfg = build(DfsConfig, dfs_section(args.sets), "--set")
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "calls.jsonl"
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
    total = rows[-1]["cpu_total_s"] if rows else 0.0
    while total < args.cpu_s:
        began = time.process_time()
        rng = np.random.default_rng([args.seed, len(rows)])
        board, info = build_dfs(puzzle, cfg, rng, None, folder, None)
        total += time.process_time() - began
        checked = verify_texts(text, format_board(board))
        row = {"call": len(rows), "score": checked.score, "valid": checked.valid, "lane": info["completion"]["lane"],
               "placed": info["best_placed"], "shares": info["lane_shares"], "cpu_total_s": round(total, 1),
               "chosen": info["pilot"].get("chosen"), "lane_recipes": info["lane_recipes"]}  # fmt: skip
        with log.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        rows.append(row)
        (folder / f"{len(rows):04d}_{checked.score}.board").write_text(format_board(board), encoding="utf-8")
    print(summary(folder))


if __name__ == "__main__":
    main()
