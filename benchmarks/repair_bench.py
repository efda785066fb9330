"""Gain per CPU second of the repair moves (docs/repair.md) on strong boards, side by side with today's mix.

    python benchmarks/repair_bench.py --boards B1.board B2.board --cpu-s 30 --out benchmarks/results/repair/bench.jsonl
    python benchmarks/repair_bench.py --probe --boards B.board --cpu-s 4

``--probe``: each repair move's calls from the board itself (put back after every call, no search loop, tabu
floor off): calls per CPU second, the share of calls whose annealing got back to the input's score or above,
the share that ended on another board of equal score (a sideways move), the median best of the annealing.

For each start board, each variant (--set overrides of config/eternity2.yaml's search section, listed in
VARIANTS) searches ``--cpu-s`` CPU seconds (process time, one process) from that board with the search
seed ``--seed``; variants are interleaved board by board so every variant sees the same machine load. One
JSON line per search (start, best, gain, gain per CPU s, moves per CPU s, per-move totals) is appended to
``--out`` as it ends, and a table is printed at the end. Every final best board is re-checked by the verifier.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

from e2opt import load_config, read_board, read_puzzle
from e2opt.core.board import format_board
from e2opt.core.puzzle import format_puzzle
from e2opt.core.verify import verify_texts
from e2opt.search.moves import MOVES
from e2opt.search.stop import AnyOf, Clock, MaxCpuTime, TargetScore
from e2opt.search.tabu import TabuSearch
from e2opt.search.warm import warm_moves

ROOT = Path(__file__).resolve().parents[1]
REPAIRS = [name for name in MOVES if name.startswith("repair_")]
_OFF = [f"search.moves.{m}=null" for m in ("assignment", "tsr", "region", "border")]
_ALL = [f"search.moves.{m}.weight=1" for m in REPAIRS]
VARIANTS = {  # --set overrides of the config
    "default": [],  # today's mix: assignment 1, tsr 0.2, region 0.3, border 0.05, fixed, tabu
    **{m: [*_OFF, f"search.moves.{m}.weight=1"] for m in REPAIRS},  # each repair move alone, tabu
    "mix": [*_OFF, *_ALL, "search.schedule.kind=adaptive"],  # all six, Ropke-Pisinger roulette, tabu
    "default_plus": [  # today's mix plus the six at weight 0.1 each, adaptive
        *[f"search.moves.{m}.weight=0.1" for m in REPAIRS], "search.schedule.kind=adaptive",
    ],
    "mix_sa": [  # all six under the outer annealing (T 1.0 -> 0.2, two reheats)
        *_OFF, *_ALL, "search.schedule.kind=adaptive", "search.acceptance.kind=annealing",
        "search.acceptance.t_start=1.0", "search.acceptance.t_end=0.2", "search.acceptance.reheats=2",
    ],
    # follow-ups on one board (docs/repair.md): fewer diversifications, annealing from the board, constant T
    "pairs_plateau": [*_OFF, "search.moves.repair_pairs.weight=1", "search.plateau=30000"],
    "window_keep": [*_OFF, "search.moves.repair_window.weight=1", "search.moves.repair_window.shuffle=false"],
    "bfs_keep": [*_OFF, "search.moves.repair_bfs.weight=1", "search.moves.repair_bfs.shuffle=false"],
    "mix_sa_t1": [
        *_OFF, *_ALL, "search.schedule.kind=adaptive", "search.acceptance.kind=annealing",
        "search.acceptance.t_start=1.0", "search.acceptance.t_end=1.0", "search.plateau=30000",
    ],
}  # fmt: skip

FIRST = ["default", *REPAIRS, "mix", "default_plus", "mix_sa"]  # the side-by-side run of docs/repair.md


def one(puzzle, board, cfg, seed: int, cpu_s: float) -> dict:
    """One search from board for cpu_s CPU seconds; what it reached."""
    search = TabuSearch(puzzle, board, cfg, np.random.default_rng(seed))
    start = search.state.best_score
    clock = Clock()
    result = search.run(AnyOf(MaxCpuTime(cpu_s), TargetScore(puzzle.max_score)), clock)
    cpu = clock.cpu()
    report = verify_texts(format_puzzle(puzzle), format_board(result.best_board))
    assert report.valid and report.score == result.best_score, report
    return {
        "start": start,
        "best": result.best_score,
        "gain": result.best_score - start,
        "gain_per_cpu_s": round((result.best_score - start) / cpu, 4),
        "cpu_s": round(cpu, 2),
        "moves_per_cpu_s": round(result.moves_per_s, 1),
        "best_cpu_s": round(search.state.time_to_best_cpu, 2),
        "moves": result.moves,
    }


def probe(path: str, cpu_s: float, config: str) -> None:
    """Repair calls from the same board, one move at a time (see the module docstring)."""
    from e2opt.search.config import SearchConfig
    from e2opt.search.moves import MovesConfig

    puzzle = read_puzzle(load_config(config).instance)
    board = read_board(path)
    for name in REPAIRS:
        cfg = SearchConfig(moves=MovesConfig(assignment=None, **{name: MOVES[name].settings()}))
        search = TabuSearch(puzzle, board, cfg, np.random.default_rng(1))
        move, st = search.moves[0], search.state
        kept = st.piece.copy(), st.rot.copy()
        bests, sideways, start = [], 0, time.process_time()
        while time.process_time() - start < cpu_s:
            delta = move.repair(move.destroy(), floor=False)
            bests.append(int(move.stats[0]))
            sideways += delta == 0 and not np.array_equal(st.piece, kept[0])
            st.piece[:], st.rot[:] = kept
            search.ctx.recompute()
        cpu = time.process_time() - start
        back = sum(b >= 0 for b in bests)
        print(
            f"| {name} | {len(bests) / cpu:,.0f} | {back / len(bests):.1%} | {sideways / len(bests):.1%} | "
            f"{statistics.median(bests):+g} | {max(bests):+d} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="+", required=True)
    parser.add_argument("--config", default="config/eternity2.yaml")
    parser.add_argument("--cpu-s", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", nargs="+", default=FIRST, choices=list(VARIANTS))
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "repair" / "bench.jsonl"))
    parser.add_argument("--probe", action="store_true", help="repair calls from the board, no search loop")
    args = parser.parse_args()
    warm_moves(MOVES)
    if args.probe:
        print("| move | calls per CPU s | back to the input or above | sideways | median best | max best |")
        print("|---|---:|---:|---:|---:|---:|")
        for path in args.boards:
            probe(path, args.cpu_s, args.config)
        return
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows: dict[str, list[dict]] = {v: [] for v in args.variants}
    for path in args.boards:
        for name in args.variants:
            run = load_config(args.config, VARIANTS[name])
            puzzle = read_puzzle(run.instance)
            row = {"board": path, "variant": name, "seed": args.seed, "budget_cpu_s": args.cpu_s}
            row.update(one(puzzle, read_board(path), run.search, args.seed, args.cpu_s))
            rows[name].append(row)
            with out.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
            print(
                f"{time.strftime('%H:%M:%S')} {Path(path).name} {name}: {row['start']} -> {row['best']} "
                f"({row['gain']:+d} at {row['best_cpu_s']} s), {row['moves_per_cpu_s']:,.0f} moves/CPU-s",
                flush=True,
            )
    names = " | ".join(Path(p).name for p in args.boards)
    print(f"\n| variant | {names} | median gain | gain per CPU s (mean) | moves per CPU s (median) |")
    print("|---|" + "---:|" * (len(args.boards) + 3))
    for name, got in rows.items():
        cells = " | ".join(f"{r['start']} -> {r['best']}" for r in got)
        print(
            f"| {name} | {cells} | {statistics.median(r['gain'] for r in got):+g} | "
            f"{statistics.mean(r['gain_per_cpu_s'] for r in got):.4f} | "
            f"{statistics.median(r['moves_per_cpu_s'] for r in got):,.0f} |"
        )


if __name__ == "__main__":
    main()
