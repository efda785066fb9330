"""Side by side: e2opt's team variants on the real puzzle, same seeds, same budget, one variant after the other.

    python benchmarks/pipeline_bench.py --cpu-s 1200 --seeds 1 2 3 --out benchmarks/results/pipeline/cpu1200.json

With --out, each run's figures are written as soon as it ends and runs already in the file are not made
again: a long series can be stopped (Ctrl-C) and continued by the same command.

Each variant is config/eternity2.yaml with some `--set` overrides on some number of workers (VARIANTS),
with a CPU budget of all workers together (4 workers on 2 cores get the same CPU as 2, in twice the wall); every best board is re-verified from the puzzle file by e2opt's verifier.
Prints, per variant and seed, the final score, when it came (wall s) and which role and move made it, the
boards produced and repaired; then the medians. Runs go to a temporary runs folder unless --keep.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "config" / "eternity2.yaml"
PUZZLE = ROOT / "instances" / "eternity2.txt"
VARIANTS: dict[str, tuple[int, list[str]]] = {  # name: (workers, --set overrides)
    # every worker builds its own beam board and searches it (the team before issue 25)
    "no roles": (2, ["run.roles.producers=0"]),
    # worker 1 produces DFS boards (DFS + completion), worker 0 repairs the pool's best
    "pipeline": (2, ["run.roles.producers=1"]),
    # the default rule for the number of producers (issue 33), at 2 and 4 workers, and its neighbours at 4
    "auto-2": (2, ["run.roles.producers=auto"]),
    "auto-4": (4, ["run.roles.producers=auto"]),
    "4-with-1-producer": (4, ["run.roles.producers=1"]),  # what auto gave at 4 workers before the series
    "4-with-2-producers": (4, ["run.roles.producers=2"]),
    "4-with-3-producers": (4, ["run.roles.producers=3"]),
}


def run(variant: tuple[int, list[str]], seed: int, cpu_s: float, runs: Path, puzzle: Path) -> dict:
    """One run; its result.json with what the events say of the best and of the boards."""
    workers, overrides = variant
    extra = [f"instance={puzzle}", f"output.runs_dir={runs}", "output.plots=false"]
    sets = [arg for s in [*overrides, *extra] for arg in ("--set", s)]
    cmd = [sys.executable, "-m", "e2opt", "run", str(CONFIG), "--seed", str(seed), "--workers", str(workers),
           "--max-cpu-s", str(cpu_s), "--max-wall-s", str(cpu_s * workers), "--quiet", *sets]  # fmt: skip
    subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    run_dir = max(runs.iterdir(), key=lambda p: p.stat().st_mtime)
    result = json.loads((run_dir / "result.json").read_text())
    check = subprocess.run([sys.executable, "-m", "e2opt", "verify", str(puzzle),
                            str(run_dir / "best.board")], capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    events = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines() if line]
    best = [e for e in events if e["event"] == "best"][-1]
    return {
        "score": result["best_score"],
        "verified": check.returncode == 0,
        "best_wall_s": best["wall_s"],
        "best_by": f"{best.get('role', '-')}/{best.get('move', '-')}",
        "produced": sorted(e["score"] for e in events if e["event"] == "produced"),
        "repaired": [(e["score_before"], e["score"]) for e in events if e["event"] == "repaired"],
        "cpu_s": result["cpu_s"],
        "wall_s": result["wall_s"],
        "run_dir": str(run_dir),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu-s", type=float, default=600.0, help="CPU budget of the run's workers together")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--variants", nargs="+", default=["no roles", "pipeline"], choices=list(VARIANTS))
    parser.add_argument("--out", type=Path, help="write every figure here as JSON")
    parser.add_argument("--keep", type=Path, help="keep the run folders in this folder")
    parser.add_argument(
        "--puzzle", type=Path, default=PUZZLE, help="the config's instance replaced by this one"
    )
    args = parser.parse_args()
    runs = args.keep or Path(tempfile.mkdtemp(prefix="e2opt-pipeline-"))
    runs.mkdir(parents=True, exist_ok=True)
    done = json.loads(args.out.read_text()) if args.out and args.out.exists() else {"figures": {}}
    if done["figures"] and done["cpu_s"] != args.cpu_s:
        sys.exit(f"{args.out} holds runs of {done['cpu_s']} CPU s, not {args.cpu_s}: name another --out")
    figures: dict[str, dict[str, dict]] = {v: done["figures"].get(v, {}) for v in args.variants}
    for seed in args.seeds:
        for name in args.variants:
            # a run measured by an earlier sitting is not made again: the series can be stopped and resumed
            if str(seed) in figures[name]:
                fig = figures[name][str(seed)]
            else:
                figures[name][str(seed)] = fig = run(
                    VARIANTS[name], seed, args.cpu_s, runs, args.puzzle.resolve()
                )
                # written after every run, atomically: a stopped series loses at most the run under way
                if args.out:
                    done["cpu_s"], done["figures"] = args.cpu_s, {**done["figures"], **figures}
                    args.out.parent.mkdir(parents=True, exist_ok=True)
                    tmp = args.out.with_suffix(".tmp")
                    tmp.write_text(json.dumps(done, indent=1))
                    tmp.replace(args.out)
            print(f"{name:18s} seed {seed}: {fig['score']} (verified {fig['verified']}) at {fig['best_wall_s']:.0f} s"
                  f" by {fig['best_by']}; produced {fig['produced']}; {fig['cpu_s']:.0f} CPU s, {fig['wall_s']:.0f} wall s",
                  flush=True)  # fmt: skip
    for name, by_seed in figures.items():
        scores = [by_seed[str(seed)]["score"] for seed in args.seeds]
        print(f"{name:18s} median {statistics.median(scores)}  ({', '.join(map(str, scores))})")


if __name__ == "__main__":
    main()
