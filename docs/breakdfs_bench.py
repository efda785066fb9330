"""Figures of docs/breakdfs.md: the breakdfs construction per seed, its board re-verified, one JSON line each.

python docs/breakdfs_bench.py CONFIG CPU_S SEED... [--set key=value ...] >> docs/breakdfs_data/FILE.jsonl
The DFS gets CPU_S CPU seconds (construct.breakdfs.time_limit_s), the completions their own settings;
each board is written to docs/breakdfs_data/boards/ (check: e2opt verify PUZZLE BOARD).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from e2opt.construct import construct
from e2opt.core.board import format_board, score, write_board
from e2opt.core.puzzle import format_puzzle, read_puzzle
from e2opt.core.verify import verify_texts
from e2opt.engine.loader import load_config
from e2opt.search.tabu import warm_up

BOARDS = Path(__file__).resolve().parent / "breakdfs_data" / "boards"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("config")
    ap.add_argument("cpu_s", type=float)
    ap.add_argument("seeds", type=int, nargs="+")
    ap.add_argument("--set", action="append", default=[])
    args = ap.parse_args()
    cfg = load_config(args.config, [*args.set, f"construct.breakdfs.time_limit_s={args.cpu_s}"])
    puzzle = read_puzzle(cfg.instance)
    warm_up()
    for seed in args.seeds:
        rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(2)[0])
        began = time.process_time()
        board, info = construct(puzzle, cfg.construct, rng)
        report = verify_texts(format_puzzle(puzzle), format_board(board))
        out = BOARDS / f"{puzzle.name}_s{seed}_{args.cpu_s:g}s_{score(puzzle, board)}.board"
        out.parent.mkdir(parents=True, exist_ok=True)
        write_board(board, out)
        row = {"instance": puzzle.name, "seed": seed, "dfs_cpu_s": args.cpu_s, "sets": args.set,
               "board": str(out.relative_to(BOARDS.parents[1])), "verified": report.valid, "verified_score": report.score, "score": score(puzzle, board),
               "total_cpu_s": round(time.process_time() - began, 2), **info}  # fmt: skip
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
