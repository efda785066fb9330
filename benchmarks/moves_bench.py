"""Measurements of the moves (docs/moves.md): region repair alone, swap-and-rotate speed, move mixes.

    python benchmarks/moves_bench.py region --board B.board --sizes 4 5 --calls 60 --det 0.1
    python benchmarks/moves_bench.py tsr --board B.board --cpu-s 5    (--board random: from a random board)
    python benchmarks/moves_bench.py border --board B.board --stretches 0 20 --calls 3 --det 1.0
    python benchmarks/moves_bench.py mix --cpu-s 120 --seeds 1 2 3 --variants today tsr ro all
    python benchmarks/moves_bench.py fixed --moves 60000 --seed 1

``region`` repairs random windows (mismatch-biased, as the move draws them) of the given board without
applying them: share of calls that improve, CP-SAT seconds per call (solver wall inside solve_region,
one worker) and CPU seconds per call (model building included). ``tsr`` runs the swap-and-rotate move alone
from the board for first and best improvement. ``mix`` runs each variant (a list of --set overrides of
config/eternity2.yaml's search section) from the same random boards, interleaved seed by seed in one
process so that every variant sees the same machine load; CPU budgets are process time. ``fixed`` runs a
fixed number of moves of the config's search from a random board and prints the CPU s they took: two
versions of the code compared on the same work (run one per core, at the same time).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from e2opt import load_config, read_board, read_puzzle
from e2opt.bench.runs import search_once
from e2opt.core.board import random_board
from e2opt.cpsat.region_model import solve_region
from e2opt.engine.round import worker_streams
from e2opt.search.config import SearchConfig
from e2opt.search.moves import MOVES, MovesConfig
from e2opt.search.moves.border import BorderMoveConfig
from e2opt.search.moves.region import RegionMoveConfig
from e2opt.search.moves.tsr import TsrMoveConfig
from e2opt.search.stop import Clock, MaxIterations
from e2opt.search.tabu import TabuSearch
from e2opt.search.warm import warm_moves, warm_search

_OFF = ["search.moves.tsr=null", "search.moves.region=null", "search.moves.border=null"]
_MIX = ["search.moves.tsr.weight=0.2", "search.moves.region.weight=0.3", "search.moves.border.weight=0.05"]
VARIANTS = {  # --set overrides of the config; each sets the moves and schedule it needs
    "today": _OFF,  # the assignment move alone (Algorithm 1)
    "tsr": [*_OFF, "search.moves.tsr.weight=0.3", "search.schedule.kind=adaptive"],
    "ro": [*_OFF, "search.moves.region.weight=0.3", "search.schedule.kind=adaptive"],
    "all": [*_OFF, *_MIX, "search.schedule.kind=adaptive"],
    "fixed_all": [*_OFF, *_MIX, "search.schedule.kind=fixed"],
    "sa_tsr": [
        *_OFF,
        "search.acceptance.kind=annealing",
        "search.moves.assignment.weight=0.2",
        "search.moves.tsr.weight=1",
        "search.moves.region.weight=0.2",
        "search.schedule.kind=adaptive",
    ],
}


def _search(args, moves: MovesConfig) -> TabuSearch:
    """A search of the given moves on --board (a .board file, or 'random': a random board of --seed)."""
    puzzle = read_puzzle(args.instance)
    board = (
        random_board(puzzle, np.random.default_rng(args.seed))
        if args.board == "random"
        else read_board(args.board)
    )
    cfg = SearchConfig(moves=moves)
    return TabuSearch(puzzle, board, cfg, np.random.default_rng(args.seed))


def region(args) -> None:
    """Repair windows of the board without applying them."""
    for size in args.sizes:
        settings = RegionMoveConfig(
            sizes=(size,), time_limit_wall_s=args.time_limit, deterministic_limit=args.det
        )
        search = _search(args, MovesConfig(assignment=None, region=settings))
        move = search.moves[0]
        board = search.ctx.board_view()
        gains, solver, cpu, statuses = [], [], [], []
        for call in range(args.calls):
            cells = move.window()
            kept = search.state.piece[cells].copy(), search.state.rot[cells].copy()
            start = time.process_time()
            sol = solve_region(
                search.puzzle,
                board,
                cells,
                time_limit_s=args.time_limit,
                deterministic_time=args.det,
                seed=call,
            )
            cpu.append(time.process_time() - start)
            gains.append(search.ctx.place(cells, sol.piece, sol.rot))
            search.ctx.place(cells, *kept)  # measure only: the board stays as it was
            solver.append(sol.seconds)
            statuses.append(sol.status)
            move.mark_window(cells)
        improved = sum(g > 0 for g in gains)
        print(
            f"{size}x{size}: {args.calls} calls, improved {improved} ({improved / args.calls:.0%}), "
            f"mean gain {statistics.mean(gains):.2f}, solve_region median {statistics.median(solver) * 1000:.0f} ms "
            f"(p90 {np.percentile(solver, 90) * 1000:.0f}), CPU median {statistics.median(cpu) * 1000:.0f} ms, "
            f"optimal {statuses.count('optimal')}, calls/CPU-s {args.calls / sum(cpu):.1f}"
        )


def border(args) -> None:
    """Border optimisation on the board: the whole frame, then stretches, each from the same board."""
    for stretch in args.stretches:
        settings = BorderMoveConfig(stretch=stretch, deterministic_limit=args.det, time_limit_wall_s=60.0)
        search = _search(args, MovesConfig(assignment=None, border=settings))
        for call in range(args.calls):
            kept = search.state.piece.copy(), search.state.rot.copy()
            start = time.process_time()
            gain = search.moves[0]()
            cpu = time.process_time() - start
            print(f"border stretch {stretch or 'whole frame'} call {call}: gain {gain:+d}, CPU {cpu:.2f} s")
            search.state.piece[:], search.state.rot[:] = kept
            search.ctx.recompute()


def tsr(args) -> None:
    """Swap-and-rotate alone from the board: moves/s and score reached, first vs best improvement."""
    for scan in ("first", "best"):
        search = _search(args, MovesConfig(assignment=None, tsr=TsrMoveConfig(scan=scan)))
        start_score = search.state.score
        move = search.moves[0]
        calls = improved = 0
        start = time.process_time()
        while time.process_time() - start < args.cpu_s:
            for _ in range(256):
                delta = move()
                search.state.score += delta
                improved += delta > 0
            calls += 256
        cpu = time.process_time() - start
        print(
            f"tsr {scan}: {calls / cpu:,.0f} moves/CPU-s, improving calls {improved}, "
            f"score {start_score} -> {search.state.score}"
        )


def mix(args) -> None:
    """Each variant from the same random boards, seed by seed; best score at --cpu-s (and --at marks)."""
    base = load_config(args.config)
    puzzle = read_puzzle(base.instance)
    table: dict[str, list] = {v: [] for v in args.variants}
    for seed in args.seeds:
        for name in args.variants:
            cfg = load_config(args.config, VARIANTS[name]).search
            trace = search_once(puzzle, cfg, seed, args.cpu_s)
            marks = [trace.score_at(t) for t in (*args.at, args.cpu_s)]
            table[name].append(marks)
            print(
                f"seed {seed} {name}: "
                + ", ".join(f"{t:g}s {s}" for t, s in zip((*args.at, args.cpu_s), marks, strict=True)),
                flush=True,
            )
    for name, rows in table.items():
        cols = list(zip(*rows, strict=True))
        meds = ", ".join(
            f"{t:g}s {statistics.median(c):g}" for t, c in zip((*args.at, args.cpu_s), cols, strict=True)
        )
        print(
            f"{name}: median {meds}; final {[r[-1] for r in rows]}  ({' '.join(VARIANTS[name]) or 'defaults'})"
        )


def fixed(args) -> None:
    """--moves moves of the config's search section from --seed's random board: CPU s and score."""
    cfg = load_config(args.config)
    puzzle = read_puzzle(cfg.instance)
    warm_search(cfg.search)
    construct_seq, search_seq, _ = worker_streams(args.seed, 0)  # a run's worker 0
    board = random_board(puzzle, np.random.default_rng(construct_seq))
    search = TabuSearch(puzzle, board, cfg.search, np.random.default_rng(search_seq))
    start = time.process_time()
    search.run(MaxIterations(args.moves), Clock(), lambda kind, info: None)
    cpu = time.process_time() - start
    print(
        f"{args.moves:,} moves in {cpu:.2f} CPU s ({args.moves / cpu:,.0f} moves/CPU-s), best {search.state.best_score}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name in ("region", "tsr", "border"):
        p = sub.add_parser(name)
        p.add_argument("--instance", default="instances/eternity2.txt")
        p.add_argument("--board", required=True)
        p.add_argument("--seed", type=int, default=0)
    sub.choices["region"].add_argument("--sizes", type=int, nargs="+", default=[4, 5])
    sub.choices["region"].add_argument("--calls", type=int, default=60)
    sub.choices["region"].add_argument("--time-limit", type=float, default=1.0, help="CP-SAT wall limit")
    sub.choices["region"].add_argument("--det", type=float, default=0.1, help="CP-SAT deterministic limit")
    sub.choices["tsr"].add_argument("--cpu-s", type=float, default=5.0)
    sub.choices["border"].add_argument("--stretches", type=int, nargs="+", default=[0, 20])
    sub.choices["border"].add_argument("--calls", type=int, default=3)
    sub.choices["border"].add_argument("--det", type=float, default=1.0, help="CP-SAT deterministic limit")
    p = sub.add_parser("mix")
    p.add_argument("--config", default="config/eternity2.yaml")
    p.add_argument("--cpu-s", type=float, default=120.0)
    p.add_argument("--at", type=float, nargs="*", default=[30.0, 60.0])
    p.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    p.add_argument("--variants", nargs="+", default=["today", "tsr", "ro", "all"], choices=list(VARIANTS))
    p = sub.add_parser("fixed")
    p.add_argument("--config", default="config/eternity2.yaml")
    p.add_argument("--moves", type=int, default=60_000)
    p.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    warm_moves(MOVES)
    {"region": region, "tsr": tsr, "border": border, "mix": mix, "fixed": fixed}[args.cmd](args)


if __name__ == "__main__":
    main()
