"""Measurements of docs/exact_results.md: `e2opt solve` methods, orders and filtering on named puzzles.

    python benchmarks/exact_bench.py brendan  --limit 120 --cpsat-limit 120 --out benchmarks/results/exact/exact_brendan.jsonl
    python benchmarks/exact_bench.py paper000 --sizes 7 8 9 10 --seeds 0 1 --limit 60 --out benchmarks/results/exact/exact_paper000.jsonl
        [--redo-incomplete benchmarks/results/exact/exact_paper000_20.jsonl]
    python benchmarks/exact_bench.py best --sizes 4 5 6 --seeds 0 1 2 --recolour 2 --limit 300 --out benchmarks/results/exact/exact_best.jsonl
    python benchmarks/exact_bench.py heuristics --limit 30 --out benchmarks/results/exact/exact_heuristics.jsonl [--first]
    python benchmarks/exact_bench.py count --instances set1_05x08 set1_06x07 --methods scan --limit 240 --out benchmarks/results/exact/exact_counts.jsonl
    python benchmarks/exact_bench.py first --instances set1_07x07 --seeds 0 1 2 --restarts 0 1000 --limit 20 --out benchmarks/results/exact/exact_first.jsonl
    python benchmarks/exact_bench.py table benchmarks/results/exact/exact_brendan.jsonl
    python benchmarks/exact_bench.py ratios benchmarks/results/exact/exact_paper000_20.jsonl benchmarks/results/exact/exact_paper000_600.jsonl

Every run is one `solve` in this process, one after the other (CPU seconds, time.process_time); each
line of the JSONL file is one run. `table` prints the lines as a markdown table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from e2opt.core.formats.read import read_puzzle  # noqa: E402
from e2opt.core.generate import generate  # noqa: E402
from e2opt.core.puzzle import Puzzle  # noqa: E402
from e2opt.exact.solve import EXACT_METHODS, options, solve  # noqa: E402

SET1 = ROOT / "instances" / "brendan_set1"
# Paper 000's instance names give the colours per size (E_7_1.b6i6, E_9_3.b11i12, E_10_5.b14i14, ...).
PAPER_COLOURS = {7: (6, 6), 8: (8, 8), 9: (10, 10), 10: (13, 13)}
COLUMNS = ("puzzle", "method", "order", "value", "solutions", "complete", "nodes", "backtracks", "cpu_s")


def measure(puzzle: Puzzle, out: Path, method: str, limit: float, find_all: bool = True, **kw) -> dict:
    """One counting (or first-solution) run, appended to ``out`` as a JSON line and returned."""
    opts = options(method, find_all=find_all, time_limit_s=limit, keep_boards=not find_all, **kw)
    result = solve(puzzle, opts, progress=None)
    row = {
        "puzzle": puzzle.name,
        "method": method,
        "order": kw.get("order") or (EXACT_METHODS[method].orders or ("-",))[0],
        "value": kw.get("value_order", "min"),
        "backjump": kw.get("backjump", True),
        "search": "all" if find_all else "first",
        "solutions": result.solutions,
        "distinct": result.distinct,
        "complete": result.complete,
        "nodes": result.nodes,
        "backtracks": result.backtracks,
        "cpu_s": round(result.cpu_s, 2),
        "limit_s": limit,
    }
    row.update({key: kw[key] for key in ("seed", "restarts", "restart_nodes", "shave") if key in kw})
    with open(out, "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
    print(json.dumps(row), flush=True)
    return row


def brendan(args) -> None:
    """colorpairs and cpsat on every set-1 puzzle (or --instances)."""
    for path in args.instances or sorted(SET1.glob("set1_*.txt")):
        puzzle = named(str(path))
        measure(puzzle, args.out, "colorpairs", args.limit)
        measure(puzzle, args.out, "cpsat", args.cpsat_limit)


def finished_runs(path: Path | None) -> set[tuple]:
    """The (puzzle, method, order, shave) runs that ``path`` (a JSONL file of this script) completed."""
    if path is None:
        return set()
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {(r["puzzle"], r["method"], r["order"], r.get("shave")) for r in rows if r["complete"]}


def paper000(args) -> None:
    skip = finished_runs(args.redo_incomplete)
    warm, _ = generate(4, 4, 2, 2, 0)  # load every variant's compiled kernel before the first timed run
    for variant in args.variants:
        method, order, *_ = variant.split(":")
        solve(warm, options(method, find_all=True, order=order, keep_boards=False), progress=None)
    for size in args.sizes:
        frame, inner = PAPER_COLOURS[size]
        for seed in args.seeds:
            puzzle, _ = generate(size, size, frame, inner, seed)
            for variant in args.variants:
                method, order, *shave = variant.split(":")
                extra = {"shave": int(shave[0])} if shave else {}
                if (puzzle.name, method, order, extra.get("shave")) in skip:
                    continue
                measure(puzzle, args.out, method, args.limit, order=order, **extra)


def best(args) -> None:
    """`solve --best` on recoloured generated puzzles: no bound, then the optimum's bound minus 1 and
    the optimum itself (what a known board would give), each from scratch."""
    from e2opt.exact.optimum import best_board

    for size in args.sizes:
        frame, inner = 3, size - 1
        for seed in args.seeds:
            puzzle, _ = generate(size, size, frame, inner, seed, recolour=args.recolour)
            found = None
            for bound in (None, "optimum-1", "optimum"):
                if bound is not None and found is None:
                    break
                known = None if bound is None else found - (bound == "optimum-1")
                r = best_board(puzzle, known_score=known, time_limit_s=args.limit, seed=0, progress=None)
                if bound is None and r.complete:
                    found = r.score
                row = {
                    "puzzle": puzzle.name,
                    "bound": bound or "none",
                    "known": known,
                    "score": r.score,
                    "upper": r.upper,
                    "max": puzzle.max_score,
                    "complete": r.complete,
                    "dfs_nodes": r.dfs_nodes,
                    "branches": r.branches,
                    "conflicts": r.conflicts,
                    "cpu_s": round(r.cpu_s, 2),
                    "limit_s": args.limit,
                }
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
                print(json.dumps(row), flush=True)


def named(name: str) -> Puzzle:
    """A shipped set-1 puzzle by name (set1_05x08), or a puzzle file by path."""
    path = SET1 / f"{name}.txt"
    return read_puzzle(path if path.exists() else name)


def count(args) -> None:
    for name in args.instances:
        for method in args.methods:
            measure(named(name), args.out, method, args.limit, order=args.order)


def first(args) -> None:
    """First solution with shuffled values, without and with Luby restarts, per seed."""
    for name in args.instances:
        puzzle = named(name)
        for restarts in args.restarts:
            for seed in args.seeds:
                kw = {"order": args.order, "value_order": "random", "seed": seed}
                if restarts:
                    kw.update(restarts=restarts, restart_nodes=args.restart_nodes)
                measure(puzzle, args.out, "scan", args.limit, find_all=False, **kw)


def heuristics(args) -> None:
    names = args.instances or ["set1_05x05", "set1_05x06", "set1_06x06"]
    for name in names:
        puzzle = read_puzzle(SET1 / f"{name}.txt")
        for method in ("dfs", "colorpairs"):
            for order in ("row", "spiral", "mindomain", "mingap"):
                for value in ("min", "max", "mid"):
                    measure(
                        puzzle, args.out, method, args.limit, not args.first, order=order, value_order=value
                    )


def ratios(args) -> None:
    """Paper 000's comparison from paper000 runs (several files: a complete run wins over a stopped one):
    per puzzle, plain DFS (scan or dfs, row order) against ``--method`` (default colorpairs:mingap),
    nodes and CPU s."""
    method, _, order = args.method.partition(":")
    order = order or EXACT_METHODS[method].orders[0]
    rows = [json.loads(line) for f in args.files for line in Path(f).read_text().splitlines() if line.strip()]
    names = sorted({r["puzzle"] for r in rows}, key=lambda n: (int(n.split("_")[1].split("x")[0]), n))

    def pick(name: str, methods: tuple[str, ...], order: str) -> dict | None:
        runs = [
            r
            for r in rows
            if r["puzzle"] == name
            and r["method"] in methods
            and r["order"] == order
            and r.get("shave") is None
        ]
        return max(runs, key=lambda r: (r["complete"], r["method"] == "scan", r["nodes"]), default=None)

    def cell(r: dict) -> str:
        return (
            f"{r['nodes']:.3g}, {r['cpu_s']}"
            if r["complete"]
            else f"> {r['nodes']:.3g}, stopped ({r['limit_s']:g} s)"
        )

    print(
        f"| puzzle | plain DFS (row): nodes, CPU s | {method} {order}: nodes, CPU s | DFS / {method} nodes "
        f"| time DFS / {method} | solutions (distinct) |"
    )
    print("|---|---|---|---|---|---|")
    found = []
    for name in names:
        d, c = pick(name, ("scan", "dfs"), "row"), pick(name, (method,), order)
        if d is None or c is None:
            continue  # only one of the two methods was run on it
        both = d["complete"] and c["complete"]
        if both:
            found.append(d["nodes"] / c["nodes"])
        done = c if c["complete"] else d
        ratio = f"{found[-1]:.1f}" if both else "-"
        speed = f"{d['cpu_s'] / max(c['cpu_s'], 0.01):.2f}" if both else "-"
        sols = f"{done['solutions']} ({done['distinct']})" if done["complete"] else "-"
        print(f"| {name} | {cell(d)} | {cell(c)} | {ratio} | {speed} | {sols} |")
    if found:
        print(f"\nnode ratios {sorted(round(x, 1) for x in found)}, median {statistics.median(found):.1f}")


def table(args) -> None:
    rows = [json.loads(line) for line in Path(args.file).read_text().splitlines() if line.strip()]
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * len(COLUMNS))
    for row in rows:
        cells = [f"{row[c]:.3g}" if c == "nodes" else str(row[c]) for c in COLUMNS]
        cells[5] = "yes" if row["complete"] else f"no ({row['limit_s']:g} s cap)"
        if row.get("search") == "first":
            cells[5] = "first found" if row["solutions"] else f"none in {row['limit_s']:g} s"
        print("| " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    b = sub.add_parser("brendan")
    b.add_argument("--limit", type=float, default=120.0)
    b.add_argument("--cpsat-limit", type=float, default=120.0)
    b.add_argument("--instances", nargs="+", help="set-1 names or puzzle files (default: all of set 1)")
    p = sub.add_parser("paper000")
    p.add_argument("--sizes", type=int, nargs="+", default=[7, 8, 9, 10])
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    p.add_argument("--limit", type=float, default=60.0)
    p.add_argument(
        "--variants",
        nargs="+",
        default=["dfs:row", "colorpairs:row", "colorpairs:mingap"],
        help="method:order[:shave limit]",
    )
    p.add_argument(
        "--redo-incomplete",
        type=Path,
        metavar="FILE",
        help="run only what FILE (an earlier --out) did not complete, e.g. with a longer --limit",
    )
    o = sub.add_parser("best")
    o.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6])
    o.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    o.add_argument("--recolour", type=int, default=2)
    o.add_argument("--limit", type=float, default=300.0)
    h = sub.add_parser("heuristics")
    h.add_argument("--instances", nargs="+")
    h.add_argument("--limit", type=float, default=30.0)
    h.add_argument("--first", action="store_true", help="time to the first solution instead of counting")
    c = sub.add_parser("count")
    c.add_argument("--instances", nargs="+", required=True)
    c.add_argument("--methods", nargs="+", default=["scan"])
    c.add_argument("--order")
    c.add_argument("--limit", type=float, default=240.0)
    f = sub.add_parser("first")
    f.add_argument("--instances", nargs="+", required=True)
    f.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    f.add_argument("--restarts", type=int, nargs="+", default=[0, 1000], help="0: no restarts")
    f.add_argument("--restart-nodes", type=int, default=100_000)
    f.add_argument("--order")
    f.add_argument("--limit", type=float, default=20.0)
    for s in (b, p, o, h, c, f):
        s.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("ratios")
    r.add_argument("files", nargs="+")
    r.add_argument("--method", default="colorpairs:mingap", help="method:order compared with plain DFS")
    t = sub.add_parser("table")
    t.add_argument("file")
    args = parser.parse_args()
    commands = {
        "brendan": brendan,
        "paper000": paper000,
        "best": best,
        "heuristics": heuristics,
        "count": count,
        "first": first,
    }
    {**commands, "table": table, "ratios": ratios}[args.what](args)


if __name__ == "__main__":
    main()
