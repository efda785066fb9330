"""The clique move against the CP-SAT region move on the same windows of a board (docs/clique.md).

    PYTHONPATH=. .venv/bin/python benchmarks/clique_move_bench.py instances/eternity2.txt \\
        benchmarks/results/clique/boards/eternity2_458_s1.board --windows 100 --qs 10000 100000 --out benchmarks/results/clique/clique_move_458.jsonl

Windows are drawn by the clique move's own rule (centre weighted by mismatches, W x H around it; seeded).
On each window, from the same board every time, each contender runs once and its effect is undone:
``region det=D`` = the region move's repair of that window (CP-SAT warm-started from the board, one thread,
deterministic limit D: 0.1 is the move's default, a large D shows what the window allows), ``clique q=Q`` = the clique move's repair (graph, GLP with
q selections, holes filled by the region model; put back when it would lose joins). Gain = joins won on
that window (never negative for either), CPU = time.process_time of the call (CP-SAT threads included).
One process; one JSON line per window and contender, written as it comes; a summary table at the end
(``--table FILE.jsonl`` prints it again).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

from e2opt import read_board, read_puzzle
from e2opt.search.config import SearchConfig
from e2opt.search.moves import MovesConfig
from e2opt.search.moves.clique import CliqueMove, CliqueMoveConfig
from e2opt.search.moves.region import RegionMoveConfig, repair
from e2opt.search.tabu import TabuSearch


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzle", nargs="?")
    ap.add_argument("board", nargs="?")
    ap.add_argument("--table", metavar="JSONL", help="only print the summary of a results file")
    ap.add_argument("--windows", type=int, default=100)
    ap.add_argument("--size", type=int, nargs=2, default=[6, 6], metavar=("H", "W"))
    ap.add_argument("--qs", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--region-dets",
        type=float,
        nargs="+",
        default=[0.1],
        help="CP-SAT deterministic limits of the region contenders (0.1: the move's default)",
    )
    ap.add_argument("--out")
    args = ap.parse_args()
    if args.table:
        text = Path(args.table).read_text(encoding="utf-8")
        print(summary([json.loads(x) for x in text.splitlines() if x.strip()]))
        return
    puzzle, board = read_puzzle(args.puzzle), read_board(args.board)
    h, w = args.size
    regions = {
        f"region det={d:g}": RegionMoveConfig(
            sizes=(max(h, w),), deterministic_limit=d, time_limit_wall_s=60.0 * d
        )
        for d in args.region_dets
    }
    moves = MovesConfig(assignment=None, clique=CliqueMoveConfig(height=h, width=w))
    search = TabuSearch(puzzle, board, SearchConfig(moves=moves), np.random.default_rng(args.seed))
    ctx, drawer = search.ctx, search.moves[0]
    cliques = {q: CliqueMove(ctx, CliqueMoveConfig(height=h, width=w, selections=q)) for q in args.qs}
    rows = []
    start_score = search.state.score
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115 (a line per result, as it comes)
    for k in range(args.windows):
        cells = drawer.window()
        drawer.mark_window(cells)  # the next window goes elsewhere
        old_piece, old_rot = ctx.state.piece[cells].copy(), ctx.state.rot[cells].copy()
        for name, move in [
            *((r, None) for r in regions),
            *((f"clique q={q}", m) for q, m in cliques.items()),
        ]:
            holes = move.filled if move else 0
            t0 = time.process_time()
            gain = (
                move.repair(cells)
                if move
                else repair(ctx, cells, regions[name].time_limit_wall_s, regions[name].deterministic_limit)
            )
            cpu = time.process_time() - t0
            ctx.place(cells, old_piece, old_rot)
            assert ctx.recompute() == start_score
            rows.append(
                {
                    "window": k,
                    "cells": len(cells),
                    "move": name,
                    "gain": gain,
                    "cpu_s": cpu,
                    "holes": (move.filled - holes) if move else None,
                }
            )
            if out:
                out.write(json.dumps(rows[-1]) + "\n")
                out.flush()
        print(
            f"window {k}: "
            + ", ".join(
                f"{r['move']} +{r['gain']} ({r['cpu_s']:.2f} s)" for r in rows[-len(regions) - len(cliques) :]
            ),
            flush=True,
        )
    if out:
        out.close()
    print(summary(rows))


def summary(rows: list[dict]) -> str:
    """Markdown: per contender, calls, CPU per call, windows improved, total gain, gain per CPU s."""
    out = [
        "| move | calls | median CPU s/call | mean CPU s/call | windows improved | joins won | joins per CPU s |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in dict.fromkeys(r["move"] for r in rows):
        mine = [r for r in rows if r["move"] == name]
        cpu = [r["cpu_s"] for r in mine]
        gain = sum(r["gain"] for r in mine)
        out.append(
            f"| {name} | {len(mine)} | {statistics.median(cpu):.3f} | {statistics.mean(cpu):.3f} | "
            f"{sum(r['gain'] > 0 for r in mine)} | {gain} | {gain / sum(cpu):.2f} |"
        )
    return "\n".join(out)


if __name__ == "__main__":
    main()
