"""Measurements of docs/exact.md: `e2opt solve` methods, orders and filtering on named puzzles.

    python docs/exact_bench.py brendan  --limit 120 --cpsat-limit 120 --out docs/exact_brendan.jsonl
    python docs/exact_bench.py paper000 --sizes 7 8 9 10 --seeds 0 1 --limit 60 --out docs/exact_paper000.jsonl
    python docs/exact_bench.py heuristics --limit 30 --out docs/exact_heuristics.jsonl [--first]
    python docs/exact_bench.py table docs/exact_brendan.jsonl

Every run is one `solve` in this process, one after the other (CPU seconds, time.process_time); each
line of the JSONL file is one run. `table` prints the lines as a markdown table.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from e2opt.exact.solve import DEFAULT_ORDER, SolveOptions, solve  # noqa: E402
from e2opt.generate import generate  # noqa: E402
from e2opt.puzzle import Puzzle, read_puzzle  # noqa: E402

SET1 = ROOT / "instances" / "brendan_set1"
# Paper 000's instance names give the colours per size (E_7_1.b6i6, E_9_3.b11i12, E_10_5.b14i14, ...).
PAPER_COLOURS = {7: (6, 6), 8: (8, 8), 9: (10, 10), 10: (13, 13)}
COLUMNS = ("puzzle", "method", "order", "value", "solutions", "complete", "nodes", "backtracks", "cpu_s")


def measure(puzzle: Puzzle, out: Path, method: str, limit: float, find_all: bool = True, **kw) -> dict:
    """One counting (or first-solution) run, appended to ``out`` as a JSON line and returned."""
    opts = SolveOptions(method, find_all=find_all, time_limit_s=limit, keep_boards=not find_all, **kw)
    result = solve(puzzle, opts, progress=None)
    row = {
        "puzzle": puzzle.name,
        "method": method,
        "order": kw.get("order") or DEFAULT_ORDER.get(method, "-"),
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
    with open(out, "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
    print(json.dumps(row), flush=True)
    return row


def brendan(args) -> None:
    for path in sorted(SET1.glob("set1_*.txt")):
        puzzle = read_puzzle(path)
        measure(puzzle, args.out, "colorpairs", args.limit)
        measure(puzzle, args.out, "cpsat", args.cpsat_limit)


def paper000(args) -> None:
    for size in args.sizes:
        frame, inner = PAPER_COLOURS[size]
        for seed in args.seeds:
            puzzle, _ = generate(size, size, frame, inner, seed)
            for variant in args.variants:
                method, order = variant.split(":")
                measure(puzzle, args.out, method, args.limit, order=order)


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
    p = sub.add_parser("paper000")
    p.add_argument("--sizes", type=int, nargs="+", default=[7, 8, 9, 10])
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    p.add_argument("--limit", type=float, default=60.0)
    p.add_argument(
        "--variants", nargs="+", default=["dfs:row", "colorpairs:row", "colorpairs:mingap"], help="method:order"
    )
    h = sub.add_parser("heuristics")
    h.add_argument("--instances", nargs="+")
    h.add_argument("--limit", type=float, default=30.0)
    h.add_argument("--first", action="store_true", help="time to the first solution instead of counting")
    for s in (b, p, h):
        s.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("table")
    t.add_argument("file")
    args = parser.parse_args()
    {"brendan": brendan, "paper000": paper000, "heuristics": heuristics, "table": table}[args.what](args)


if __name__ == "__main__":
    main()
