"""Paper 002's Table 1 on our puzzles (docs/clique.md): the clique graph's size, GLP's heuristic at q = 1e6,
1e7, 5e7, and the CP-SAT region model on the whole puzzle with one thread and the same time cap.

    PYTHONPATH=. .venv/bin/python benchmarks/clique_bench.py --puzzles instances/brendan_set2/set2_0{3,4,5,6,7,8}x0*.txt \\
        --seeds 1 2 3 --out benchmarks/results/clique/clique_table1_set2.jsonl
    PYTHONPATH=. .venv/bin/python benchmarks/clique_bench.py --table benchmarks/results/clique/clique_table1_set2.jsonl

One process, one puzzle after another; one JSON line per puzzle. For each seed ONE heuristic run of the
largest q is made and read at the smaller q as it passes them: the kernel's result at q selections does not
depend on being continued (tests/clique/test_clique.py), so the mark at 1e6 is exactly a q = 1e6 run of that seed.
A run stops at a perfect clique (the later marks then repeat it, with its time). Every best clique is made
a board (holes filled by the region model, 10 s cap, one thread; its CPU is reported apart) and verified.
CP-SAT's cap is the median CPU of the largest-q runs, at least --min-cap seconds, in CPU seconds of this
process (CP-SAT's own limit is wall time, which on a shared machine gives it less CPU: it is stopped from
outside instead, when process_time passes the cap). Times: time.process_time unless named wall.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from e2opt import read_puzzle
from e2opt.clique.graph import fixed_board, puzzle_graph
from e2opt.clique.solve import board_from_clique, run_heuristic
from e2opt.cpsat.region_model import solve_region

QS = (1_000_000, 10_000_000, 50_000_000)


def _cpsat(puzzle, cap_s: float, seed: int) -> dict:
    """The region model on every non-hint cell with every non-hinted piece, one worker."""
    board = fixed_board(puzzle)
    cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if board.piece[r, c] < 0]
    hinted = {h.piece for h in puzzle.hints}
    pieces = [p for p in range(len(puzzle.pieces)) if p not in hinted]
    start, wall = time.process_time(), time.perf_counter()
    sol = solve_region(
        puzzle,
        board,
        cells,
        pieces=pieces,
        time_limit_s=50 * cap_s,
        seed=seed,
        num_workers=1,
        stop_requested=lambda: time.process_time() - start >= cap_s,
    )
    return {
        "joins": sol.joins,
        "status": sol.status,
        "cpu_s": time.process_time() - start,
        "wall_s": time.perf_counter() - wall,
        "cap_s": cap_s,
    }


def measure(path: str, seeds: list[int], qs: tuple[int, ...], min_cap: float) -> dict:
    """One puzzle's line: graph figures, per-seed marks, CP-SAT."""
    puzzle = read_puzzle(path)
    start = time.process_time()
    graph = puzzle_graph(puzzle)
    edges = graph.n_edges()
    adj = graph.bitset()
    line = {
        "puzzle": Path(path).stem,
        "size": f"{puzzle.rows}x{puzzle.cols}",
        "max_joins": puzzle.max_score,
        "nodes": graph.n_nodes,
        "edges": edges,
        "density": graph.density(edges),
        "graph_cpu_s": time.process_time() - start,
        "load_before": os.getloadavg()[0],
        "runs": [],
    }
    for seed in seeds:
        run = run_heuristic(graph, qs[-1], seed, marks=qs[:-1], adj=adj)
        marks = []
        for q in qs:
            snap = next((s for s in run.snapshots if s.selections >= q), run.last)
            fill_start = time.process_time()
            _, joins, holes = board_from_clique(puzzle, graph, snap.nodes, seed=seed)
            marks.append(
                {
                    "q": q,
                    "clique": len(snap.nodes),
                    "joins": joins,
                    "holes": holes,
                    "cpu_s": snap.cpu_s,
                    "selections": snap.selections,
                    "fill_cpu_s": time.process_time() - fill_start,
                }
            )
        line["runs"].append({"seed": seed, "stopped": run.stopped, "marks": marks})
        print(
            f"{line['puzzle']} seed {seed}: "
            + ", ".join(f"q={m['q']:.0e} {m['joins']} ({m['cpu_s']:.1f} s)" for m in marks),
            flush=True,
        )
    cap = max(min_cap, statistics.median(r["marks"][-1]["cpu_s"] for r in line["runs"]))
    line["cpsat"] = _cpsat(puzzle, cap, seeds[0])
    line["load_after"] = os.getloadavg()[0]
    print(f"{line['puzzle']} cpsat: {line['cpsat']}", flush=True)
    return line


def table(lines: list[dict]) -> str:
    """Markdown: paper 002's Table 1 layout, medians over seeds (best of the seeds in brackets)."""
    head = "| | " + " | ".join(f"{d['puzzle']}" for d in lines) + " |"
    out = [head, "|---" * (len(lines) + 1) + "|"]
    out.append("| optimum (max joins) | " + " | ".join(str(d["max_joins"]) for d in lines) + " |")
    out.append("| nodes | " + " | ".join(str(d["nodes"]) for d in lines) + " |")
    out.append("| edges | " + " | ".join(str(d["edges"]) for d in lines) + " |")
    out.append("| density | " + " | ".join(f"{100 * d['density']:.1f}%" for d in lines) + " |")
    for k in range(len(lines[0]["runs"][0]["marks"])):
        q = lines[0]["runs"][0]["marks"][k]["q"]
        cells = []
        for d in lines:
            marks = [r["marks"][k] for r in d["runs"]]
            joins = statistics.median(m["joins"] for m in marks)
            best = max(m["joins"] for m in marks)
            cpu = statistics.median(m["cpu_s"] for m in marks)
            cells.append(f"{joins:g} [{best}] ({cpu:.1f} s)")
        out.append(f"| clique q = {q:.0e}: joins median [best] (median CPU s) | " + " | ".join(cells) + " |")
    out.append(
        "| CP-SAT region model, 1 thread: joins (CPU s; cap) | "
        + " | ".join(
            f"{d['cpsat']['joins']} {d['cpsat']['status']} ({d['cpsat']['cpu_s']:.1f} s; {d['cpsat']['cap_s']:.0f})"
            for d in lines
        )
        + " |"
    )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", nargs="+", default=[])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--qs", type=float, nargs="+", default=list(QS))
    ap.add_argument("--min-cap", type=float, default=10.0, help="least CP-SAT cap (CPU s)")
    ap.add_argument("--out", help="JSON lines file to append to")
    ap.add_argument("--table", nargs="+", metavar="JSONL", help="print the markdown table of these files")
    args = ap.parse_args()
    if args.table:
        lines = [json.loads(x) for f in args.table for x in Path(f).read_text().splitlines() if x.strip()]
        print(table(lines))
        return
    qs = tuple(int(q) for q in args.qs)
    for path in args.puzzles:
        line = measure(path, args.seeds, qs, args.min_cap)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
